package bench_test

import (
	"fmt"

	"github.com/benchbook/benchbook/stdlib/bench"
)

// A before/after whose answer is known by construction: in each of six
// blocks the new build's five interleaved rounds and its fresh process
// take 1.25 times the previous build's, give or take a few tenths of a
// percent that differ from block to block. Six blocks all of one sign are
// the first look at which the sequential sign test may decide (2 in 64
// under no difference), so the verdict is known, and the interval is the
// range of the six block values. (A run takes at least ten blocks all the
// same: BlockStop.)
func ExampleJudgeHeadline() {
	in := bench.HeadlineInput{Alpha: 0.05, Resolve: 0.02}
	s := bench.HeadlineSeries{Name: "sink"}
	for j, wobble := range []float64{1.001, 0.998, 1.003, 0.999, 1.002, 0.997} {
		for range bench.BlockRounds {
			in.RoundBlock = append(in.RoundBlock, j)
			s.Before = append(s.Before, 1e6)
			s.Now = append(s.Now, 1.25e6*wobble)
		}
		s.BeforeFresh = append(s.BeforeFresh, 1.01e6)
		s.NowFresh = append(s.NowFresh, 1.25*1.01e6*wobble)
	}
	in.Series = []bench.HeadlineSeries{s}
	v := bench.JudgeHeadline(in)[0]
	fmt.Printf("%s: %s %.3f [%.3f, %.3f] after %d blocks, %d of them slower\n", v.Name, v.Verdict, v.Ratio, v.CILow, v.CIHigh, v.Blocks, v.Positive)
	// Output:
	// sink: slower 1.250 [1.246, 1.254] after 6 blocks, 6 of them slower
}

// The rule that ends a before/after after n blocks: nothing stops it
// before ten blocks; from there a known verdict or the spent budget does;
// pairs=N takes exactly N.
func ExampleBlockStop() {
	known, unknown := func() bool { return true }, func() bool { return false }
	spent := func() bool { return true }
	for _, n := range []int{5, 6, 9, 10} {
		fmt.Printf("%2d blocks: known %q, unknown past the budget %q\n", n,
			bench.BlockStop(n, bench.MaxPairs, false, known, spent), bench.BlockStop(n, bench.MaxPairs, false, unknown, spent))
	}
	fmt.Printf("pairs=12 at 12: %q\n", bench.BlockStop(12, 12, true, unknown, unknown))
	// Output:
	//  5 blocks: known "", unknown past the budget ""
	//  6 blocks: known "", unknown past the budget ""
	//  9 blocks: known "", unknown past the budget ""
	// 10 blocks: known "decided", unknown past the budget "budget"
	// pairs=12 at 12: "pairs"
}
