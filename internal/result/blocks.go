package result

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
	// StepRounds is the measured rounds of each step of a lock-step block
	// (the last step takes what is left of BlockRounds): the two builds
	// take turns every StepRounds rounds.
	StepRounds = 2
	// StepWarmup is the discarded rounds at the start of each step of a
	// lock-step block: the other build's step ran in between. With one
	// round a step a process took 11 rounds a block (a warmup, five
	// discarded, five measured); with two it takes 8, the first step's
	// discarded round its warmup, and the second round of a step follows
	// the first as the first follows the discarded one: in the same
	// process, caches warm.
	StepWarmup = 1
)

// BlockPlan shares reps rounds out over blocks: at least MinRuns blocks
// (so that a verdict can be reached; reps=10 gives 10 blocks of one round),
// at most BlockRounds rounds each.
func BlockPlan(reps int) (perBlock, blocks int) {
	per := max(1, min(BlockRounds, reps/MinRuns))
	return per, (reps + per - 1) / per
}

// BlockStop is the rule that ends a before/after after n blocks: "" to go
// on, else why it stops. limit blocks (pairs=, else MaxPairs) always stop
// it; with pairs= nothing else does; otherwise no fewer than MinRuns, then
// it stops when every verdict is known (known) or when the next block would
// end past the budget (over). It does not stop sooner even when the
// headline is known (the sequential test could stop at stats.SeqFirst
// blocks): the table's series verdicts, Holm-adjusted over every variant
// and series, cannot be reached that soon, and would read "undefined" for
// a 2x change beside a headline that says it (tried, and reverted).
func BlockStop(n, limit int, fixed bool, known, over func() bool) string {
	switch {
	case n >= limit:
		return StopPairs
	case fixed || n < MinRuns:
		return ""
	case known():
		return StopDecided
	case over():
		return StopBudget
	}
	return ""
}
