package stats

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// noNaN fails the test when any float of v is NaN.
func noNaN(t *testing.T, what string, v Verdict) {
	t.Helper()
	for _, f := range []float64{v.Ratio, v.Shift, v.Low, v.High, v.P, v.Rho, v.NEff} {
		if math.IsNaN(f) {
			t.Errorf("%s: NaN in %+v", what, v)
		}
	}
}

func TestCompareEdges(t *testing.T) {
	inf := math.Inf(1)
	ramp := func(n int, scale float64) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = scale * (1000 + float64((i*7)%n))
		}
		return x
	}
	x12 := ramp(12, 1)
	tests := []struct {
		name    string
		reason  string
		compare compareFunc
		a, b    []float64
		alpha   float64
		wantErr error // nil: no error; errAny: some error
		check   func(v Verdict) bool
	}{
		{"paired empty", "no rounds", ComparePaired, nil, nil, 0.05, ErrNoSamples, nil},
		{"unpaired empty b", "no processes on one side", CompareUnpaired, x12, nil, 0.05, ErrNoSamples, nil},
		{"paired lengths", "one sample of each per round", ComparePaired, x12, x12[:5], 0.05, ErrUnpaired, nil},
		{"alpha 0", "alpha must be in (0, 1)", ComparePaired, x12, x12, 0, errAny, nil},
		{"alpha 1", "alpha must be in (0, 1)", CompareUnpaired, x12, x12, 1, errAny, nil},
		{"alpha NaN", "alpha must be in (0, 1)", ComparePaired, x12, x12, math.NaN(), errAny, nil},
		{"zero in b", "a deleted loop: median of b 0, ratio +Inf as RatioOfMedians",
			ComparePaired, []float64{5, 6, 7}, []float64{0, 0, 1}, 0.05, ErrNonPositive,
			func(v Verdict) bool {
				return math.IsInf(v.Ratio, 1) && v.Shift == v.Ratio && v.Low == 0 && math.IsInf(v.High, 1) && v.P == 1
			}},
		{"zero in a", "ratio 0/x = 0", CompareUnpaired, []float64{0, 0, 1}, []float64{5, 6, 7}, 0.05, ErrNonPositive,
			func(v Verdict) bool { return v.Ratio == 0 && v.P == 1 && math.IsInf(v.High, 1) }},
		{"negative", "ln of a negative reading", CompareUnpaired, []float64{-3, 5, 6}, []float64{5, 6, 7}, 0.05, ErrNonPositive,
			func(v Verdict) bool { return v.P == 1 }},
		{"NaN sample", "never NaN out", ComparePaired, []float64{math.NaN(), 5, 6}, []float64{5, 6, 7}, 0.05, ErrNonPositive,
			func(v Verdict) bool { return v.P == 1 }},
		{"+Inf sample", "not finite", CompareUnpaired, []float64{inf, 5, 6}, []float64{5, 6, 7}, 0.05, ErrNonPositive,
			func(v Verdict) bool { return v.P == 1 }},
		{"paired identical", "d = 0 in every round: nothing to test, no difference",
			ComparePaired, x12, x12, 0.05, nil,
			func(v Verdict) bool { return v.P == 1 && v.Low == 1 && v.High == 1 && v.Shift == 1 && v.Ratio == 1 }},
		{"unpaired all equal", "one value everywhere",
			CompareUnpaired, constant(8, 5), constant(9, 5), 0.05, nil,
			func(v Verdict) bool { return v.P == 1 && v.Low == 1 && v.High == 1 && v.Shift == 1 }},
		{"paired a = 2b", "every d = ln 2, all tied: W = M, Var0 = n(n+1)^2/16, r1 = 0 (constant signed ranks), interval [2, 2]",
			ComparePaired, ramp(12, 2), x12, 0.05, nil,
			func(v Verdict) bool {
				return v.Significant && v.Low == 2 && v.High == 2 && v.Shift == 2 && v.Ratio == 2 && near(v.Rho, 1.0/12)
			}},
		{"paired too few", "5 rounds cannot reach 0.05 (see ComparePaired)",
			ComparePaired, ramp(5, 2), ramp(5, 1), 0.05, ErrTooFew,
			func(v Verdict) bool { return !v.Significant && v.Low == 0 && math.IsInf(v.High, 1) && v.P >= 0.05 }},
		{"paired enough at 10", "10 distinct rounds all a > b: W = 55",
			ComparePaired, []float64{11, 22, 33, 44, 55, 66, 77, 88, 99, 110},
			[]float64{10.9, 21.5, 32.9, 43, 54.8, 65.3, 76.9, 86.5, 98.2, 108.5}, 0.05, nil,
			func(v Verdict) bool { return v.Significant && v.Low > 1 }},
		{"unpaired too few", "5 a side cannot reach 0.05", CompareUnpaired, ramp(5, 2), ramp(5, 1), 0.05, ErrTooFew,
			func(v Verdict) bool { return !v.Significant && v.Low == 0 && math.IsInf(v.High, 1) }},
		{"unpaired enough at 6", "6 a side fully separated: U = 36; the order 3 0 5 1 4 2 has negative r1, so rho 0",
			CompareUnpaired, []float64{2006, 2000, 2010, 2002, 2008, 2004}, []float64{1003, 1000, 1005, 1001, 1004, 1002}, 0.05, nil,
			func(v Verdict) bool { return v.Significant && v.Low > 1 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := tc.compare(tc.a, tc.b, tc.alpha)
			switch {
			case tc.wantErr == errAny && err == nil:
				t.Errorf("no error: %s", tc.reason)
			case tc.wantErr != errAny && !errors.Is(err, tc.wantErr):
				t.Errorf("err = %v, want %v: %s", err, tc.wantErr, tc.reason)
			}
			noNaN(t, tc.name, v)
			if tc.wantErr != nil && tc.check == nil && v != (Verdict{}) {
				t.Errorf("invalid input gave %+v, want the zero Verdict", v)
			}
			if tc.check != nil && !tc.check(v) {
				t.Errorf("%+v: %s", v, tc.reason)
			}
			if v.Significant && v.P >= tc.alpha {
				t.Errorf("significant with P = %v", v.P)
			}
		})
	}
}

// errAny stands for "some error" in TestCompareEdges.
var errAny = errors.New("any error")

// TestCompareDoesNotModify checks that the callers' slices are left alone.
func TestCompareDoesNotModify(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	a, b := trialData(rng, 20, false)
	ca, cb := slices.Clone(a), slices.Clone(b)
	ComparePaired(a, b, 0.05)
	CompareUnpaired(a, b, 0.05)
	if !slices.Equal(a, ca) || !slices.Equal(b, cb) {
		t.Errorf("the samples were modified")
	}
}

// TestAAAndSlowerConstant is the A/A check and its counterpart: two series
// from one distribution (fresh-process noise, 30 rounds) are not called
// different, and the same comparison with b 25% slower finds it, with the
// ratio and the shift near 1.25 for b/a and the interval around them.
func TestAAAndSlowerConstant(t *testing.T) {
	for _, c := range []struct {
		name string
		f    compareFunc
	}{{"paired", ComparePaired}, {"unpaired", CompareUnpaired}} {
		rng := rand.New(rand.NewPCG(9, 9))
		const trials = 200
		called := 0
		for range trials {
			a, b := make([]float64, 30), make([]float64, 30)
			iidLog(1, freshProcess)(rng, 30, a, b)
			v, err := c.f(a, b, 0.05)
			if err != nil {
				t.Fatal(err)
			}
			if v.Significant {
				called++
			}
			if math.Abs(v.Ratio-1) > 0.02 || math.Abs(v.Shift-1) > 0.02 {
				t.Errorf("%s A/A: ratio %v, shift %v, want within 2%% of 1", c.name, v.Ratio, v.Shift)
			}
			// The same rounds with b 25% slower: compare b against a.
			for i := range b {
				b[i] *= 1.25
			}
			v, err = c.f(b, a, 0.05)
			if err != nil {
				t.Fatal(err)
			}
			if !v.Significant || !(v.Low > 1.2 && v.High < 1.3) ||
				math.Abs(v.Ratio-1.25) > 0.02 || math.Abs(v.Shift-1.25) > 0.02 ||
				!(v.Low <= v.Shift && v.Shift <= v.High) {
				t.Errorf("%s 25%% slower: %+v, want significant, ratio and shift near 1.25 in [1.2, 1.3]", c.name, v)
			}
		}
		// At most 10 of 200 expected (0.05; TestCalibration measures 0.022
		// paired, 0.026 unpaired); more than 20 has chance 0.001 at 0.05.
		if called > 20 {
			t.Errorf("%s A/A: %d of %d comparisons called different", c.name, called, trials)
		}
	}
}

func TestAutocorrelation(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		x      []float64
		want   float64
	}{
		{"trend", "1..5: mean 3, deviations -2 -1 0 1 2: (2+0+0+2)/10", []float64{1, 2, 3, 4, 5}, 0.4},
		{"alternating", "mean 0: -3/4", []float64{1, -1, 1, -1}, -0.75},
		{"constant", "denominator 0", []float64{7, 7, 7, 7}, 0},
		{"two", "fewer than 3 samples", []float64{1, 2}, 0},
		{"empty", "fewer than 3 samples", nil, 0},
		{"uneven", "1 2 4: mean 7/3; (4/9 - 5/9)/(42/9)", []float64{1, 2, 4}, -1.0 / 42},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Autocorrelation(tc.x)
			checkNear(t, "r1 ("+tc.reason+")", got, tc.want)
		})
	}
	rng := rand.New(rand.NewPCG(10, 10))
	for range 100 {
		x := make([]float64, 3+rng.IntN(50))
		ar1(rng, x, 0.6, 1)
		checkNear(t, "random series", Autocorrelation(x), refAutocorrelation(x))
	}
}

// TestRhoCorrected checks the documented correction and clipping.
func TestRhoCorrected(t *testing.T) {
	// 1..5: r1 = 0.4, rho = 0.4 + (1 + 1.6)/5 = 0.92, clipped to 0.9.
	if got := rhoCorrected([]float64{1, 2, 3, 4, 5}); got != RhoMax {
		t.Errorf("trend: %v, want the ceiling %v", got, RhoMax)
	}
	// 1 -1 1 -1: r1 = -0.75, rho = -0.75 + (1-3)/4 < 0, clipped to 0.
	if got := rhoCorrected([]float64{1, -1, 1, -1}); got != RhoMin {
		t.Errorf("alternating: %v, want the floor %v", got, RhoMin)
	}
	// A series inside the bounds: the formula itself.
	x := []float64{1, 2, 4, 1, 2, 4, 1, 2, 4, 1, 2, 4, 1, 2, 4, 1, 2, 4, 1, 2, 4, 9}
	r1 := Autocorrelation(x)
	checkNear(t, "rho", rhoCorrected(x), math.Min(math.Max(r1+(1+4*r1)/22, 0), 0.9))
	checkNear(t, "VIF at 0.5", vifOf(0.5), 3)
}

func TestHolm(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		p      []float64
		want   []float64
	}{
		{"four", "sorted 0.005 0.01 0.03 0.04 times 4 3 2 1: 0.02 0.03 0.06 0.04; running max 0.02 0.03 0.06 0.06",
			[]float64{0.01, 0.04, 0.03, 0.005}, []float64{0.03, 0.06, 0.06, 0.02}},
		{"cap", "3*0.5 = 1.5 capped at 1, and the running maximum keeps 1",
			[]float64{0.5, 0.6, 0.01}, []float64{1, 1, 0.03}},
		{"ties", "equal p-values get equal adjusted values: 0.02*3, then max(0.06, 0.04)",
			[]float64{0.02, 0.02, 0.9}, []float64{0.06, 0.06, 0.9}},
		{"one", "a single test is not adjusted", []float64{0.03}, []float64{0.03}},
		{"NaN", "NaN counts as 1", []float64{math.NaN(), 0.01}, []float64{1, 0.02}},
		{"none", "no p-values", []float64{}, []float64{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Holm(tc.p)
			if len(got) != len(tc.want) {
				t.Fatalf("Holm(%v) = %v, want %v", tc.p, got, tc.want)
			}
			for i := range got {
				if !near(got[i], tc.want[i]) {
					t.Errorf("Holm(%v) = %v, want %v: %s", tc.p, got, tc.want, tc.reason)
					break
				}
			}
		})
	}
	// Against the definition by brute force, and monotone in p.
	rng := rand.New(rand.NewPCG(11, 11))
	for range 200 {
		m := 1 + rng.IntN(12)
		p := make([]float64, m)
		for i := range p {
			p[i] = math.Pow(rng.Float64(), 3)
			if rng.IntN(5) == 0 && i > 0 {
				p[i] = p[i-1] // ties
			}
		}
		q := Holm(p)
		for i := range p {
			// Position of i in the sorted order: the number of p_j below p_i,
			// or equal with j < i (the stable sort).
			pos := func(i int) int {
				c := 0
				for j := range p {
					if p[j] < p[i] || (p[j] == p[i] && j < i) {
						c++
					}
				}
				return c
			}
			want := 0.0
			for j := range p {
				if pos(j) <= pos(i) {
					want = math.Max(want, math.Min(1, float64(m-pos(j))*p[j]))
				}
			}
			if q[i] != want {
				t.Errorf("Holm(%v)[%d] = %v, the definition gives %v", p, i, q[i], want)
			}
			for j := range p {
				if p[j] <= p[i] && q[j] > q[i] {
					t.Errorf("not monotone: p %v <= %v but q %v > %v", p[j], p[i], q[j], q[i])
				}
			}
			if q[i] < p[i] || q[i] > 1 {
				t.Errorf("q = %v for p = %v: want p <= q <= 1", q[i], p[i])
			}
		}
	}
}
