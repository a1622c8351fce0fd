package bench

import (
	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/internal/result"
)

// Result is one run of the protocol: the kernel and its build, the
// protocol's settings, the machine and its conditions, every variant's
// samples and summaries, the comparisons, the A/A control, the findings,
// and a baseline measured beside it. It is the JSON a notebook carries as
// application/vnd.benchbook.result+json. Its methods read it:
// r.Series("sink", "fresh") the samples of a series, r.Summary(v, s) their
// summary, r.Variant(v), r.Comparison(a, b).
type Result = result.Result

// Variant is one BENCH variant of a result: its assembly, what the
// compiler left of its timed code, its batch, checksum and series.
type Variant = result.Variant

// Series are a variant's series: Interleaved (round robin in one process),
// InProcess and Fresh, and Cold.
type Series = result.Series

// Samples is one series: the samples in nanoseconds per pass, in the order
// taken, and their summary.
type Samples = result.Samples

// Comparison is one variant over another in one series: the ratio of
// medians, its interval and the test that agrees with it.
type Comparison = result.Comparison

// Protocol is how a result was measured: reps, runs, settle, pin, load,
// elements and the rest of the keys of %bench.
type Protocol = result.Protocol

// Conditions are the machine and its state around a run: the machine's
// description, the clock, the load before and after, the fingerprint.
type Conditions = result.Conditions

// Latency is a BENCH_OPS variant's operations one by one: their
// percentiles, the worst, the timer's overhead and the interruption floor
// (AboveFloor).
type Latency = result.Latency

// Results are the results an executed notebook carries, in the order its
// cells show them: Of(name) those of one kernel, First(name) its first.
type Results = result.Results

// ReadNotebook reads the results in the outputs of an executed notebook
// (.ipynb), so that a rerun can be compared with published evidence in a
// glue cell: bench.ReadNotebook("published/investigation.ipynb").
func ReadNotebook(path string) (Results, error) { return result.ReadNotebook(path) }

// Recover rebuilds the result of a run that was killed before it could
// write it (the kernel was killed, the machine went down) from its folder
// dir: the run's record files, read as the run reads them. The result is
// partial; it is written to dir and returned. A folder that already has
// its result is refused.
func Recover(dir string) (*Result, error) { return protocol.Recover(dir) }

// SweepSamples are the samples a sweep judges a point by: the interleaved
// series (ns per pass) of variant, taken over at least ten processes
// (BlockPlan) in the point's turn, each pass warm.
func SweepSamples(r *Result, variant string) []float64 { return result.SweepSamples(r, variant) }

// CheckMethod refuses a result whose comparisons were made by another
// stats method than this build's (a result of an older benchbook).
func CheckMethod(p Protocol) error { return result.CheckMethod(p) }

// ErrDiskFull is a write that failed for want of space (ENOSPC, or EDQUOT
// for a quota): the error of a run that could not write its records wraps
// it, errors.Is(err, bench.ErrDiskFull).
var ErrDiskFull = protocol.ErrDiskFull
