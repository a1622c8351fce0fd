package stats

// Autocorrelation returns the lag-1 autocorrelation estimate of the series x
// (in the order given):
//
//	r1 = sum_{i=0}^{n-2} (x_i - m)(x_{i+1} - m) / sum_{i=0}^{n-1} (x_i - m)^2
//
// where m is the arithmetic mean of x (summed in order, then divided by n).
// The numerator and the denominator are summed in index order in float64.
// It is 0 for fewer than 3 samples or when the denominator is 0 (all samples
// equal). It lies in [-1, 1] and does not modify x.
//
// This is the textbook estimator; it is biased towards 0 and below: for an
// AR(1) series of coefficient rho, E[r1] = rho - (1+4rho)/n + O(1/n^2)
// (Marriott and Pope, 1954; Kendall, 1954). The comparisons of this package
// correct it (see rhoCorrected).
func Autocorrelation(x []float64) float64 {
	n := len(x)
	if n < 3 {
		return 0
	}
	var m float64
	for _, v := range x {
		m += v
	}
	m /= float64(n)
	var num, den float64
	for i, v := range x {
		den += (v - m) * (v - m)
		if i+1 < n {
			num += (v - m) * (x[i+1] - m)
		}
	}
	if den == 0 {
		return 0
	}
	return num / den
}

// Bounds of the corrected autocorrelation used for variance inflation.
const (
	// RhoMin is the floor of the corrected autocorrelation: a negative
	// estimate is taken as 0, so the inflation factor is never below 1
	// (negative autocorrelation would shrink the variance; the comparisons
	// never claim more precision than independent samples give).
	RhoMin = 0.0
	// RhoMax is the ceiling: at 0.9 the inflation factor is 19. Beyond it
	// the AR(1) model of the inflation factor is too uncertain to use.
	RhoMax = 0.9
)

// rhoCorrected is the bias-corrected lag-1 autocorrelation of x, clipped:
//
//	r1  = Autocorrelation(x)
//	rho = r1 + (1 + 4*r1)/n
//	rho = min(max(rho, RhoMin), RhoMax)
//
// The second line is the first-order inverse of E[r1] = rho - (1+4rho)/n.
func rhoCorrected(x []float64) float64 {
	n := float64(len(x))
	if len(x) < 3 {
		return RhoMin
	}
	r1 := Autocorrelation(x)
	rho := r1 + (1+4*r1)/n
	return min(max(rho, RhoMin), RhoMax)
}

// vifOf is the variance inflation factor (1+rho)/(1-rho) of the sum of an
// AR(1) series of lag-1 autocorrelation rho (the large-n limit of
// 1 + 2*sum_k (1-k/n) rho^k).
func vifOf(rho float64) float64 {
	return (1 + rho) / (1 - rho)
}
