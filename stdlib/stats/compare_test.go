package stats

import (
	"errors"
	"math"
	"testing"
)

func TestMannWhitney(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		a, b   []float64
		want   float64
	}{
		{"separated 3 and 3", "U = 0: 1 of the C(6,3) = 20 equally likely rankings, doubled: 2/20",
			[]float64{1, 2, 3}, []float64{4, 5, 6}, 0.1},
		{"separated, other way", "the two-sided p does not depend on the order",
			[]float64{40, 50, 60}, []float64{1, 2, 3}, 0.1},
		{"one swap", "a = 1 2 4, b = 3 5 6: U = 1 (4 > 3); P(U <= 1) = (1+1)/20; two-sided 4/20",
			[]float64{1, 2, 4}, []float64{3, 5, 6}, 0.2},
		{"identical", "same values both sides: U1 = U2 = 4.5, p = 1",
			[]float64{1, 2, 3}, []float64{3, 2, 1}, 1},
		{"normal approximation", "60 evens against 60 odds (beyond the exact limit of 50): " +
			"U = 0+1+...+59 = 1770, mean 1800, sd sqrt(60*60*121/12) = sqrt(36300); " +
			"z = (1770-1800+0.5)/sqrt(36300); p = erfc(|z|/sqrt(2))",
			evens(60), odds(60), math.Erfc(29.5 / math.Sqrt(36300) / math.Sqrt2)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := MannWhitney(tc.a, tc.b)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(p-tc.want) > 1e-9 {
				t.Errorf("p = %v, want %v: %s", p, tc.want, tc.reason)
			}
		})
	}
}

// evens returns 0, 2, ..., 2(n-1); odds returns 1, 3, ..., 2n-1.
func evens(n int) []float64 { return arith(0, n) }
func odds(n int) []float64  { return arith(1, n) }

// arith returns start, start+2, ... (n values).
func arith(start float64, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = start + 2*float64(i)
	}
	return x
}

// withRanks returns the values 1..n1+n2 split into a (the given ranks) and b
// (the others): U of a is the sum of rank_i - i over a's sorted ranks.
func withRanks(ranks []int, total int) (a, b []float64) {
	in := map[int]bool{}
	for _, r := range ranks {
		in[r] = true
	}
	for r := 1; r <= total; r++ {
		if in[r] {
			a = append(a, float64(r))
		} else {
			b = append(b, float64(r))
		}
	}
	return a, b
}

// exactTwoSided is the exact two-sided p of U = u for samples of n1 and n2
// without ties, by counting: the number of ways to get U = k is the number of
// partitions of k into at most n1 parts each at most n2 (a rank set of a),
// counted here by dynamic programming over the subsets of ranks.
func exactTwoSided(u, n1, n2 int) float64 {
	// ways[j][s]: subsets of size j of the ranks seen so far with rank-sum s.
	total := n1 + n2
	maxSum := total * (total + 1) / 2
	ways := make([][]float64, n1+1)
	for j := range ways {
		ways[j] = make([]float64, maxSum+1)
	}
	ways[0][0] = 1
	for r := 1; r <= total; r++ {
		for j := min(r, n1); j >= 1; j-- {
			for s := maxSum; s >= r; s-- {
				ways[j][s] += ways[j-1][s-r]
			}
		}
	}
	base := n1 * (n1 + 1) / 2 // rank-sum of U = 0
	small := min(u, n1*n2-u)
	var tail, all float64
	for s, w := range ways[n1] {
		all += w
		if s-base <= small {
			tail += w
		}
	}
	return min(1, 2*tail/all)
}

// TestMannWhitneyTextbook checks n1 = n2 = 10 against the published table of
// critical values (two-sided alpha 0.05: U <= 23 is significant) and against
// an exact count of rank sets.
func TestMannWhitneyTextbook(t *testing.T) {
	tests := []struct {
		name        string
		reason      string
		ranks       []int // ranks of a among 1..20; U = sum of rank_i - i
		u           int
		significant bool
	}{
		{"U=23", "the table's critical value: p <= 0.05",
			[]int{1, 2, 3, 4, 5, 6, 9, 15, 16, 17}, 23, true}, // excesses 0 0 0 0 0 0 2 7 7 7
		{"U=24", "one past the critical value: p > 0.05",
			[]int{1, 2, 3, 4, 5, 6, 10, 15, 16, 17}, 24, false}, // excesses 0 0 0 0 0 0 3 7 7 7
		{"U=5", "far in the tail",
			[]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 15}, 5, true}, // excess 5 on the last rank only
		{"U=50", "the centre: p = 1",
			[]int{1, 3, 5, 7, 9, 12, 14, 16, 18, 20}, 50, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u := 0
			for i, r := range tc.ranks {
				u += r - (i + 1)
			}
			if u != tc.u {
				t.Fatalf("the table's ranks give U = %d, not %d", u, tc.u)
			}
			a, b := withRanks(tc.ranks, 20)
			p, err := MannWhitney(a, b)
			if err != nil {
				t.Fatal(err)
			}
			if (p <= 0.05) != tc.significant {
				t.Errorf("p = %v: significant at 0.05 is %v, the table says %v (%s)", p, p <= 0.05, tc.significant, tc.reason)
			}
			if want := exactTwoSided(tc.u, 10, 10); math.Abs(p-want) > 1e-12 {
				t.Errorf("p = %v, the exact count gives %v", p, want)
			}
		})
	}
}

func TestMannWhitneyErrors(t *testing.T) {
	tests := []struct {
		name    string
		reason  string
		a, b    []float64
		wantErr error
	}{
		{"all equal", "one value everywhere: nothing to rank", []float64{5, 5, 5}, []float64{5, 5}, ErrSamplesEqual},
		{"all equal, large", "the normal approximation path too", constant(60, 9), constant(60, 9), ErrSamplesEqual},
		{"empty", "no samples on one side", nil, []float64{1}, ErrNoSamples},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := MannWhitney(tc.a, tc.b)
			if !errors.Is(err, tc.wantErr) {
				t.Errorf("err = %v, want %v: %s", err, tc.wantErr, tc.reason)
			}
			if p != 1 {
				t.Errorf("p = %v on error, want 1 (never claims a difference)", p)
			}
		})
	}
}

// constant returns n copies of v.
func constant(n int, v float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = v
	}
	return x
}

func TestSignificantRule(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		p      float64
		iv     Interval
		want   bool
	}{
		{"both", "p below alpha and interval above 1", 0.001, Interval{1.2, 1.1, 1.3}, true},
		{"both, below 1", "an interval below 1 excludes 1 too", 0.001, Interval{0.8, 0.7, 0.9}, true},
		{"p only", "the interval holds 1: the medians may not differ", 0.001, Interval{1.05, 0.99, 1.1}, false},
		{"interval only", "p at alpha is not below it", 0.05, Interval{1.2, 1.1, 1.3}, false},
		{"interval touches 1", "a bound of exactly 1 does not exclude 1", 0.001, Interval{1.1, 1, 1.2}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := significant(tc.p, 0.05, tc.iv); got != tc.want {
				t.Errorf("significant(%v, 0.05, %+v) = %v, want %v: %s", tc.p, tc.iv, got, tc.want, tc.reason)
			}
		})
	}
}

func TestCompare(t *testing.T) {
	slow := []float64{2000, 2010, 2100, 2050, 1990, 2030, 2070, 2020, 2005, 2040}
	fast := []float64{1000, 1010, 1050, 1020, 995, 1015, 1035, 1010, 1002, 1020}
	tests := []struct {
		name            string
		reason          string
		a, b            []float64
		opt             Bootstrap
		wantSignificant bool
		wantP           float64 // -1: only check p < 0.05
	}{
		{"twice as slow", "fully separated 10 and 10: p = 2/C(20,10); every resampled ratio is near 2",
			slow, fast, Bootstrap{Seed: 1, Paired: true}, true, 2.0 / 184756},
		{"small and separated", "3 and 3 fully separated: the interval excludes 1 but p = 0.1 is not below 0.05",
			[]float64{2, 2.1, 2.2}, []float64{1, 1.1, 1.2}, Bootstrap{Seed: 1, Paired: true}, false, 0.1},
		{"A/A", "the same series against itself: p = 1 and the interval holds 1",
			slow, slow, Bootstrap{Seed: 1}, false, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Compare(tc.a, tc.b, tc.opt, 0.05)
			if err != nil {
				t.Fatal(err)
			}
			if c.Significant != tc.wantSignificant || math.Abs(c.P-tc.wantP) > 1e-12 {
				t.Errorf("%+v: want significant %v, p %v: %s", c, tc.wantSignificant, tc.wantP, tc.reason)
			}
			iv, _ := RatioOfMedians(tc.a, tc.b, tc.opt)
			if c.Interval != iv {
				t.Errorf("interval %+v, RatioOfMedians gives %+v", c.Interval, iv)
			}
		})
	}
}

func TestCompareErrors(t *testing.T) {
	x := []float64{1, 2, 3}
	if _, err := Compare(x, x, Bootstrap{}, 0); err == nil {
		t.Errorf("alpha 0 accepted")
	}
	if _, err := Compare(x, []float64{1}, Bootstrap{Paired: true}, 0.05); !errors.Is(err, ErrUnpaired) {
		t.Errorf("paired series of 3 and 1: err = %v, want ErrUnpaired", err)
	}
	c, err := Compare([]float64{5, 6, 7}, []float64{0, 0, 1}, Bootstrap{}, 0.05)
	if !errors.Is(err, ErrZeroMedian) || c.Significant || !math.IsInf(c.Ratio, 1) || c.P == 1 {
		t.Errorf("zero median in b: %+v, %v; want +Inf ratio, the rank test's p, not significant, ErrZeroMedian", c, err)
	}
	c, err = Compare([]float64{4, 4}, []float64{4, 4, 4}, Bootstrap{}, 0.05)
	if !errors.Is(err, ErrSamplesEqual) || c.Significant || c.P != 1 || c.Ratio != 1 {
		t.Errorf("all equal: %+v, %v; want ratio 1, p 1, not significant, ErrSamplesEqual", c, err)
	}
}
