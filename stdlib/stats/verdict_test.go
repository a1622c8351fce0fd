package stats

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// The reference implementations below recompute a Verdict from the
// definitions, by brute force and by other routes than the package takes:
// ranks by counting, tie groups by counting, the statistics as counts of
// positive Walsh averages or differences, the t distribution through
// gonum's distuv.StudentsT.

// refRank is the mid-rank of v among xs by counting: 1 + #{x < v} +
// (#{x == v} - 1)/2.
func refRank(xs []float64, v float64) float64 {
	less, equal := 0, 0
	for _, x := range xs {
		if x < v {
			less++
		} else if x == v {
			equal++
		}
	}
	return 1 + float64(less) + float64(equal-1)/2
}

// refTies is sum (t^3 - t) over the groups of equal values, by counting
// for each value how many equal it (each group of t is seen t times).
func refTies(xs []float64) float64 {
	var s float64
	for _, v := range xs {
		t := 0.0
		for _, x := range xs {
			if x == v {
				t++
			}
		}
		s += (t*t*t - t) / t
	}
	return s
}

// refAutocorrelation is r1 written out with the mean as a separate pass.
func refAutocorrelation(x []float64) float64 {
	n := len(x)
	if n < 3 {
		return 0
	}
	m := 0.0
	for i := 0; i < n; i++ {
		m += x[i]
	}
	m /= float64(n)
	num, den := 0.0, 0.0
	for i := 0; i < n-1; i++ {
		num += (x[i] - m) * (x[i+1] - m)
	}
	for i := 0; i < n; i++ {
		den += (x[i] - m) * (x[i] - m)
	}
	if den == 0 {
		return 0
	}
	return num / den
}

func refRho(x []float64) float64 {
	r := refAutocorrelation(x)
	n := float64(len(x))
	if len(x) < 3 {
		return 0
	}
	return math.Min(math.Max(r+(1+4*r)/n, 0), 0.9)
}

// refFinish is steps 5 to 7 of ComparePaired from the count statistic,
// through distuv.StudentsT.
func refFinish(v Verdict, stat, var0, vif, nu float64, sorted []float64, alpha float64) Verdict {
	m := len(sorted)
	sigma := math.Sqrt(vif * var0)
	z := math.Max(0, math.Abs(stat-float64(m)/2)-0.5) / sigma
	tdist := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: nu}
	v.P = 1
	if z > 0 {
		v.P = 2 * tdist.Survival(z)
	}
	v.Significant = v.P < alpha
	if m%2 == 1 {
		v.Shift = math.Exp(sorted[m/2])
	} else {
		v.Shift = math.Exp((sorted[m/2-1] + sorted[m/2]) / 2)
	}
	zc := tdist.Quantile(1 - alpha/2)
	k := int(math.Ceil(float64(m)/2 - 0.5 - zc*sigma))
	if k < 1 {
		v.Low, v.High = 0, math.Inf(1)
	} else {
		v.Low, v.High = math.Exp(sorted[k-1]), math.Exp(sorted[m-k])
	}
	return v
}

// refPaired is ComparePaired for valid positive input with some d != 0.
func refPaired(a, b []float64, alpha float64) Verdict {
	var d []float64
	for i := range a {
		if q := math.Log(a[i] / b[i]); q != 0 {
			d = append(d, q)
		}
	}
	n := len(d)
	abs := make([]float64, n)
	for i := range d {
		abs[i] = math.Abs(d[i])
	}
	s := make([]float64, n)
	for i := range d {
		s[i] = math.Copysign(refRank(abs, abs[i]), d[i])
	}
	// W by definition: Walsh averages above 0 plus half of those at 0.
	var w float64
	var walsh []float64
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			avg := (d[i] + d[j]) / 2
			walsh = append(walsh, avg)
			if avg > 0 {
				w++
			} else if avg == 0 {
				w += 0.5
			}
		}
	}
	slices.Sort(walsh)
	nf := float64(n)
	var0 := nf*(nf+1)*(2*nf+1)/24 - refTies(abs)/48
	rho := refRho(s)
	vif := (1 + rho) / (1 - rho)
	nu := nf * (1 - rho*rho) / 2
	v := Verdict{Ratio: Median(a) / Median(b), N: len(a), Method: MethodPaired, Rho: rho, NEff: nf / vif}
	return refFinish(v, w, var0, vif, nu, walsh, alpha)
}

// refUnpaired is CompareUnpaired for valid positive input not all equal.
func refUnpaired(a, b []float64, alpha float64) Verdict {
	var x, y, all []float64
	for _, v := range a {
		x = append(x, math.Log(v))
	}
	for _, v := range b {
		y = append(y, math.Log(v))
	}
	all = append(append(all, x...), y...)
	// U by definition: pairs with x > y plus half the ties.
	var u float64
	var diffs []float64
	for _, xi := range x {
		for _, yj := range y {
			diffs = append(diffs, xi-yj)
			if xi > yj {
				u++
			} else if xi == yj {
				u += 0.5
			}
		}
	}
	slices.Sort(diffs)
	rx, ry := make([]float64, len(x)), make([]float64, len(y))
	for i := range x {
		rx[i] = refRank(all, x[i])
	}
	for j := range y {
		ry[j] = refRank(all, y[j])
	}
	n1, n2 := float64(len(x)), float64(len(y))
	nn := n1 + n2
	var0 := n1 * n2 / 12 * ((nn + 1) - refTies(all)/(nn*(nn-1)))
	ra, rb := refRho(rx), refRho(ry)
	va, vb := (1+ra)/(1-ra), (1+rb)/(1-rb)
	vif := (n2*va + n1*vb) / nn
	// Satterthwaite: Var(VIF) = sum of (weight/N)^2 * VIF_i^2 * 4/(n_i(1-rho_i^2)).
	varVIF := (n2*va/nn)*(n2*va/nn)*4/(n1*(1-ra*ra)) + (n1*vb/nn)*(n1*vb/nn)*4/(n2*(1-rb*rb))
	nu := 2 * vif * vif / varVIF
	v := Verdict{Ratio: Median(a) / Median(b), N: len(a) + len(b), Method: MethodUnpaired,
		Rho: (vif - 1) / (vif + 1), NEff: nn / vif}
	return refFinish(v, u, var0, vif, nu, diffs, alpha)
}

// sameVerdict compares got with the reference: fields that come from the
// same floating-point operations exactly, P and Rho and NEff to 1e-12 (other
// orders of operations), the bounds exactly (they are exp of the same
// Walsh averages or differences).
func sameVerdict(t *testing.T, what string, got, want Verdict) {
	t.Helper()
	if got.N != want.N || got.Method != want.Method || got.Ratio != want.Ratio ||
		got.Shift != want.Shift || got.Low != want.Low || got.High != want.High ||
		got.Significant != want.Significant {
		t.Errorf("%s:\n got %+v\nwant %+v", what, got, want)
		return
	}
	for _, f := range []struct {
		name      string
		got, want float64
	}{{"P", got.P, want.P}, {"Rho", got.Rho, want.Rho}, {"NEff", got.NEff, want.NEff}} {
		if math.Abs(f.got-f.want) > 1e-12*math.Max(1, math.Abs(f.want)) {
			t.Errorf("%s: %s = %v, the reference gives %v", what, f.name, f.got, f.want)
		}
	}
}

// trialData draws two series of n: continuous (no ties) or rounded to a
// coarse clock (many ties), with a shift and optional AR(1) noise.
func trialData(rng *rand.Rand, n int, coarse bool) (a, b []float64) {
	a, b = make([]float64, n), make([]float64, n)
	shift := []float64{1, 1.01, 1.05, 0.97}[rng.IntN(4)]
	phi := []float64{0, 0.5, 0.8}[rng.IntN(3)]
	ea, eb := make([]float64, n), make([]float64, n)
	ar1(rng, ea, phi, 0.02)
	ar1(rng, eb, phi, 0.02)
	for i := range n {
		a[i], b[i] = 1000*math.Exp(ea[i]), 1000*shift*math.Exp(eb[i])
		if coarse {
			a[i], b[i] = 10*math.Round(a[i]/10), 10*math.Round(b[i]/10)
		}
	}
	return a, b
}

func TestComparePairedReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for trial := range 300 {
		n := []int{6, 10, 17, 30, 64}[trial%5]
		a, b := trialData(rng, n, trial%2 == 1)
		alpha := []float64{0.05, 0.01, 0.2}[trial%3]
		got, err := ComparePaired(a, b, alpha)
		if err != nil && !errors.Is(err, ErrTooFew) {
			t.Fatal(err)
		}
		if slices.Equal(a, b) {
			continue
		}
		want := refPaired(a, b, alpha)
		sameVerdict(t, "paired", got, want)
		if errors.Is(err, ErrTooFew) != (want.High == math.Inf(1)) {
			t.Errorf("ErrTooFew %v with interval [%v, %v]", err, want.Low, want.High)
		}
	}
}

func TestCompareUnpairedReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for trial := range 300 {
		n := []int{6, 10, 17, 30, 64}[trial%5]
		a, b := trialData(rng, n, trial%2 == 1)
		b = b[:n-trial%3] // unequal sizes too
		alpha := []float64{0.05, 0.01, 0.2}[trial%3]
		got, err := CompareUnpaired(a, b, alpha)
		if err != nil && !errors.Is(err, ErrTooFew) {
			t.Fatal(err)
		}
		sameVerdict(t, "unpaired", got, refUnpaired(a, b, alpha))
	}
}

// TestTestAgreesWithInterval checks the consistency of ComparePaired and
// CompareUnpaired: with continuous data (no Walsh average or difference
// exactly 0) P < alpha exactly when the interval excludes 1.
func TestTestAgreesWithInterval(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	counts := map[bool]int{}
	for trial := range 1000 {
		n := []int{10, 12, 20, 30}[trial%4]
		a, b := trialData(rng, n, false)
		alpha := []float64{0.05, 0.01, 0.1}[trial%3]
		for _, f := range []compareFunc{ComparePaired, CompareUnpaired} {
			v, _ := f(a, b, alpha)
			excludes := v.Low > 1 || v.High < 1
			counts[excludes]++
			if (v.P < alpha) != excludes {
				t.Errorf("%s n=%d alpha %v: P = %v but interval [%v, %v]", v.Method, n, alpha, v.P, v.Low, v.High)
			}
		}
	}
	if counts[true] < 200 || counts[false] < 200 {
		t.Errorf("the trials exercise too little of both sides: %v", counts)
	}
}

// TestSignedRankByHand checks a case computed by hand. d = ln 2 * (1, -2, 3,
// 4, 5, 6, 7, 8, 9, 10) has ranks 1..10, W = 55 - 2 = 53 of M = 55. The
// signed ranks 1 -2 3 ... 10 have mean 5.1; the corrected autocorrelation
// of such a trend is clipped at 0.9 (VIF 19), so n = 10 cannot reach 0.05:
// ErrTooFew, an unbounded interval, and P from t with 10*0.19/2 = 0.95 df.
func TestSignedRankByHand(t *testing.T) {
	var a, b []float64
	for i := 1; i <= 10; i++ {
		k := float64(i)
		if i == 2 {
			k = -2
		}
		a = append(a, math.Exp2(k))
		b = append(b, 1)
	}
	v, err := ComparePaired(a, b, 0.05)
	if !errors.Is(err, ErrTooFew) {
		t.Fatalf("err = %v, want ErrTooFew", err)
	}
	if v.Rho != 0.9 || v.Low != 0 || !math.IsInf(v.High, 1) || v.Significant {
		t.Errorf("%+v: want rho 0.9, [0, +Inf], not significant", v)
	}
	sigma := math.Sqrt(19 * 10 * 11 * 21 / 24.0)
	want := 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: 0.95}.Survival((53-27.5-0.5)/sigma)
	checkNear(t, "P", v.P, want)
	checkNear(t, "NEff", v.NEff, 10.0/19)
}

// TestMannWhitneyByHand: a = 1 2 4, b = 3 5 6 (as in TestMannWhitney): U =
// 1 of M = 9. Too few for any interval at n = 3 a side (ErrTooFew).
func TestMannWhitneyByHand(t *testing.T) {
	v, err := CompareUnpaired([]float64{1, 2, 4}, []float64{3, 5, 6}, 0.05)
	if !errors.Is(err, ErrTooFew) {
		t.Fatalf("err = %v, want ErrTooFew", err)
	}
	// Ranks of a in time order 1 2 4: r1 = (-4/3*-1/3 + -1/3*5/3)/(16/9+1/9+25/9) = (4/9-5/9)/(42/9) = -1/42.
	checkNear(t, "Autocorrelation", Autocorrelation([]float64{1, 2, 4}), -1.0/42)
	// The nine ratios a_i/b_j sorted: 1/6 1/5 2/6 1/3 2/5 2/3 4/6 4/5 4/3; the
	// fifth is 2/5. Median(a)/Median(b) = 2/5 as well.
	checkNear(t, "Shift", v.Shift, 0.4)
	checkNear(t, "Ratio", v.Ratio, 0.4)
	// U = 1: z = (4.5 - 1 - 0.5)/sigma, sigma^2 = VIF * 9*7/12.
	if !(v.P > 0.05 && v.P < 1) || v.Significant {
		t.Errorf("P = %v, significant %v: want a p-value above 0.05", v.P, v.Significant)
	}

}
