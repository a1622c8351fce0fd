package bench

import "github.com/benchbook/benchbook/internal/result"

// HeadlineInput is what the headline of a before/after is judged from
// (JudgeHeadline): per variant the two builds' interleaved rounds, the
// block of each round in RoundBlock, and their fresh samples.
type HeadlineInput = result.HeadlineInput

// HeadlineSeries is one variant's samples in both builds.
type HeadlineSeries = result.HeadlineSeries

// VariantVerdict is one variant's verdict on its warm pass, new build over
// previous: the verdict word, the ratio and its interval, the blocks that
// decided it.
type VariantVerdict = result.VariantVerdict

const (
	// BlockRounds is the most interleaved rounds one block of a
	// before/after takes.
	BlockRounds = result.BlockRounds
	// StepRounds is the measured rounds of each step of a lock-step
	// block: the two builds take turns every StepRounds rounds.
	StepRounds = result.StepRounds
	// MaxPairs bounds the blocks of a before/after: pairs= and what a
	// budget may reach.
	MaxPairs = result.MaxPairs
	// LatencyPreemptShare: the worst operation is put down to a
	// preemption when its thread waited, runnable, at least this share of
	// the worst operation's time during its pass.
	LatencyPreemptShare = result.LatencyPreemptShare
)

// Verdict is the one rule every verdict word comes from, given whether the
// test rejected "no difference", its interval [lo, hi] of ratios and
// resolve, the smallest difference that counts (the band 1 -+ resolve/2):
// "no difference" when the interval lies inside the band, "slower" or
// "faster" when it lies beyond it, "undefined" otherwise.
func Verdict(rejected bool, lo, hi, resolve float64) string {
	return result.Verdict(rejected, lo, hi, resolve)
}

// JudgeHeadline gives each variant of a before/after one verdict on its
// warm pass, new over previous, from every block: one value per block
// (the median of its paired log-ratios), judged by the group-sequential
// sign test, Holm-adjusted over the variants.
func JudgeHeadline(in HeadlineInput) []VariantVerdict { return result.JudgeHeadline(in) }

// BlockPlan shares reps rounds out over blocks: at least ten blocks, at
// most BlockRounds rounds each.
func BlockPlan(reps int) (perBlock, blocks int) { return result.BlockPlan(reps) }

// BlockStop is the rule that ends a before/after after n blocks: "" to go
// on, else why it stops. limit blocks always stop it; with fixed (pairs=)
// nothing else does; otherwise no fewer than ten, then it stops when every
// verdict is known (known) or when the next block would end past the
// budget (over).
func BlockStop(n, limit int, fixed bool, known, over func() bool) string {
	return result.BlockStop(n, limit, fixed, known, over)
}
