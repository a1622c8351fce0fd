package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestSummarize(t *testing.T) {
	tests := []struct {
		name    string
		reason  string
		samples []float64
		want    Summary
	}{
		{
			name:   "odd",
			reason: "five samples out of order: the median is the middle one after sorting",
			// sorted 100 101 103 106 111; mean 521/5 = 104.2;
			// deviations -4.2 -3.2 -1.2 1.8 6.8, squares 17.64 10.24 1.44 3.24 46.24,
			// sum 78.8, /(n-1=4) = 19.7; cv = 100*sqrt(19.7)/104.2 = 4.2596%;
			// max/min 111/100 = 1.11; pairs as in TestPairShareHandCounted: 8, 4, 1 of 10.
			samples: []float64{106, 100, 111, 103, 101},
			want: Summary{N: 5, Min: 100, Median: 103, Max: 111, Mean: 104.2,
				CVPct: 100 * math.Sqrt(19.7) / 104.2, MaxOverMin: ptr(1.11),
				PairsOver2Pct: 0.8, PairsOver5Pct: 0.4, PairsOver10Pct: 0.1},
		},
		{
			name:   "even",
			reason: "the median of an even count is the mean of the two middle samples",
			// sorted 1 2 3 4: median (2+3)/2 = 2.5; mean 10/4 = 2.5;
			// squares 2.25 0.25 0.25 2.25 = 5, /3; cv = 100*sqrt(5/3)/2.5 = 51.64%;
			// the closest pair, 3 and 4, differs by 33% > 10%: every share is 1.
			samples: []float64{4, 1, 3, 2},
			want: Summary{N: 4, Min: 1, Median: 2.5, Max: 4, Mean: 2.5,
				CVPct: 100 * math.Sqrt(5.0/3) / 2.5, MaxOverMin: ptr(4),
				PairsOver2Pct: 1, PairsOver5Pct: 1, PairsOver10Pct: 1},
		},
		{
			name:    "single",
			reason:  "one sample: no n-1 deviation (cv 0) and no pairs (shares 0)",
			samples: []float64{42},
			want: Summary{N: 1, Min: 42, Median: 42, Max: 42, Mean: 42,
				MaxOverMin: ptr(1)},
		},
		{
			name:    "all equal",
			reason:  "no spread: cv 0, max/min 1, no pair differs",
			samples: []float64{7, 7, 7},
			want:    Summary{N: 3, Min: 7, Median: 7, Max: 7, Mean: 7, MaxOverMin: ptr(1)},
		},
		{
			name:   "zero minimum",
			reason: "max/min is undefined (nil); a pair of 0 and 5 counts, 0 and 0 does not",
			// mean 5/3; deviations -5/3 -5/3 10/3, squares (25+25+100)/9 = 150/9,
			// /2 = 75/9, sd = 5*sqrt(3)/3; cv = 100*(5*sqrt(3)/3)/(5/3) = 100*sqrt(3);
			// pairs (0,0) no, (0,5) yes twice: 2/3 at every threshold.
			samples: []float64{0, 5, 0},
			want: Summary{N: 3, Min: 0, Median: 0, Max: 5, Mean: 5.0 / 3,
				CVPct: 100 * math.Sqrt(3), MaxOverMin: nil,
				PairsOver2Pct: 2.0 / 3, PairsOver5Pct: 2.0 / 3, PairsOver10Pct: 2.0 / 3},
		},
		{
			name:   "cv with n-1",
			reason: "sd with n-1 is sqrt(2) (cv 70.7%); with n it would be 1 (cv 50%)",
			// mean 2; squares 1 1 = 2, /(n-1=1) = 2; cv = 100*sqrt(2)/2.
			samples: []float64{1, 3},
			want: Summary{N: 2, Min: 1, Median: 2, Max: 3, Mean: 2,
				CVPct: 100 * math.Sqrt(2) / 2, MaxOverMin: ptr(3),
				PairsOver2Pct: 1, PairsOver5Pct: 1, PairsOver10Pct: 1},
		},
		{
			name:    "zero mean",
			reason:  "cv over a zero mean is defined as 0, not NaN",
			samples: []float64{0, 0},
			want:    Summary{N: 2},
		},
		{
			name:    "empty",
			reason:  "no samples give the zero Summary",
			samples: nil,
			want:    Summary{},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Summarize(tc.samples)
			if field, ok := got.Equal(tc.want, 1e-12); !ok {
				t.Errorf("%s: field %s differs:\n got %+v (max/min %v)\nwant %+v (max/min %v)",
					tc.reason, field, got, deref(got.MaxOverMin), tc.want, deref(tc.want.MaxOverMin))
			}
		})
	}
}

// deref shows an optional value.
func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestSummarizeDoesNotMutate(t *testing.T) {
	x := []float64{5, 3, 9, 1, 7, 3}
	orig := slices.Clone(x)
	Summarize(x)
	Median(x)
	PairShare(x, 2)
	ECDF(x)
	if !slices.Equal(x, orig) {
		t.Errorf("caller's samples changed from %v to %v", orig, x)
	}
}

func TestMedian(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		x      []float64
		want   float64
	}{
		{"odd", "middle of 1 2 9", []float64{9, 1, 2}, 2},
		{"even", "mean of the middle two, (2+4)/2", []float64{8, 4, 1, 2}, 3},
		{"single", "the sample itself", []float64{5}, 5},
		{"even halves", "(1+2)/2 is not a whole number", []float64{2, 1}, 1.5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Median(tc.x); got != tc.want {
				t.Errorf("Median(%v) = %v, want %v (%s)", tc.x, got, tc.want, tc.reason)
			}
		})
	}
	if got := Median(nil); !math.IsNaN(got) {
		t.Errorf("Median(nil) = %v, want NaN", got)
	}
}

// TestSummarizeLarge runs the O(n log n) path on 10^5 samples, where O(n^2)
// would test 5e9 pairs, and checks what must hold of any summary.
func TestSummarizeLarge(t *testing.T) {
	x := noisy(rand.New(rand.NewPCG(1, 2)), 100_000, 500_000, 0.01)
	s := Summarize(x)
	if s.N != len(x) || !(s.Min <= s.Median && s.Median <= s.Max) {
		t.Fatalf("order broken: %+v", s)
	}
	if !(s.PairsOver2Pct >= s.PairsOver5Pct && s.PairsOver5Pct >= s.PairsOver10Pct && s.PairsOver10Pct > 0 && s.PairsOver2Pct <= 1) {
		t.Errorf("shares not decreasing within (0, 1]: %v %v %v", s.PairsOver2Pct, s.PairsOver5Pct, s.PairsOver10Pct)
	}
}

// A Summary prints its numbers, never a pointer.
func TestSummaryPrintsValues(t *testing.T) {
	s := Summarize([]float64{1, 2, 4})
	got := fmt.Sprint(s)
	if !strings.Contains(got, "max/min=4") || strings.Contains(got, "0x") || !strings.Contains(got, "median=2") {
		t.Errorf("%s", got)
	}
	if got := fmt.Sprint(Summarize([]float64{0, 1})); !strings.Contains(got, "max/min=undefined") {
		t.Errorf("%s", got)
	}
}
