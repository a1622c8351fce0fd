package bench

import (
	"github.com/benchbook/benchbook/internal/result"
)

// SchemaID is result.SchemaID.
const SchemaID = result.SchemaID

// Result is result.Result.
type Result = result.Result

// Kernel is result.Kernel.
type Kernel = result.Kernel

// Protocol is result.Protocol.
type Protocol = result.Protocol

// Clock is result.Clock.
type Clock = result.Clock

// Conditions is result.Conditions.
type Conditions = result.Conditions

// Samples is result.Samples.
type Samples = result.Samples

// Layout is result.Layout.
type Layout = result.Layout

// Cold is result.Cold.
type Cold = result.Cold

// Series is result.Series.
type Series = result.Series

// Checksum is result.Checksum.
type Checksum = result.Checksum

// Variant is result.Variant.
type Variant = result.Variant

// Comparison is result.Comparison.
type Comparison = result.Comparison

// Stat is result.Stat.
type Stat = result.Stat

// AA is result.AA.
type AA = result.AA

// Baseline is result.Baseline.
type Baseline = result.Baseline

// StopDecided is result.StopDecided.
const StopDecided = result.StopDecided

// StopBudget is result.StopBudget.
const StopBudget = result.StopBudget

// StopPairs is result.StopPairs.
const StopPairs = result.StopPairs

// StopInterrupted is result.StopInterrupted.
const StopInterrupted = result.StopInterrupted

// StopFailed is result.StopFailed.
const StopFailed = result.StopFailed

// VariantVerdict is result.VariantVerdict.
type VariantVerdict = result.VariantVerdict

// VerdictFaster is result.VerdictFaster.
const VerdictFaster = result.VerdictFaster

// VerdictSlower is result.VerdictSlower.
const VerdictSlower = result.VerdictSlower

// VerdictNoDifference is result.VerdictNoDifference.
const VerdictNoDifference = result.VerdictNoDifference

// VerdictUndefined is result.VerdictUndefined.
const VerdictUndefined = result.VerdictUndefined

// VerdictDead is result.VerdictDead.
const VerdictDead = result.VerdictDead

// VerdictHollow is result.VerdictHollow.
const VerdictHollow = result.VerdictHollow

// BaselineVariant is result.BaselineVariant.
type BaselineVariant = result.BaselineVariant

// Finding is result.Finding.
type Finding = result.Finding

// Prediction is result.Prediction.
type Prediction = result.Prediction

// Phase is result.Phase.
type Phase = result.Phase

// SeriesNames is result.SeriesNames.
var SeriesNames = result.SeriesNames

// Results is result.Results.
type Results = result.Results

// ReadNotebook is result.ReadNotebook.
func ReadNotebook(path string) (Results, error) { return result.ReadNotebook(path) }

// ParsePrediction is result.ParsePrediction.
func ParsePrediction(s string) (*Prediction, error) { return result.ParsePrediction(s) }

// SweepPrediction is result.SweepPrediction.
type SweepPrediction = result.SweepPrediction

// PointValues is result.PointValues.
func PointValues(sp *SweepPoint, axes []Axis) []int64 { return result.PointValues(sp, axes) }

// SweepSamples is result.SweepSamples.
func SweepSamples(r *Result, variant string) []float64 { return result.SweepSamples(r, variant) }

// Uninformative is result.Uninformative.
const Uninformative = result.Uninformative

// ControlPages is result.ControlPages.
const ControlPages = result.ControlPages

// ControlPad is result.ControlPad.
const ControlPad = result.ControlPad

// MaxPad is result.MaxPad.
const MaxPad = result.MaxPad

// Control is result.Control.
type Control = result.Control

// PagesGot is result.PagesGot.
type PagesGot = result.PagesGot

// Axis is result.Axis.
type Axis = result.Axis

// SweepPoint is result.SweepPoint.
type SweepPoint = result.SweepPoint

// SweepSummary is result.SweepSummary.
type SweepSummary = result.SweepSummary

// CacheMark is result.CacheMark.
type CacheMark = result.CacheMark

// Counts is result.Counts.
type Counts = result.Counts

// CountRun is result.CountRun.
type CountRun = result.CountRun

// FreqEstimate is result.FreqEstimate.
type FreqEstimate = result.FreqEstimate

// FreqProcess is result.FreqProcess.
type FreqProcess = result.FreqProcess

// Latency is result.Latency.
type Latency = result.Latency

// LatencyPercentiles is result.LatencyPercentiles.
var LatencyPercentiles = result.LatencyPercentiles

// LatencyHalf is result.LatencyHalf.
const LatencyHalf = result.LatencyHalf

// LatencyIndex is result.LatencyIndex.
func LatencyIndex(v uint64) int { return result.LatencyIndex(v) }

// LatencyLowest is result.LatencyLowest.
func LatencyLowest(i int) uint64 { return result.LatencyLowest(i) }

// LatencyPercentile is result.LatencyPercentile.
func LatencyPercentile(buckets [][2]int64, q float64) uint64 {
	return result.LatencyPercentile(buckets, q)
}

// LatencyPreemptShare is result.LatencyPreemptShare.
const LatencyPreemptShare = result.LatencyPreemptShare

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

// MinReps is result.MinReps.
const MinReps = result.MinReps

// MinRuns is result.MinRuns.
const MinRuns = result.MinRuns

// MaxReps is result.MaxReps.
const MaxReps = result.MaxReps

// MaxSettle is result.MaxSettle.
const MaxSettle = result.MaxSettle

// SettleShare is result.SettleShare.
const SettleShare = result.SettleShare

// MaxBatch is result.MaxBatch.
const MaxBatch = result.MaxBatch

// DefaultSettleMin is result.DefaultSettleMin.
const DefaultSettleMin = result.DefaultSettleMin

// MaxPairs is result.MaxPairs.
const MaxPairs = result.MaxPairs

// MaxBudget is result.MaxBudget.
const MaxBudget = result.MaxBudget

// PointLabel is result.PointLabel.
func PointLabel(r *Result) string { return result.PointLabel(r) }

// Method is result.Method.
const Method = result.Method

// ErrMethod is result.ErrMethod.
var ErrMethod = result.ErrMethod

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

// HeadlineInput is result.HeadlineInput.
type HeadlineInput = result.HeadlineInput

// HeadlineSeries is result.HeadlineSeries.
type HeadlineSeries = result.HeadlineSeries

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
