package bench

import (
	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/machine"
)

// PredictionText is findings.PredictionText.
func PredictionText(r *Result) string { return findings.PredictionText(r) }

// AddCeilingBand is findings.AddCeilingBand.
const AddCeilingBand = findings.AddCeilingBand

// FaultFloor is findings.FaultFloor.
const FaultFloor = findings.FaultFloor

// GapsText is findings.GapsText.
func GapsText(r *Result, ref string) string { return findings.GapsText(r, ref) }

// BuildChange is findings.BuildChange.
func BuildChange(before, after Kernel) string { return findings.BuildChange(before, after) }

// EstimateText is findings.EstimateText.
func EstimateText(what string, ratio, shift, lo, hi float64, why string) string {
	return findings.EstimateText(what, ratio, shift, lo, hi, why)
}

// BWCeilingBand is findings.BWCeilingBand.
const BWCeilingBand = findings.BWCeilingBand

// LastLevelCache is findings.LastLevelCache.
func LastLevelCache(d machine.Description) int64 { return findings.LastLevelCache(d) }

// BWSentences is findings.BWSentences.
func BWSentences(r *Result) []Sentence { return findings.BWSentences(r) }

// TopicControl is findings.TopicControl.
const TopicControl = findings.TopicControl

// KindControl is findings.KindControl.
const KindControl = findings.KindControl

// KindStride is findings.KindStride.
const KindStride = findings.KindStride

// StrideConflictMin is findings.StrideConflictMin.
const StrideConflictMin = findings.StrideConflictMin

// TopicClock is findings.TopicClock.
const TopicClock = findings.TopicClock

// KindClock is findings.KindClock.
const KindClock = findings.KindClock

// FreqMoveLimitPct is findings.FreqMoveLimitPct.
const FreqMoveLimitPct = findings.FreqMoveLimitPct

// FreqNoiseFactor is findings.FreqNoiseFactor.
const FreqNoiseFactor = findings.FreqNoiseFactor

// FreqAlpha is findings.FreqAlpha.
const FreqAlpha = findings.FreqAlpha

// KindLatency is findings.KindLatency.
const KindLatency = findings.KindLatency

// TopicLatency is findings.TopicLatency.
const TopicLatency = findings.TopicLatency

// LatencyAloneRatio is findings.LatencyAloneRatio.
const LatencyAloneRatio = findings.LatencyAloneRatio

// LatencyRateDrift is findings.LatencyRateDrift.
const LatencyRateDrift = findings.LatencyRateDrift

// LayoutAlpha is findings.LayoutAlpha.
const LayoutAlpha = findings.LayoutAlpha

// TopicSweep is findings.TopicSweep.
const TopicSweep = findings.TopicSweep

// KindStep is findings.KindStep.
const KindStep = findings.KindStep

// KindFall is findings.KindFall.
const KindFall = findings.KindFall

// StepRatio is findings.StepRatio.
const StepRatio = findings.StepRatio

// ClaimSweepCaches is findings.ClaimSweepCaches.
const ClaimSweepCaches = findings.ClaimSweepCaches

// ClaimSweepBytesUnknown is findings.ClaimSweepBytesUnknown.
const ClaimSweepBytesUnknown = findings.ClaimSweepBytesUnknown

// ClaimSweepSpan is findings.ClaimSweepSpan.
const ClaimSweepSpan = findings.ClaimSweepSpan

// ClaimSweepStep is findings.ClaimSweepStep.
const ClaimSweepStep = findings.ClaimSweepStep

// ClaimSweepUnchecked is findings.ClaimSweepUnchecked.
const ClaimSweepUnchecked = findings.ClaimSweepUnchecked

// ClaimSweepNoStep is findings.ClaimSweepNoStep.
const ClaimSweepNoStep = findings.ClaimSweepNoStep

// ClaimSweepFall is findings.ClaimSweepFall.
const ClaimSweepFall = findings.ClaimSweepFall

// ClaimSweepPrediction is findings.ClaimSweepPrediction.
const ClaimSweepPrediction = findings.ClaimSweepPrediction

// SweepClaims is findings.SweepClaims.
var SweepClaims = findings.SweepClaims

// CurvePoint is findings.CurvePoint.
type CurvePoint = findings.CurvePoint

// Quartiles is findings.Quartiles.
func Quartiles(x []float64) (q1, med, q3 float64) { return findings.Quartiles(x) }

// Step is findings.Step.
type Step = findings.Step

// FindSteps is findings.FindSteps.
func FindSteps(curve []CurvePoint, caches []CacheMark) []Step {
	return findings.FindSteps(curve, caches)
}

// CheckRatio is findings.CheckRatio.
const CheckRatio = findings.CheckRatio

// Fall is findings.Fall.
type Fall = findings.Fall

// FindFalls is findings.FindFalls.
func FindFalls(curve []CurvePoint) []Fall { return findings.FindFalls(curve) }

// Curves is findings.Curves.
func Curves(rs []*Result, variant string) (names []string, curves [][]CurvePoint) {
	return findings.Curves(rs, variant)
}

// SweepOf is findings.SweepOf.
func SweepOf(rs []*Result) *SweepSummary { return findings.SweepOf(rs) }

// SweepSentences is findings.SweepSentences.
func SweepSentences(rs []*Result) []Sentence { return findings.SweepSentences(rs) }

// SweepVariants is findings.SweepVariants.
func SweepVariants(rs []*Result) []string { return findings.SweepVariants(rs) }

// SweepPredictionText is findings.SweepPredictionText.
func SweepPredictionText(p *SweepPrediction) string { return findings.SweepPredictionText(p) }

// ClaimPartial is findings.ClaimPartial.
const ClaimPartial = findings.ClaimPartial

// ClaimStride is findings.ClaimStride.
const ClaimStride = findings.ClaimStride

// ClaimControlPages is findings.ClaimControlPages.
const ClaimControlPages = findings.ClaimControlPages

// ClaimControlVerdict is findings.ClaimControlVerdict.
const ClaimControlVerdict = findings.ClaimControlVerdict

// ClaimLoadKind is findings.ClaimLoadKind.
const ClaimLoadKind = findings.ClaimLoadKind

// ClaimPrediction is findings.ClaimPrediction.
const ClaimPrediction = findings.ClaimPrediction

// ClaimBaselineDropped is findings.ClaimBaselineDropped.
const ClaimBaselineDropped = findings.ClaimBaselineDropped

// ClaimBaselineMethod is findings.ClaimBaselineMethod.
const ClaimBaselineMethod = findings.ClaimBaselineMethod

// ClaimBaselineVerdict is findings.ClaimBaselineVerdict.
const ClaimBaselineVerdict = findings.ClaimBaselineVerdict

// ClaimDead is findings.ClaimDead.
const ClaimDead = findings.ClaimDead

// ClaimDiffer is findings.ClaimDiffer.
const ClaimDiffer = findings.ClaimDiffer

// ClaimDifferBeyondAA is findings.ClaimDifferBeyondAA.
const ClaimDifferBeyondAA = findings.ClaimDifferBeyondAA

// ClaimDifferWithinAA is findings.ClaimDifferWithinAA.
const ClaimDifferWithinAA = findings.ClaimDifferWithinAA

// ClaimDifferAsAA is findings.ClaimDifferAsAA.
const ClaimDifferAsAA = findings.ClaimDifferAsAA

// ClaimWithinBand is findings.ClaimWithinBand.
const ClaimWithinBand = findings.ClaimWithinBand

// ClaimSizeUnknown is findings.ClaimSizeUnknown.
const ClaimSizeUnknown = findings.ClaimSizeUnknown

// ClaimFamily is findings.ClaimFamily.
const ClaimFamily = findings.ClaimFamily

// ClaimNoDifference is findings.ClaimNoDifference.
const ClaimNoDifference = findings.ClaimNoDifference

// ClaimAutocorr is findings.ClaimAutocorr.
const ClaimAutocorr = findings.ClaimAutocorr

// ClaimImplausible is findings.ClaimImplausible.
const ClaimImplausible = findings.ClaimImplausible

// ClaimPerElement is findings.ClaimPerElement.
const ClaimPerElement = findings.ClaimPerElement

// ClaimParallel is findings.ClaimParallel.
const ClaimParallel = findings.ClaimParallel

// ClaimNoElements is findings.ClaimNoElements.
const ClaimNoElements = findings.ClaimNoElements

// ClaimCounts is findings.ClaimCounts.
const ClaimCounts = findings.ClaimCounts

// ClaimFirstTouch is findings.ClaimFirstTouch.
const ClaimFirstTouch = findings.ClaimFirstTouch

// ClaimZeroPage is findings.ClaimZeroPage.
const ClaimZeroPage = findings.ClaimZeroPage

// ClaimReadsAllocate is findings.ClaimReadsAllocate.
const ClaimReadsAllocate = findings.ClaimReadsAllocate

// ClaimMappedBefore is findings.ClaimMappedBefore.
const ClaimMappedBefore = findings.ClaimMappedBefore

// ClaimSetupAllocated is findings.ClaimSetupAllocated.
const ClaimSetupAllocated = findings.ClaimSetupAllocated

// ClaimSetupPartial is findings.ClaimSetupPartial.
const ClaimSetupPartial = findings.ClaimSetupPartial

// ClaimPairs is findings.ClaimPairs.
const ClaimPairs = findings.ClaimPairs

// ClaimAAFloor is findings.ClaimAAFloor.
const ClaimAAFloor = findings.ClaimAAFloor

// ClaimAANoFloor is findings.ClaimAANoFloor.
const ClaimAANoFloor = findings.ClaimAANoFloor

// ClaimPlacement is findings.ClaimPlacement.
const ClaimPlacement = findings.ClaimPlacement

// ClaimLayoutChance is findings.ClaimLayoutChance.
const ClaimLayoutChance = findings.ClaimLayoutChance

// ClaimLayoutMore is findings.ClaimLayoutMore.
const ClaimLayoutMore = findings.ClaimLayoutMore

// ClaimLayoutUnsplit is findings.ClaimLayoutUnsplit.
const ClaimLayoutUnsplit = findings.ClaimLayoutUnsplit

// ClaimGaps is findings.ClaimGaps.
const ClaimGaps = findings.ClaimGaps

// ClaimClockMoved is findings.ClaimClockMoved.
const ClaimClockMoved = findings.ClaimClockMoved

// ClaimClockStill is findings.ClaimClockStill.
const ClaimClockStill = findings.ClaimClockStill

// ClaimClockVariant is findings.ClaimClockVariant.
const ClaimClockVariant = findings.ClaimClockVariant

// ClaimNoisy is findings.ClaimNoisy.
const ClaimNoisy = findings.ClaimNoisy

// ClaimQuiet is findings.ClaimQuiet.
const ClaimQuiet = findings.ClaimQuiet

// ClaimRerun is findings.ClaimRerun.
const ClaimRerun = findings.ClaimRerun

// ClaimBatchForced is findings.ClaimBatchForced.
const ClaimBatchForced = findings.ClaimBatchForced

// ClaimBatched is findings.ClaimBatched.
const ClaimBatched = findings.ClaimBatched

// ClaimLoadForced is findings.ClaimLoadForced.
const ClaimLoadForced = findings.ClaimLoadForced

// ClaimLoadHigh is findings.ClaimLoadHigh.
const ClaimLoadHigh = findings.ClaimLoadHigh

// ClaimLoadLow is findings.ClaimLoadLow.
const ClaimLoadLow = findings.ClaimLoadLow

// ClaimDuring is findings.ClaimDuring.
const ClaimDuring = findings.ClaimDuring

// ClaimDuringBusy is findings.ClaimDuringBusy.
const ClaimDuringBusy = findings.ClaimDuringBusy

// ClaimChecksumOK is findings.ClaimChecksumOK.
const ClaimChecksumOK = findings.ClaimChecksumOK

// ClaimChecksumMismatch is findings.ClaimChecksumMismatch.
const ClaimChecksumMismatch = findings.ClaimChecksumMismatch

// ClaimLatencyPreempted is findings.ClaimLatencyPreempted.
const ClaimLatencyPreempted = findings.ClaimLatencyPreempted

// ClaimAddUnder is findings.ClaimAddUnder.
const ClaimAddUnder = findings.ClaimAddUnder

// ClaimAddAt is findings.ClaimAddAt.
const ClaimAddAt = findings.ClaimAddAt

// ClaimBWOver is findings.ClaimBWOver.
const ClaimBWOver = findings.ClaimBWOver

// ClaimBWAt is findings.ClaimBWAt.
const ClaimBWAt = findings.ClaimBWAt

// ClaimHeadlineBaseline is findings.ClaimHeadlineBaseline.
const ClaimHeadlineBaseline = findings.ClaimHeadlineBaseline

// ClaimHeadlineNotLive is findings.ClaimHeadlineNotLive.
const ClaimHeadlineNotLive = findings.ClaimHeadlineNotLive

// ClaimHeadlineAlone is findings.ClaimHeadlineAlone.
const ClaimHeadlineAlone = findings.ClaimHeadlineAlone

// ClaimHeadlineTime is findings.ClaimHeadlineTime.
const ClaimHeadlineTime = findings.ClaimHeadlineTime

// ClaimHeadlineDead is findings.ClaimHeadlineDead.
const ClaimHeadlineDead = findings.ClaimHeadlineDead

// ClaimHeadlineQuick is findings.ClaimHeadlineQuick.
const ClaimHeadlineQuick = findings.ClaimHeadlineQuick

// ClaimHeadlineNote is findings.ClaimHeadlineNote.
const ClaimHeadlineNote = findings.ClaimHeadlineNote

// ClaimHeadlineLayouts is findings.ClaimHeadlineLayouts.
const ClaimHeadlineLayouts = findings.ClaimHeadlineLayouts

// ClaimAcrossVerdict is findings.ClaimAcrossVerdict.
const ClaimAcrossVerdict = findings.ClaimAcrossVerdict

// ClaimAcrossHeadline is findings.ClaimAcrossHeadline.
const ClaimAcrossHeadline = findings.ClaimAcrossHeadline

// ClaimAcrossNWay is findings.ClaimAcrossNWay.
const ClaimAcrossNWay = findings.ClaimAcrossNWay

// ClaimAcrossFloors is findings.ClaimAcrossFloors.
const ClaimAcrossFloors = findings.ClaimAcrossFloors

// ClaimCondMachine is findings.ClaimCondMachine.
const ClaimCondMachine = findings.ClaimCondMachine

// ClaimCondFrequency is findings.ClaimCondFrequency.
const ClaimCondFrequency = findings.ClaimCondFrequency

// ClaimCondClock is findings.ClaimCondClock.
const ClaimCondClock = findings.ClaimCondClock

// ClaimCondFingerprint is findings.ClaimCondFingerprint.
const ClaimCondFingerprint = findings.ClaimCondFingerprint

// ClaimCondLoad is findings.ClaimCondLoad.
const ClaimCondLoad = findings.ClaimCondLoad

// ClaimCondDuring is findings.ClaimCondDuring.
const ClaimCondDuring = findings.ClaimCondDuring

// ClaimCondProtocol is findings.ClaimCondProtocol.
const ClaimCondProtocol = findings.ClaimCondProtocol

// ClaimCondKernel is findings.ClaimCondKernel.
const ClaimCondKernel = findings.ClaimCondKernel

// Claims is findings.Claims.
var Claims = findings.Claims

// KindDeadCode is findings.KindDeadCode.
const KindDeadCode = findings.KindDeadCode

// KindImplausible is findings.KindImplausible.
const KindImplausible = findings.KindImplausible

// KindChecksum is findings.KindChecksum.
const KindChecksum = findings.KindChecksum

// KindLoad is findings.KindLoad.
const KindLoad = findings.KindLoad

// KindSpread is findings.KindSpread.
const KindSpread = findings.KindSpread

// KindFirstTouch is findings.KindFirstTouch.
const KindFirstTouch = findings.KindFirstTouch

// KindResolution is findings.KindResolution.
const KindResolution = findings.KindResolution

// KindBatch is findings.KindBatch.
const KindBatch = findings.KindBatch

// KindPartial is findings.KindPartial.
const KindPartial = findings.KindPartial

// KindPrediction is findings.KindPrediction.
const KindPrediction = findings.KindPrediction

// KindGaps is findings.KindGaps.
const KindGaps = findings.KindGaps

// KindComparison is findings.KindComparison.
const KindComparison = findings.KindComparison

// KindBaseline is findings.KindBaseline.
const KindBaseline = findings.KindBaseline

// KindAutocorr is findings.KindAutocorr.
const KindAutocorr = findings.KindAutocorr

// KindLayout is findings.KindLayout.
const KindLayout = findings.KindLayout

// KindCounts is findings.KindCounts.
const KindCounts = findings.KindCounts

// TopicPartial is findings.TopicPartial.
const TopicPartial = findings.TopicPartial

// TopicPrediction is findings.TopicPrediction.
const TopicPrediction = findings.TopicPrediction

// TopicDeadCode is findings.TopicDeadCode.
const TopicDeadCode = findings.TopicDeadCode

// TopicComparison is findings.TopicComparison.
const TopicComparison = findings.TopicComparison

// TopicPlausibility is findings.TopicPlausibility.
const TopicPlausibility = findings.TopicPlausibility

// TopicFirstTouch is findings.TopicFirstTouch.
const TopicFirstTouch = findings.TopicFirstTouch

// TopicResolution is findings.TopicResolution.
const TopicResolution = findings.TopicResolution

// TopicGaps is findings.TopicGaps.
const TopicGaps = findings.TopicGaps

// TopicSpread is findings.TopicSpread.
const TopicSpread = findings.TopicSpread

// TopicBatch is findings.TopicBatch.
const TopicBatch = findings.TopicBatch

// TopicLoad is findings.TopicLoad.
const TopicLoad = findings.TopicLoad

// TopicChecksum is findings.TopicChecksum.
const TopicChecksum = findings.TopicChecksum

// TopicBaseline is findings.TopicBaseline.
const TopicBaseline = findings.TopicBaseline

// TopicAutocorr is findings.TopicAutocorr.
const TopicAutocorr = findings.TopicAutocorr

// TopicLayout is findings.TopicLayout.
const TopicLayout = findings.TopicLayout

// TopicCounts is findings.TopicCounts.
const TopicCounts = findings.TopicCounts

// Topics is findings.Topics.
var Topics = findings.Topics

// SpreadLimit is findings.SpreadLimit.
const SpreadLimit = findings.SpreadLimit

// LoadLimit is findings.LoadLimit.
const LoadLimit = findings.LoadLimit

// BusyProcessPct is findings.BusyProcessPct.
const BusyProcessPct = findings.BusyProcessPct

// PairQuantile is findings.PairQuantile.
const PairQuantile = findings.PairQuantile

// ClockReads is findings.ClockReads.
const ClockReads = findings.ClockReads

// AAWidest is findings.AAWidest.
const AAWidest = findings.AAWidest

// AutocorrLimit is findings.AutocorrLimit.
const AutocorrLimit = findings.AutocorrLimit

// Sentence is findings.Sentence.
type Sentence = findings.Sentence

// TextVersion is findings.TextVersion.
const TextVersion = findings.TextVersion

// Findings is findings.Findings.
func Findings(r *Result) []Finding { return findings.Findings(r) }

// Sentences is findings.Sentences.
func Sentences(r *Result) []Sentence { return findings.Sentences(r) }

// FrequencyMHz is findings.FrequencyMHz.
func FrequencyMHz(r *Result) (mhz float64, estimated bool) { return findings.FrequencyMHz(r) }

// PairDifference is findings.PairDifference.
func PairDifference(x []float64, q float64) float64 { return findings.PairDifference(x, q) }

// HeadlineLine is findings.HeadlineLine.
type HeadlineLine = findings.HeadlineLine

// TopicHeadline is findings.TopicHeadline.
const TopicHeadline = findings.TopicHeadline

// Headline is findings.Headline.
func Headline(r *Result) []HeadlineLine { return findings.Headline(r) }

// ClaimSweepHeadline is findings.ClaimSweepHeadline.
const ClaimSweepHeadline = findings.ClaimSweepHeadline

// ClaimSweepHeadlineNotLive is findings.ClaimSweepHeadlineNotLive.
const ClaimSweepHeadlineNotLive = findings.ClaimSweepHeadlineNotLive

// SweepHeadline is findings.SweepHeadline.
func SweepHeadline(rs []*Result) []HeadlineLine { return findings.SweepHeadline(rs) }
