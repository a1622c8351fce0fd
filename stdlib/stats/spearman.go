package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Rank is a rank correlation: Spearman's rho of n pairs and its two-sided
// p-value for rho = 0.
type Rank struct {
	N   int
	Rho float64
	P   float64
}

// Spearman is Spearman's rank correlation of x and y: the Pearson
// correlation (gonum's stat.Correlation) of their ranks, ties sharing the
// mean of their ranks. The p-value is two-sided from the t approximation,
// t = rho sqrt((n-2)/(1-rho^2)) with n-2 degrees of freedom (gonum's
// distuv.StudentsT), adequate from about 10 pairs. Errors: x and y of
// different lengths, fewer than 4 pairs (ErrTooFew), or either constant
// (no ranking: rho undefined).
func Spearman(x, y []float64) (Rank, error) {
	if len(x) != len(y) {
		return Rank{}, fmt.Errorf("stats: Spearman of %d and %d values", len(x), len(y))
	}
	n := len(x)
	if n < 4 {
		return Rank{}, fmt.Errorf("stats: Spearman of %d pairs: %w", n, ErrTooFew)
	}
	rx, _ := midRanks(x, nil)
	ry, _ := midRanks(y, nil)
	rho := stat.Correlation(rx, ry, nil)
	if math.IsNaN(rho) {
		return Rank{}, fmt.Errorf("stats: Spearman of %d pairs: a constant series has no ranking", n)
	}
	r := Rank{N: n, Rho: rho, P: 0}
	if math.Abs(rho) < 1 {
		df := float64(n - 2)
		t := rho * math.Sqrt(df/(1-rho*rho))
		r.P = 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Survival(math.Abs(t))
	}
	return r, nil
}
