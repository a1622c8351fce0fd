package result

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/benchbook/benchbook/stdlib/stats"
)

// Verdict is the one rule every verdict word comes from, given whether the
// test rejected "no difference" and its interval [lo, hi] of ratios, and
// resolve, the smallest difference that counts (the band 1 -+ resolve/2):
//
//   - no difference when the whole interval lies inside the band
//     (resolve=2%: inside (0.99, 1.01)): whatever the difference is, it is
//     smaller than the run was asked to resolve; said so also when the
//     interval excludes 1 (six blocks of one sign by 0.05% are a
//     difference no one can act on);
//   - slower or faster when the whole interval lies beyond the band, above
//     1 + resolve/2 or below 1 - resolve/2 (so the test rejected too): a
//     difference of at least resolve/2 is shown;
//   - undefined otherwise: the interval reaches across an edge of the band
//     (it may exclude 1, when a difference exists but whether it exceeds
//     resolve/2 is not known); more blocks (or a quieter machine) would
//     narrow it.
//
// The interval is valid however the run stopped (a repeated confidence
// interval), so each claim keeps its 95%: that the true ratio is beyond the
// band, or inside it. Against unchanged code the first is rarer than a
// plain test at 5%, which is why the margin: 20 rebuilds of unchanged code
// here read "slower" or "faster" twice with intervals that barely excluded
// 1 ([1.000, 1.040]).
func Verdict(rejected bool, lo, hi, resolve float64) string {
	half := resolve / 2
	switch {
	case lo > 1-half && hi < 1+half && lo > 0:
		return VerdictNoDifference
	case lo >= 1+half:
		return VerdictSlower
	case hi <= 1-half && hi > 0:
		return VerdictFaster
	}
	return VerdictUndefined
}

// Method is the StatsMethod of the results this version makes: the
// interleaved rounds are taken in blocks (blocks.go), and every comparison
// of them (variant pairs, the A/A control, a baseline's rounds) is the sign
// test of the blocks' median log-ratios: sequential (stats.SeqSignTest)
// when the blocks stopped when their verdicts were known
// (Protocol.Sequential, a before/after), the exact test of a fixed number
// of blocks otherwise (stats.SignTest); a baseline's fresh and cold series
// likewise, pair by pair. The variant pairs of a result are one family, the baseline's
// variants and series another, its headline a third (Holm's method,
// stats.SeqHolm); the A/A control is one test of its own.
//
// Results of the methods before it (rank/1: Part 1 in one process, rank
// tests with an autocorrelation inflation; none: a bootstrap) are not
// judged by this benchbook: CheckMethod refuses them, and verify says so.
const Method = "blocks/1"

// ErrMethod is a result whose stats method this benchbook does not judge.
var ErrMethod = errors.New("stats method not judged by this benchbook")

// CheckMethod refuses a result whose comparisons were made by another
// stats method than Method.
func CheckMethod(p Protocol) error {
	if p.StatsMethod == Method {
		return nil
	}
	m := p.StatsMethod
	if m == "" {
		m = "none (a bootstrap, before stats methods)"
	}
	return fmt.Errorf("%w: stats_method is %s, and this benchbook judges only %s: its comparisons, A/A control and baseline cannot be recomputed (verify it with the benchbook that wrote it)", ErrMethod, m, Method)
}

// settle fills in the figures every verdict carries.
func settle(v stats.Verdict, err error) (stats.Verdict, Stat) {
	st := Stat{Shift: Finite(v.Shift), Rho: Finite(v.Rho), NEff: Finite(v.NEff), Method: v.Method}
	if err != nil {
		st.Undefined = undefinedReason(err)
		v.Significant = false
		if v.P == 0 || math.IsNaN(v.P) {
			v.P = 1
		}
	}
	v.Ratio, v.Low, v.High = Finite(v.Ratio), Finite(v.Low), Finite(v.High)
	return v, st
}

// undefinedReason says in a few words why a verdict could not be computed.
func undefinedReason(err error) string {
	switch {
	case errors.Is(err, stats.ErrNoSamples):
		return "no samples on one side"
	case errors.Is(err, stats.ErrZeroMedian), errors.Is(err, stats.ErrNonPositive):
		return "a sample of zero: faster than the clock resolves"
	case errors.Is(err, stats.ErrTooFew):
		return "too few samples for a verdict at 95% (take more reps or runs)"
	}
	return err.Error()
}

// adjust sets PAdjusted (Holm over the family) and Significant on each
// verdict of one family; undefined verdicts take part with p = 1.
func adjust(ps []float64, set func(i int, padj float64)) {
	adj := stats.Holm(ps)
	for i, pa := range adj {
		set(i, pa)
	}
}

// Comparisons compares every pair of variants in the interleaved series,
// the slower one over the faster one: block by block (BlockValues,
// roundBlock) with the sign test, all pairs one family for Holm's method
// (stats.SeqHolm). A result of another stats method gets none
// (CheckMethod).
func Comparisons(vs []Variant, p Protocol, roundBlock []int) []Comparison {
	if p.StatsMethod != Method {
		return []Comparison{} // CheckMethod says why; an empty list, never null
	}
	return blockComparisons(vs, p, roundBlock)
}

// AAControl compares a variant with its second copy in the same rounds,
// block by block with the sign test at alpha; a result of another stats
// method gets an undefined control (CheckMethod).
func AAControl(variant string, orig, copySamples []float64, p Protocol, roundBlock []int) AA {
	if p.StatsMethod == Method {
		aa := AA{Variant: variant, SamplesNS: copySamples, Ratio: Finite(safeRatio(orig, copySamples)),
			Stat: Stat{Method: stats.MethodSequential}}
		x, err := BlockValues(orig, copySamples, roundBlock)
		if err == nil {
			var v stats.SeqVerdict
			if v, err = signTest(p)(x, p.Alpha); err == nil {
				fillSeq(&aa.CILow, &aa.CIHigh, &aa.PValue, &aa.Stat, v)
				return aa
			}
		}
		aa.PValue, aa.Undefined = 1, undefinedReason(err)
		return aa
	}
	aa := AA{Variant: variant, SamplesNS: copySamples, Ratio: Finite(safeRatio(orig, copySamples))}
	aa.PValue, aa.Undefined = 1, CheckMethod(p).Error()
	return aa
}

// signTest and signHolm are the tests of blocks a result's protocol calls
// for: sequential when the blocks stopped when their verdicts were known,
// the exact test of a fixed number of blocks otherwise.
func signTest(p Protocol) func([]float64, float64) (stats.SeqVerdict, error) {
	if p.Sequential {
		return stats.SeqSignTest
	}
	return stats.SignTest
}

func signHolm(p Protocol) func([][]float64, float64) ([]stats.SeqVerdict, []float64, error) {
	if p.Sequential {
		return stats.SeqHolm
	}
	return stats.SignHolm
}

// blockComparisons is Comparisons for results of Method.
func blockComparisons(vs []Variant, p Protocol, roundBlock []int) []Comparison {
	out := []Comparison{}
	var values [][]float64
	var judged []int
	for i := 0; i < len(vs); i++ {
		for j := i + 1; j < len(vs); j++ {
			a, b := vs[i], vs[j]
			if a.Series.Interleaved == nil || b.Series.Interleaved == nil {
				continue
			}
			if a.Series.Interleaved.Summary.Median < b.Series.Interleaved.Summary.Median {
				a, b = b, a
			}
			x, y := a.Series.Interleaved.SamplesNS, b.Series.Interleaved.SamplesNS
			c := Comparison{A: a.Name, B: b.Name, Series: "interleaved", Ratio: Finite(safeRatio(x, y)), PValue: 1, Paired: true,
				Stat: Stat{Method: stats.MethodSequential}}
			if bv, err := BlockValues(x, y, roundBlock); err != nil {
				c.Undefined = undefinedReason(err)
			} else {
				values, judged = append(values, bv), append(judged, len(out))
			}
			out = append(out, c)
		}
	}
	vsq, padj, err := signHolm(p)(values, p.Alpha)
	for k, i := range judged {
		c := &out[i]
		if err != nil {
			c.Undefined = err.Error()
			continue
		}
		fillSeq(&c.CILow, &c.CIHigh, &c.PValue, &c.Stat, vsq[k])
		c.PAdjusted = padj[k]
		c.Significant = vsq[k].Rejected
	}
	return out
}

// fillSeq puts a sequential verdict's figures into a comparison's fields:
// the interval (exp), the sequential p-value, the typical ratio (exp of the
// median block value) and the blocks it rests on; "undefined" when too few
// blocks were taken for any verdict.
func fillSeq(low, high, p *float64, st *Stat, v stats.SeqVerdict) {
	*low, *high = Finite(math.Exp(v.Low)), Finite(math.Exp(v.High))
	*p = v.P
	st.Shift, st.NEff = math.Exp(v.Estimate), float64(v.N)
	if v.Critical < 0 && !v.Rejected {
		st.Undefined = fmt.Sprintf("too few samples: %d blocks, and a verdict at this level takes at least %d", v.N, stats.SeqMinBlocks(v.Alpha, 1000))
	}
}

// HeadlineInput is what the headline of a before/after is judged from:
// per variant the two builds' interleaved rounds (in the order taken, the
// block of each in RoundBlock) and fresh samples (sample i of each build
// from block i).
type HeadlineInput struct {
	Series     []HeadlineSeries
	RoundBlock []int
	Alpha      float64
	Resolve    float64
	// Fixed is set when the number of blocks was fixed before the run
	// (pairs=): the exact test of that many, not the sequential one.
	Fixed bool
}

// HeadlineSeries is one variant's samples in both builds.
type HeadlineSeries struct {
	Name                  string
	New, Previous         string // liveness of each build's timed code
	AsmSame               bool
	Now, Before           []float64
	NowFresh, BeforeFresh []float64
}

// JudgeHeadline gives each variant one verdict on its warm pass, new over
// previous, from every block. The decision rule:
//
//  1. A variant whose timed code is dead or hollow in either build gets
//     that as its verdict (VerdictDead, VerdictHollow): the ratio of a
//     build that times the clock to one that does not is not a speed-up.
//  2. Every other variant gets one value per block: the median of the
//     block's paired log-ratios ln(new/previous), its interleaved rounds
//     (round i of the new build's process against round i of the
//     previous build's, taken in the same step) and its pair of fresh
//     processes, both measures of the warm pass, in one pool.
//  3. The values of all such variants are judged together by Holm's method
//     on the group-sequential sign test (stats.SeqHolm, level Alpha): the
//     chance that any of them is called different when nothing is stays
//     below Alpha however many blocks the run took and whenever it stopped.
//  4. The verdict word is Verdict's, from the test and the interval (exp
//     of the repeated confidence interval of the median block value):
//     no difference within Resolve/2 of 1, slower or faster outside it,
//     else undefined.
//
// Ratio is exp of the median block value and CILow, CIHigh exp of its
// interval: the interval that decided the verdict.
func JudgeHeadline(in HeadlineInput) []VariantVerdict {
	out := make([]VariantVerdict, len(in.Series))
	var live []int
	var values [][]float64
	for i, e := range in.Series {
		out[i] = VariantVerdict{Name: e.Name, AsmSame: e.AsmSame, New: e.New, Previous: e.Previous}
		switch {
		case e.New == VerdictDead || e.Previous == VerdictDead:
			out[i].Verdict = VerdictDead
			continue
		case e.New == VerdictHollow || e.Previous == VerdictHollow:
			out[i].Verdict = VerdictHollow
			continue
		}
		x, err := WarmBlocks(e.Now, e.Before, in.RoundBlock, e.NowFresh, e.BeforeFresh)
		if err != nil {
			out[i].Verdict = VerdictUndefined
			continue
		}
		live, values = append(live, i), append(values, x)
	}
	holm := stats.SeqHolm
	if in.Fixed {
		holm = stats.SignHolm
	}
	vs, padj, err := holm(values, in.Alpha)
	if err != nil {
		for _, i := range live {
			out[i].Verdict = VerdictUndefined
		}
		return out
	}
	for k, i := range live {
		o, v := &out[i], vs[k]
		o.Blocks, o.Positive, o.PValue, o.PAdjusted, o.Level = v.N, v.Positive, v.P, padj[k], v.Alpha
		o.Ratio = math.Exp(v.Estimate)
		o.CILow, o.CIHigh = Finite(math.Exp(v.Low)), Finite(math.Exp(v.High))
		o.Verdict = seqVerdict(v, in.Resolve)
	}
	return out
}

// seqVerdict is the verdict of one sequential test (Verdict, with its
// interval as ratios).
func seqVerdict(v stats.SeqVerdict, resolve float64) string {
	return Verdict(v.Rejected, math.Exp(v.Low), math.Exp(v.High), resolve)
}

// errNoBlocks: a series with no block to judge.
var errNoBlocks = errors.New("no blocks")

// BlockValues is, per block in order, the median of the log-ratios
// ln(a[i]/b[i]) of its rounds (block[i] says which block round i belongs
// to; rounds past the shortest of the three are left out). A sample that
// is not positive makes the values undefined (stats.ErrNonPositive).
func BlockValues(a, b []float64, block []int) ([]float64, error) {
	n := min(len(a), len(b), len(block))
	groups := map[int][]float64{}
	var order []int
	for i := 0; i < n; i++ {
		if !(a[i] > 0 && b[i] > 0) {
			return nil, fmt.Errorf("round %d: %v against %v: %w", i, a[i], b[i], stats.ErrNonPositive)
		}
		j := block[i]
		if _, ok := groups[j]; !ok {
			order = append(order, j)
		}
		groups[j] = append(groups[j], math.Log(a[i]/b[i]))
	}
	slices.Sort(order)
	out := make([]float64, 0, len(order))
	for _, j := range order {
		out = append(out, stats.Median(groups[j]))
	}
	if len(out) == 0 {
		return nil, errNoBlocks
	}
	return out, nil
}

// WarmBlocks is JudgeHeadline's value per block: the median of the block's
// paired log-ratios of the interleaved rounds and of its fresh pair
// (fresh sample j of each build belongs to block j), in block order.
func WarmBlocks(now, before []float64, block []int, nowFresh, beforeFresh []float64) ([]float64, error) {
	n := min(len(now), len(before), len(block))
	groups := map[int][]float64{}
	add := func(j int, a, b float64) error {
		if !(a > 0 && b > 0) {
			return fmt.Errorf("block %d: %v against %v: %w", j, a, b, stats.ErrNonPositive)
		}
		groups[j] = append(groups[j], math.Log(a/b))
		return nil
	}
	for i := 0; i < n; i++ {
		if err := add(block[i], now[i], before[i]); err != nil {
			return nil, err
		}
	}
	for j := 0; j < min(len(nowFresh), len(beforeFresh)); j++ {
		if err := add(j, nowFresh[j], beforeFresh[j]); err != nil {
			return nil, err
		}
	}
	var order []int
	for j := range groups {
		order = append(order, j)
	}
	slices.Sort(order)
	out := make([]float64, 0, len(order))
	for _, j := range order {
		out = append(out, stats.Median(groups[j]))
	}
	if len(out) == 0 {
		return nil, errNoBlocks
	}
	return out, nil
}

// PairValues is, per pair, ln(a[i]/b[i]): the fresh and cold series of a
// before/after, one pair of processes per block.
func PairValues(a, b []float64) ([]float64, error) {
	block := make([]int, min(len(a), len(b)))
	for i := range block {
		block[i] = i
	}
	return BlockValues(a, b, block)
}

// JudgeBaseline computes, for every entry of bl, new over previous from the
// new build's series in r and the previous build's samples in the entry,
// and the headline verdict of every variant (JudgeHeadline). A baseline
// measured in blocks (bl.Blocks > 0): the interleaved series block by block
// (BlockValues, r.RoundBlock), the fresh and cold series pair by pair
// (PairValues, pair i in block i), all entries one family for Holm's method
// on the sequential sign test (stats.SeqHolm), each verdict as seqVerdict
// gives it. A baseline of the design before blocks (bl.Blocks 0) is not
// judged: every entry is undefined, with CheckMethod's reason.
func JudgeBaseline(r *Result, bl *Baseline) {
	if bl.Blocks == 0 {
		why := "measured before blocks: " + CheckMethod(Protocol{StatsMethod: "rank/1"}).Error()
		for i := range bl.Variants {
			e := &bl.Variants[i]
			e.Verdict, e.Undefined, e.PValue = VerdictUndefined, why, nil
		}
		return
	}
	alpha, resolve := r.Protocol.Alpha, r.Protocol.Resolve
	var values [][]float64
	var judged []int
	for i := range bl.Variants {
		e := &bl.Variants[i]
		now := r.SamplesOf(e.Name, e.Series)
		e.Ratio = Finite(safeRatio(now, e.SamplesNS))
		var x []float64
		var err error
		if e.Series == "interleaved" {
			x, err = BlockValues(now, e.SamplesNS, r.RoundBlock)
		} else {
			x, err = PairValues(now, e.SamplesNS)
		}
		e.Stat = Stat{Method: stats.MethodSequential}
		if err != nil {
			e.Verdict, e.PValue, e.CILow, e.CIHigh, e.Undefined = VerdictUndefined, nil, 0, 0, undefinedReason(err)
			continue
		}
		values, judged = append(values, x), append(judged, i)
	}
	vs, padj, err := signHolm(r.Protocol)(values, alpha)
	for k, i := range judged {
		e := &bl.Variants[i]
		if err != nil {
			e.Verdict, e.PValue, e.Undefined = VerdictUndefined, nil, err.Error()
			continue
		}
		v := vs[k]
		p := v.P
		e.PValue, e.PAdjusted = &p, padj[k]
		e.CILow, e.CIHigh = Finite(math.Exp(v.Low)), Finite(math.Exp(v.High))
		e.Shift, e.NEff = math.Exp(v.Estimate), float64(v.N)
		e.Verdict = seqVerdict(v, resolve)
	}
	in := HeadlineInput{RoundBlock: r.RoundBlock, Alpha: alpha, Resolve: resolve, Fixed: !r.Protocol.Sequential}
	for _, name := range r.Protocol.Variants {
		if _, ok := bl.Asm[name]; !ok {
			continue
		}
		e := HeadlineSeries{Name: name, Previous: bl.Previous[name], Now: r.SamplesOf(name, "interleaved"),
			NowFresh: r.SamplesOf(name, "fresh")}
		if v := r.Variant(name); v != nil {
			e.New = liveOf(v)
		}
		for _, be := range bl.Variants {
			if be.Name != name {
				continue
			}
			e.AsmSame = be.AsmSame
			switch be.Series {
			case "interleaved":
				e.Before = be.SamplesNS
			case "fresh":
				e.BeforeFresh = be.SamplesNS
			}
		}
		in.Series = append(in.Series, e)
	}
	bl.Verdicts = JudgeHeadline(in)
}

// liveOf is the liveness of a variant of a result.
func liveOf(v *Variant) string {
	switch {
	case v.Dead:
		return VerdictDead
	case v.Hollow:
		return VerdictHollow
	}
	return ""
}

// safeRatio is the ratio of the medians, 0 when it cannot be taken.
func safeRatio(a, b []float64) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	mb := stats.Median(b)
	if mb == 0 {
		return 0
	}
	return stats.Median(a) / mb
}
