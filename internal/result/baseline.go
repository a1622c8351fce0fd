package result

import (
	"slices"

	"github.com/benchbook/benchbook/internal/asm"
)

// SamplesOf is the samples of a variant's series, nil when it has none.
func (r *Result) SamplesOf(variant, series string) []float64 {
	if v := r.Variant(variant); v != nil {
		if s := v.Get(series); s != nil {
			return s.SamplesNS
		}
	}
	return nil
}

// BaselineResult is the baseline as a result of its own, for plots that
// draw before against after: the previous build's kernel and, per variant,
// its samples of this run in each series.
func (r *Result) BaselineResult() *Result {
	bl := r.Baseline
	if bl == nil {
		return nil
	}
	out := &Result{Schema: SchemaID, Kernel: bl.Kernel, Protocol: r.Protocol, Conditions: r.Conditions}
	for _, e := range bl.Variants {
		v := out.Variant(e.Name)
		if v == nil {
			out.Variants = append(out.Variants, Variant{Name: e.Name, Asm: bl.Asm[e.Name], Batch: 1})
			v = &out.Variants[len(out.Variants)-1]
		}
		s := NewSamples(e.SamplesNS)
		switch e.Series {
		case "interleaved":
			v.Series.Interleaved = s
		case "fresh":
			v.Series.Fresh = s
		case "cold":
			if s != nil {
				v.Series.Cold = &Cold{Samples: *s}
			}
		}
	}
	return out
}

// AsmSame says whether two listings of a timed function are the same code:
// equal once addresses are normalised away (immediates, displacements and
// registers are kept).
func AsmSame(a, b string) bool {
	return slices.Equal(asm.Normalize(a), asm.Normalize(b))
}
