package findings

import (
	"math"

	"github.com/benchbook/benchbook/internal/machine"
	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/result"
	"github.com/benchbook/benchbook/stdlib/stats"
)

// Finding kinds.
const (
	KindDeadCode    = "dead_code"
	KindImplausible = "implausible"
	KindChecksum    = "checksum"
	KindLoad        = "load"
	KindSpread      = "spread"
	KindFirstTouch  = "first_touch"
	KindResolution  = "resolution"
	KindBatch       = "batch"
	KindPartial     = "partial"
	KindPrediction  = "prediction"
	KindGaps        = "interruptions"
	KindComparison  = "comparison"
	KindBaseline    = "baseline"
	KindAutocorr    = "autocorrelation"
	KindLayout      = "layout"
	KindCounts      = "counts"
)

// Topics: what a sentence is about. The commentary makes one paragraph of
// each topic, in this order.
const (
	TopicPartial      = "partial"
	TopicPrediction   = "prediction"
	TopicDeadCode     = "dead_code"
	TopicComparison   = "comparison"
	TopicPlausibility = "plausibility"
	TopicFirstTouch   = "first_touch"
	TopicResolution   = "resolution"
	TopicGaps         = "interruptions"
	TopicSpread       = "spread"
	TopicBatch        = "batch"
	TopicLoad         = "load"
	TopicChecksum     = "checksum"
	TopicBaseline     = "baseline"
	TopicAutocorr     = "autocorrelation"
	TopicLayout       = "layout"
	TopicCounts       = "counts"
)

// Topics lists the topics in the order Sentences writes them.
var Topics = []string{TopicPartial, TopicPrediction, TopicBaseline, TopicDeadCode, TopicComparison,
	TopicPlausibility, TopicCounts, TopicLatency, TopicFirstTouch, TopicResolution, TopicLayout, TopicControl, TopicGaps, TopicClock, TopicSpread, TopicBatch, TopicLoad, TopicChecksum}

// The thresholds every sentence about a result is judged by, one each.
const (
	// SpreadLimit is the cv above which a series is too noisy to compare (seed 003).
	SpreadLimit = 5.0
	// LoadLimit is the 1-minute load average above which other work was running.
	LoadLimit = 1.0
	// BusyProcessPct is the share of one CPU, in percent, from which another
	// process busy during the run is named.
	BusyProcessPct = 5.0
	// PairQuantile is the share of pairs of single passes whose largest
	// difference is the smallest difference one run per side resolves.
	PairQuantile = 0.95
	// ClockReads is how many clock reads a median may last before it no
	// longer times only the clock.
	ClockReads = 2
	// AAWidest is the widest A/A interval (high over low) that sets a
	// floor: one wider says identical code may read anything from about 1
	// to several times apart (real runs under load gave [0.990, 22.4],
	// a "floor" of 2140%), which bounds nothing.
	AAWidest = 4.0
	// AutocorrLimit was the lag-1 autocorrelation from which a result said
	// its rounds were not independent; no sentence says it now
	// (sentences_baseline.go says why). Kept for glue code that reads it.
	AutocorrLimit = 0.3
)

// Sentence is one thing a result shows, written once from its numbers.
// Findings are the sentences that carry a kind; the commentary is all of
// them, grouped by topic.
type Sentence struct {
	Topic   string
	Kind    string // the finding kind; "" for a sentence only the commentary shows
	Variant string // "" when it is about the whole run
	Text    string // lower-case start unless it starts with a variant name, no final period
	// Claim names what the sentence asserts (the Claim* constants), the
	// predicate internal/prose checks it by; Key what it is about when
	// Variant does not say (a comparison "a/b/series", a series name).
	Claim string
	Key   string
}

// TextVersion numbers the wording of everything benchbook writes from a
// result: these sentences (the findings and the commentary) and the tables
// of stdlib/report. A result records the version that wrote its text
// (Result.TextVersion). verify holds text of this version to the letter,
// and reads text of another version as that version's wording of the same
// numbers, which it checks all the same. Bump it whenever a sentence or a
// table changes: TestTextVersion in stdlib/report notices a change.
const TextVersion = 8

// Findings says what a result shows, each finding in words made from its
// own numbers: the sentences of Sentences that carry a kind. It reads only
// the result, so anyone can recompute it.
func Findings(r *result.Result) []result.Finding {
	out := []result.Finding{}
	for _, s := range Sentences(r) {
		if s.Kind == "" {
			continue
		}
		f := result.Finding{Kind: s.Kind, Text: s.Text}
		if s.Variant != "" {
			v := s.Variant
			f.Variant = &v
		}
		out = append(out, f)
	}
	return out
}

// Sentences writes every sentence about a result, topic by topic in the
// order of Topics.
func Sentences(r *result.Result) []Sentence {
	f := readFacts(r)
	var out []Sentence
	for _, w := range []func(*facts) []Sentence{partialSentences, predictionSentences, baselineSentences, deadSentences,
		comparisonSentences, plausibilitySentences, countsSentences, latencySentences, firstTouchSentences, resolutionSentences, layoutSentences, controlSentences, gapsSentences,
		clockSentences, spreadSentences, batchSentences, loadSentences, loadKindSentences, checksumSentences} {
		out = append(out, w(f)...)
	}
	return out
}

// facts are the values the sentences share, each computed once by one rule.
type facts struct {
	r *result.Result
	// ref is the live variant the other sentences measure against; nil when
	// no variant is live.
	ref *result.Variant
	// floor is the A/A control's reach (aaFloor), as a fraction; 0 when
	// the run has no A/A control.
	floor float64
	// mhz is the clock the run saw, estimated when no cpufreq reading exists.
	mhz       float64
	estimated bool
	// loaded: the 1-minute load average was above LoadLimit before or after.
	loaded bool
	// busy are the other processes at BusyProcessPct or more of one CPU.
	busy []machine.ProcUse
}

func readFacts(r *result.Result) *facts {
	f := &facts{r: r, ref: r.Variant(referenceVariant(r))}
	f.floor = aaFloor(r.AA)
	f.mhz, f.estimated = FrequencyMHz(r)
	f.loaded = r.Conditions.Before.Loadavg[0] > LoadLimit || r.Conditions.After.Loadavg[0] > LoadLimit
	f.busy = busyProcesses(r.Conditions.During)
	return f
}

func live(v *result.Variant) bool { return !v.Dead && !v.Hollow }

// referenceVariant is the live variant the other sentences refer to: the
// A/A variant when it is live, else the first live one; "" when none is.
func referenceVariant(r *result.Result) string {
	if v := r.Variant(r.AA.Variant); v != nil && live(v) {
		return v.Name
	}
	for i := range r.Variants {
		if live(&r.Variants[i]) {
			return r.Variants[i].Name
		}
	}
	return ""
}

// aaFloor is how far from 1 identical code reads in this run: the farther
// of the A/A control's interval ends and its own ratio of medians (which
// may lie outside the interval of the typical ratio; with the interval
// alone, the control's own ratio lay outside its "floor" in real runs).
func aaFloor(aa result.AA) float64 {
	if aa.Variant == "" || aa.Ratio <= 0 || !numtext.Bounded(aa.CILow, aa.CIHigh) || aa.CIHigh > AAWidest*aa.CILow {
		return 0
	}
	return math.Max(math.Abs(aa.Ratio-1), math.Max(aa.CIHigh-1, 1-aa.CILow))
}

// busyProcesses are the other processes that used at least BusyProcessPct
// of one CPU during the run, busiest first.
func busyProcesses(d *machine.During) []machine.ProcUse {
	if d == nil {
		return nil
	}
	var out []machine.ProcUse
	for _, p := range d.Busiest {
		if p.BusyPct >= BusyProcessPct {
			out = append(out, p)
		}
	}
	return out
}

func median(s *result.Samples) (float64, bool) {
	if s == nil || s.Summary.N == 0 {
		return 0, false
	}
	return s.Summary.Median, true
}

// FrequencyMHz is the clock the run saw: the cpufreq reading, else the
// estimate from a chain of dependent adds; 0 when neither is known.
func FrequencyMHz(r *result.Result) (mhz float64, estimated bool) {
	for _, m := range []map[string]float64{r.Conditions.Before.FreqKHz, r.Conditions.After.FreqKHz} {
		for _, khz := range m {
			mhz = math.Max(mhz, khz/1000)
		}
	}
	if mhz > 0 {
		return mhz, false
	}
	est := math.Max(r.Conditions.Before.FreqEstimateMHz, r.Conditions.After.FreqEstimateMHz)
	return est, est > 0
}

// PairDifference returns the q quantile of the relative differences of all
// pairs of single samples: (larger - smaller) / smaller, pairs whose
// smaller sample is not positive left out. It selects the quantile without
// storing the n(n-1)/2 differences: O(n log n) time, O(n) memory
// (stats.PairDifferenceQuantile).
func PairDifference(x []float64, q float64) float64 {
	return stats.PairDifferenceQuantile(x, q)
}
