package bench_test

import (
	"fmt"

	"github.com/benchbook/benchbook/stdlib/bench"
)

// Seed 000 as the published notebook recorded it: the result of its cell
// %bench seed elements=1048576 predict="sink/discarded>100", read back as a
// glue cell reads a notebook (testdata/seed.ipynb holds that one output).
// The kernel sums the 2^20 floats a[i] = (i&7)*0.25 three ways. discarded
// never reads the sum, so the compiler deletes the loop and the variant
// times the two clock reads around nothing (one read costs 15.6 ns on that
// machine): its median is about one read, 16 ns. sink keeps the loop, at
// 0.477 ns an element: 2^20 of them are 501 µs. checksum is the same loop
// and adds each pass's sum to a total checked against 917504 a pass (2^17
// times 0+1+...+7 quarters), so its median is sink's too.
//
// Which fixes the rest. sink/discarded is the ratio of the medians,
// 500509.5 ns over 16 ns = 31281.8 (FormatRatio writes a ratio of 1000 or
// more as a whole number), its interval beyond the band of resolve=2%:
// slower. checksum/sink is 1.000, but its interval [0.914, 1.002] reaches
// below 0.99, the band's lower edge: undefined, and the headline says the
// same word (sink, the reference, is compared with nothing: no word).
// reps=30 are 10 blocks of 3 rounds. The prediction held (31282 > 100),
// and the checksum total is 90 measured passes (30 interleaved rounds, 30
// in-process, 30 fresh) of 917504: 82575360.
func Example() {
	rs, err := bench.ReadNotebook("testdata/seed.ipynb")
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := rs.First("seed")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range r.Variants {
		median := v.Series.Interleaved.Summary.Median
		if v.Dead {
			fmt.Printf("%s: dead, %s a pass\n", v.Name, bench.FormatNS(median))
			continue
		}
		fmt.Printf("%s: %s a pass, %s an element\n", v.Name, bench.FormatNS(median), bench.FormatNS(median/float64(*r.Protocol.Elements)))
	}
	perBlock, blocks := bench.BlockPlan(r.Protocol.Reps)
	fmt.Printf("reps=%d: %d blocks of %d rounds\n", r.Protocol.Reps, blocks, perBlock)
	for _, ab := range [][2]string{{"sink", "discarded"}, {"checksum", "sink"}} {
		c, _ := r.Comparison(ab[0], ab[1])
		fmt.Printf("%s/%s = %s [%s, %s]: %s\n", ab[0], ab[1], bench.FormatRatio(c.Ratio), bench.FormatRatio(c.CILow), bench.FormatRatio(c.CIHigh),
			bench.Verdict(c.Significant, c.CILow, c.CIHigh, r.Protocol.Resolve))
	}
	for _, l := range bench.Headline(r) {
		if l.Variant != "" {
			fmt.Printf("headline of %s: %q\n", l.Variant, l.Verdict)
		}
	}
	for _, s := range bench.Sentences(r) {
		if s.Kind == "prediction" || s.Kind == "checksum" {
			fmt.Println(s.Text)
		}
	}
	// Output:
	// discarded: dead, 16 ns a pass
	// sink: 501 µs a pass, 0.477 ns an element
	// checksum: 501 µs a pass, 0.477 ns an element
	// reps=30: 10 blocks of 3 rounds
	// sink/discarded = 31282 [23828, 34565]: slower
	// checksum/sink = 1.000 [0.914, 1.002]: undefined
	// headline of discarded: "dead"
	// headline of sink: ""
	// headline of checksum: "undefined"
	// the prediction sink/discarded>100, written before the run, held: the measured ratio of medians sink/discarded is 31282
	// checksum 82575360 over 90 passes, expected 82575360 (917504 per pass): ok
}

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
