package report

import (
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/result"
)

// simulatedLatency: 3 passes of 1000 operations, 2990 of 40 ticks, 9 of
// 9000 and one of 2,000,000 at 2000 ticks per us; timer overhead 36 ticks.
func simulatedLatency() *result.Latency {
	l := &result.Latency{OpsPerPass: 1000, Passes: 3, TicksPerUS: 2000, TicksPerUSStart: 2000, TicksPerUSEnd: 2000,
		MaxTicks: 2000000, OverheadTicks: 36, EmptyMaxTicks: 4000, Clock: "rdtsc", CPUFlags: "constant_tsc,nonstop_tsc", Series: "in_process",
		Buckets: [][2]int64{{40, 2990}, {int64(result.LatencyIndex(9000)), 9}, {int64(result.LatencyIndex(2000000)), 1}}}
	l.Summarize()
	return l
}

// The commentary's worst-operation paragraph carries the generator's
// numbers: the worst of 3,000 at 1 ms against the 20 ns median, the timer
// as most of the median (18 of 20 ns).
func TestLatencyParagraph(t *testing.T) {
	c := Commentary(everything())
	i := strings.Index(c, "**The worst operation.**")
	if i < 0 {
		t.Fatalf("no worst-operation paragraph:\n%s", c)
	}
	p, _, _ := strings.Cut(c[i:], "\n\n")
	for _, want := range []string{"The slowest of 3,000 operations of naive took 1 ms, 50,000 times the median 20 ns", "p99.9 4.5 µs",
		"is 18 ns, more than half the median 20 ns of naive: the median is mostly the timer"} {
		if !strings.Contains(p, want) {
			t.Errorf("missing %q in:\n%s", want, p)
		}
	}
}

// Two BENCH_OPS variants, one with a worst operation 100 times the other's:
// the result's table has a row for each, and the commentary sets them side
// by side with the ratio and what each figure stands on.
func TestLatencySideBySide(t *testing.T) {
	r := everything()
	l := simulatedLatency()
	l.MaxTicks /= 100
	l.Summarize()
	r.Variants[1].Latency = l
	refresh(r)
	a, b := r.Variants[0], r.Variants[1]
	text := Result(r)["text/plain"].(string)
	for _, v := range []result.Variant{a, b} {
		row := ""
		for _, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), v.Name+" ") && strings.Contains(line, " "+numtext.FormatCount(v.Latency.N)+" ") {
				row = line
			}
		}
		if !strings.Contains(row, numtext.FormatNS(v.Latency.MaxNS)) || !strings.Contains(row, numtext.FormatNS(v.Latency.P999NS)) {
			t.Errorf("no latency row of %s with its worst %s and p99.9 in:\n%s", v.Name, numtext.FormatNS(v.Latency.MaxNS), text)
		}
	}
	want := "side by side, the worst operation of the 2 BENCH_OPS variants ranges from " + numtext.FormatNS(b.Latency.MaxNS) + " (" + b.Name +
		") to " + numtext.FormatNS(a.Latency.MaxNS) + " (" + a.Name + "), 100 times"
	found := false
	for _, f := range r.Findings {
		found = found || strings.HasPrefix(f.Text, want) && strings.HasSuffix(f.Text, "at least 3,000 operations")
	}
	if !found {
		t.Errorf("no finding starting %q in:\n%s", want, Commentary(r))
	}
}

// Variants timed alike have the method and the timer's cost said once;
// timed differently, each has its own.
func TestLatencyMethodOnce(t *testing.T) {
	r := everything()
	r.Variants[1].Latency = simulatedLatency()
	refresh(r)
	text := Commentary(r)
	if n := strings.Count(strings.ToLower(text), "the timer's own cost"); n != 1 {
		t.Errorf("the timer's cost is said %d times for two variants timed alike, want once:\n%s", n, text)
	}
	if want := "the 2 BENCH_OPS variants (" + r.Variants[0].Name + " and " + r.Variants[1].Name + ") were timed alike"; !strings.Contains(strings.ToLower(text), strings.ToLower(want)) {
		t.Errorf("no %q in:\n%s", want, text)
	}
	r.Variants[1].Latency.Passes++
	refresh(r)
	text = Commentary(r)
	if n := strings.Count(strings.ToLower(text), "the timer's own cost"); n != 2 {
		t.Errorf("the timer's cost is said %d times for two variants timed differently, want twice:\n%s", n, text)
	}
}
