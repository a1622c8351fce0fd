package stats

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// Summarize computes the Summary of samples (durations in nanoseconds, in any
// order). It neither keeps nor modifies the caller's slice.
//
// No samples give the zero Summary (N is 0). The mean and the sample standard
// deviation (n-1) come from gonum.org/v1/gonum/stat over the samples in the
// order given; CVPct is taken over the absolute mean, so it is never negative.
// The samples are expected to be finite and non-negative; a NaN makes every
// field but N meaningless.
func Summarize(samples []float64) Summary {
	n := len(samples)
	if n == 0 {
		return Summary{}
	}
	sorted := sortedCopy(samples)
	mean, std := stat.MeanStdDev(samples, nil)
	s := Summary{
		N:              n,
		Min:            sorted[0],
		Median:         medianSorted(sorted),
		Max:            sorted[n-1],
		Mean:           mean,
		CVPct:          cvPct(n, mean, std),
		PairsOver2Pct:  pairShareSorted(sorted, 2),
		PairsOver5Pct:  pairShareSorted(sorted, 5),
		PairsOver10Pct: pairShareSorted(sorted, 10),
	}
	if s.Min != 0 {
		r := s.Max / s.Min
		s.MaxOverMin = &r
	}
	return s
}

// cvPct is the coefficient of variation in percent: 0 for fewer than two
// samples (the n-1 standard deviation is undefined) or a zero mean.
func cvPct(n int, mean, std float64) float64 {
	if n < 2 || mean == 0 {
		return 0
	}
	return 100 * std / math.Abs(mean)
}

// Median returns the median of x: the middle sample for an odd count, the mean
// of the two middle samples, (lo+hi)/2, for an even count. It is the reference
// for every ratio in a result. It does not modify x; no samples give NaN.
func Median(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	return medianSorted(sortedCopy(x))
}

// medianSorted is the median of a non-empty sorted slice.
func medianSorted(s []float64) float64 {
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// medianInPlace sorts buf and returns its median.
func medianInPlace(buf []float64) float64 {
	slices.Sort(buf)
	return medianSorted(buf)
}

// sortedCopy returns a sorted copy of x.
func sortedCopy(x []float64) []float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	return s
}

// Quartiles are the 25th, 50th and 75th percentiles of x (x unchanged):
// the median as Median computes it, the quartiles by linear
// interpolation between order statistics.
func Quartiles(x []float64) (q1, med, q3 float64) {
	s := slices.Clone(x)
	slices.Sort(s)
	at := func(p float64) float64 {
		h := p * float64(len(s)-1)
		lo := math.Floor(h)
		if int(lo)+1 >= len(s) {
			return s[len(s)-1]
		}
		return s[int(lo)] + (h-lo)*(s[int(lo)+1]-s[int(lo)])
	}
	if len(s) == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	return at(0.25), Median(s), at(0.75)
}
