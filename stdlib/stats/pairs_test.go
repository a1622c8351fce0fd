package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// pairShareReference is the O(n^2) definition: test every pair.
func pairShareReference(x []float64, pct float64) float64 {
	n := len(x)
	if n < 2 {
		return 0
	}
	count := 0
	for i := range x {
		for j := i + 1; j < n; j++ {
			lo, hi := min(x[i], x[j]), max(x[i], x[j])
			if (hi-lo)*100 > pct*lo {
				count++
			}
		}
	}
	return float64(count) / float64(n*(n-1)/2)
}

// TestPairShareHandCounted checks shares counted by hand. The ten pairs of
// 100 101 103 106 111, by how far the larger exceeds the smaller:
//
//	100-101 1.00%   100-103 3.00%   100-106 6.00%   100-111 11.00%
//	101-103 1.98%   101-106 4.95%   101-111 9.90%
//	103-106 2.91%   103-111 7.77%
//	106-111 4.72%
//
// over 2%: all but 1.00 and 1.98: 8; over 5%: 6.00, 11.00, 9.90, 7.77: 4;
// over 10%: 11.00: 1.
func TestPairShareHandCounted(t *testing.T) {
	x := []float64{100, 101, 103, 106, 111}
	tests := []struct {
		name   string
		reason string
		x      []float64
		pct    float64
		want   float64
	}{
		{"5 samples over 2%", "8 of the 10 pairs listed above", x, 2, 0.8},
		{"5 samples over 5%", "4.95% and 4.72% fall short", x, 5, 0.4},
		{"5 samples over 10%", "9.90% falls short, only 11% counts", x, 10, 0.1},
		{"exactly 2%", "100 and 102 differ by exactly 2%: not MORE than 2%", []float64{100, 102}, 2, 0},
		{"just over 2%", "100 and 102.001 differ by 2.001%", []float64{100, 102.001}, 2, 1},
		{"exactly 5% and 10%", "200-210 is exactly 5%, 200-220 exactly 10%, 210-220 4.76%: only 200-220 is over 5%",
			[]float64{220, 200, 210}, 5, 1.0 / 3},
		{"exactly 10%", "200-220 is exactly 10%: no pair over 10%", []float64{220, 200, 210}, 10, 0},
		{"zero and positive", "0 then 1: the larger exceeds 0 by more than any share of 0", []float64{1, 0}, 10, 1},
		{"zero and zero", "0 and 0 do not differ", []float64{0, 0}, 2, 0},
		{"ties", "equal values never count; 10-20 counts twice: 2 of 3", []float64{10, 10, 20}, 2, 2.0 / 3},
		{"one sample", "no pairs", []float64{5}, 2, 0},
		{"no samples", "no pairs", nil, 2, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := PairShare(tc.x, tc.pct); !near(got, tc.want) {
				t.Errorf("PairShare(%v, %v) = %v, want %v: %s", tc.x, tc.pct, got, tc.want, tc.reason)
			}
			if got := pairShareReference(tc.x, tc.pct); !near(got, tc.want) {
				t.Errorf("reference(%v, %v) = %v, want %v: the hand count or the reference is wrong",
					tc.x, tc.pct, got, tc.want)
			}
		})
	}
}

// TestPairShareAgainstReference checks the sweep against every pair on random
// series: noisy timings, heavy ties (few distinct values), zeros, and
// non-integral values whose boundaries round.
func TestPairShareAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	gens := []struct {
		name string
		gen  func(n int) []float64
	}{
		{"noisy timings", func(n int) []float64 { return noisy(rng, n, 1000, 0.04) }},
		{"few distinct values", func(n int) []float64 {
			x := make([]float64, n)
			for i := range x {
				x[i] = float64(100 + 2*rng.IntN(6)) // 100..110 by 2: boundaries at exactly 2%, 4%...
			}
			return x
		}},
		{"with zeros", func(n int) []float64 {
			x := noisy(rng, n, 50, 0.1)
			for i := range x {
				if rng.IntN(5) == 0 {
					x[i] = 0
				}
			}
			return x
		}},
		{"fractional", func(n int) []float64 {
			x := make([]float64, n)
			for i := range x {
				x[i] = 1 + rng.Float64()*0.3
			}
			return x
		}},
	}
	for _, g := range gens {
		t.Run(g.name, func(t *testing.T) {
			for trial := range 50 {
				x := g.gen(1 + rng.IntN(200))
				for _, pct := range []float64{0, 1, 2, 4, 5, 10, 33.3} {
					got, want := PairShare(x, pct), pairShareReference(x, pct)
					if got != want {
						t.Fatalf("trial %d, n=%d, pct %v: sweep %v, every pair %v", trial, len(x), pct, got, want)
					}
				}
			}
		})
	}
}

func TestPairSharePanicsOnBadPct(t *testing.T) {
	for _, pct := range []float64{-1, math.NaN()} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("PairShare(x, %v) did not panic", pct)
				}
			}()
			PairShare([]float64{1, 2}, pct)
		}()
	}
}
