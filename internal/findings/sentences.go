package findings

import (
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/result"
	"github.com/benchbook/benchbook/stdlib/stats"
)

// Each function below writes the sentences of one topic from the facts; no
// other code writes a sentence about a result.

func one(topic, kind, variant, text string) []Sentence {
	if text == "" {
		return nil
	}
	return []Sentence{{Topic: topic, Kind: kind, Variant: variant, Text: text}}
}

func seriesLabel(name string) string { return strings.ReplaceAll(name, "_", "-") }

func cvText(cv float64) string { return numtext.Sig1(cv) + "%" }

func maxOverMin(s stats.Summary) string {
	if s.MaxOverMin == nil {
		return "undefined (min 0)"
	}
	return numtext.FormatRatio(*s.MaxOverMin)
}

// pText is a p-value, with its Holm adjustment when it has one.
func pText(p float64, st result.Stat, family int) string {
	if st.Method == "" || family < 2 {
		return fmt.Sprintf("p = %.2g", p)
	}
	return fmt.Sprintf("p = %.2g (%.2g adjusted for the %d comparisons, Holm)", p, st.PAdjusted, family)
}

// intervalText is a verdict's 95% interval, or why it has none: an
// interval the samples cannot bound (too few rounds for 95% at their
// autocorrelation, a sample of zero) is stored as [0, 0] (JSON has no
// infinity) and must never be printed as one.
func intervalText(lo, hi float64, why string) string {
	if !numtext.Bounded(lo, hi) {
		if why == "" {
			why = "the samples cannot bound it"
		}
		return "no 95% interval (" + why + ")"
	}
	return "95% interval " + numtext.FormatInterval(lo, hi)
}

func partialSentences(f *facts) []Sentence {
	r := f.r
	if !r.Partial {
		return nil
	}
	n := 0
	for i := range r.Variants {
		for _, s := range result.SeriesNames {
			if x := r.Variants[i].Get(s); x != nil {
				n += len(x.SamplesNS)
			}
		}
	}
	return said(ClaimPartial, "", TopicPartial, KindPartial, "", fmt.Sprintf("the run did not finish (%s): the %d samples measured before it stopped are kept, and every figure is computed from them alone", r.Error, n))
}

func predictionSentences(f *facts) []Sentence {
	return said(ClaimPrediction, "", TopicPrediction, KindPrediction, "", PredictionText(f.r))
}

// PredictionText says whether the prediction written before the run held,
// with the measured ratio; "" when the run had none.
func PredictionText(r *result.Result) string {
	p := r.Prediction
	if p == nil {
		return ""
	}
	if p.Held == nil {
		return fmt.Sprintf("the prediction %s, written before the run, could not be judged: the result has no ratio %s/%s", p.Text, p.A, p.B)
	}
	verdict := "held"
	if !*p.Held {
		verdict = "did NOT hold"
	}
	return fmt.Sprintf("the prediction %s, written before the run, %s: the measured ratio of medians %s/%s is %s", p.Text, verdict, p.A, p.B, numtext.FormatRatio(*p.Observed))
}

// regionText is what the timed region of a variant holds, from the
// assembly analysis: its own finding, else the count of instructions.
func regionText(v *result.Variant) string {
	if v.Finding != "" {
		return v.Finding
	}
	if v.RegionInstructions == 0 {
		return "there is nothing between the two clock reads"
	}
	if v.RegionInstructions == 1 {
		return "between the two clock reads there is 1 instruction"
	}
	return fmt.Sprintf("between the two clock reads there are %d instructions", v.RegionInstructions)
}

func deadSentences(f *facts) []Sentence {
	var out []Sentence
	for i := range f.r.Variants {
		v := &f.r.Variants[i]
		if live(v) {
			continue
		}
		state := "dead: its timed region holds no work"
		if !v.Dead {
			state = "hollow: its timed region keeps a loop that only counts, not the work"
		}
		text := fmt.Sprintf("%s is %s (%s)", v.Name, state, regionText(v))
		m, ok := median(v.Series.Interleaved)
		if ok {
			top := v.Series.Interleaved.Summary.Max
			text += fmt.Sprintf("; it measured a median of %s per pass and at most %s", numtext.FormatNS(m), numtext.FormatNS(top))
			if f.ref != nil {
				if lm, ok := median(f.ref.Series.Interleaved); ok && lm > 0 {
					text += fmt.Sprintf(", %s and %s of %s's median of %s", numtext.FormatPct(m/lm), numtext.FormatPct(top/lm), f.ref.Name, numtext.FormatNS(lm))
				}
			}
		}
		if c := f.r.Conditions.Clock.ReadCostNS; ok && c > 0 && v.Dead {
			text += fmt.Sprintf("; one clock read costs %s here: the two reads around an empty region are all it times", numtext.FormatNS(c))
		}
		out = append(out, said(ClaimDead, "", TopicDeadCode, KindDeadCode, v.Name, text)...)
	}
	return out
}

// comparisonSentences say what the comparisons between live variants
// measured. The comparison's own significant field is the only source of
// "differ" and "no difference"; a difference it resolves is weighed against
// resolve= as the headline's Verdict weighs it: one whose interval lies
// within resolve/2 of 1 is smaller than the run was asked to resolve, one
// whose interval reaches across that band's edge has a size not known yet.
func comparisonSentences(f *facts) []Sentence {
	var out []Sentence
	for _, c := range f.r.Comparisons {
		a, b := f.r.Variant(c.A), f.r.Variant(c.B)
		if a == nil || b == nil || !live(a) || !live(b) {
			continue
		}
		measured := fmt.Sprintf("%s, %s in the %s series", EstimateText(c.A+"/"+c.B, c.Ratio, c.Shift, c.CILow, c.CIHigh, c.Undefined),
			pText(c.PValue, c.Stat, len(f.r.Comparisons)), seriesLabel(c.Series))
		var text string
		claim := ClaimNoDifference
		band := resolveOf(f.r) / 2
		switch v := result.Verdict(c.Significant, c.CILow, c.CIHigh, resolveOf(f.r)); {
		case c.Significant && v == result.VerdictNoDifference:
			claim = ClaimWithinBand
			text = fmt.Sprintf("the live variants %s and %s differ by less than this run was asked to resolve: %s; the interval excludes 1 but lies within ±%s of it (resolve=%s)",
				c.A, c.B, measured, percent(band), percent(2*band))
		case c.Significant && v == result.VerdictUndefined:
			claim = ClaimSizeUnknown
			text = fmt.Sprintf("the live variants %s and %s differ: %s, a difference this run resolves, but its interval reaches within ±%s of 1, so whether it is as large as resolve=%s asks is not known yet",
				c.A, c.B, measured, percent(band), percent(2*band))
		case c.Significant:
			text = fmt.Sprintf("the live variants %s and %s differ: %s, a difference this run resolves", c.A, c.B, measured)
			claim = ClaimDiffer
			if f.floor > 0 && c.Series == "interleaved" {
				// The A/A control's own ratio of medians, not its
				// interval's reach, is how far apart identical code read.
				switch d := math.Abs(c.Ratio - 1); {
				case d > f.floor:
					claim = ClaimDifferBeyondAA
					text += fmt.Sprintf(", beyond the A/A floor of this run (about %s)", numtext.FormatPct(f.floor))
				case d <= math.Abs(f.r.AA.Ratio-1):
					claim = ClaimDifferAsAA
					text += fmt.Sprintf(", but identical code read as far apart in this run (the A/A control's ratio of medians is %s)", numtext.FormatRatio(f.r.AA.Ratio))
				default:
					claim = ClaimDifferWithinAA
					text += fmt.Sprintf(", but within the A/A floor of this run (about %s): the A/A control's interval does not exclude identical code reading this far apart", numtext.FormatPct(f.floor))
				}
			}
		case c.Undefined == "" && c.PValue < f.r.Protocol.Alpha && c.PAdjusted >= f.r.Protocol.Alpha:
			// Alone it would count; the family's adjustment is what stops it.
			claim = ClaimFamily
			text = fmt.Sprintf("the live variants %s and %s are not told apart once this run's %d comparisons are counted (%s): its interval and p, for this comparison alone, exclude no difference at 95%%, but Holm's adjusted p does not",
				c.A, c.B, len(f.r.Comparisons), measured)
		default:
			// The A/A floor is said once, in the resolution paragraph.
			text = fmt.Sprintf("the live variants %s and %s show no difference this run can resolve (%s)", c.A, c.B, measured)
		}
		out = append(out, said(claim, c.A+"/"+c.B+"/"+c.Series, TopicComparison, KindComparison, "", text)...)
	}
	return out
}

// perElementText is the time and cycles per element of a median; "" when
// the work per pass is not known.
func perElementText(f *facts, m float64) (text string, cycles float64) {
	e := f.r.Protocol.Elements
	if e == nil || *e <= 0 {
		return "", math.NaN()
	}
	per := m / float64(*e)
	text = numtext.Sig(per) + " ns per element"
	if f.mhz <= 0 {
		return text, math.NaN()
	}
	label := "measured"
	if f.estimated {
		label = "estimated"
	}
	cycles = per * f.mhz / 1000
	return text + fmt.Sprintf(", %s cycles per element at the %s %.0f MHz", numtext.Sig(cycles), label, f.mhz), cycles
}

// floatAdd finds a scalar or packed float add in an assembly listing
// (AT&T, Intel or Go's syntax).
var floatAdd = regexp.MustCompile(`(?i)\bv?add[sp][sd]\b`)

// AddCeilingBand is how close to one dependent add per element a time
// per element must be to be called about one (the fingerprint's chains
// repeat within a few percent).
const AddCeilingBand = 0.10

// addCeiling weighs a variant's cycles per element against the ceiling of
// one dependent float add per element, the addss latency in cycles the
// fingerprint measured in this run, when its timed code adds floats: under
// it, the adds are not one dependent chain; about at it, as fast as one
// chain goes. Above it nothing is said: the ceiling is not what bounds it.
// Cycles, not nanoseconds: the fingerprint's chains run after its
// memory-bound chases, and a core that was waiting on memory can run at a
// lower clock for milliseconds after (an Intel Xeon VM read 3.59 GHz there
// against the 4.19 GHz its kernels ran at: the fingerprint's addss took
// 0.557 ns, one chain of adds in a kernel 0.477 ns, both 2 cycles). Each
// figure is in cycles at its own clock: the variant's at the run's clock
// (mhz), the addss's against the integer chain beside it. Without the
// run's clock nothing is said.
func addCeiling(r *result.Result, v *result.Variant, median, mhz float64, estimated bool) []Sentence {
	e, fp := r.Protocol.Elements, r.Conditions.Fingerprint
	if e == nil || *e <= 0 || fp == nil || !floatAdd.MatchString(v.Asm) || !(mhz > 0) {
		return nil
	}
	var lat float64
	for _, x := range fp.Entries {
		if x.Name == "addss" {
			lat = x.Cycles
		}
	}
	if !(lat > 0) {
		return nil
	}
	per := median / float64(*e)
	cyc := per * mhz / 1000
	label := "measured"
	if estimated {
		label = "estimated"
	}
	at := fmt.Sprintf("%s cycles per element (%s at the %s %.0f MHz)", numtext.Sig(cyc), numtext.FormatNS(per), label, mhz)
	ceiling := fmt.Sprintf("one dependent addss takes %s cycles in this run's fingerprint", numtext.Sig(lat))
	switch k := cyc / lat; {
	case k < 1-AddCeilingBand:
		return said(ClaimAddUnder, "", TopicPlausibility, "", v.Name, fmt.Sprintf("%s: %s is %s of one dependent float add (%s): its float adds are not one dependent chain (several accumulators or vector lanes), or not all of the work is done",
			v.Name, at, numtext.FormatPct(k), ceiling))
	case k <= 1+AddCeilingBand:
		return said(ClaimAddAt, "", TopicPlausibility, "", v.Name, fmt.Sprintf("%s: %s is about one dependent float add (%s): as fast as one dependent chain of float adds goes, one add per element",
			v.Name, at, ceiling))
	}
	return nil
}

// clockWhy says why a variant whose interleaved median is m is faster
// than the clock can time: its fastest pass below the clock's step, its
// median within ClockReads reads; nil when neither.
func clockWhy(clock result.Clock, v *result.Variant, m float64) []string {
	var why []string
	if clock.ResolutionNS > 0 && v.Series.Interleaved.Summary.Min < clock.ResolutionNS && v.Batch == 1 {
		why = append(why, fmt.Sprintf("its fastest pass, %s, is below the clock's smallest step (%s)",
			numtext.FormatNS(v.Series.Interleaved.Summary.Min), numtext.FormatNS(clock.ResolutionNS)))
	}
	if clock.ReadCostNS > 0 && m <= ClockReads*clock.ReadCostNS && v.Batch == 1 {
		why = append(why, fmt.Sprintf("its median, %s, is within %d times the cost of one clock read (%s): it times the clock", numtext.FormatNS(m), ClockReads, numtext.FormatNS(clock.ReadCostNS)))
	}
	return why
}

func plausibilitySentences(f *facts) []Sentence {
	var out []Sentence
	for i := range f.r.Variants {
		v := &f.r.Variants[i]
		m, ok := median(v.Series.Interleaved)
		if !ok {
			continue
		}
		why := clockWhy(f.r.Conditions.Clock, v, m)
		per, cycles := perElementText(f, m)
		switch {
		case len(why) > 0:
			if per != "" {
				why = append(why, per)
			}
			out = append(out, said(ClaimImplausible, "", TopicPlausibility, KindImplausible, v.Name, v.Name+" is faster than this machine allows for the work: "+strings.Join(why, "; "))...)
		case cycles < 1:
			// Not a verdict: a scalar loop with two independent chains
			// does one element a cycle when its add takes two cycles, and
			// a superscalar core runs several chains at once.
			out = append(out, said(ClaimParallel, "", TopicPlausibility, "", v.Name, v.Name+": "+per+": under one cycle per element, more than one element is in flight at once (independent chains or vector instructions: the assembly shows which, and whether the work is all there)")...)
		case per != "":
			out = append(out, said(ClaimPerElement, "", TopicPlausibility, "", v.Name, v.Name+": "+per)...)
		}
		if len(why) == 0 && !v.Dead && !v.Hollow {
			out = append(out, addCeiling(f.r, v, m, f.mhz, f.estimated)...)
			out = append(out, bwCeiling(f.r, v, m)...)
		}
	}
	if f.r.Protocol.Elements == nil && f.ref != nil {
		if m, ok := median(f.ref.Series.Interleaved); ok {
			out = append(out, said(ClaimNoElements, "", TopicPlausibility, "", f.ref.Name, fmt.Sprintf("%s takes %s per pass; give elements= (the work per pass) to see the time and cycles per element and whether that is possible on this machine", f.ref.Name, numtext.FormatNS(m)))...)
		}
	}
	return out
}

func firstTouchSentences(f *facts) []Sentence {
	var out []Sentence
	for i := range f.r.Variants {
		v := &f.r.Variants[i]
		c := v.Series.Cold
		warm, ok := median(v.Series.InProcess)
		if !ok {
			warm, ok = median(v.Series.Fresh)
		}
		if c == nil || c.Summary.N == 0 || !ok || warm <= 0 || !live(v) {
			continue
		}
		faults := c.MedianMinFlt()
		what := "its first pass, before setup, over memory the program had not written yet"
		if c.After == "setup" {
			what = "its first pass after setup with the caches evicted: the first use of data the program wrote"
		}
		text := fmt.Sprintf("the cold pass of %s, %s, has a median of %s over %d fresh processes, %s times the warm median (%s), with a median of %.0f minor page faults against ",
			v.Name, what, numtext.FormatNS(c.Summary.Median), c.Summary.N, numtext.FormatRatio(c.Summary.Median/warm), numtext.FormatNS(warm), faults)
		if c.WarmMinFltPerPass != nil {
			text += numtext.Sig(*c.WarmMinFltPerPass) + " per warm pass"
		} else {
			text += "none measured for warm passes"
		}
		if faults > 0 && c.Summary.Median > warm {
			text += fmt.Sprintf("; if the difference is all page faults, one costs about %s", numtext.FormatNS((c.Summary.Median-warm)/faults))
		}
		setup, claim := setupText(c, faults)
		text += setup
		if c.InProcessColdNS != nil {
			x := *c.InProcessColdNS
			text += fmt.Sprintf(". The in-process run has one number for it, %s: %s of the cold median and %s of the cold minimum; the fresh processes spread from %s to %s (cv %s, max/min %s), and one number cannot say where in that span it fell",
				numtext.FormatNS(x), numtext.FormatRatio(x/c.Summary.Median), numtext.FormatRatio(x/c.Summary.Min), numtext.FormatNS(c.Summary.Min), numtext.FormatNS(c.Summary.Max),
				cvText(c.Summary.CVPct), maxOverMin(c.Summary))
		}
		out = append(out, said(claim, "", TopicFirstTouch, KindFirstTouch, v.Name, text)...)
	}
	return out
}

// FaultFloor is the count of minor page faults below which a pass is said
// to have met memory already mapped (a few faults are the stack, the
// code, the clock's vDSO page).
const FaultFloor = 16

// setupText says what setup, the first writes, cost and what that tells
// about the cold pass's faults: zero-page reads (setup faults again when
// it writes), allocation by the reads themselves (setup does not), or none.
func setupText(c *result.Cold, coldFaults float64) (string, string) {
	if len(c.SetupNS) == 0 {
		return "", ClaimFirstTouch
	}
	sf := make([]float64, len(c.SetupMinFlt))
	for i, x := range c.SetupMinFlt {
		sf[i] = float64(x)
	}
	setupFaults, setupNS := stats.Median(sf), stats.Median(c.SetupNS)
	text := fmt.Sprintf(". Setup, the program's first writes, took a median of %s with %.0f minor page faults", numtext.FormatNS(setupNS), setupFaults)
	var claim string
	switch {
	case c.After == "setup" && coldFaults < FaultFloor:
		claim = ClaimSetupAllocated
		text += ": its faults allocated the pages, so the cold pass after it pays for empty caches, not for the OS mapping memory"
	case c.After == "setup":
		claim = ClaimSetupPartial
		text += fmt.Sprintf("; the cold pass after it still took %.0f faults, so setup did not touch all the memory the pass reads", coldFaults)
	case coldFaults < FaultFloor:
		claim = ClaimMappedBefore
		text += "; the cold pass took almost no faults: its memory was mapped before it ran"
	case setupFaults >= coldFaults/2:
		claim = ClaimZeroPage
		text += fmt.Sprintf(": the cold pass's %.0f faults were reads of pages never written, which the OS served from its shared zero page, and the real pages were allocated only by setup's writes; the cold pass measures zero-page reads, not a first use of real data (cold=after-setup measures that)", coldFaults)
	default:
		claim = ClaimReadsAllocate
		text += fmt.Sprintf(": after the cold pass's %.0f faults the pages were already there for setup's writes, so on this OS the reads themselves allocated them and the cold pass is the first touch of this memory", coldFaults)
	}
	return text, claim
}

// resolutionSentences say what one run per side can and cannot resolve:
// the pair shares of single passes of the reference variant, and the A/A
// floor for medians.
func resolutionSentences(f *facts) []Sentence {
	if f.ref == nil {
		return nil
	}
	var out []Sentence
	for _, name := range []string{"in_process", "fresh", "interleaved"} {
		s := f.ref.Get(name)
		if s == nil || s.Summary.N < 2 || f.ref.Batch > 1 { // batch means are not single passes
			continue
		}
		sum := s.Summary
		text := fmt.Sprintf("in the %s series of %s, %s of the %d pairs of single passes differ by more than 2%%, %s by more than 5%% and %s by more than 10%%; %s of pairs differ by at most %s, so one run per side cannot resolve a smaller difference",
			seriesLabel(name), f.ref.Name, numtext.FormatPct(sum.PairsOver2Pct), sum.N*(sum.N-1)/2, numtext.FormatPct(sum.PairsOver5Pct), numtext.FormatPct(sum.PairsOver10Pct),
			numtext.FormatPct(PairQuantile), numtext.FormatPct(PairDifference(s.SamplesNS, PairQuantile)))
		out = append(out, said(ClaimPairs, name, TopicResolution, KindResolution, f.ref.Name, text)...)
	}
	switch aa := f.r.AA; {
	case f.floor > 0:
		text := fmt.Sprintf("the A/A control ran %s twice in the same round robin: identical code reads %s, %s, so in the interleaved series of this run a ratio of medians within about %s of 1 is no farther apart than identical code can read, whatever the code (the fresh and cold series have no such control)",
			aa.Variant, numtext.FormatRatio(aa.Ratio), intervalText(aa.CILow, aa.CIHigh, aa.Undefined), numtext.FormatPct(f.floor))
		out = append(out, said(ClaimAAFloor, "", TopicResolution, KindResolution, aa.Variant, text)...)
	case aa.Variant != "" && aa.Ratio > 0:
		why := intervalText(aa.CILow, aa.CIHigh, aa.Undefined)
		if numtext.Bounded(aa.CILow, aa.CIHigh) {
			why = fmt.Sprintf("95%% interval %s, wider than %gx", numtext.FormatInterval(aa.CILow, aa.CIHigh), AAWidest)
		}
		text := fmt.Sprintf("the A/A control ran %s twice in the same round robin: identical code reads %s, with %s, so this run sets no floor under what it can resolve",
			aa.Variant, numtext.FormatRatio(aa.Ratio), why)
		out = append(out, said(ClaimAANoFloor, "", TopicResolution, KindResolution, aa.Variant, text)...)
	}
	return out
}

func gapsSentences(f *facts) []Sentence {
	ref := ""
	if f.ref != nil {
		ref = f.ref.Name
	}
	return said(ClaimGaps, "", TopicGaps, KindGaps, "", GapsText(f.r, ref))
}

// GapsText says how often the thread did not run while the harness read the
// clock back to back, and how many such gaps a pass of the reference
// variant meets on average; "" when the run did not measure it.
func GapsText(r *result.Result, ref string) string {
	c := r.Conditions.Clock
	if c.GapWindowNS <= 0 {
		return ""
	}
	perSec := float64(c.GapCount) / (c.GapWindowNS / 1e9)
	text := fmt.Sprintf("reading the clock back to back for %s, the harness saw %d gaps longer than %s (%.0f per second) in which the thread did not run, %s of the time",
		numtext.FormatNS(c.GapWindowNS), c.GapCount, numtext.FormatNS(c.GapThresholdNS), perSec, numtext.FormatPct(c.GapTotalNS/c.GapWindowNS))
	if c.GapCount > 0 {
		text += fmt.Sprintf(", the longest %s", numtext.FormatNS(c.GapMaxNS))
	}
	if v := r.Variant(ref); v != nil && c.GapCount > 0 {
		if pass, ok := median(v.Series.Interleaved); ok && pass > 0 {
			text += fmt.Sprintf("; a pass of %s (%s's median) meets %.2g of them on average, each adding %s on average, and one that meets the longest is slower by %s of the median for a reason that is not the code",
				numtext.FormatNS(pass), ref, perSec*pass/1e9, numtext.FormatNS(c.GapTotalNS/float64(c.GapCount)), numtext.FormatPct(c.GapMaxNS/pass))
		}
	}
	return text
}

func spreadSentences(f *facts) []Sentence {
	var out []Sentence
	worst, worstName := -1.0, ""
	for i := range f.r.Variants {
		v := &f.r.Variants[i]
		if !live(v) {
			continue
		}
		for _, name := range []string{"interleaved", "in_process", "fresh"} {
			s := v.Get(name)
			if s == nil || s.Summary.N == 0 {
				continue
			}
			if s.Summary.CVPct > worst {
				worst, worstName = s.Summary.CVPct, v.Name+" "+seriesLabel(name)
			}
			if s.Summary.CVPct > SpreadLimit {
				out = append(out, said(ClaimNoisy, name, TopicSpread, KindSpread, v.Name, fmt.Sprintf("%s, %s series: cv %s (above %g%%), max/min %s: its single passes spread too widely for one pass per side to compare variants",
					v.Name, seriesLabel(name), cvText(s.Summary.CVPct), SpreadLimit, maxOverMin(s.Summary)))...)
			}
		}
	}
	switch {
	case worstName == "":
	case len(out) == 0:
		out = said(ClaimQuiet, "", TopicSpread, "", "", fmt.Sprintf("every series of a live variant has a cv of at most %s (%s), under the %g%% limit: the repetitions agree well enough to compare variants",
			cvText(worst), worstName, SpreadLimit))
	default:
		out = append(out, said(ClaimRerun, "", TopicSpread, "", "", "rerun when the machine is quieter, pinned, or with more passes")...)
	}
	return out
}

func batchSentences(f *facts) []Sentence {
	var out []Sentence
	for i := range f.r.Variants {
		v := &f.r.Variants[i]
		clock := f.r.Conditions.Clock
		if v.Batch <= 1 {
			if v.BatchAuto > 1 {
				out = append(out, said(ClaimBatchForced, "", TopicBatch, KindBatch, v.Name, fmt.Sprintf("%s was timed pass by pass, as batch=1 asked, though the calibration would have timed it in batches of %d: "+
					"one pass is shorter than %d clock reads (%s each), so each sample includes the clock reads around it and is rounded to the clock's step (%s)%s",
					v.Name, v.BatchAuto, f.r.Protocol.ReadsPerPass, numtext.FormatNS(clock.ReadCostNS), numtext.FormatNS(clock.ResolutionNS), readsText(v, clock.ReadCostNS)))...)
			}
			continue
		}
		asked := ""
		if v.BatchAuto > 0 {
			asked = fmt.Sprintf(" (batch=%d; the calibration would have chosen %d)", v.Batch, v.BatchAuto)
		}
		out = append(out, said(ClaimBatched, "", TopicBatch, KindBatch, v.Name, fmt.Sprintf("%s was timed in batches of %d passes"+asked+": one pass is shorter than %d clock reads (%s each), "+
			"too short for two reads around it to mean anything; each sample is a batch divided by %d, "+
			"which hides the single slow pass that per-pass timing would show; the spread of batch means is not the spread of passes, so "+
			"no sentence here reads pair shares of it as what one run resolves", v.Name, v.Batch, f.r.Protocol.ReadsPerPass, numtext.FormatNS(f.r.Conditions.Clock.ReadCostNS), v.Batch)+batchAsmText(v))...)
	}
	return out
}

// readsText says how many clock reads a per-pass sample's median lasts.
func readsText(v *result.Variant, readCost float64) string {
	m, ok := median(v.Series.Interleaved)
	if !ok || readCost <= 0 {
		return ""
	}
	return fmt.Sprintf("; its median sample, %s, lasts %.1f clock reads", numtext.FormatNS(m), m/readCost)
}

// batchAsmText says what the batch loop holds, from its own disassembly.
func batchAsmText(v *result.Variant) string {
	if v.BatchFinding == "" {
		return ""
	}
	state := "live"
	switch {
	case v.BatchDead:
		state = "dead"
	case v.BatchHollow:
		state = "hollow"
	}
	return fmt.Sprintf("; its batch loop, disassembled on its own, is %s: %s", state, v.BatchFinding)
}

func loadSentences(f *facts) []Sentence {
	r := f.r
	b, a := r.Conditions.Before.Loadavg[0], r.Conditions.After.Loadavg[0]
	text := fmt.Sprintf("the 1-minute load average was %.2f before the run and %.2f after it", b, a)
	if n := r.Conditions.Machine.LogicalCPUs; n > 0 {
		text += fmt.Sprintf(", on %d CPUs", n)
	}
	kind, claim := KindLoad, ClaimLoadForced
	switch {
	case r.Protocol.Load > 0:
		text += "; the run itself started " + numtext.Plural(r.Protocol.Load, "busy thread")
		if len(r.Protocol.LoadCPUs) > 0 {
			text += " on CPU " + intsText(r.Protocol.LoadCPUs)
		}
		if len(r.Protocol.BenchCPUs) > 0 {
			text += ", with every benchmark process pinned to CPU " + intsText(r.Protocol.BenchCPUs)
		}
		text += " for its whole duration, on purpose: the spreads include that load"
	case f.loaded:
		claim = ClaimLoadHigh
		text += fmt.Sprintf(". Above %g, other work shares the machine, and a run measures that work as well as the code: the spreads include it; compare against a run at a load below %g", LoadLimit, LoadLimit)
	default:
		kind, claim = "", ClaimLoadLow
		text += fmt.Sprintf(". Below %g, little else ran, so the spreads are the code and the machine", LoadLimit)
	}
	out := said(claim, "", TopicLoad, kind, "", text)
	d := r.Conditions.During
	if d == nil {
		return out
	}
	var parts []string
	for i, p := range d.BusyPct {
		parts = append(parts, fmt.Sprintf("CPU %d was %.0f%% busy", i, p))
	}
	var procs []string
	for _, p := range f.busy {
		procs = append(procs, fmt.Sprintf("%s (pid %d, %.0f%% of a CPU, last on CPU %d)", p.Command, p.PID, p.BusyPct, p.CPU))
	}
	if len(parts) == 0 && len(procs) == 0 {
		return out
	}
	text = fmt.Sprintf("during the %.1f s of the run", d.Seconds)
	if len(parts) > 0 {
		text += ", " + strings.Join(parts, ", ")
	}
	kind, claim = "", ClaimDuring
	if len(procs) > 0 {
		kind, claim = KindLoad, ClaimDuringBusy
		text += fmt.Sprintf("; besides the benchmark, the processes that used %g%% of a CPU or more: %s", BusyProcessPct, strings.Join(procs, ", "))
	}
	return append(out, said(claim, "", TopicLoad, kind, "", text)...)
}

func intsText(x []int) string {
	parts := make([]string, len(x))
	for i, v := range x {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, ", ")
}

func checksumSentences(f *facts) []Sentence {
	var out []Sentence
	for i := range f.r.Variants {
		v := &f.r.Variants[i]
		c := v.Checksum
		if c == nil {
			continue
		}
		want := c.Want * float64(c.Passes)
		var text string
		claim := ClaimChecksumOK
		if !c.OK {
			claim = ClaimChecksumMismatch
		}
		if c.OK {
			text = fmt.Sprintf("checksum %s over %d passes, expected %s (%s per pass): ok", g(c.Got), c.Passes, g(want), g(c.Want))
		} else {
			text = fmt.Sprintf("checksum MISMATCH: got %s over %d passes, expected %s (%s per pass): the variant does not compute what it claims",
				g(c.Got), c.Passes, g(want), g(c.Want))
		}
		out = append(out, said(claim, "", TopicChecksum, KindChecksum, v.Name, text)...)
	}
	return out
}

func g(x float64) string { return strings.TrimSuffix(fmt.Sprintf("%.10g", x), ".0") }
