package bench

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/benchbook/benchbook/internal/harness"
	"github.com/benchbook/benchbook/stdlib/stats"
)

// The interleaved rounds are taken in blocks: a block is one process (and,
// with a baseline, one of each build in lock step) that takes a few rounds.
// A verdict compares variants, or builds, block by block: each block gives
// the median of its rounds' log-ratios, and the sign test across blocks
// (stats.SeqSignTest) judges them. The block, not the round, is what
// replicates: rounds in one process share its placement in memory and
// whatever drifted while it ran, and the sign test over independent blocks
// needs no model of that. Six blocks of one sign are a verdict.
const (
	// BlockRounds is the most interleaved rounds one block takes.
	BlockRounds = 5
	// StepWarmup is the discarded rounds at the start of each step of a
	// lock-step block: the other build's step ran in between.
	StepWarmup = 1
)

// BlockPlan shares reps rounds out over blocks: at least MinRuns blocks
// (so that a verdict can be reached; reps=10 gives 10 blocks of one round),
// at most BlockRounds rounds each.
func BlockPlan(reps int) (perBlock, blocks int) {
	per := max(1, min(BlockRounds, reps/MinRuns))
	return per, (reps + per - 1) / per
}

// interleavedBlocks is Part 1 without a baseline: the reps rounds shared
// over BlockPlan's processes, each taking its prelude and its rounds; the
// first also measures the clock and its gaps.
func (r *runner) interleavedBlocks(ctx context.Context, slots []string) error {
	per, blocks := BlockPlan(r.opt.Reps)
	seed := r.orderSeed()
	var ps []*proc
	var err error
	for j := 0; j < blocks && err == nil; j++ {
		a := r.measured(slots)
		a.Rounds = min(per, r.opt.Reps-j*per)
		s := harness.SeedAtRound(seed, j*per, len(slots))
		a.OrderSeed = &s
		if j == 0 { // the clock and its gaps are measured once, in the first block
			a.Clock, a.GapsMS = true, GapWindowMS
		}
		r.progress(Progress{Phase: "part 1: variants interleaved round robin", Process: j + 1, Of: blocks})
		var p *proc
		p, err = r.exec(ctx, fmt.Sprintf("interleaved-%d", j+1), a)
		ps = append(ps, p)
		for range a.Rounds {
			r.data.roundBlock = append(r.data.roundBlock, j)
		}
	}
	r.collectInterleaved(ps, slots)
	return err
}

// beforeAfter is the before/after measured in one run, in blocks, until
// every verdict is known (stats: sequential, so stopping when it is known
// keeps each verdict's level), the budget is spent, or pairs= blocks if
// given. A block is a pair of processes, one of each build, taking
// BlockRounds interleaved rounds in lock step (a random order each step,
// StepWarmup discarded rounds at each step's start), then for each fresh
// variant a fresh process of each build in a random order. At least
// MinRuns blocks are measured, even past the budget, unless every verdict
// is known sooner (BlockStop).
func (r *runner) beforeAfter(ctx context.Context) error {
	b := r.base
	slots := r.interleavedSlots()
	b.slots = b.common(slots)
	seed := r.orderSeed()
	limit := MaxPairs
	if r.opt.PairsFixed {
		limit = r.opt.Pairs
	}
	r.res.Protocol.BlockRounds, r.res.Protocol.StepWarmup = BlockRounds, StepWarmup
	r.res.Protocol.BudgetMS = float64(r.opt.Budget.Milliseconds())
	r.res.Protocol.Sequential = !r.opt.PairsFixed
	r.res.Protocol.Resolve = r.opt.Resolve
	var news, olds []*proc
	var spent time.Duration
	stop := ""
	for j := 0; stop == ""; j++ {
		t0 := time.Now()
		pn, po, err := r.block(ctx, j, slots, seed)
		news, olds = append(news, pn), append(olds, po)
		if err != nil {
			b.stop, b.blocks = StopFailed, j+1
			if errors.Is(err, ErrInterrupted) || ctx.Err() != nil {
				b.stop = StopInterrupted
			}
			r.collectPairs(news, olds, slots)
			return err
		}
		spent += time.Since(t0)
		n := j + 1
		stop = BlockStop(n, limit, r.opt.PairsFixed,
			func() bool { return r.verdictsKnown(news, olds, slots) },
			func() bool {
				return time.Since(r.budgetFrom())+spent/time.Duration(n)+r.opt.Budget/BudgetReserve > r.opt.Budget
			})
		b.blocks = n
	}
	b.stop = stop
	r.collectPairs(news, olds, slots)
	return nil
}

// BudgetReserve: a before/after keeps 1/BudgetReserve of its budget for
// what follows the blocks (the result, its plots and commentary), so that
// the whole %bench ends within the budget.
const BudgetReserve = 8

// budgetFrom is when the budget started: the %bench's start, else Run's.
func (r *runner) budgetFrom() time.Time {
	if !r.opt.Started.IsZero() {
		return r.opt.Started
	}
	return r.started
}

// BlockStop is the rule that ends a before/after after n blocks: "" to go
// on, else why it stops. limit blocks (pairs=, else MaxPairs) always stop
// it; with pairs= nothing else does. Otherwise it stops as soon as every
// verdict is known (known), from stats.SeqFirst blocks on: the sequential
// test spends its level from that look on, so a verdict reached there is
// as much a 95% claim as one reached later. A run whose verdicts are not
// known takes at least MinRuns blocks, then stops when the next block
// would end past the budget (over).
func BlockStop(n, limit int, fixed bool, known, over func() bool) string {
	switch {
	case n >= limit:
		return StopPairs
	case fixed || n < stats.SeqFirst:
		return ""
	case known():
		return StopDecided
	case n < MinRuns:
		return ""
	case over():
		return StopBudget
	}
	return ""
}

// block runs block j: the lock-step pair (no cold pass, as in Part 1),
// then the fresh pairs.
func (r *runner) block(ctx context.Context, j int, slots []string, seed uint64) (*proc, *proc, error) {
	b := r.base
	round := j * BlockRounds
	lockStep := func(slots []string, seed uint64) harness.Args {
		a := r.measured(slots)
		s := harness.SeedAtRound(seed, round, len(slots))
		a.Rounds, a.OrderSeed, a.StepRounds, a.StepWarmup = BlockRounds, &s, 1, StepWarmup
		return a
	}
	newArgs, oldArgs := lockStep(slots, seed), lockStep(b.slots, seed+1)
	if j == 0 { // the clock and its gaps are measured once, in the first block
		newArgs.Clock, newArgs.GapsMS = true, GapWindowMS
	}
	pn, po, err := r.stepPair(ctx, j, BlockRounds, newArgs, oldArgs)
	for range BlockRounds {
		r.data.roundBlock = append(r.data.roundBlock, j)
	}
	if err != nil {
		return pn, po, err
	}
	for _, v := range r.opt.Fresh {
		if err := r.freshPair(ctx, j, v); err != nil {
			return pn, po, err
		}
	}
	return pn, po, nil
}

// freshPair runs the fresh processes of variant v in block j: one of the
// new build (on the layout of its turn), and one of the baseline when it
// has v, in a random order.
func (r *runner) freshPair(ctx context.Context, j int, v string) error {
	layout := j % len(r.layouts)
	sides := []func() error{func() error {
		return r.freshOne(ctx, r.layouts[layout].Binary, fmt.Sprintf("fresh-l%d", layout), v, j, layout, r.data.fresh, r.addChecksum)
	}}
	if r.base.has(v) {
		old := func() error {
			return r.freshOne(ctx, r.base.k.Binary, "baseline-fresh", v, j, 0, r.base.fresh, r.base.addChecksum)
		}
		newFirst := r.base.coin()
		r.base.freshNewFirst = append(r.base.freshNewFirst, newFirst)
		if newFirst {
			sides = append(sides, old)
		} else {
			sides = append([]func() error{old}, sides...)
		}
	}
	for _, side := range sides {
		if err := side(); err != nil {
			return err
		}
	}
	return nil
}

// freshArgs are the options of a fresh process of variant v: its cold
// pass, a new placement, the settle and warmup, one measured round.
func (r *runner) freshArgs(v string) harness.Args {
	a := r.measured([]string{v})
	a.Cold, a.Rounds, a.Layout = v, 1, r.placement()
	return a
}

// freshOne runs one fresh process of variant v: its cold pass, then one
// measured pass; run is its number in the variant's series.
func (r *runner) freshOne(ctx context.Context, bin, label, v string, run, layout int, into map[string]*freshRuns, sum func(string, harness.Record)) error {
	p, err := r.execBin(ctx, bin, fmt.Sprintf("%s-%s-%02d", label, v, run+1), r.freshArgs(v))
	if p != nil {
		p.Layout = layout
	}
	collectFresh(into, v, p, sum)
	return err
}

// collectPairs reads the lock-step pairs: the new build's rounds as the
// interleaved series, the baseline's beside them, and its checksums.
func (r *runner) collectPairs(news, olds []*proc, slots []string) {
	b := r.base
	r.collectInterleaved(news, slots)
	b.inter, _ = collectRounds(olds, len(b.slots))
	for _, po := range olds {
		if po == nil {
			continue
		}
		for _, rec := range po.Records {
			if slot, e := rec.Int("slot"); rec.Kind == "checksum" && e == nil && int(slot) < len(b.slots) {
				b.addChecksum(b.slots[slot], rec)
			}
		}
	}
}

// verdictsKnown says whether every headline verdict is known after the
// blocks so far: each live variant's is slower, faster or no difference.
func (r *runner) verdictsKnown(news, olds []*proc, slots []string) bool {
	b := r.base
	inter, _ := collectRounds(news, len(slots))
	prev, _ := collectRounds(olds, len(b.slots))
	in := HeadlineInput{RoundBlock: r.data.roundBlock, Alpha: r.res.Protocol.Alpha, Resolve: r.opt.Resolve, Fixed: r.opt.PairsFixed}
	for i, name := range r.opt.Variants {
		k := slices.Index(b.slots, name)
		if k < 0 {
			continue
		}
		e := HeadlineSeries{Name: name, New: liveness(r.variant(name)), Previous: liveness(mustVariant(b.k, name))}
		if i < len(inter) && k < len(prev) {
			e.Now, e.Before = inter[i], prev[k]
		}
		if fr, fo := r.data.fresh[name], b.fresh[name]; fr != nil && fo != nil {
			e.NowFresh, e.BeforeFresh = fr.samples, fo.samples
		}
		in.Series = append(in.Series, e)
	}
	for _, v := range JudgeHeadline(in) {
		if v.Verdict == VerdictUndefined {
			return false
		}
	}
	return true
}

func mustVariant(k *harness.Kernel, name string) *harness.Variant {
	v, _ := k.Variant(name)
	return v
}

// liveness is what a variant's timed code is: "dead", "hollow" or "" (live).
func liveness(v *harness.Variant) string {
	switch {
	case v == nil:
		return ""
	case v.Dead:
		return VerdictDead
	case v.Hollow:
		return VerdictHollow
	}
	return ""
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
		o.CILow, o.CIHigh = finite(math.Exp(v.Low)), finite(math.Exp(v.High))
		o.Verdict = seqVerdict(v, in.Resolve)
	}
	return out
}

// seqVerdict is the verdict of one sequential test (Verdict, with its
// interval as ratios).
func seqVerdict(v stats.SeqVerdict, resolve float64) string {
	return Verdict(v.Rejected, math.Exp(v.Low), math.Exp(v.High), resolve)
}

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
