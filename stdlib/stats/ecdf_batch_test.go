package stats

import (
	"math"
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

func TestBatchK(t *testing.T) {
	tests := []struct {
		name             string
		reason           string
		passNS, targetNS float64
		prev             int
		want             int
	}{
		{"growth cap", "1 pass of 1 us for a 1 ms target: 1000, +20% = 1200, but at most 100x of 1",
			1000, 1e6, 1, 100},
		{"aim 20% over", "100 passes in 100 us: 1e6*100/1e5 = 1000, + 1000/5 = 1200",
			1e5, 1e6, 100, 1200},
		{"integer steps", "as predictN: 100*3/7 = 42 (truncated), + 42/5 = 8 (truncated) = 50",
			7, 100, 3, 50},
		{"near the target", "1000 passes in 990 us: floor(1010.1) = 1010, + 202 = 1212",
			990_000, 1e6, 1000, 1212},
		{"at least one more", "already over the target: 1e6*10/2e6 = 5, +1 = 6, raised to 10+1",
			2e6, 1e6, 10, 11},
		{"zero time", "a pass below the clock's resolution counts as 1 ns: 1.2e6, capped at 100x",
			0, 1e6, 1, 100},
		{"NaN time", "a NaN duration counts as 1 ns, like 0", math.NaN(), 1e6, 2, 200},
		{"cap", "5e8 passes in 1 ns: 100x would be 5e10; never above 1e9",
			1, 1e9, 500_000_000, MaxBatch},
		{"prev 0", "a prev below 1 counts as 1", 1000, 1e6, 0, 100},
		{"NaN target", "no target: just one more", 1000, math.NaN(), 7, 8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := BatchK(tc.passNS, tc.targetNS, tc.prev); got != tc.want {
				t.Errorf("BatchK(%v, %v, %d) = %d, want %d: %s", tc.passNS, tc.targetNS, tc.prev, got, tc.want, tc.reason)
			}
		})
	}
}
