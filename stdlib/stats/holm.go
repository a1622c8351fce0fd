package stats

import (
	"math"
	"slices"
)

// Holm returns the Holm-Bonferroni adjusted p-values of the m p-values p, in
// the order of p. Rejecting every hypothesis whose adjusted p-value is below
// alpha keeps the probability of any false rejection among the m at most
// alpha, whatever the dependence between the tests.
//
// Sort p ascending (a stable sort, so equal p-values keep their input order),
// p_(1) <= ... <= p_(m). The j-th smallest gets
//
//	q_(j) = min(1, max_{i <= j} (m - i + 1) * p_(i))
//
// (the running maximum makes the adjusted values monotone in p; equal inputs
// get equal outputs). Example: p = [0.01, 0.04, 0.03, 0.005] sorts to 0.005,
// 0.01, 0.03, 0.04; times 4, 3, 2, 1: 0.02, 0.03, 0.06, 0.04; running
// maximum: 0.02, 0.03, 0.06, 0.06; in input order [0.03, 0.06, 0.06, 0.02].
//
// A NaN p-value is taken as 1 (never a rejection). No p-values give an empty
// (non-nil) slice. It does not modify p.
func Holm(p []float64) []float64 {
	m := len(p)
	q := make([]float64, m)
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	val := func(i int) float64 {
		if math.IsNaN(p[i]) {
			return 1
		}
		return p[i]
	}
	slices.SortStableFunc(order, func(i, j int) int {
		vi, vj := val(i), val(j)
		switch {
		case vi < vj:
			return -1
		case vi > vj:
			return 1
		}
		return 0
	})
	running := 0.0
	for j, i := range order {
		running = max(running, min(1, float64(m-j)*val(i)))
		q[i] = running
	}
	return q
}
