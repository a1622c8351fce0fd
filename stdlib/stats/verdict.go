package stats

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mathext"
)

// vifRelVar is the relative variance Var(VIF)/VIF^2 of an inflation factor
// estimated from n values with autocorrelation rho: Bartlett's large-sample
// Var(r1) = (1-rho^2)/n times the square of d ln(VIF)/d rho = 2/(1-rho^2),
// that is 4/(n(1-rho^2)).
func vifRelVar(rho float64, n int) float64 {
	return 4 / (float64(n) * (1 - rho*rho))
}

// tTwoSided is P(|T| >= z) for Student's t with nu degrees of freedom.
func tTwoSided(z, nu float64) float64 {
	if z == 0 {
		return 1
	}
	return mathext.RegIncBeta(nu/2, 0.5, nu/(nu+z*z))
}

// tCritical is the z with tTwoSided(z, nu) = alpha.
func tCritical(alpha, nu float64) float64 {
	t := mathext.InvRegIncBeta(nu/2, 0.5, alpha)
	return math.Sqrt(nu * (1 - t) / t)
}

// Method names of a Verdict.
const (
	MethodPaired   = "wilcoxon-signed-rank/hl"
	MethodUnpaired = "mann-whitney-u/moses-hl"
)

// Verdict is the comparison of two series a and b by ComparePaired or
// CompareUnpaired. Every figure is a ratio a/b (1 is no difference). Low or
// High may be 0 or +Inf (an unbounded interval); nothing is ever NaN.
type Verdict struct {
	// Ratio is Median(a)/Median(b), the headline figure (as RatioOfMedians;
	// +Inf when Median(b) is 0).
	Ratio float64
	// Shift is exp of the Hodges-Lehmann estimate of the shift of ln a
	// against ln b: the location estimate that goes with the test and the
	// interval.
	Shift float64
	// Low and High bound the ratio a/b at confidence 1-alpha (distribution
	// free: Tukey's interval for paired, Moses' for unpaired).
	Low, High float64
	// P is the two-sided p-value of the rank test, with its variance
	// inflated for autocorrelation; 1 when the test is undefined.
	P float64
	// Rho is the lag-1 autocorrelation used for the inflation, after bias
	// correction and clipping to [RhoMin, RhoMax]; for CompareUnpaired the
	// rho whose factor (1+rho)/(1-rho) is the pooled inflation factor.
	Rho float64
	// NEff is the effective number of samples: the samples that enter the
	// test divided by the variance inflation factor.
	NEff float64
	// N is the number of rounds (paired) or len(a)+len(b) (unpaired).
	N int
	// Method is MethodPaired or MethodUnpaired.
	Method string
	// Significant is P < alpha, before any correction for multiple
	// comparisons (see Holm).
	Significant bool
}

// ComparePaired compares two series measured in rounds: a[i] and b[i] were
// taken in the same round i (rounds in time order, the order of a and b
// within a round randomised). The test is the Wilcoxon signed-rank test of
// the log-ratios, its variance inflated for the autocorrelation of the
// rounds, and the interval is the one that test inverts to (Tukey's
// interval, around the Hodges-Lehmann estimate). Step by step:
//
//  1. d_i = math.Log(a[i]/b[i]) for each round i, in round order. (Dividing
//     first makes equal ratios give equal d_i exactly.) Rounds with d_i == 0
//     are dropped (Wilcoxon's convention); n is the number left, in order.
//  2. Rank |d_i| from 1 to n, tied values sharing the mean of their ranks
//     (mid-ranks); R_i is the rank of |d_i|. Signed ranks s_i = sign(d_i)*R_i.
//     The statistic W = sum of R_i over d_i > 0. Equivalently W counts the
//     Walsh averages w_ij = (d_i + d_j)/2, i <= j, that are > 0, plus half
//     of those == 0 (an identity, with ties too, and in float64: a sum of two
//     doubles has the sign of the exact sum and is 0 only for d_j == -d_i).
//  3. Under no difference (d symmetric about 0) and independent rounds,
//     E[W] = M/2 with M = n(n+1)/2, and Var0 = n(n+1)(2n+1)/24 -
//     sum_g (t_g^3 - t_g)/48 over the groups g of t_g tied |d_i|.
//  4. Autocorrelation: the statistic sums the signed ranks (W - M/2 =
//     sum(s_i)/2), so r1 = Autocorrelation(s) of the signed ranks in round
//     order, rho = r1 + (1+4*r1)/n (the first-order correction of the bias
//     E[r1] = rho - (1+4rho)/n of the AR(1) model), clipped to [RhoMin,
//     RhoMax] = [0, 0.9]; rho is 0 for n < 3. VIF = (1+rho)/(1-rho), the factor by which AR(1)
//     autocorrelation rho multiplies the variance of a sum; sigma =
//     sqrt(VIF*Var0); NEff = n/VIF.
//  5. The inflation factor is itself an estimate, and an underestimate makes
//     the test too liberal, so the reference distribution is Student's t
//     rather than the normal, with the degrees of freedom of the estimate
//     (Satterthwaite): Var(rho) = (1-rho^2)/n (Bartlett) and d ln(VIF)/d rho
//     = 2/(1-rho^2) give Var(VIF)/VIF^2 = 4/(n(1-rho^2)), and nu = 2 /
//     (Var(VIF)/VIF^2) = n(1-rho^2)/2. As nu grows this is the normal test.
//  6. z = max(0, |W - M/2| - 0.5)/sigma (continuity correction); P =
//     P(|T_nu| >= z) = I_{nu/(nu+z^2)}(nu/2, 1/2), the regularized
//     incomplete beta function (gonum.org/v1/gonum/mathext.RegIncBeta); P
//     is 1 for z = 0.
//  7. zc = the z at which P = alpha: t = mathext.InvRegIncBeta(nu/2, 1/2,
//     alpha), zc = sqrt(nu(1-t)/t); k = ceil(M/2 - 0.5 - zc*sigma).
//     Sort the M Walsh averages ascending; Low = exp(w_(k)), High =
//     exp(w_(M+1-k)) (1-based). Shift = exp(median of the Walsh averages)
//     (the mean of the two middle ones for even M).
//
// Consistency: the interval excludes 1 exactly when P < alpha (up to the
// rounding of P and zc at the boundary), except when some Walsh averages are
// exactly 0 (some d_j == -d_i): the interval then counts them as not above 0
// where the test counts them as half, so a test just below alpha can come
// with an interval that has 1 as an end point. Significant is P < alpha.
//
// Edge cases. alpha outside (0, 1): the zero Verdict and an error. An empty
// series: ErrNoSamples. Different lengths: ErrUnpaired. A sample that is not
// a positive finite number (ln undefined): Ratio as computable (Median(a)/
// Median(b): 0 for a zero Median(a), +Inf for a zero Median(b) as in
// RatioOfMedians, +Inf instead of NaN for a NaN sample), Shift = Ratio, Low
// 0, High +Inf, P 1, Rho and NEff 0, an error wrapping ErrNonPositive. Every d_i == 0 (a[i] == b[i] in every round): P 1, Shift,
// Low and High 1, no error. k < 1 (no data of this n and VIF could reach
// alpha; at alpha 0.05 and rho 0 that is n < 10, and more rounds are needed
// as rho grows): the interval is [0, +Inf], P is as computed (and >=
// alpha), and the error wraps ErrTooFew.
//
// Recomputing elsewhere: the logarithms are Go's math.Log; another libm may
// differ in the last bit, which moves Low, High and Shift by as much and can
// change a rank only between values within an ulp of each other.
//
// It takes O(n log n) expected time and O(n) memory (the Walsh averages
// are never stored: their order statistics are selected, select.go) and
// does not modify a or b.
func ComparePaired(a, b []float64, alpha float64) (Verdict, error) {
	if err := checkAlpha(alpha); err != nil {
		return Verdict{}, err
	}
	if len(a) == 0 || len(b) == 0 {
		return Verdict{}, fmt.Errorf("stats: paired comparison needs samples in both series, got len(a)=%d, len(b)=%d: %w",
			len(a), len(b), ErrNoSamples)
	}
	if len(a) != len(b) {
		return Verdict{}, fmt.Errorf("stats: paired comparison needs one sample of each series per round, got len(a)=%d, len(b)=%d: %w",
			len(a), len(b), ErrUnpaired)
	}
	v := Verdict{Ratio: safeRatio(a, b), N: len(a), Method: MethodPaired}
	if err := checkPositive(a, b); err != nil {
		return undefined(v), err
	}
	d := make([]float64, 0, len(a))
	for i := range a {
		if q := math.Log(a[i] / b[i]); q != 0 {
			d = append(d, q)
		}
	}
	n := len(d)
	if n == 0 {
		return noDifference(v), nil
	}
	ranks, ties := midRanks(d, math.Abs)
	var w float64
	s := make([]float64, n)
	for i, r := range ranks {
		if d[i] > 0 {
			w += r
			s[i] = r
		} else {
			s[i] = -r
		}
	}
	nf := float64(n)
	var0 := nf*(nf+1)*(2*nf+1)/24 - ties/48
	v.Rho = rhoCorrected(s)
	vif := vifOf(v.Rho)
	v.NEff = nf / vif
	nu := 2 / vifRelVar(v.Rho, n)
	walsh := walshAverages(d) // select.go: never materialised
	return finish(v, w, var0, vif, nu, walsh, alpha)
}

// CompareUnpaired compares two independent series: each sample of a and of
// b from its own fresh process, each series in time order. The test is the
// Mann-Whitney U test of the log-samples, its variance inflated for the
// autocorrelation of each series, and the interval the one that test
// inverts to (Moses' interval around the Hodges-Lehmann estimate). Step by
// step:
//
//  1. x_i = math.Log(a[i]), y_j = math.Log(b[j]); n1 = len(a), n2 = len(b),
//     N = n1+n2, M = n1*n2.
//  2. Rank the N values together, ties sharing the mean of their ranks.
//     U = (sum of the ranks of the x) - n1(n1+1)/2. Equivalently U counts
//     the differences x_i - y_j > 0, plus half of those == 0.
//  3. Under no difference and independent samples E[U] = M/2 and Var0 =
//     M/12 * ((N+1) - sum_g (t_g^3 - t_g)/(N(N-1))) over the groups of t_g
//     tied values.
//  4. Autocorrelation: rho_a = the corrected, clipped lag-1 autocorrelation
//     (as in ComparePaired step 4, with n = n1) of the x's ranks from step
//     2 (among all N), in time order; rho_b likewise of the y's ranks (n =
//     n2); VIF_a, VIF_b =
//     (1+rho)/(1-rho). U - M/2 is, to first order (Hoeffding), n2 times a
//     sum over a of F(x_i)-1/2 minus n1 times a sum over b, so its variance
//     is M/12 * (n2*VIF_a + n1*VIF_b): the pooled VIF = (n2*VIF_a +
//     n1*VIF_b)/N. sigma = sqrt(VIF*Var0); NEff = N/VIF; Rho =
//     (VIF-1)/(VIF+1).
//  5. Degrees of freedom as in ComparePaired step 5, for the pooled factor:
//     with w_a = n2*VIF_a, w_b = n1*VIF_b and each relative variance
//     v = 4/(n(1-rho^2)) of its own series, nu = 2 (w_a+w_b)^2 / (w_a^2 v_a
//     + w_b^2 v_b).
//  6. P as in ComparePaired step 6, with U for W. This approximation is used
//     at every size (no exact distribution: it could not carry the
//     inflation, and the interval must use the same null).
//  7. k as in ComparePaired step 7; the M differences x_i - y_j sorted
//     ascending give Low = exp(D_(k)), High = exp(D_(M+1-k)), Shift =
//     exp(median of the differences).
//
// Consistency and edge cases are those of ComparePaired, with differences
// == 0 (tied samples across a and b) in place of Walsh averages == 0, and:
// every sample of a and b equal gives P 1, Shift, Low and High 1, no error.
// At alpha 0.05 and rho 0, n1 = n2 = 5 is too few (ErrTooFew) and 6 enough.
//
// It takes O(N log N) expected time and O(N) memory (the differences are
// never stored: select.go) and does not modify a or b.
func CompareUnpaired(a, b []float64, alpha float64) (Verdict, error) {
	if err := checkAlpha(alpha); err != nil {
		return Verdict{}, err
	}
	if len(a) == 0 || len(b) == 0 {
		return Verdict{}, fmt.Errorf("stats: unpaired comparison needs samples in both series, got len(a)=%d, len(b)=%d: %w",
			len(a), len(b), ErrNoSamples)
	}
	n1, n2 := len(a), len(b)
	v := Verdict{Ratio: safeRatio(a, b), N: n1 + n2, Method: MethodUnpaired}
	if err := checkPositive(a, b); err != nil {
		return undefined(v), err
	}
	all := make([]float64, 0, n1+n2)
	for _, x := range a {
		all = append(all, math.Log(x))
	}
	for _, y := range b {
		all = append(all, math.Log(y))
	}
	ranks, ties := midRanks(all, nil)
	nf, n1f, n2f := float64(n1+n2), float64(n1), float64(n2)
	var r1 float64
	for _, r := range ranks[:n1] {
		r1 += r
	}
	u := r1 - n1f*(n1f+1)/2
	m := n1f * n2f
	var0 := m / 12 * ((nf + 1) - ties/(nf*(nf-1)))
	if var0 <= 0 {
		return noDifference(v), nil
	}
	rhoA, rhoB := rhoCorrected(ranks[:n1]), rhoCorrected(ranks[n1:])
	wa, wb := n2f*vifOf(rhoA), n1f*vifOf(rhoB)
	vif := (wa + wb) / nf
	nu := 2 * (wa + wb) * (wa + wb) / (wa*wa*vifRelVar(rhoA, n1) + wb*wb*vifRelVar(rhoB, n2))
	v.Rho = (vif - 1) / (vif + 1)
	v.NEff = nf / vif
	diffs := differences(all[:n1], all[n1:]) // select.go: never materialised
	return finish(v, u, var0, vif, nu, diffs, alpha)
}

// finish fills in P, the interval, Shift and Significant from the rank
// statistic stat (W or U), its null variance var0 under independence, the
// inflation factor vif and the sorted Walsh averages or differences, whose
// count M is the statistic's range (steps 6 and 7 of ComparePaired).
func finish(v Verdict, stat, var0, vif, nu float64, sorted orderStats, alpha float64) (Verdict, error) {
	m := sorted.Len()
	half := float64(m) / 2
	sigma := math.Sqrt(vif * var0)
	z := max(0, math.Abs(stat-half)-0.5) / sigma
	v.P = tTwoSided(z, nu)
	v.Significant = v.P < alpha
	v.Shift = math.Exp(medianOf(sorted))
	zc := tCritical(alpha, nu)
	k := int(math.Ceil(half - 0.5 - zc*sigma))
	if k < 1 {
		v.Low, v.High = 0, math.Inf(1)
		return v, fmt.Errorf("stats: %s of %d samples (effective %.3g, inflation %.3g): no interval at alpha %v: %w",
			v.Method, v.N, v.NEff, vif, alpha, ErrTooFew)
	}
	v.Low, v.High = math.Exp(sorted.Kth(k-1)), math.Exp(sorted.Kth(m-k))
	return v, nil
}

// midRanks returns the ranks 1..n of key(x_i) (x_i itself for a nil key),
// ties sharing the mean of their ranks, and sum_g (t_g^3 - t_g) over the
// groups of t_g tied values.
func midRanks(x []float64, key func(float64) float64) (ranks []float64, ties float64) {
	n := len(x)
	kx := slices.Clone(x)
	if key != nil {
		for i := range kx {
			kx[i] = key(kx[i])
		}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int {
		switch {
		case kx[i] < kx[j]:
			return -1
		case kx[i] > kx[j]:
			return 1
		}
		return 0
	})
	ranks = make([]float64, n)
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && kx[order[hi]] == kx[order[lo]] {
			hi++
		}
		mid := float64(lo+1+hi) / 2 // mean of the ranks lo+1 .. hi
		for _, i := range order[lo:hi] {
			ranks[i] = mid
		}
		t := float64(hi - lo)
		ties += t*t*t - t
		lo = hi
	}
	return ranks, ties
}

// checkAlpha checks that alpha is in (0, 1).
func checkAlpha(alpha float64) error {
	if !(alpha > 0 && alpha < 1) {
		return fmt.Errorf("stats: compare: alpha must be in (0, 1), got %v", alpha)
	}
	return nil
}

// checkPositive returns an error wrapping ErrNonPositive for the first
// sample of a or b that is not a positive finite number.
func checkPositive(a, b []float64) error {
	for _, s := range []struct {
		name string
		x    []float64
	}{{"a", a}, {"b", b}} {
		for i, v := range s.x {
			if !(v > 0 && !math.IsInf(v, 1)) {
				return fmt.Errorf("stats: compare: %s[%d] = %v, its logarithm is undefined: %w", s.name, i, v, ErrNonPositive)
			}
		}
	}
	return nil
}

// safeRatio is Median(a)/Median(b) as RatioOfMedians gives it (+Inf for a
// zero Median(b)), and +Inf for what would otherwise be NaN (a NaN sample).
func safeRatio(a, b []float64) float64 {
	r := ratioOf(Median(a), Median(b))
	if math.IsNaN(r) {
		return math.Inf(1)
	}
	return r
}

// undefined is the verdict of a comparison whose logarithms are undefined.
func undefined(v Verdict) Verdict {
	v.Shift, v.Low, v.High, v.P = v.Ratio, 0, math.Inf(1), 1
	return v
}

// noDifference is the verdict of data without a single difference.
func noDifference(v Verdict) Verdict {
	v.Shift, v.Low, v.High, v.P = 1, 1, 1, 1
	return v
}
