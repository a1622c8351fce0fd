package stats

import "math"

// Equal compares s with t field by field, in the order of the JSON, and
// returns the JSON name of the first field that differs (ok false), or ("",
// true) when all agree. It is how `benchbook verify` says which field of a
// stored summary does not match the one recomputed from its samples.
//
// N must match exactly. Two floats a and b agree when a == b, or when both
// are finite and |a-b| <= relTol * max(|a|, |b|, floor), where floor is 0 for
// the fields in nanoseconds and for max_over_min, and 1 for cv_pct (one
// percent) and the pair shares (the whole share): a value that one
// implementation computes as 1e-15 and another as 0 then agrees, while a real
// change of a share (at least one pair in n(n-1)/2) is still caught for any
// small relTol. A NaN agrees with nothing. max_over_min must be null in both
// or in neither. A relTol of 0 (or less) asks for exact equality.
func (s Summary) Equal(t Summary, relTol float64) (field string, ok bool) {
	if s.N != t.N {
		return "n", false
	}
	for _, f := range []struct {
		name  string
		a, b  float64
		floor float64
	}{
		{"min", s.Min, t.Min, 0},
		{"median", s.Median, t.Median, 0},
		{"max", s.Max, t.Max, 0},
		{"mean", s.Mean, t.Mean, 0},
		{"cv_pct", s.CVPct, t.CVPct, 1},
	} {
		if !agree(f.a, f.b, relTol, f.floor) {
			return f.name, false
		}
	}
	if !agreePtr(s.MaxOverMin, t.MaxOverMin, relTol) {
		return "max_over_min", false
	}
	for _, f := range []struct {
		name string
		a, b float64
	}{
		{"pairs_over_2pct", s.PairsOver2Pct, t.PairsOver2Pct},
		{"pairs_over_5pct", s.PairsOver5Pct, t.PairsOver5Pct},
		{"pairs_over_10pct", s.PairsOver10Pct, t.PairsOver10Pct},
	} {
		if !agree(f.a, f.b, relTol, 1) {
			return f.name, false
		}
	}
	return "", true
}

// agree is the float comparison of Equal.
func agree(a, b, relTol, floor float64) bool {
	if a == b {
		return true
	}
	if math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return false
	}
	scale := max(math.Abs(a), math.Abs(b), floor)
	return math.Abs(a-b) <= relTol*scale
}

// agreePtr compares two optional values: both nil, or both set and agreeing.
func agreePtr(a, b *float64, relTol float64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return agree(*a, *b, relTol, 0)
}
