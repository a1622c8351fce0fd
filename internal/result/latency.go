package result

import (
	"math"
	"math/bits"
)

// Latency is what a BENCH_OPS variant (C) or func BenchXxx(op *bench.Op)
// (Go) measured of its single operations: over the operations of the
// measured passes of its in-process series (one process: not its cold
// pass, settle, warmup or calibration, and not the interleaved or fresh
// processes, whose passes are timed but whose operations are not
// collected). The percentiles come from the histogram in Buckets by
// LatencyPercentile, so that benchbook verify recomputes them; MaxNS is
// the longest operation exactly. The timer's own cost is OverheadNS (the
// median of as many empty operations, in the same process); it is not
// subtracted from anything.
type Latency struct {
	N          int64   `json:"n"`
	P50NS      float64 `json:"p50_ns"`
	P99NS      float64 `json:"p99_ns"`
	P999NS     float64 `json:"p999_ns"`
	P9999NS    float64 `json:"p9999_ns"`
	MaxNS      float64 `json:"max_ns"`
	OverheadNS float64 `json:"overhead_ns"`
	// OpsPerPass is n of BENCH_OPS(name, n); Passes the measured passes
	// whose operations are in the histogram (N = OpsPerPass * Passes).
	OpsPerPass int64  `json:"ops_per_pass"`
	Passes     int64  `json:"passes"`
	Series     string `json:"series"` // "in_process": whose operations these are
	// Clock is the counter read around each operation (rdtsc, cntvct_el0,
	// clock_gettime), TicksPerUS its rate: the mean of the two
	// calibrations against CLOCK_MONOTONIC, before and after the measured
	// passes, given too.
	Clock           string  `json:"clock"`
	TicksPerUS      float64 `json:"ticks_per_us"`
	TicksPerUSStart float64 `json:"ticks_per_us_start"`
	TicksPerUSEnd   float64 `json:"ticks_per_us_end"`
	// CPUFlags: which of constant_tsc, nonstop_tsc /proc/cpuinfo lists.
	CPUFlags      string `json:"cpu_flags"`
	MaxTicks      int64  `json:"max_ticks"`
	OverheadTicks int64  `json:"overhead_ticks"`
	// Where the worst operation was (harness 7): its measured pass and its
	// operation in it (from 0), and CLOCK_MONOTONIC when it began; nil in
	// results of older harnesses.
	MaxPass *int64 `json:"max_pass,omitempty"`
	MaxOp   *int64 `json:"max_op,omitempty"`
	MaxAtNS *int64 `json:"max_at_ns,omitempty"`
	// EmptyMaxTicks is the worst of the empty operations the overhead is
	// the median of, EmptyMaxNS the same in ns: how long the timer alone
	// took at its worst, which only an interruption of the thread makes
	// long (the interruption floor); 0 in results of older harnesses.
	EmptyMaxTicks int64   `json:"empty_max_ticks,omitempty"`
	EmptyMaxNS    float64 `json:"empty_max_ns,omitempty"`
	// MaxRunDelayNS and MaxInvoluntary (harness 8): what the thread waited
	// while the measured pass that holds the worst operation ran (a
	// batch's k passes), read outside the timed region: the growth of its
	// scheduler run delay (/proc/thread-self/schedstat: ns runnable but
	// not running) and of its involuntary context switches
	// (getrusage(RUSAGE_THREAD)); nil in results of older harnesses and
	// where the driver could not read them.
	MaxRunDelayNS  *int64 `json:"max_run_delay_ns,omitempty"`
	MaxInvoluntary *int64 `json:"max_nivcsw,omitempty"`
	// Buckets are the non-empty buckets of the histogram, [index, count]
	// (records.md: 3 significant digits).
	Buckets [][2]int64 `json:"buckets"`
	// Analysis says what the assembly checks of the variant mean here.
	Analysis string `json:"analysis"`
}

// LatencyPercentiles are the quantiles a Latency reports.
var LatencyPercentiles = []float64{0.5, 0.99, 0.999, 0.9999}

// LatencyHalf is the number of buckets per power of two (above 2048 ticks).
const LatencyHalf = 1024

// LatencyIndex is the bucket of a value in ticks (records.md).
func LatencyIndex(v uint64) int {
	v = min(v, 1<<43-1)
	if v < 2*LatencyHalf {
		return int(v)
	}
	e := bits.Len64(v) - 11
	return (e+1)*LatencyHalf + int(v>>e) - LatencyHalf
}

// LatencyLowest is the lowest value of bucket i, in ticks.
func LatencyLowest(i int) uint64 {
	if i < 2*LatencyHalf {
		return uint64(i)
	}
	return uint64(i%LatencyHalf+LatencyHalf) << (i/LatencyHalf - 1)
}

// LatencyPercentile is the lowest value (ticks) of the bucket that holds
// the operation of rank ceil(q * n), counted from 1, of the histogram
// given as [index, count] in increasing index order; 0 when it is empty.
// q * n is taken to 1e-6 of a rank first: 0.999 * 100000 is
// 99900.00000000001 in floating point, and its rank is 99900. (The C and
// Go drivers compute the overhead's median by the same rule.)
func LatencyPercentile(buckets [][2]int64, q float64) uint64 {
	var n int64
	for _, b := range buckets {
		n += b[1]
	}
	if n == 0 {
		return 0
	}
	rank := max(int64(q*float64(n)+0.999999), 1)
	var seen int64
	for _, b := range buckets {
		if seen += b[1]; seen >= rank {
			return LatencyLowest(int(b[0]))
		}
	}
	return 0
}

// Summarize computes N and every _ns field from the buckets, MaxTicks,
// OverheadTicks and TicksPerUS: what verify recomputes.
func (l *Latency) Summarize() {
	ns := func(ticks uint64) float64 { return float64(ticks) * 1000 / l.TicksPerUS }
	l.N = 0
	for _, b := range l.Buckets {
		l.N += b[1]
	}
	p := make([]float64, len(LatencyPercentiles))
	for i, q := range LatencyPercentiles {
		p[i] = ns(LatencyPercentile(l.Buckets, q))
	}
	l.P50NS, l.P99NS, l.P999NS, l.P9999NS = p[0], p[1], p[2], p[3]
	l.MaxNS = ns(uint64(l.MaxTicks))
	l.OverheadNS = ns(uint64(l.OverheadTicks))
	l.EmptyMaxNS = ns(uint64(l.EmptyMaxTicks))
}

// WithinFloor says whether the worst operation is no longer than the
// empty operations' worst: as long as an interruption of the timer alone
// (false when the result does not record the floor).
func (l *Latency) WithinFloor() bool { return l.EmptyMaxTicks > 0 && l.MaxTicks <= l.EmptyMaxTicks }

// AboveFloor says whether the worst operation is longer than the empty
// operations' worst (false when the result does not record the floor).
func (l *Latency) AboveFloor() bool { return l.EmptyMaxTicks > 0 && l.MaxTicks > l.EmptyMaxTicks }

// LatencyPreemptShare: the worst operation is put down to a preemption
// when the thread was switched out involuntarily during its pass and
// waited, runnable, at least this share of the worst operation's time.
// (A wait in its pass that hit another operation made that one at least
// as long; one of half the worst or more is a cause the run measured, not
// a guess.)
const LatencyPreemptShare = 0.5

// Preempted says whether the run measured a preemption that explains the
// worst operation: during the pass that holds it the thread had at least
// one involuntary context switch and a run delay of at least
// LatencyPreemptShare of the worst (false when the result does not
// record them).
func (l *Latency) Preempted() bool {
	return l.MaxRunDelayNS != nil && l.MaxInvoluntary != nil && *l.MaxRunDelayNS > 0 && *l.MaxInvoluntary >= 1 &&
		float64(*l.MaxRunDelayNS) >= LatencyPreemptShare*l.MaxNS
}

// Divisible says whether the worst operation may be divided by another's:
// it lies above the interruption floor and is not put down to a
// preemption.
func (l *Latency) Divisible() bool { return l.AboveFloor() && !l.Preempted() }

// RateDrift is how far apart the two calibrations of the tick rate are,
// relative to their mean; 0 when one is missing.
func (l *Latency) RateDrift() float64 {
	if l.TicksPerUSStart <= 0 || l.TicksPerUSEnd <= 0 {
		return 0
	}
	return math.Abs(l.TicksPerUSEnd-l.TicksPerUSStart) / ((l.TicksPerUSEnd + l.TicksPerUSStart) / 2)
}
