package plot

import (
	"bytes"
	"image/png"
	"os"
	"testing"

	"github.com/benchbook/benchbook/internal/protocol/benchtest"
	"github.com/benchbook/benchbook/internal/result"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// withClocks gives every fresh series of r a clock per process: 3000 MHz,
// except every fifth process at 2700 MHz (10% off), whose pass is
// correspondingly slower.
func withClocks(r *result.Result) {
	for i := range r.Variants {
		s := r.Variants[i].Series.Fresh
		if s == nil {
			continue
		}
		for j := range s.SamplesNS {
			mhz := 3000.0
			if j%5 == 0 {
				mhz = 2700
				s.SamplesNS[j] *= 3000.0 / 2700
			}
			e := &result.FreqEstimate{MHz: mhz, NS: 1e6, MedianNS: 1e6 + 1000, WorstNS: 1e6 + 2000, Iterations: 1, Adds: 64}
			s.FreqProcesses = append(s.FreqProcesses, result.FreqProcess{Before: e, After: e, Samples: 1})
			s.FreqMHz = append(s.FreqMHz, mhz)
		}
	}
}

// The samples of processes whose clock is more than 2% off the run's
// are the ones marked, each ringed where its dot is; a figure with marks
// differs from the one without, and a result without clocks has none.
func TestOffClockMarks(t *testing.T) {
	plain := benchtest.Seed000(4)
	if m := offClockMarks(plain, plain.Variant("sink").Series.Fresh); m != nil {
		t.Fatalf("a result without clocks has marks %v", m)
	}
	r := benchtest.Seed000(4)
	withClocks(r)
	if run, ok := r.MedianClockMHz(); !ok || run != 3000 {
		t.Fatalf("run clock %v %v, want 3000", run, ok)
	}
	s := r.Variant("sink").Series.Fresh
	marks := offClockMarks(r, s)
	if len(marks) != len(s.SamplesNS) {
		t.Fatalf("%d marks for %d samples", len(marks), len(s.SamplesNS))
	}
	for j, m := range marks {
		if m != (j%5 == 0) {
			t.Errorf("sample %d (clock %v) marked %v", j, s.FreqMHz[j], m)
		}
	}
	dots, err := NewJitter(plotter.Values(s.SamplesNS), 1, 0.4, 9)
	if err != nil {
		t.Fatal(err)
	}
	rings := addOffClockRings(plot.New(), dots, marks)
	if rings == nil {
		t.Fatal("no rings")
	}
	k := 0
	for j, m := range marks {
		if !m {
			continue
		}
		if rings.Values[k] != dots.Values[j] || rings.Offsets[k] != dots.Offsets[j] {
			t.Errorf("ring %d is not at sample %d's dot", k, j)
		}
		k++
	}
	if k != len(rings.Values) {
		t.Errorf("%d rings for %d marks", len(rings.Values), k)
	}
	withRings, err := InVsFresh(r)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(withRings.PNG)); err != nil {
		t.Fatal(err)
	}
	if out := os.Getenv("BENCHBOOK_FREQ_PNG"); out != "" {
		_ = os.WriteFile(out, withRings.PNG, 0o644)
	}
	// The same samples without the clocks give another picture.
	bare := benchtest.Seed000(4)
	withClocks(bare)
	for i := range bare.Variants {
		if s := bare.Variants[i].Series.Fresh; s != nil {
			s.FreqMHz, s.FreqProcesses = nil, nil
		}
	}
	without, err := InVsFresh(bare)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(without.PNG, withRings.PNG) {
		t.Error("the marks changed nothing in the picture")
	}
}
