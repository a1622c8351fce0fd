package evidence

import (
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/internal/protocol/benchtest"
)

// withFreq gives every fresh and in-process series of r the clocks of its
// processes, as a run does: a clock per process drifting from 3000 MHz,
// one clock per sample and the cycles per element.
func withFreq(t *testing.T, r *protocol.Result) {
	t.Helper()
	for i := range r.Variants {
		v := &r.Variants[i]
		for _, s := range []*protocol.Samples{v.Series.Fresh, v.Series.InProcess} {
			if s == nil {
				continue
			}
			per := 1
			if s == v.Series.InProcess {
				per = len(s.SamplesNS)
			}
			s.FreqProcesses = nil
			for j := 0; j < len(s.SamplesNS)/per; j++ {
				est := func(ns int64) *protocol.FreqEstimate {
					e := &protocol.FreqEstimate{NS: ns, MedianNS: ns + 1000, WorstNS: ns + 5000, Iterations: 46875, Adds: 64}
					e.MHz = float64(e.Iterations*e.Adds) / float64(ns) * 1000
					return e
				}
				s.FreqProcesses = append(s.FreqProcesses, protocol.FreqProcess{Before: est(int64(1_000_000 + 997*j)), After: est(int64(1_001_000 + 1013*j)), Samples: per})
			}
			mhz, ok := protocol.FreqPerSample(s.FreqProcesses, len(s.SamplesNS))
			if !ok {
				t.Fatal("FreqPerSample refused the processes made for it")
			}
			s.FreqMHz = mhz
			c, ok := protocol.CyclesPerElement(s.SamplesNS, mhz, *r.Protocol.Elements)
			if !ok {
				t.Fatal("no cycles per element")
			}
			s.CyclesPerElement = &c
		}
	}
}

// An honest result with clocks verifies; each doctored clock figure is
// caught and named.
func TestVerifyFreq(t *testing.T) {
	r := benchtest.Seed000(5)
	if r.Protocol.Elements == nil {
		t.Fatal("Seed000 has no elements")
	}
	withFreq(t, r)
	if ok, out := verifyOut(t, roundTrip(t, resultNotebook(t, r))); !ok {
		t.Fatalf("honest result with clocks: %s", out)
	}
	for _, tc := range []struct {
		name   string
		change func(r *protocol.Result)
		says   string
	}{
		{"a sample's clock changed", func(r *protocol.Result) { r.Variant("sink").Series.Fresh.FreqMHz[4] *= 1.02 },
			"variant sink series fresh: freq_mhz[4] is "},
		{"cycles per element changed", func(r *protocol.Result) { *r.Variant("sink").Series.InProcess.CyclesPerElement *= 0.9 },
			"variant sink series in_process: cycles_per_element is "},
		{"an estimate's MHz changed", func(r *protocol.Result) {
			p := &r.Variant("checksum").Series.Fresh.FreqProcesses[2]
			p.After.MHz += 10
		}, "variant checksum series fresh: freq_processes[2].after.mhz is "},
		{"a process dropped", func(r *protocol.Result) {
			s := r.Variant("sink").Series.Fresh
			s.FreqProcesses = s.FreqProcesses[1:]
		}, "do not account for the"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := benchtest.Seed000(5)
			withFreq(t, r)
			tc.change(r)
			ok, out := verifyOut(t, roundTrip(t, resultNotebook(t, r)))
			if ok || !strings.Contains(out, ": MISMATCH: ") || !strings.Contains(out, tc.says) {
				t.Errorf("Verify: ok %v, printed\n%s\nwant a MISMATCH saying %q", ok, out, tc.says)
			}
		})
	}
}
