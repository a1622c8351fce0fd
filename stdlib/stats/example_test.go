package stats_test

import (
	"errors"
	"fmt"

	"github.com/benchbook/benchbook/stdlib/stats"
)

// The summary of five passes (the arithmetic is in TestSummarize and
// TestPairShareHandCounted): of the 10 pairs, 8 differ by more than 2%, 4 by
// more than 5% and 1 (100 and 111) by more than 10%.
func ExampleSummarize() {
	s := stats.Summarize([]float64{106, 100, 111, 103, 101})
	fmt.Printf("n=%d min=%g median=%g max=%g mean=%.1f cv=%.2f%% max/min=%.2f\n",
		s.N, s.Min, s.Median, s.Max, s.Mean, s.CVPct, *s.MaxOverMin)
	fmt.Printf("pairs over 2%%: %.1f, 5%%: %.1f, 10%%: %.1f\n",
		s.PairsOver2Pct, s.PairsOver5Pct, s.PairsOver10Pct)
	// Output:
	// n=5 min=100 median=103 max=111 mean=104.2 cv=4.26% max/min=1.11
	// pairs over 2%: 0.8, 5%: 0.4, 10%: 0.1
}

// Three comparisons whose intervals can be reasoned by hand. Paired rounds of
// a = 2b keep every resample at exactly 2. Unpaired, a is always 3 while a
// resample of b has median 1 or (with probability 0.317) 2, so the 95%
// interval runs from 3/2 to 3/1. A zero median in b is no measurement.
func ExampleRatioOfMedians() {
	b := []float64{10, 11, 12, 13, 17}
	a := []float64{20, 22, 24, 26, 34}
	iv, _ := stats.RatioOfMedians(a, b, stats.Bootstrap{Seed: 1, Paired: true})
	fmt.Printf("paired a=2b: ratio %g in [%g, %g]\n", iv.Ratio, iv.Low, iv.High)

	iv, _ = stats.RatioOfMedians([]float64{3, 3, 3, 3, 3}, []float64{1, 1, 1, 2, 2}, stats.Bootstrap{Seed: 1})
	fmt.Printf("unpaired: ratio %g in [%g, %g]\n", iv.Ratio, iv.Low, iv.High)

	_, err := stats.RatioOfMedians([]float64{5, 6}, []float64{0, 0}, stats.Bootstrap{})
	fmt.Println("zero median:", errors.Is(err, stats.ErrZeroMedian))
	// Output:
	// paired a=2b: ratio 2 in [2, 2]
	// unpaired: ratio 3 in [1.5, 3]
	// zero median: true
}

// Twelve rounds in which a takes 10% longer than b, give or take a few
// nanoseconds: the paired comparison finds it, and its interval for a/b holds
// 1.1. With a > b in every round W is at its maximum, so 0.023 is the least
// p-value 12 rounds can give. The same series compared as if they came from
// separate processes give a wider interval (the round-to-round spread of b
// no longer cancels) and a smaller p (24 samples, fully separated). A
// deleted loop (a zero timing) makes the comparison undefined.
func ExampleComparePaired() {
	b := []float64{1000, 1012, 995, 1003, 1021, 990, 1007, 1001, 998, 1015, 1009, 993}
	a := []float64{1102, 1110, 1098, 1100, 1125, 1087, 1110, 1099, 1101, 1114, 1112, 1090}
	v, err := stats.ComparePaired(a, b, 0.05)
	fmt.Printf("%s: ratio %.3f shift %.3f in [%.3f, %.3f], p %.2g, significant %v, err %v\n",
		v.Method, v.Ratio, v.Shift, v.Low, v.High, v.P, v.Significant, err)
	v, err = stats.CompareUnpaired(a, b, 0.05)
	fmt.Printf("%s: ratio %.3f shift %.3f in [%.3f, %.3f], p %.2g, significant %v, err %v\n",
		v.Method, v.Ratio, v.Shift, v.Low, v.High, v.P, v.Significant, err)
	_, err = stats.ComparePaired([]float64{0, 0, 0}, []float64{5, 6, 7}, 0.05)
	fmt.Println("deleted loop:", errors.Is(err, stats.ErrNonPositive))
	// Output:
	// wilcoxon-signed-rank/hl: ratio 1.099 shift 1.100 in [1.097, 1.103], p 0.023, significant true, err <nil>
	// mann-whitney-u/moses-hl: ratio 1.099 shift 1.100 in [1.089, 1.111], p 0.0014, significant true, err <nil>
	// deleted loop: true
}

// Four comparisons at once: Holm's adjustment (arithmetic in the doc of
// Holm) leaves two of them below 0.05 where four raw p-values were.
func ExampleHolm() {
	fmt.Println(stats.Holm([]float64{0.01, 0.04, 0.03, 0.005}))
	// Output:
	// [0.03 0.06 0.06 0.02]
}
