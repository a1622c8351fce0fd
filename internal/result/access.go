package result

import (
	"github.com/benchbook/benchbook/stdlib/stats"
)

// Variant returns the variant named name, or nil.
func (r *Result) Variant(name string) *Variant {
	for i := range r.Variants {
		if r.Variants[i].Name == name {
			return &r.Variants[i]
		}
	}
	return nil
}

// SeriesNames are the series a variant can have, in the order of the protocol.
var SeriesNames = []string{"interleaved", "in_process", "fresh", "cold"}

// Get returns one series of a variant by name, or nil.
func (v *Variant) Get(series string) *Samples {
	switch series {
	case "interleaved":
		return v.Series.Interleaved
	case "in_process":
		return v.Series.InProcess
	case "fresh":
		return v.Series.Fresh
	case "cold":
		if v.Series.Cold != nil {
			return &v.Series.Cold.Samples
		}
	}
	return nil
}

// Series returns the samples (ns per pass) of one series of a variant: for
// glue cells, e.g. r.Series("sink", "fresh").
func (r *Result) Series(variant, series string) []float64 {
	if v := r.Variant(variant); v != nil {
		if s := v.Get(series); s != nil {
			return s.SamplesNS
		}
	}
	return nil
}

// Summary returns the summary of one series of a variant.
func (r *Result) Summary(variant, series string) stats.Summary {
	if v := r.Variant(variant); v != nil {
		if s := v.Get(series); s != nil {
			return s.Summary
		}
	}
	return stats.Summary{}
}

// Ratio returns the ratio of the medians of a over b in the interleaved
// series, and whether both exist and b's median is not zero.
func (r *Result) Ratio(a, b string) (float64, bool) {
	x, y := r.Summary(a, "interleaved"), r.Summary(b, "interleaved")
	if x.N == 0 || y.N == 0 || y.Median == 0 {
		return 0, false
	}
	return x.Median / y.Median, true
}

// Comparison is the verdict on variant a over variant b in the interleaved
// series, as the result states it (the slower over the faster) or turned
// round when it states b over a: the ratio, the interval bounds and the
// Hodges-Lehmann ratio inverted, the test unchanged. ok is false when the
// result compared no such pair.
func (r *Result) Comparison(a, b string) (c Comparison, ok bool) {
	for _, x := range r.Comparisons {
		switch {
		case x.A == a && x.B == b:
			return x, true
		case x.A == b && x.B == a:
			x.A, x.B = a, b
			x.Ratio, x.CILow, x.CIHigh = inv(x.Ratio), inv(x.CIHigh), inv(x.CILow)
			x.Shift = inv(x.Shift)
			return x, true
		}
	}
	return Comparison{}, false
}

// inv is 1/x, and 0 for 0 (an undefined figure stays undefined).
func inv(x float64) float64 {
	if x == 0 {
		return 0
	}
	return 1 / x
}
