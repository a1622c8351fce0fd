package protocol

import (
	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/machine"
)

// The names of internal/findings (the sentences, findings and headlines,
// their topics, kinds and claim keys): protocol.X is findings.X.
type (
	CurvePoint   = findings.CurvePoint
	Step         = findings.Step
	Fall         = findings.Fall
	Sentence     = findings.Sentence
	HeadlineLine = findings.HeadlineLine
)

const (
	AddCeilingBand            = findings.AddCeilingBand
	FaultFloor                = findings.FaultFloor
	BWCeilingBand             = findings.BWCeilingBand
	TopicControl              = findings.TopicControl
	KindControl               = findings.KindControl
	KindStride                = findings.KindStride
	StrideConflictMin         = findings.StrideConflictMin
	TopicClock                = findings.TopicClock
	KindClock                 = findings.KindClock
	FreqMoveLimitPct          = findings.FreqMoveLimitPct
	FreqNoiseFactor           = findings.FreqNoiseFactor
	FreqAlpha                 = findings.FreqAlpha
	KindLatency               = findings.KindLatency
	TopicLatency              = findings.TopicLatency
	LatencyAloneRatio         = findings.LatencyAloneRatio
	LatencyRateDrift          = findings.LatencyRateDrift
	LayoutAlpha               = findings.LayoutAlpha
	TopicSweep                = findings.TopicSweep
	KindStep                  = findings.KindStep
	KindFall                  = findings.KindFall
	StepRatio                 = findings.StepRatio
	ClaimSweepCaches          = findings.ClaimSweepCaches
	ClaimSweepBytesUnknown    = findings.ClaimSweepBytesUnknown
	ClaimSweepSpan            = findings.ClaimSweepSpan
	ClaimSweepStep            = findings.ClaimSweepStep
	ClaimSweepUnchecked       = findings.ClaimSweepUnchecked
	ClaimSweepNoStep          = findings.ClaimSweepNoStep
	ClaimSweepFall            = findings.ClaimSweepFall
	ClaimSweepPrediction      = findings.ClaimSweepPrediction
	CheckRatio                = findings.CheckRatio
	ClaimPartial              = findings.ClaimPartial
	ClaimStride               = findings.ClaimStride
	ClaimControlPages         = findings.ClaimControlPages
	ClaimControlVerdict       = findings.ClaimControlVerdict
	ClaimLoadKind             = findings.ClaimLoadKind
	ClaimPrediction           = findings.ClaimPrediction
	ClaimBaselineDropped      = findings.ClaimBaselineDropped
	ClaimBaselineMethod       = findings.ClaimBaselineMethod
	ClaimBaselineVerdict      = findings.ClaimBaselineVerdict
	ClaimDead                 = findings.ClaimDead
	ClaimDiffer               = findings.ClaimDiffer
	ClaimDifferBeyondAA       = findings.ClaimDifferBeyondAA
	ClaimDifferWithinAA       = findings.ClaimDifferWithinAA
	ClaimDifferAsAA           = findings.ClaimDifferAsAA
	ClaimWithinBand           = findings.ClaimWithinBand
	ClaimSizeUnknown          = findings.ClaimSizeUnknown
	ClaimFamily               = findings.ClaimFamily
	ClaimNoDifference         = findings.ClaimNoDifference
	ClaimAutocorr             = findings.ClaimAutocorr
	ClaimImplausible          = findings.ClaimImplausible
	ClaimPerElement           = findings.ClaimPerElement
	ClaimParallel             = findings.ClaimParallel
	ClaimNoElements           = findings.ClaimNoElements
	ClaimCounts               = findings.ClaimCounts
	ClaimFirstTouch           = findings.ClaimFirstTouch
	ClaimZeroPage             = findings.ClaimZeroPage
	ClaimReadsAllocate        = findings.ClaimReadsAllocate
	ClaimMappedBefore         = findings.ClaimMappedBefore
	ClaimSetupAllocated       = findings.ClaimSetupAllocated
	ClaimSetupPartial         = findings.ClaimSetupPartial
	ClaimPairs                = findings.ClaimPairs
	ClaimAAFloor              = findings.ClaimAAFloor
	ClaimAANoFloor            = findings.ClaimAANoFloor
	ClaimPlacement            = findings.ClaimPlacement
	ClaimLayoutChance         = findings.ClaimLayoutChance
	ClaimLayoutMore           = findings.ClaimLayoutMore
	ClaimLayoutUnsplit        = findings.ClaimLayoutUnsplit
	ClaimGaps                 = findings.ClaimGaps
	ClaimClockMoved           = findings.ClaimClockMoved
	ClaimClockStill           = findings.ClaimClockStill
	ClaimClockVariant         = findings.ClaimClockVariant
	ClaimNoisy                = findings.ClaimNoisy
	ClaimQuiet                = findings.ClaimQuiet
	ClaimRerun                = findings.ClaimRerun
	ClaimBatchForced          = findings.ClaimBatchForced
	ClaimBatched              = findings.ClaimBatched
	ClaimLoadForced           = findings.ClaimLoadForced
	ClaimLoadHigh             = findings.ClaimLoadHigh
	ClaimLoadLow              = findings.ClaimLoadLow
	ClaimDuring               = findings.ClaimDuring
	ClaimDuringBusy           = findings.ClaimDuringBusy
	ClaimChecksumOK           = findings.ClaimChecksumOK
	ClaimChecksumMismatch     = findings.ClaimChecksumMismatch
	ClaimLatencyPreempted     = findings.ClaimLatencyPreempted
	ClaimAddUnder             = findings.ClaimAddUnder
	ClaimAddAt                = findings.ClaimAddAt
	ClaimBWOver               = findings.ClaimBWOver
	ClaimBWAt                 = findings.ClaimBWAt
	ClaimHeadlineBaseline     = findings.ClaimHeadlineBaseline
	ClaimHeadlineNotLive      = findings.ClaimHeadlineNotLive
	ClaimHeadlineAlone        = findings.ClaimHeadlineAlone
	ClaimHeadlineTime         = findings.ClaimHeadlineTime
	ClaimHeadlineDead         = findings.ClaimHeadlineDead
	ClaimHeadlineQuick        = findings.ClaimHeadlineQuick
	ClaimHeadlineNote         = findings.ClaimHeadlineNote
	ClaimHeadlineLayouts      = findings.ClaimHeadlineLayouts
	ClaimAcrossVerdict        = findings.ClaimAcrossVerdict
	ClaimAcrossHeadline       = findings.ClaimAcrossHeadline
	ClaimAcrossNWay           = findings.ClaimAcrossNWay
	ClaimAcrossFloors         = findings.ClaimAcrossFloors
	ClaimCondMachine          = findings.ClaimCondMachine
	ClaimCondFrequency        = findings.ClaimCondFrequency
	ClaimCondClock            = findings.ClaimCondClock
	ClaimCondFingerprint      = findings.ClaimCondFingerprint
	ClaimCondLoad             = findings.ClaimCondLoad
	ClaimCondDuring           = findings.ClaimCondDuring
	ClaimCondProtocol         = findings.ClaimCondProtocol
	ClaimCondKernel           = findings.ClaimCondKernel
	KindDeadCode              = findings.KindDeadCode
	KindImplausible           = findings.KindImplausible
	KindChecksum              = findings.KindChecksum
	KindLoad                  = findings.KindLoad
	KindSpread                = findings.KindSpread
	KindFirstTouch            = findings.KindFirstTouch
	KindResolution            = findings.KindResolution
	KindBatch                 = findings.KindBatch
	KindPartial               = findings.KindPartial
	KindPrediction            = findings.KindPrediction
	KindGaps                  = findings.KindGaps
	KindComparison            = findings.KindComparison
	KindBaseline              = findings.KindBaseline
	KindAutocorr              = findings.KindAutocorr
	KindLayout                = findings.KindLayout
	KindCounts                = findings.KindCounts
	TopicPartial              = findings.TopicPartial
	TopicPrediction           = findings.TopicPrediction
	TopicDeadCode             = findings.TopicDeadCode
	TopicComparison           = findings.TopicComparison
	TopicPlausibility         = findings.TopicPlausibility
	TopicFirstTouch           = findings.TopicFirstTouch
	TopicResolution           = findings.TopicResolution
	TopicGaps                 = findings.TopicGaps
	TopicSpread               = findings.TopicSpread
	TopicBatch                = findings.TopicBatch
	TopicLoad                 = findings.TopicLoad
	TopicChecksum             = findings.TopicChecksum
	TopicBaseline             = findings.TopicBaseline
	TopicAutocorr             = findings.TopicAutocorr
	TopicLayout               = findings.TopicLayout
	TopicCounts               = findings.TopicCounts
	SpreadLimit               = findings.SpreadLimit
	LoadLimit                 = findings.LoadLimit
	BusyProcessPct            = findings.BusyProcessPct
	PairQuantile              = findings.PairQuantile
	ClockReads                = findings.ClockReads
	AAWidest                  = findings.AAWidest
	AutocorrLimit             = findings.AutocorrLimit
	TextVersion               = findings.TextVersion
	TopicHeadline             = findings.TopicHeadline
	ClaimSweepHeadline        = findings.ClaimSweepHeadline
	ClaimSweepHeadlineNotLive = findings.ClaimSweepHeadlineNotLive
)

var (
	SweepClaims = findings.SweepClaims
	Claims      = findings.Claims
	Topics      = findings.Topics
)

// PredictionText is findings.PredictionText.
func PredictionText(r *Result) string { return findings.PredictionText(r) }

// GapsText is findings.GapsText.
func GapsText(r *Result, ref string) string { return findings.GapsText(r, ref) }

// BuildChange is findings.BuildChange.
func BuildChange(before, after Kernel) string { return findings.BuildChange(before, after) }

// EstimateText is findings.EstimateText.
func EstimateText(what string, ratio, shift, lo, hi float64, why string) string {
	return findings.EstimateText(what, ratio, shift, lo, hi, why)
}

// LastLevelCache is findings.LastLevelCache.
func LastLevelCache(d machine.Description) int64 { return findings.LastLevelCache(d) }

// BWSentences is findings.BWSentences.
func BWSentences(r *Result) []Sentence { return findings.BWSentences(r) }

// FindSteps is findings.FindSteps.
func FindSteps(curve []CurvePoint, caches []CacheMark) []Step {
	return findings.FindSteps(curve, caches)
}

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

// Findings is findings.Findings.
func Findings(r *Result) []Finding { return findings.Findings(r) }

// Sentences is findings.Sentences.
func Sentences(r *Result) []Sentence { return findings.Sentences(r) }

// FrequencyMHz is findings.FrequencyMHz.
func FrequencyMHz(r *Result) (mhz float64, estimated bool) { return findings.FrequencyMHz(r) }

// PairDifference is findings.PairDifference.
func PairDifference(x []float64, q float64) float64 { return findings.PairDifference(x, q) }

// Headline is findings.Headline.
func Headline(r *Result) []HeadlineLine { return findings.Headline(r) }

// SweepHeadline is findings.SweepHeadline.
func SweepHeadline(rs []*Result) []HeadlineLine { return findings.SweepHeadline(rs) }
