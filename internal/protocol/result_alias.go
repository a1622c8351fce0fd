package protocol

import (
	"github.com/benchbook/benchbook/internal/result"
)

// The names of internal/result (the result model and its JSON, the figures
// read off it, the verdicts): protocol.X is result.X.
type (
	Result          = result.Result
	Kernel          = result.Kernel
	Protocol        = result.Protocol
	HarnessSyscalls = result.HarnessSyscalls
	Clock           = result.Clock
	Conditions      = result.Conditions
	Samples         = result.Samples
	Layout          = result.Layout
	Cold            = result.Cold
	Series          = result.Series
	Checksum        = result.Checksum
	Variant         = result.Variant
	Comparison      = result.Comparison
	Stat            = result.Stat
	AA              = result.AA
	Baseline        = result.Baseline
	VariantVerdict  = result.VariantVerdict
	BaselineVariant = result.BaselineVariant
	Finding         = result.Finding
	Prediction      = result.Prediction
	Phase           = result.Phase
	Results         = result.Results
	SweepPrediction = result.SweepPrediction
	Control         = result.Control
	PagesGot        = result.PagesGot
	Axis            = result.Axis
	SweepPoint      = result.SweepPoint
	SweepSummary    = result.SweepSummary
	CacheMark       = result.CacheMark
	Counts          = result.Counts
	CountRun        = result.CountRun
	FreqEstimate    = result.FreqEstimate
	FreqProcess     = result.FreqProcess
	Latency         = result.Latency
	HeadlineInput   = result.HeadlineInput
	HeadlineSeries  = result.HeadlineSeries
)

const (
	StepRounds          = result.StepRounds
	StepWarmup          = result.StepWarmup
	BlockRounds         = result.BlockRounds
	SchemaID            = result.SchemaID
	StopDecided         = result.StopDecided
	StopBudget          = result.StopBudget
	StopPairs           = result.StopPairs
	StopInterrupted     = result.StopInterrupted
	StopFailed          = result.StopFailed
	VerdictFaster       = result.VerdictFaster
	VerdictSlower       = result.VerdictSlower
	VerdictNoDifference = result.VerdictNoDifference
	VerdictUndefined    = result.VerdictUndefined
	VerdictDead         = result.VerdictDead
	VerdictHollow       = result.VerdictHollow
	Uninformative       = result.Uninformative
	ControlPages        = result.ControlPages
	ControlPad          = result.ControlPad
	MaxPad              = result.MaxPad
	LatencyHalf         = result.LatencyHalf
	LatencyPreemptShare = result.LatencyPreemptShare
	MinReps             = result.MinReps
	MinRuns             = result.MinRuns
	MaxReps             = result.MaxReps
	MaxSettle           = result.MaxSettle
	SettleShare         = result.SettleShare
	MaxBatch            = result.MaxBatch
	DefaultSettleMin    = result.DefaultSettleMin
	MaxPairs            = result.MaxPairs
	MaxBudget           = result.MaxBudget
	Method              = result.Method
	ResultFile          = result.ResultFile
)

var (
	SeriesNames        = result.SeriesNames
	LatencyPercentiles = result.LatencyPercentiles
	ErrMethod          = result.ErrMethod
)

// ReadNotebook is result.ReadNotebook.
func ReadNotebook(path string) (Results, error) { return result.ReadNotebook(path) }

// ParsePrediction is result.ParsePrediction.
func ParsePrediction(s string) (*Prediction, error) { return result.ParsePrediction(s) }

// PointValues is result.PointValues.
func PointValues(sp *SweepPoint, axes []Axis) []int64 { return result.PointValues(sp, axes) }

// SweepSamples is result.SweepSamples.
func SweepSamples(r *Result, variant string) []float64 { return result.SweepSamples(r, variant) }

// LatencyIndex is result.LatencyIndex.
func LatencyIndex(v uint64) int { return result.LatencyIndex(v) }

// LatencyLowest is result.LatencyLowest.
func LatencyLowest(i int) uint64 { return result.LatencyLowest(i) }

// LatencyPercentile is result.LatencyPercentile.
func LatencyPercentile(buckets [][2]int64, q float64) uint64 {
	return result.LatencyPercentile(buckets, q)
}

// NewSamples is result.NewSamples.
func NewSamples(ns []float64) *Samples { return result.NewSamples(ns) }

// SamplesDigest is result.SamplesDigest.
func SamplesDigest(ns []float64) string { return result.SamplesDigest(ns) }

// ChecksumOK is result.ChecksumOK.
func ChecksumOK(got, want float64, passes int) bool { return result.ChecksumOK(got, want, passes) }

// Verdict is result.Verdict.
func Verdict(rejected bool, lo, hi, resolve float64) string {
	return result.Verdict(rejected, lo, hi, resolve)
}

// AsmSame is result.AsmSame.
func AsmSame(a, b string) bool { return result.AsmSame(a, b) }

// ControlName is result.ControlName.
func ControlName(r *Result) (control, base string) { return result.ControlName(r) }

// RatioName is result.RatioName.
func RatioName(r *Result) string { return result.RatioName(r) }

// CyclesPerElement is result.CyclesPerElement.
func CyclesPerElement(ns, mhz []float64, elements int64) (float64, bool) {
	return result.CyclesPerElement(ns, mhz, elements)
}

// PointLabel is result.PointLabel.
func PointLabel(r *Result) string { return result.PointLabel(r) }

// CheckMethod is result.CheckMethod.
func CheckMethod(p Protocol) error { return result.CheckMethod(p) }

// Comparisons is result.Comparisons.
func Comparisons(vs []Variant, p Protocol, roundBlock []int) []Comparison {
	return result.Comparisons(vs, p, roundBlock)
}

// AAControl is result.AAControl.
func AAControl(variant string, orig, copySamples []float64, p Protocol, roundBlock []int) AA {
	return result.AAControl(variant, orig, copySamples, p, roundBlock)
}

// JudgeHeadline is result.JudgeHeadline.
func JudgeHeadline(in HeadlineInput) []VariantVerdict { return result.JudgeHeadline(in) }

// BlockValues is result.BlockValues.
func BlockValues(a, b []float64, block []int) ([]float64, error) {
	return result.BlockValues(a, b, block)
}

// WarmBlocks is result.WarmBlocks.
func WarmBlocks(now, before []float64, block []int, nowFresh, beforeFresh []float64) ([]float64, error) {
	return result.WarmBlocks(now, before, block, nowFresh, beforeFresh)
}

// PairValues is result.PairValues.
func PairValues(a, b []float64) ([]float64, error) { return result.PairValues(a, b) }

// JudgeBaseline is result.JudgeBaseline.
func JudgeBaseline(r *Result, bl *Baseline) { result.JudgeBaseline(r, bl) }

// WriteGoBench is result.WriteGoBench.
func WriteGoBench(w interface{ Write([]byte) (int, error) }, r *Result) error {
	return result.WriteGoBench(w, r)
}

// ClockResolution is result.ClockResolution.
func ClockResolution(spaced string, minStep float64) float64 {
	return result.ClockResolution(spaced, minStep)
}

// BlockPlan is result.BlockPlan.
func BlockPlan(reps int) (perBlock, blocks int) { return result.BlockPlan(reps) }

// BlockStop is result.BlockStop.
func BlockStop(n, limit int, fixed bool, known, over func() bool) string {
	return result.BlockStop(n, limit, fixed, known, over)
}
