package result

import (
	"time"
)

// Minimums of the protocol: seed 000's run.sh refuses fewer.
const (
	MinReps = 10
	MinRuns = 10
	// MaxReps bounds reps, runs and warmup: every sample is kept in memory
	// and in the result, and a run of more would last for days. Every
	// statistic over the samples is O(n log n) in time and O(n) in memory
	// (the pair statistics select their order statistics, stats/select.go,
	// instead of storing n^2 values: at n = 100000 a paired verdict takes
	// 21 MB and 0.4 s, an unpaired one 26 MB and 1.1 s, where the stored
	// Walsh averages alone were 40 GB), so memory does not bound n below
	// this (bench/scaling_test.go prints the ratios of n = 6000 to 600).
	MaxReps = 100000
	// MaxSettle bounds settle: every process settles this long.
	MaxSettle = 10 * time.Second
	// SettleShare is how much of the per-process timeout settle may take
	// at most: the process still has to warm up and measure.
	SettleShare = 4
	// MaxBatch bounds batch=K: a sample of K passes must end within the
	// process's timeout even for a pass of a microsecond.
	MaxBatch = 1 << 24
	// DefaultSettleMin is the floor of an adaptive settle when settle=
	// gives only its bound: a process settles at least this long (or the
	// bound, if shorter), then until a pass no longer gets faster.
	DefaultSettleMin = 10 * time.Millisecond
	// MaxPairs bounds the blocks of a before/after (pairs=, and what a
	// budget may reach).
	MaxPairs = 2000
	// MaxBudget bounds budget=.
	MaxBudget = 24 * time.Hour
)

// DefaultResolve is the resolve= of a run that does not set it (the width
// of the band around 1 within which an interval is "no difference"), and
// the resolve of a result that does not record one.
const DefaultResolve = 0.02
