package protocol

import (
	"math"
	"testing"

	"github.com/benchbook/benchbook/internal/measuretest"
)

// A run gives every series the clock of the processes its samples came
// from: one estimate pair per process (the fresh and cold series one
// process per sample, the in-process series one process, the interleaved
// series one process per block of BlockPlan), one clock per sample, and
// with elements= the cycles per element; the estimates are clocks a CPU can have and the dependent fadd chain of
// seed 000's sink costs between 1 and 20 cycles per element.
func TestRunFreqPerSample(t *testing.T) {
	measuretest.Gate(t)
	for _, lang := range []string{"c", "go"} {
		r := quickRun(t, seedKernel(t, lang), "elements=1048576")
		for _, v := range r.Variants {
			for _, name := range SeriesNames {
				s := v.Get(name)
				if s == nil {
					continue
				}
				_, blocks := BlockPlan(r.Protocol.Reps)
				wantProcs := map[string]int{"interleaved": blocks, "in_process": 1, "fresh": len(s.SamplesNS), "cold": len(s.SamplesNS)}[name]
				if len(s.FreqProcesses) != wantProcs {
					t.Errorf("%s %s %s: %d processes with a clock, want %d", lang, v.Name, name, len(s.FreqProcesses), wantProcs)
				}
				if len(s.FreqMHz) != len(s.SamplesNS) {
					t.Fatalf("%s %s %s: %d clocks for %d samples", lang, v.Name, name, len(s.FreqMHz), len(s.SamplesNS))
				}
				n := 0
				for _, p := range s.FreqProcesses {
					n += p.Samples
					for _, e := range []*FreqEstimate{p.Before, p.After} {
						if e == nil || e.MHz < 100 || e.MHz > 10000 || e.WorstNS < e.NS {
							t.Errorf("%s %s %s: estimate %+v", lang, v.Name, name, e)
						}
					}
					if p.Before != nil && p.After != nil && p.Before.Iterations != p.After.Iterations {
						t.Errorf("%s %s %s: before and after timed different work: %+v", lang, v.Name, name, p)
					}
				}
				if n != len(s.SamplesNS) {
					t.Errorf("%s %s %s: the processes took %d samples, the series has %d", lang, v.Name, name, n, len(s.SamplesNS))
				}
				if s.CyclesPerElement == nil {
					t.Errorf("%s %s %s: no cycles per element with elements=", lang, v.Name, name)
				}
			}
		}
		c := r.Variant("sink").Series.Fresh.CyclesPerElement
		if c == nil || *c < 1 || *c > 20 {
			t.Errorf("%s: sink's fresh series: %v cycles per element, want a dependent fadd's 1 to 20", lang, c)
		}
		checkResult(t, r)
	}
}

// FreqPerSample refuses processes that do not account for the samples,
// and CyclesPerElement uses each sample's own clock.
func TestFreqPerSample(t *testing.T) {
	est := func(mhz float64) *FreqEstimate { return &FreqEstimate{MHz: mhz, NS: 1, WorstNS: 1} }
	ps := []FreqProcess{{Before: est(3000), After: est(2000), Samples: 2}, {Before: est(1000), Samples: 1}}
	mhz, ok := FreqPerSample(ps, 3)
	if !ok || len(mhz) != 3 || mhz[0] != 2500 || mhz[1] != 2500 || mhz[2] != 1000 {
		t.Errorf("per sample: %v %v", mhz, ok)
	}
	if _, ok := FreqPerSample(ps, 4); ok {
		t.Error("3 samples' processes accepted for 4 samples")
	}
	if _, ok := FreqPerSample([]FreqProcess{{Samples: 1}}, 1); ok {
		t.Error("a process without an estimate accepted")
	}
	// 1000 ns over 100 elements at 2 GHz is 20 cycles; at 1 GHz 10; the
	// median of 20, 20, 10 is 20.
	c, ok := CyclesPerElement([]float64{1000, 1000, 1000}, []float64{2000, 2000, 1000}, 100)
	if !ok || math.Abs(c-20) > 1e-12 {
		t.Errorf("cycles per element %v %v, want 20", c, ok)
	}
}
