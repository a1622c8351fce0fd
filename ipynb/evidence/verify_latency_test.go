package evidence

import (
	"testing"

	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/internal/protocol/benchtest"
)

// withLatency gives variant sink the latency of 3 passes of 1000
// operations: 2994 of 40 ticks, 5 of 9000 and one of 2,000,000, at 2000
// ticks per us, and the commentary that goes with it.
func withLatency(r *protocol.Result) {
	l := &protocol.Latency{OpsPerPass: 1000, Passes: 3, TicksPerUS: 2000, TicksPerUSStart: 1999, TicksPerUSEnd: 2001,
		MaxTicks: 2000000, OverheadTicks: 36, Clock: "rdtsc", CPUFlags: "constant_tsc,nonstop_tsc", Series: "in_process"}
	l.Buckets = [][2]int64{{40, 2994}, {int64(protocol.LatencyIndex(9000)), 5}, {int64(protocol.LatencyIndex(2000000)), 1}}
	l.Summarize()
	r.Variant("sink").Latency = l
	r.Findings = protocol.Findings(r)
}

// verify recomputes the latency percentiles from the stored histogram: an
// honest one passes, a doctored p99, max, overhead, n or bucket is named.
func TestVerifyLatency(t *testing.T) {
	r := benchtest.Seed000(3)
	withLatency(r)
	if ok, out := verifyOut(t, roundTrip(t, resultNotebook(t, r))); !ok {
		t.Fatalf("honest latency: Verify printed\n%s", out)
	}
	for _, tc := range []struct {
		name   string
		change func(l *protocol.Latency)
		says   string
	}{
		{"p99 doctored", func(l *protocol.Latency) { l.P99NS /= 2 }, "variant sink latency: p99_ns is "},
		{"max doctored", func(l *protocol.Latency) { l.MaxNS = 100 }, "variant sink latency: max_ns is 100, the histogram gives 1e+06"},
		{"overhead doctored", func(l *protocol.Latency) { l.OverheadNS = 1 }, "overhead_ns is 1, the histogram gives 18"},
		{"an operation dropped", func(l *protocol.Latency) { l.Buckets[2][1] = 0 }, "is out of range, empty or out of order"},
		{"n doctored", func(l *protocol.Latency) { l.N++ }, "n is 3001, the buckets hold 3000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := benchtest.Seed000(3)
			withLatency(r)
			tc.change(r.Variant("sink").Latency)
			wantMismatch(t, r, tc.says)
		})
	}
}
