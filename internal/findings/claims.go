package findings

// Claims: what each sentence asserts, one identifier per generator branch,
// so that each sentence maps to exactly one oracle (internal/prose holds
// them: a predicate per claim that says, from the result's own numbers,
// whether the sentence is true). A sentence whose generator gives no claim
// is read by the oracles from its topic (the latency sentences, but for
// ClaimLatencyPreempted).
const (
	ClaimPartial          = "partial"
	ClaimStride           = "control.stride"
	ClaimControlPages     = "control.pages"
	ClaimControlVerdict   = "control.verdict"
	ClaimLoadKind         = "load.kind"
	ClaimPrediction       = "prediction"
	ClaimBaselineDropped  = "baseline.dropped"
	ClaimBaselineMethod   = "baseline.method"
	ClaimBaselineVerdict  = "baseline.verdict"
	ClaimDead             = "dead_code"
	ClaimDiffer           = "comparison.differ"
	ClaimDifferBeyondAA   = "comparison.differ.beyond_aa"
	ClaimDifferWithinAA   = "comparison.differ.within_aa"
	ClaimDifferAsAA       = "comparison.differ.as_aa"
	ClaimWithinBand       = "comparison.within_resolve"
	ClaimSizeUnknown      = "comparison.size_unknown"
	ClaimFamily           = "comparison.family"
	ClaimNoDifference     = "comparison.none"
	ClaimAutocorr         = "autocorrelation"
	ClaimImplausible      = "implausible"
	ClaimPerElement       = "per_element"
	ClaimParallel         = "per_element.parallel"
	ClaimNoElements       = "per_element.missing"
	ClaimCounts           = "counts"
	ClaimFirstTouch       = "first_touch"
	ClaimZeroPage         = "first_touch.zero_page"
	ClaimReadsAllocate    = "first_touch.reads_allocate"
	ClaimMappedBefore     = "first_touch.mapped_before"
	ClaimSetupAllocated   = "first_touch.setup_allocated"
	ClaimSetupPartial     = "first_touch.setup_partial"
	ClaimPairs            = "resolution.pairs"
	ClaimAAFloor          = "resolution.aa"
	ClaimAANoFloor        = "resolution.aa_unbounded"
	ClaimPlacement        = "layout.placement"
	ClaimLayoutChance     = "layout.chance"
	ClaimLayoutMore       = "layout.more_than_chance"
	ClaimLayoutUnsplit    = "layout.unsplit"
	ClaimGaps             = "interruptions"
	ClaimClockMoved       = "clock.moved"
	ClaimClockStill       = "clock.still"
	ClaimClockVariant     = "clock.variant"
	ClaimNoisy            = "spread.noisy"
	ClaimQuiet            = "spread.ok"
	ClaimRerun            = "spread.rerun"
	ClaimBatchForced      = "batch.single"
	ClaimBatched          = "batch.batched"
	ClaimLoadForced       = "load.forced"
	ClaimLoadHigh         = "load.high"
	ClaimLoadLow          = "load.low"
	ClaimDuring           = "load.during"
	ClaimDuringBusy       = "load.during_busy"
	ClaimChecksumOK       = "checksum.ok"
	ClaimChecksumMismatch = "checksum.mismatch"

	// A worst operation put down to a preemption of its thread, measured
	// during the pass that holds it (Latency.Preempted); the other latency
	// sentences are read by their topic.
	ClaimLatencyPreempted = "latency.preempted"

	// A time per element against the ceiling of one dependent float add
	// (the fingerprint's addss) when the timed code adds floats.
	ClaimAddUnder = "ceiling.add.under"
	ClaimAddAt    = "ceiling.add.at"

	// A sweep point's working set per pass, in bytes per ns, against the
	// fingerprint's streaming read, where both exceed the last-level
	// cache (sentences_bw.go).
	ClaimBWOver = "ceiling.bw.over"
	ClaimBWAt   = "ceiling.bw.at"

	// The headline's lines (headline.go).
	ClaimHeadlineBaseline = "headline.baseline" // a verdict against the previous build, the other kernel or a control's default
	ClaimHeadlineNotLive  = "headline.not_live" // dead or hollow in a build of a before/after
	ClaimHeadlineAlone    = "headline.alone"    // a variant against the first live one, without a baseline
	ClaimHeadlineTime     = "headline.time"     // a variant's time per pass (and per element)
	ClaimHeadlineDead     = "headline.dead"     // dead or hollow, without a baseline
	ClaimHeadlineQuick    = "headline.quick"
	ClaimHeadlineNote     = "headline.note"
	ClaimHeadlineLayouts  = "headline.layouts"

	// Across two runs (stdlib/report's compare): ratios of medians against
	// the run-to-run floor, the larger of each run's own A/A floor and 10%.
	ClaimAcrossVerdict  = "across.verdict"  // every median within, or which beyond, the floor
	ClaimAcrossHeadline = "across.headline" // a variant's line: within, slower or faster beyond the floor
	ClaimAcrossNWay     = "across.nway"     // a variant's line across machines, each against its own floor
	ClaimAcrossFloors   = "across.floors"   // each machine's floor against the reference

	// The conditions of a run (stdlib/report's ConditionSentences).
	ClaimCondMachine     = "conditions.machine"
	ClaimCondFrequency   = "conditions.frequency"
	ClaimCondClock       = "conditions.clock"
	ClaimCondFingerprint = "conditions.fingerprint"
	ClaimCondLoad        = "conditions.load"
	ClaimCondDuring      = "conditions.during"
	ClaimCondProtocol    = "conditions.protocol"
	ClaimCondKernel      = "conditions.kernel"
)

// Claims lists every claim a generator names: here, and stdlib/report's
// conditions lines and compare (their constants live here: internal/prose,
// which report's tests import, cannot import report).
var Claims = []string{
	ClaimStride, ClaimControlPages, ClaimControlVerdict, ClaimLoadKind, ClaimPartial, ClaimPrediction, ClaimBaselineDropped, ClaimBaselineMethod, ClaimBaselineVerdict, ClaimDead, ClaimDiffer, ClaimDifferBeyondAA, ClaimDifferWithinAA, ClaimDifferAsAA, ClaimWithinBand, ClaimSizeUnknown, ClaimFamily, ClaimNoDifference, ClaimAutocorr, ClaimImplausible, ClaimPerElement, ClaimParallel, ClaimNoElements, ClaimCounts, ClaimFirstTouch, ClaimZeroPage, ClaimReadsAllocate, ClaimMappedBefore, ClaimSetupAllocated, ClaimSetupPartial, ClaimPairs, ClaimAAFloor, ClaimAANoFloor, ClaimPlacement, ClaimLayoutChance, ClaimLayoutMore, ClaimLayoutUnsplit, ClaimGaps, ClaimClockMoved, ClaimClockStill, ClaimClockVariant, ClaimNoisy, ClaimQuiet, ClaimRerun, ClaimBatchForced, ClaimBatched, ClaimLoadForced, ClaimLoadHigh, ClaimLoadLow, ClaimDuring, ClaimDuringBusy, ClaimChecksumOK, ClaimChecksumMismatch, ClaimLatencyPreempted,
	ClaimAddUnder, ClaimAddAt, ClaimBWOver, ClaimBWAt,
	ClaimHeadlineBaseline, ClaimHeadlineNotLive, ClaimHeadlineAlone, ClaimHeadlineTime, ClaimHeadlineDead, ClaimHeadlineQuick, ClaimHeadlineNote, ClaimHeadlineLayouts,
	ClaimAcrossVerdict, ClaimAcrossHeadline, ClaimAcrossNWay, ClaimAcrossFloors,
	ClaimCondMachine, ClaimCondFrequency, ClaimCondClock, ClaimCondFingerprint, ClaimCondLoad, ClaimCondDuring, ClaimCondProtocol, ClaimCondKernel,
}

// said is one sentence with its claim and the key that names what it is
// about when the variant does not (a comparison, a series).
func said(claim, key, topic, kind, variant, text string) []Sentence {
	out := one(topic, kind, variant, text)
	for i := range out {
		out[i].Claim, out[i].Key = claim, key
	}
	return out
}
