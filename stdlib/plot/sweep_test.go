package plot

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/benchbook/benchbook/internal/result"
	"github.com/benchbook/benchbook/internal/sweep"
)

// syntheticSweep is a sweep of N ints from 4K to 64M whose time per element
// steps at 48K, 1M and 32M bytes.
func syntheticSweep() []*result.Result {
	rng := rand.New(rand.NewPCG(1, 1))
	var rs []*result.Result
	for v := int64(4 << 10); v <= 64<<20; v *= 2 {
		b := 4 * v
		per := 0.3
		switch {
		case b > 32<<20:
			per = 3
		case b > 1<<20:
			per = 1.2
		case b > 48<<10:
			per = 0.6
		}
		var ns []float64
		for range 20 {
			ns = append(ns, per*float64(v)*math.Exp(0.05*rng.NormFloat64()))
		}
		rs = append(rs, &result.Result{Kernel: result.Kernel{Name: "sum"},
			Variants: []result.Variant{{Name: "sum", Series: result.Series{Interleaved: result.NewSamples(ns)}}},
			Sweep:    &result.SweepPoint{ID: "x", Param: "N", Value: v, Elements: v, Bytes: &b, BytesRule: sweep.RuleFit}})
	}
	rs[len(rs)-1].Sweep.Summary = &result.SweepSummary{Variant: "sum", Caches: []result.CacheMark{
		{Name: "L1d", Bytes: 48 << 10}, {Name: "L2", Bytes: 1 << 20}, {Name: "L3", Bytes: 32 << 20, Shared: "0-1"}}}
	return rs
}

func TestSweepPlot(t *testing.T) {
	f, err := Sweep(syntheticSweep())
	if err != nil {
		t.Fatal(err)
	}
	if len(f.PNG) < 1000 || f.Bundle()["image/png"] == nil {
		t.Fatalf("no PNG (%d bytes)", len(f.PNG))
	}
	if out := os.Getenv("SWEEP_PNG"); out != "" {
		_ = os.WriteFile(out, f.PNG, 0o644)
	}
	if _, err := Sweep(nil); !errors.Is(err, ErrNoData) {
		t.Errorf("no results: %v, want ErrNoData", err)
	}
}

// Every live variant of a sweep has its curve and legend entry; a dead
// one has none.
func TestSweepPlotEveryLiveVariant(t *testing.T) {
	rs := syntheticSweep()
	for _, r := range rs {
		s := r.Variants[0].Series.Interleaved.SamplesNS
		half := make([]float64, len(s))
		for i, x := range s {
			half[i] = x / 2
		}
		r.Variants = append(r.Variants,
			result.Variant{Name: "halved", Series: result.Series{Interleaved: result.NewSamples(half)}},
			result.Variant{Name: "gone", Dead: true, Series: result.Series{Interleaved: result.NewSamples(half)}})
	}
	c, err := sweepChart(rs)
	if err != nil {
		t.Fatal(err)
	}
	svg, err := c.render(DefaultWidth, DefaultHeight, "svg")
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]bool{}
	for text := range svgTexts(t, svg) {
		texts[text] = true
	}
	if !texts["sum"] || !texts["halved"] || texts["gone"] {
		t.Errorf("legend: sum %v, halved %v, gone %v; want the two live variants only", texts["sum"], texts["halved"], texts["gone"])
	}
}
