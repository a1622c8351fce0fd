package protocol

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/benchbook/benchbook/internal/harness"
	"github.com/benchbook/benchbook/internal/records"
)

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
// MinRuns blocks are measured, even past the budget (BlockStop).
func (r *runner) beforeAfter(ctx context.Context) error {
	b := r.base
	slots := r.interleavedSlots()
	b.slots = b.common(slots)
	seed := r.orderSeed()
	limit := MaxPairs
	if r.opt.PairsFixed {
		limit = r.opt.Pairs
	}
	r.res.Protocol.BlockRounds, r.res.Protocol.StepRounds, r.res.Protocol.StepWarmup = BlockRounds, StepRounds, StepWarmup
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

// block runs block j: the lock-step pair (no cold pass, as in Part 1),
// then the fresh pairs.
func (r *runner) block(ctx context.Context, j int, slots []string, seed uint64) (*proc, *proc, error) {
	b := r.base
	round := j * BlockRounds
	lockStep := func(slots []string, seed uint64) harness.Args {
		a := r.measured(slots)
		s := harness.SeedAtRound(seed, round, len(slots))
		a.Rounds, a.OrderSeed, a.StepRounds, a.StepWarmup = BlockRounds, &s, StepRounds, StepWarmup
		// The first step's discarded round is the process's first
		// execution: it counts toward warmup=, as the warmup of Part 1's
		// processes is their first execution.
		a.Warmup = max(0, a.Warmup-StepWarmup)
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
func (r *runner) freshOne(ctx context.Context, bin, label, v string, run, layout int, into map[string]*freshRuns, sum func(string, records.Checksum)) error {
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
			if c, ok := rec.Value.(records.Checksum); ok && c.Slot >= 0 && int(c.Slot) < len(b.slots) {
				b.addChecksum(b.slots[c.Slot], c)
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
