package stats

import (
	"fmt"
	"math"
)

// MethodClustered names a Verdict of CompareClustered.
const MethodClustered = "process-pairs/t"

// MinClusters is the fewest process pairs CompareClustered judges.
const MinClusters = 3

// CompareClustered compares two builds measured in pairs of processes: in
// pair j a process of each build took rounds in turn, a[j][i] and b[j][i]
// being round i of pair j. Rounds within one pair share the two processes'
// placement in memory (stack and heap addresses, physical pages), which
// can make one process a fraction of a percent faster than another running
// the same bytes; so the process pair, not the round, is the unit that
// replicates, and the test is across pairs. Step by step:
//
//  1. For each pair j with at least one round: d_ji = math.Log(a[j][i]/b[j][i])
//     and m_j = Median(d_j), the pair's shift.
//  2. P is the number of such pairs; fewer than MinClusters: P = 1, Low 0,
//     High +Inf, an error wrapping ErrTooFew.
//  3. mean and s (n-1 standard deviation) of the m_j. If s is 0: P 1 and
//     the interval [1, 1] when the mean is 0, else P 0 and the interval
//     [exp(mean), exp(mean)].
//  4. t = mean / (s/sqrt(P)); P-value two-sided from Student's t with P-1
//     degrees of freedom; the interval is exp(mean -+ t_crit * s/sqrt(P))
//     with t_crit the two-sided alpha quantile of the same t; Shift is
//     exp(mean).
//  5. Ratio is Median of all a over Median of all b (the headline figure);
//     N is the number of rounds; NEff is P; Rho is 0 (the rounds' own
//     autocorrelation does not enter a test across pairs).
//
// Any sample that is not positive and finite makes the logarithms
// undefined: Ratio as RatioOfMedians, P 1, [0, +Inf], ErrNonPositive.
func CompareClustered(a, b [][]float64, alpha float64) (Verdict, error) {
	if !(alpha > 0 && alpha < 1) {
		return Verdict{}, fmt.Errorf("stats: compare clustered: alpha must be in (0, 1), got %v", alpha)
	}
	if len(a) != len(b) {
		return Verdict{}, fmt.Errorf("stats: compare clustered: %d pairs of a, %d of b: %w", len(a), len(b), ErrUnpaired)
	}
	var all, bll []float64
	var shifts []float64
	for j := range a {
		if len(a[j]) != len(b[j]) {
			return Verdict{}, fmt.Errorf("stats: compare clustered: pair %d has %d rounds of a, %d of b: %w", j, len(a[j]), len(b[j]), ErrUnpaired)
		}
		all, bll = append(all, a[j]...), append(bll, b[j]...)
	}
	if len(all) == 0 {
		return Verdict{}, fmt.Errorf("stats: compare clustered: no rounds: %w", ErrNoSamples)
	}
	v := Verdict{Ratio: safeRatio(all, bll), N: len(all), Method: MethodClustered}
	if err := checkPositive(all, bll); err != nil {
		return undefined(v), err
	}
	for j := range a {
		if len(a[j]) == 0 {
			continue
		}
		d := make([]float64, len(a[j]))
		for i := range d {
			d[i] = math.Log(a[j][i] / b[j][i])
		}
		shifts = append(shifts, Median(d))
	}
	p := len(shifts)
	v.NEff = float64(p)
	if p < MinClusters {
		return undefined(v), fmt.Errorf("stats: compare clustered: %d process pairs, at least %d are needed: %w", p, MinClusters, ErrTooFew)
	}
	mean, sd := meanSD(shifts)
	v.Shift = math.Exp(mean)
	if sd == 0 {
		v.Low, v.High, v.P = v.Shift, v.Shift, 1
		if mean != 0 {
			v.P = 0
		}
		v.Significant = v.P < alpha
		return v, nil
	}
	se := sd / math.Sqrt(float64(p))
	nu := float64(p - 1)
	v.P = tTwoSided(math.Abs(mean)/se, nu)
	v.Significant = v.P < alpha
	tc := tCritical(alpha, nu)
	v.Low, v.High = math.Exp(mean-tc*se), math.Exp(mean+tc*se)
	return v, nil
}

// meanSD is the mean and the n-1 standard deviation of x.
func meanSD(x []float64) (mean, sd float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(ss / float64(len(x)-1))
}
