package figures

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

func slicesSort(x []float64) { slices.Sort(x) }

// ranks are the mid-ranks of x (ties share their mean rank).
func ranks(x []float64) []float64 {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		switch {
		case x[a] < x[b]:
			return -1
		case x[a] > x[b]:
			return 1
		}
		return 0
	})
	out := make([]float64, len(x))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && x[idx[j+1]] == x[idx[i]] {
			j++
		}
		for k := i; k <= j; k++ {
			out[idx[k]] = float64(i+j)/2 + 1
		}
		i = j + 1
	}
	return out
}

// Spearman is Spearman's rank correlation of x and y with its two-sided
// p-value by the t approximation on n-2 degrees of freedom.
func Spearman(x, y []float64) (rho, p float64) {
	n := float64(len(x))
	rho = stat.Correlation(ranks(x), ranks(y), nil)
	if n < 3 || math.Abs(rho) >= 1 {
		return rho, 0
	}
	t := rho * math.Sqrt((n-2)/(1-rho*rho))
	return rho, 2 * (1 - distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 2}.CDF(math.Abs(t)))
}
