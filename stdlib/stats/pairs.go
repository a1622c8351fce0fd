package stats

import (
	"fmt"
	"math"
)

// PairShare returns the share (a fraction in [0, 1]) of the n(n-1)/2 pairs of
// single samples of x whose larger value exceeds the smaller by MORE than pct
// percent of the smaller. A pair at exactly pct percent does not count; a pair
// of 0 and a positive value counts; a pair of two zeros does not. Fewer than
// two samples give 0. It does not modify x and takes O(n log n) time.
//
// The test of a pair is (larger-smaller)*100 > pct*smaller in float64, so that
// a pair of whole nanoseconds at exactly pct percent (100 and 102 at 2) is
// decided exactly. It panics if pct is negative or NaN (a programming error).
func PairShare(x []float64, pct float64) float64 {
	if pct < 0 || math.IsNaN(pct) {
		panic(fmt.Sprintf("stats.PairShare: pct must be a non-negative percentage, got %v", pct))
	}
	if len(x) < 2 {
		return 0
	}
	return pairShareSorted(sortedCopy(x), pct)
}

// exceeds reports whether larger exceeds smaller by more than pct percent of
// smaller. For pct >= 0 it is monotone: true for (smaller, larger) stays true
// when larger grows or smaller shrinks, even with rounding, which is what
// lets pairCountSorted sweep instead of testing every pair.
func exceeds(smaller, larger, pct float64) bool {
	return (larger-smaller)*100 > pct*smaller
}

// pairShareSorted is PairShare on an already sorted slice.
func pairShareSorted(s []float64, pct float64) float64 {
	n := int64(len(s))
	if n < 2 {
		return 0
	}
	return float64(pairCountSorted(s, pct)) / float64(n*(n-1)/2)
}

// pairCountSorted counts the pairs i < j of the sorted slice s with
// exceeds(s[i], s[j], pct). For each i, the pairs that count are those with j
// at or past a boundary that never moves left as i grows (exceeds is
// monotone), so one sweep of two indices counts them all in O(n).
func pairCountSorted(s []float64, pct float64) int64 {
	var count int64
	j := 0
	for i := range s {
		j = max(j, i+1)
		for j < len(s) && !exceeds(s[i], s[j], pct) {
			j++
		}
		count += int64(len(s) - j)
	}
	return count
}
