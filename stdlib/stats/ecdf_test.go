package stats

import (
	"slices"
	"testing"
)

func TestECDF(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		x      []float64
		wantX  []float64
		wantP  []float64
	}{
		{"ties", "2 appears twice: one step of 2/4 at 2; 1/4 at or below 1; all at or below 3",
			[]float64{3, 1, 2, 2}, []float64{1, 2, 3}, []float64{0.25, 0.75, 1}},
		{"single", "one sample is the whole distribution", []float64{5}, []float64{5}, []float64{1}},
		{"all equal", "one step to 1", []float64{7, 7, 7}, []float64{7}, []float64{1}},
		{"empty", "nothing to plot", nil, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			xs, ps := ECDF(tc.x)
			if !slices.Equal(xs, tc.wantX) || !slices.Equal(ps, tc.wantP) {
				t.Errorf("ECDF(%v) = %v, %v; want %v, %v: %s", tc.x, xs, ps, tc.wantX, tc.wantP, tc.reason)
			}
		})
	}
}
