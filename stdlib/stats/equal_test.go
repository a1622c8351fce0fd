package stats

import (
	"math"
	"testing"
)

func TestEqual(t *testing.T) {
	base := Summarize([]float64{100, 101, 103, 106, 111})
	zeroMin := Summarize([]float64{0, 5, 0})
	tests := []struct {
		name      string
		reason    string
		s         Summary
		tamper    func(*Summary)
		relTol    float64
		wantField string // "" when equal
	}{
		{"identical", "a summary agrees with itself exactly", base, func(*Summary) {}, 0, ""},
		{"n", "one sample more is a different summary", base, func(s *Summary) { s.N++ }, 1e-9, "n"},
		{"min", "min changed by 1 ns", base, func(s *Summary) { s.Min++ }, 1e-9, "min"},
		{"median", "median changed by 1%", base, func(s *Summary) { s.Median *= 1.01 }, 1e-9, "median"},
		{"max", "max changed by 1 ns", base, func(s *Summary) { s.Max-- }, 1e-9, "max"},
		{"mean", "mean changed by 0.1 ns", base, func(s *Summary) { s.Mean += 0.1 }, 1e-9, "mean"},
		{"cv_pct", "cv changed by 0.01 points", base, func(s *Summary) { s.CVPct += 0.01 }, 1e-9, "cv_pct"},
		{"max_over_min value", "ratio changed", base, func(s *Summary) { s.MaxOverMin = ptr(1.2) }, 1e-9, "max_over_min"},
		{"max_over_min null", "a ratio where null is due", zeroMin, func(s *Summary) { s.MaxOverMin = ptr(1) }, 1e-9, "max_over_min"},
		{"max_over_min missing", "null where a ratio is due", base, func(s *Summary) { s.MaxOverMin = nil }, 1e-9, "max_over_min"},
		{"pairs_over_2pct", "one pair of ten more", base, func(s *Summary) { s.PairsOver2Pct = 0.9 }, 1e-9, "pairs_over_2pct"},
		{"pairs_over_5pct", "one pair of ten fewer", base, func(s *Summary) { s.PairsOver5Pct = 0.3 }, 1e-9, "pairs_over_5pct"},
		{"pairs_over_10pct", "one pair of 435 (n=30) more", base, func(s *Summary) { s.PairsOver10Pct += 1.0 / 435 }, 1e-9, "pairs_over_10pct"},
		{"first field reported", "min and mean both off: min comes first in the JSON", base,
			func(s *Summary) { s.Min++; s.Mean++ }, 1e-9, "min"},
		{"within tolerance", "mean off by 1e-12 relative, tolerance 1e-9", base,
			func(s *Summary) { s.Mean *= 1 + 1e-12 }, 1e-9, ""},
		{"beyond tolerance", "mean off by 1e-6 relative, tolerance 1e-9", base,
			func(s *Summary) { s.Mean *= 1 + 1e-6 }, 1e-9, "mean"},
		{"cv near zero", "cv 1e-15 against 0 (all-equal samples): agree on the floor of one percent", Summary{N: 3, Min: 7, Median: 7, Max: 7, Mean: 7, MaxOverMin: ptr(1)},
			func(s *Summary) { s.CVPct = 1e-15 }, 1e-9, ""},
		{"zero tolerance", "relTol 0 asks for exact equality", base,
			func(s *Summary) { s.Mean = math.Nextafter(s.Mean, 200) }, 0, "mean"},
		{"NaN", "a NaN agrees with nothing, not even NaN", base,
			func(s *Summary) { s.Mean = math.NaN() }, 1, "mean"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tampered := tc.s
			if tc.s.MaxOverMin != nil {
				tampered.MaxOverMin = ptr(*tc.s.MaxOverMin) // do not write through the shared pointer
			}
			tc.tamper(&tampered)
			field, ok := tc.s.Equal(tampered, tc.relTol)
			if field != tc.wantField || ok != (tc.wantField == "") {
				t.Errorf("Equal = (%q, %v), want (%q, %v): %s", field, ok, tc.wantField, tc.wantField == "", tc.reason)
			}
			if field2, _ := tampered.Equal(tc.s, tc.relTol); field2 != field {
				t.Errorf("Equal is not symmetric: %q one way, %q the other", field, field2)
			}
		})
	}
}

func TestAgreeInfinities(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name   string
		reason string
		a, b   float64
		want   bool
	}{
		{"same infinity", "+Inf == +Inf", inf, inf, true},
		{"opposite infinities", "|a-b| and the scale are both Inf: must not pass as Inf <= Inf", inf, -inf, false},
		{"infinity and finite", "no tolerance bridges to Inf", inf, 1e308, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := agree(tc.a, tc.b, 1, 0); got != tc.want {
				t.Errorf("agree(%v, %v) = %v, want %v: %s", tc.a, tc.b, got, tc.want, tc.reason)
			}
		})
	}
}
