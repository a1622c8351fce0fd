package stats

import (
	"errors"
	"fmt"

	mstats "github.com/aclements/go-moremath/stats"
)

// MannWhitney returns the two-sided p-value of the Mann-Whitney U test of a
// against b, from github.com/aclements/go-moremath/stats.MannWhitneyUTest:
// the exact distribution of U (ties included) up to 50 samples a side without
// ties and 25 with ties, the normal approximation with tie and continuity
// corrections beyond.
//
// On error p is 1, the value that never claims a difference. Errors: a series
// is empty (ErrNoSamples), or every sample of a and b is the same value
// (ErrSamplesEqual: there is no ranking to test).
func MannWhitney(a, b []float64) (p float64, err error) {
	if len(a) == 0 || len(b) == 0 {
		return 1, fmt.Errorf("stats: Mann-Whitney U test needs samples on both sides, got len(a)=%d, len(b)=%d: %w",
			len(a), len(b), ErrNoSamples)
	}
	res, err := mstats.MannWhitneyUTest(a, b, mstats.LocationDiffers)
	if errors.Is(err, mstats.ErrSamplesEqual) {
		return 1, fmt.Errorf("stats: Mann-Whitney U test of %d and %d samples: every sample is %g: %w",
			len(a), len(b), a[0], ErrSamplesEqual)
	}
	if err != nil {
		return 1, fmt.Errorf("stats: Mann-Whitney U test of %d and %d samples: %w", len(a), len(b), err)
	}
	return res.P, nil
}

// Comparison is the comparison of two series a and b: the ratio of their
// medians a/b with its bootstrap interval, the Mann-Whitney p-value, and
// whether the difference is significant.
type Comparison struct {
	Interval
	P           float64
	Significant bool
}

// Compare compares a with b: RatioOfMedians(a, b, opt) and MannWhitney(a, b).
// It ignores the pairing of rounds in its test and the autocorrelation of
// the samples (see the package doc); ComparePaired and CompareUnpaired do
// not.
//
// The rule: a difference is Significant when p < alpha AND the interval
// excludes 1. Both must hold because they answer different questions: the
// rank test says the two series are unlikely to come from one distribution,
// the interval says the medians (the figure every ratio reports) differ.
//
// Invalid input (empty series, bad options, alpha outside (0, 1)) gives the
// zero Comparison and an error. When the data make a statistic undefined (a
// zero median in b: ErrZeroMedian; all samples equal: ErrSamplesEqual) the
// other fields are still filled in (Ratio +Inf, P 1, as documented on
// RatioOfMedians and MannWhitney), Significant is false, and the error says
// why; callers report such a comparison as unresolved.
func Compare(a, b []float64, opt Bootstrap, alpha float64) (Comparison, error) {
	if !(alpha > 0 && alpha < 1) {
		return Comparison{}, fmt.Errorf("stats: compare: alpha must be in (0, 1), got %v", alpha)
	}
	iv, err := RatioOfMedians(a, b, opt)
	if err != nil && !errors.Is(err, ErrZeroMedian) {
		return Comparison{}, err
	}
	p, perr := MannWhitney(a, b)
	c := Comparison{Interval: iv, P: p}
	if err := errors.Join(err, perr); err != nil {
		return c, err
	}
	c.Significant = significant(p, alpha, iv)
	return c, nil
}

// significant is the rule of Compare.
func significant(p, alpha float64, iv Interval) bool {
	return p < alpha && iv.Excludes(1)
}
