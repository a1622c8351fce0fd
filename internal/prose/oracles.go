package prose

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/prose/ceilings"
	"github.com/benchbook/benchbook/internal/prose/figures"
	"github.com/benchbook/benchbook/internal/result"
)

// The levels and limits the claims are judged by: the protocol's own
// (docs/verdicts.md, docs/protocol.md), restated here so that a change of a
// threshold in the renderer alone shows up as a false sentence.
const (
	spreadLimit   = 5.0  // cv above which a series is noisy (seed 003)
	loadLimit     = 1.0  // 1-minute load average above which other work ran
	busyPct       = 5.0  // share of a CPU from which a process is named
	clockReads    = 2.0  // a median within this many reads times the clock
	faultFloor    = 16.0 // minor faults below which memory was mapped already
	alpha         = 0.05
	aaWidest      = 4.0 // an A/A interval wider than this (high/low) sets no floor
	permutations  = 2000
	freqLimitPct  = 3.0
	freqNoise     = 2.0
	aloneRatio    = 10.0
	rateDrift     = 0.01
	ratioAgree    = 1e-9
	timerBoundish = 0.5
)

var oracles = map[string]Oracle{
	findings.ClaimStride:           stride,
	findings.ClaimControlPages:     controlPages,
	findings.ClaimControlVerdict:   controlVerdict,
	findings.ClaimLoadKind:         loadKind,
	findings.ClaimPartial:          partial,
	findings.ClaimPrediction:       prediction,
	findings.ClaimBaselineDropped:  baselineDropped,
	findings.ClaimBaselineMethod:   baselineMethod,
	findings.ClaimBaselineVerdict:  baselineVerdict,
	findings.ClaimDead:             dead,
	findings.ClaimDiffer:           differ,
	findings.ClaimDifferBeyondAA:   differBeyondAA,
	findings.ClaimDifferWithinAA:   differWithinAA,
	findings.ClaimDifferAsAA:       differAsAA,
	findings.ClaimWithinBand:       withinResolve,
	findings.ClaimSizeUnknown:      sizeUnknown,
	findings.ClaimFamily:           family,
	findings.ClaimNoDifference:     noDifference,
	findings.ClaimAutocorr:         autocorr,
	findings.ClaimImplausible:      implausible,
	findings.ClaimPerElement:       perElement,
	findings.ClaimParallel:         parallel,
	findings.ClaimNoElements:       noElements,
	findings.ClaimCounts:           counts,
	findings.ClaimFirstTouch:       firstTouch,
	findings.ClaimZeroPage:         zeroPage,
	findings.ClaimReadsAllocate:    readsAllocate,
	findings.ClaimMappedBefore:     mappedBefore,
	findings.ClaimSetupAllocated:   setupAllocated,
	findings.ClaimSetupPartial:     setupPartial,
	findings.ClaimPairs:            pairs,
	findings.ClaimAAFloor:          aaFloor,
	findings.ClaimAANoFloor:        aaNoFloor,
	findings.ClaimPlacement:        placement,
	findings.ClaimLayoutChance:     layoutChance,
	findings.ClaimLayoutMore:       layoutMore,
	findings.ClaimLayoutUnsplit:    layoutUnsplit,
	findings.ClaimGaps:             gaps,
	findings.ClaimClockMoved:       clockMoved,
	findings.ClaimClockStill:       clockStill,
	findings.ClaimClockVariant:     clockVariant,
	findings.ClaimNoisy:            noisy,
	findings.ClaimQuiet:            quiet,
	findings.ClaimRerun:            rerun,
	findings.ClaimBatchForced:      batchSingle,
	findings.ClaimBatched:          batched,
	findings.ClaimLoadForced:       loadForced,
	findings.ClaimLoadHigh:         loadHigh,
	findings.ClaimLoadLow:          loadLow,
	findings.ClaimDuring:           during,
	findings.ClaimDuringBusy:       duringBusy,
	findings.ClaimChecksumOK:       checksumOK,
	findings.ClaimChecksumMismatch: checksumMismatch,
	findings.ClaimAddUnder:         ceilings.AddUnder,
	findings.ClaimAddAt:            ceilings.AddAt,
	findings.ClaimBWOver:           ceilings.BWOver,
	findings.ClaimBWAt:             ceilings.BWAt,
	findings.ClaimHeadlineBaseline: headlineBaseline,
	findings.ClaimHeadlineNotLive:  headlineNotLive,
	findings.ClaimHeadlineAlone:    headlineAlone,
	findings.ClaimHeadlineTime:     headlineTime,
	findings.ClaimHeadlineDead:     headlineDead,
	findings.ClaimHeadlineQuick:    headlineQuick,
	findings.ClaimHeadlineNote:     headlineNote,
	findings.ClaimHeadlineLayouts:  headlineLayouts,
	findings.ClaimCondMachine:      condMachine,
	findings.ClaimCondFrequency:    condFrequency,
	findings.ClaimCondClock:        condClock,
	findings.ClaimCondFingerprint:  condFingerprint,
	findings.ClaimCondLoad:         condLoad,
	findings.ClaimCondDuring:       condDuring,
	findings.ClaimCondProtocol:     condProtocol,
	findings.ClaimCondKernel:       condKernel,
	ClaimLatencyShared:             latencyShared,
	ClaimLatencyWorst:              latencyWorst,
	ClaimLatencyOverhead:           latencyOverhead,
	ClaimLatencyAlone:              latencyAlone,
	ClaimLatencyRate:               latencyRate,
	ClaimLatencyAcross:             latencyAcross,
	findings.ClaimLatencyPreempted: latencyPreempted,
}

func partial(r *result.Result, _ findings.Sentence) error {
	if !r.Partial {
		return fail("the run is not partial")
	}
	return nil
}

// prediction: the observed ratio is the ratio of the interleaved medians,
// and held says whether it meets the bound.
func prediction(r *result.Result, _ findings.Sentence) error {
	p := r.Prediction
	if p == nil {
		return fail("the result has no prediction")
	}
	obs := figures.Median(figures.Series(r, p.A, "interleaved")) / figures.Median(figures.Series(r, p.B, "interleaved"))
	if p.Held == nil {
		if !math.IsNaN(obs) && !math.IsInf(obs, 0) {
			return fail("said it could not be judged, but %s/%s = %g", p.A, p.B, obs)
		}
		return nil
	}
	if !figures.Near(obs, *p.Observed, 1e-6) {
		return fail("observed %g, recomputed %g", *p.Observed, obs)
	}
	var held bool
	switch p.Op {
	case ">":
		held = obs > p.Value
	case ">=":
		held = obs >= p.Value
	case "<":
		held = obs < p.Value
	case "<=":
		held = obs <= p.Value
	case "~":
		held = obs >= p.Value/1.05 && obs <= p.Value*1.05
	}
	if held != *p.Held {
		return fail("held=%v, but %g %s %g is %v", *p.Held, obs, p.Op, p.Value, held)
	}
	return nil
}

func baselineDropped(r *result.Result, _ findings.Sentence) error {
	if r.Baseline != nil || r.BaselineDropped == "" {
		return fail("a baseline was measured, or none was dropped")
	}
	return nil
}

// sidesOver is how a before/after's ratios are said: a control's side over
// its default side, else this build over the previous one or the other
// kernel.
func sidesOver(r *result.Result) string {
	if c := r.Control; c != nil {
		switch c.Kind {
		case result.ControlPad:
			return "rows padded by " + c.Value + " bytes (BENCH_PAD) over unpadded rows"
		case result.ControlPages:
			return "huge pages over 4 KiB pages"
		}
	}
	if r.Baseline != nil && r.Baseline.Other != "" {
		return "this build over " + r.Baseline.Other
	}
	return "this build over the previous build"
}

func baselineMethod(r *result.Result, s findings.Sentence) error {
	if r.Baseline == nil {
		return fail("no baseline was measured")
	}
	if !strings.Contains(strings.ToLower(s.Text), strings.ToLower("ratios are "+sidesOver(r))) {
		return fail("the ratios are %s, the sentence says otherwise: %q", sidesOver(r), s.Text)
	}
	if b := r.Baseline; b.Blocks > 0 && len(b.PairOf) > 0 {
		seen := map[int]bool{}
		for _, p := range b.PairOf {
			seen[p] = true
		}
		if len(seen) != b.Blocks {
			return fail("says %d blocks, the rounds name %d pairs", b.Blocks, len(seen))
		}
	}
	return nil
}

// baselineVerdict: the verdict is the one the interval and resolve= give
// (docs/verdicts.md's table), recomputed.
func baselineVerdict(r *result.Result, s findings.Sentence) error {
	if r.Baseline == nil {
		return fail("no baseline")
	}
	if err := sidesNamed(r, s); err != nil {
		return err
	}
	for _, e := range r.Baseline.Variants {
		if e.Name != s.Variant || e.Series != s.Key {
			continue
		}
		if e.Verdict == result.VerdictUndefined {
			return nil // undefined claims no direction
		}
		if !figures.Bounded(e.CILow, e.CIHigh) {
			return fail("verdict %q without an interval", e.Verdict)
		}
		band := r.Protocol.Resolve / 2
		var want string
		switch {
		case e.CILow > 1-band && e.CIHigh < 1+band:
			want = result.VerdictNoDifference
		case e.CILow >= 1+band:
			want = result.VerdictSlower
		case e.CIHigh <= 1-band:
			want = result.VerdictFaster
		default:
			want = result.VerdictUndefined
		}
		if r.Protocol.Resolve == 0 { // results before resolve=: the interval against 1
			switch {
			case e.CILow > 1:
				want = result.VerdictSlower
			case e.CIHigh < 1:
				want = result.VerdictFaster
			default:
				want = result.VerdictNoDifference
			}
		}
		if want != e.Verdict {
			return fail("%s/%s reads %q, its interval [%g, %g] with resolve %g gives %q", e.Name, e.Series, e.Verdict, e.CILow, e.CIHigh, r.Protocol.Resolve, want)
		}
		return nil
	}
	return fail("no baseline verdict for %s/%s", s.Variant, s.Key)
}

// sidesNamed: a verdict's ratio is named by what was compared: a control's
// two sides (pad=: padded over unpadded, pages=huge: huge over 4 KiB
// pages), else the new build over the previous one.
func sidesNamed(r *result.Result, s findings.Sentence) error {
	want := "new/previous"
	if c := r.Control; c != nil {
		switch c.Kind {
		case result.ControlPad:
			want = "padded/unpadded"
		case result.ControlPages:
			want = "huge/4 KiB pages"
		}
	}
	for _, name := range []string{"new/previous", "padded/unpadded", "huge/4 KiB pages"} {
		if strings.Contains(s.Text, name+" ") != (name == want) {
			return fail("%s/%s: the ratio is %s, the line says otherwise: %q", s.Variant, s.Key, want, s.Text)
		}
	}
	return nil
}

// dead: the analysis found the timed region empty (or only counting); a
// dead variant's median lasts at most two clock reads plus a step, as
// "the two reads around an empty region are all it times" says.
func dead(r *result.Result, s findings.Sentence) error {
	v := r.Variant(s.Variant)
	if v == nil || figures.Live(v) {
		return fail("%s is live", s.Variant)
	}
	c := r.Conditions.Clock
	if err := readCost(r); err != nil && strings.Contains(s.Text, "clock read costs") {
		return err
	}
	if v.Dead && c.ReadCostNS > 0 && strings.Contains(s.Text, "are all it times") {
		m := figures.Median(figures.Series(r, v.Name, "interleaved"))
		if limit := clockReads*c.ReadCostNS + figures.ClockStep(c); m > limit {
			return fail("says the clock reads are all it times, but its median %g ns exceeds %g (two reads of %g ns and a step)", m, limit, c.ReadCostNS)
		}
	}
	return nil
}

func comparisonOf(r *result.Result, s findings.Sentence) (*result.Comparison, float64, error) {
	for i := range r.Comparisons {
		c := &r.Comparisons[i]
		if c.A+"/"+c.B+"/"+c.Series == s.Key {
			ratio := figures.Median(figures.Series(r, c.A, c.Series)) / figures.Median(figures.Series(r, c.B, c.Series))
			if !figures.Near(ratio, c.Ratio, 1e-6) {
				return nil, 0, fail("%s: ratio %g, recomputed %g", s.Key, c.Ratio, ratio)
			}
			return c, ratio, nil
		}
	}
	return nil, 0, fail("no comparison %q", s.Key)
}

// resolved: the comparison's test resolved a difference: its adjusted p is
// below alpha and its interval excludes 1.
func resolved(r *result.Result, s findings.Sentence) error {
	c, _, err := comparisonOf(r, s)
	if err != nil {
		return err
	}
	if !(c.PAdjusted < alpha || (c.Method == "" && c.PValue < alpha)) {
		return fail("%s: says differ, adjusted p %g", s.Key, c.PAdjusted)
	}
	if figures.Bounded(c.CILow, c.CIHigh) && c.CILow <= 1 && c.CIHigh >= 1 {
		return fail("%s: says differ, interval [%g, %g] holds 1", s.Key, c.CILow, c.CIHigh)
	}
	return nil
}

// differ: a resolved difference whose whole interval lies beyond resolve/2
// of 1 (docs/verdicts.md: "a difference counts only beyond the band").
func differ(r *result.Result, s findings.Sentence) error {
	if err := resolved(r, s); err != nil {
		return err
	}
	c, _, _ := comparisonOf(r, s)
	if band := figures.Resolve(r) / 2; !(c.CILow >= 1+band || (c.CIHigh > 0 && c.CIHigh <= 1-band)) {
		return fail("%s: says differ, its interval [%g, %g] reaches within ±%g of 1", s.Key, c.CILow, c.CIHigh, band)
	}
	return nil
}

// withinResolve: resolved, with the whole interval within resolve/2 of 1.
func withinResolve(r *result.Result, s findings.Sentence) error {
	if err := resolved(r, s); err != nil {
		return err
	}
	c, _, _ := comparisonOf(r, s)
	if band := figures.Resolve(r) / 2; !(c.CILow > 1-band && c.CIHigh < 1+band) {
		return fail("%s: says smaller than resolve, its interval [%g, %g] reaches past ±%g", s.Key, c.CILow, c.CIHigh, band)
	}
	return nil
}

// sizeUnknown: resolved, with the interval across an edge of the band.
func sizeUnknown(r *result.Result, s findings.Sentence) error {
	if err := resolved(r, s); err != nil {
		return err
	}
	if differ(r, s) == nil || withinResolve(r, s) == nil {
		c, _, _ := comparisonOf(r, s)
		return fail("%s: says its size against resolve is unknown, its interval [%g, %g] does not cross ±%g", s.Key, c.CILow, c.CIHigh, figures.Resolve(r)/2)
	}
	return nil
}

func differBeyondAA(r *result.Result, s findings.Sentence) error {
	if err := differ(r, s); err != nil {
		return err
	}
	c, ratio, _ := comparisonOf(r, s)
	if c.Series != "interleaved" {
		return fail("%s: weighed against the A/A control, which is of the interleaved series only", s.Key)
	}
	if reach := figures.AAReach(r); math.Abs(ratio-1) <= reach {
		return fail("%s: says beyond the A/A floor, but |%g-1| <= %g", s.Key, ratio, reach)
	}
	return nil
}

// differAsAA: "identical code read as far apart": the A/A control's own
// ratio of medians is at least as far from 1 as this one.
func differAsAA(r *result.Result, s findings.Sentence) error {
	if err := differ(r, s); err != nil {
		return err
	}
	c, ratio, _ := comparisonOf(r, s)
	if c.Series != "interleaved" {
		return fail("%s: weighed against the A/A control, which is of the interleaved series only", s.Key)
	}
	if aa := figures.AARatio(r); math.Abs(ratio-1) > math.Abs(aa-1) {
		return fail("%s: says identical code read as far apart, but the A/A control read %g against %g", s.Key, aa, ratio)
	}
	return nil
}

// differWithinAA: the ratio lies within the reach of the A/A interval.
func differWithinAA(r *result.Result, s findings.Sentence) error {
	if err := differ(r, s); err != nil {
		return err
	}
	c, ratio, _ := comparisonOf(r, s)
	if c.Series != "interleaved" {
		return fail("%s: weighed against the A/A control, which is of the interleaved series only", s.Key)
	}
	if reach := figures.AAReach(r); math.Abs(ratio-1) > reach {
		return fail("%s: says within the A/A floor, but |%g-1| > %g", s.Key, ratio, reach)
	}
	return nil
}

func family(r *result.Result, s findings.Sentence) error {
	c, _, err := comparisonOf(r, s)
	if err != nil {
		return err
	}
	if !(c.PValue < alpha && c.PAdjusted >= alpha) {
		return fail("%s: says only the family's adjustment stops it, p %g adjusted %g", s.Key, c.PValue, c.PAdjusted)
	}
	return nil
}

func noDifference(r *result.Result, s findings.Sentence) error {
	c, _, err := comparisonOf(r, s)
	if err != nil {
		return err
	}
	if c.Undefined != "" {
		return nil
	}
	if c.PAdjusted < alpha && c.Method != "" {
		return fail("%s: says no difference, adjusted p %g", s.Key, c.PAdjusted)
	}
	return nil
}

// autocorr: the rounds are not independent: a permutation test of the
// lag-1 autocorrelation of the per-round log-ratios rejects at alpha.
func autocorr(r *result.Result, s findings.Sentence) error {
	var lr []float64
	if strings.HasPrefix(s.Key, "the A/A control of ") {
		lr = figures.LogRatios(figures.Series(r, r.AA.Variant, "interleaved"), r.AA.SamplesNS)
	} else if a, b, ok := strings.Cut(s.Key, "/"); ok {
		lr = figures.LogRatios(figures.Series(r, a, "interleaved"), figures.Series(r, b, "interleaved"))
	}
	if len(lr) < 4 {
		return fail("%s: too few rounds to test", s.Key)
	}
	if p := figures.LagOneP(lr, permutations); p >= alpha {
		return fail("%s: says the rounds are not independent, a permutation test of lag-1 autocorrelation %.2f gives p = %.2g", s.Key, figures.LagOne(lr), p)
	}
	return nil
}

// implausible: a pass timed alone whose fastest sample is below the
// clock's granularity, or whose median is within two median clock reads.
// readCost checks the clock's read cost a sentence uses is one typical
// read: a pass timed alone spans at least about one read (the delta of two
// reads around nothing is one read), so a read cost more than twice the
// median of such a variant, plus a step, is a mean inflated by time the
// thread did not run, not the cost of one read.
func readCost(r *result.Result) error {
	c := r.Conditions.Clock
	for i := range r.Variants {
		v := &r.Variants[i]
		if v.Batch > 1 {
			continue
		}
		if m := figures.Median(figures.Series(r, v.Name, "interleaved")); m > 0 && c.ReadCostNS > clockReads*m+figures.ClockStep(c) {
			return fail("the read cost %g ns is more than twice %s's median pass %g ns: not one typical read", c.ReadCostNS, v.Name, m)
		}
	}
	return nil
}

func implausible(r *result.Result, s findings.Sentence) error {
	if err := readCost(r); err != nil {
		return err
	}
	v := r.Variant(s.Variant)
	if v == nil || v.Batch > 1 {
		return fail("%s is batched", s.Variant)
	}
	x := figures.Series(r, v.Name, "interleaved")
	c := r.Conditions.Clock
	step := figures.ClockStep(c)
	below := step > 0 && figures.MinOf(x) < step
	reads := c.ReadCostNS > 0 && figures.Median(x) <= clockReads*c.ReadCostNS
	if strings.Contains(s.Text, "below the clock's smallest step") && !below {
		return fail("%s: says its fastest pass %g ns is below the clock's step, the grid is %g ns", v.Name, figures.MinOf(x), step)
	}
	if strings.Contains(s.Text, "it times the clock") && !reads {
		return fail("%s: says it times the clock, median %g ns against reads of %g ns", v.Name, figures.Median(x), c.ReadCostNS)
	}
	if !below && !reads {
		return fail("%s: neither below the step nor within two reads", v.Name)
	}
	return nil
}

func perElement(r *result.Result, s findings.Sentence) error {
	if r.Protocol.Elements == nil {
		return fail("no elements=")
	}
	if c := figures.CyclesPerElement(r, s.Variant); c < 1 {
		return fail("%s: %g cycles per element, under one, without saying so", s.Variant, c)
	}
	return nil
}

// parallel: under one cycle per element.
func parallel(r *result.Result, s findings.Sentence) error {
	if c := figures.CyclesPerElement(r, s.Variant); !(c < 1) {
		return fail("%s: says under one cycle per element, recomputed %g", s.Variant, c)
	}
	return nil
}

func noElements(r *result.Result, _ findings.Sentence) error {
	if r.Protocol.Elements != nil {
		return fail("elements= was given")
	}
	return nil
}

func counts(r *result.Result, s findings.Sentence) error {
	v := r.Variant(s.Variant)
	if v == nil || v.Counts == nil {
		return fail("%s has no counts", s.Variant)
	}
	if r.Baseline == nil {
		return nil
	}
	prev, ok := r.Baseline.Counts[s.Variant]
	if !ok {
		return nil
	}
	other := "the previous build"
	if r.Control != nil {
		other = "the build with " + map[string]string{result.ControlPad: "unpadded rows", result.ControlPages: "4 KiB pages"}[r.Control.Kind]
	}
	n := v.Counts.InstructionsPerPass
	if same := strings.Contains(s.Text, other+" executes exactly as many"); same != (prev == n) {
		return fail("%s: %d instructions against %d on the other side (%s), the sentence says otherwise", s.Variant, n, prev, other)
	}
	if prev != n && prev > 0 && !strings.Contains(s.Text, other+" executed "+strconv.FormatInt(prev, 10)) {
		return fail("%s: does not say %s executed %d", s.Variant, other, prev)
	}
	return nil
}

func firstTouch(r *result.Result, s findings.Sentence) error {
	v := r.Variant(s.Variant)
	if !figures.Live(v) || v.Series.Cold == nil || len(v.Series.Cold.SamplesNS) == 0 {
		return fail("%s has no cold series of a live variant", s.Variant)
	}
	return nil
}

// zeroPage: the cold pass read memory never written (before setup), took
// faults, and setup faulted again about as often: the reads were served
// from the zero page and setup's writes allocated.
func zeroPage(r *result.Result, s findings.Sentence) error {
	cold, setup, c := figures.ColdFaults(r, s.Variant)
	if c == nil || c.After == "setup" || cold < faultFloor || !(setup >= cold/2) {
		return fail("%s: says zero-page reads, but cold faults %g, setup faults %g (after %q)", s.Variant, cold, setup, c.After)
	}
	return firstTouch(r, s)
}

func readsAllocate(r *result.Result, s findings.Sentence) error {
	cold, setup, c := figures.ColdFaults(r, s.Variant)
	if c == nil || c.After == "setup" || cold < faultFloor || !(setup < cold/2) {
		return fail("%s: says the reads allocated, but cold faults %g, setup faults %g", s.Variant, cold, setup)
	}
	return firstTouch(r, s)
}

func mappedBefore(r *result.Result, s findings.Sentence) error {
	cold, _, c := figures.ColdFaults(r, s.Variant)
	if c == nil || c.After == "setup" || !(cold < faultFloor) {
		return fail("%s: says the memory was mapped, but the cold pass took %g faults", s.Variant, cold)
	}
	return firstTouch(r, s)
}

func setupAllocated(r *result.Result, s findings.Sentence) error {
	cold, _, c := figures.ColdFaults(r, s.Variant)
	if c == nil || c.After != "setup" || !(cold < faultFloor) {
		return fail("%s: says setup allocated the pages, but the cold pass after it took %g faults", s.Variant, cold)
	}
	return firstTouch(r, s)
}

func setupPartial(r *result.Result, s findings.Sentence) error {
	cold, _, c := figures.ColdFaults(r, s.Variant)
	if c == nil || c.After != "setup" || cold < faultFloor {
		return fail("%s: says the cold pass after setup still faulted, it took %g", s.Variant, cold)
	}
	return firstTouch(r, s)
}

// pairs: the pair shares are those of the series' single passes.
func pairs(r *result.Result, s findings.Sentence) error {
	v := r.Variant(s.Variant)
	if v == nil || v.Batch > 1 {
		return fail("%s: pair shares of batch means are not single passes", s.Variant)
	}
	x := figures.Series(r, s.Variant, s.Key)
	sum := v.Get(s.Key).Summary
	for _, q := range []struct {
		pct    float64
		stored float64
	}{{2, sum.PairsOver2Pct}, {5, sum.PairsOver5Pct}, {10, sum.PairsOver10Pct}} {
		if got := figures.PairShare(x, q.pct); math.Abs(got-q.stored) > 1e-9 {
			return fail("%s %s: pairs over %g%%: %g, recomputed %g", s.Variant, s.Key, q.pct, q.stored, got)
		}
	}
	return nil
}

// aaFloor: "a ratio within about X of 1 is no farther apart than identical
// code can read": the A/A control's own ratio of medians and its whole
// interval lie within X of 1, and no comparison of two variants told apart
// by the run is closer to 1 than the control's own ratio.
func aaFloor(r *result.Result, s findings.Sentence) error {
	aa := r.AA
	if !figures.Bounded(aa.CILow, aa.CIHigh) {
		return fail("the A/A control has no interval")
	}
	if aa.CIHigh > aaWidest*aa.CILow {
		return fail("a floor from the A/A interval [%g, %g], wider than %gx, bounds nothing", aa.CILow, aa.CIHigh, aaWidest)
	}
	reach := figures.AAReach(r)
	ratio := figures.AARatio(r)
	if !figures.Near(ratio, aa.Ratio, 1e-6) {
		return fail("A/A ratio %g, recomputed %g", aa.Ratio, ratio)
	}
	if strings.Contains(s.Text, "cannot be told from no difference") {
		// The claim that nothing closer is resolved: false beside a
		// comparison of this run closer to 1 that resolves a difference.
		for _, c := range r.Comparisons {
			if c.Significant && math.Abs(c.Ratio-1) < reach {
				return fail("says a ratio closer to 1 than %s cannot be told from no difference, yet %s/%s %s reads %g and resolves a difference", pctText(reach), c.A, c.B, c.Series, c.Ratio)
			}
		}
	}
	if math.Abs(ratio-1) > math.Max(aa.CIHigh-1, 1-aa.CILow) && !strings.Contains(s.Text, pctText(reach)) {
		return fail("the A/A control's own ratio %g lies outside its interval's reach [%g, %g], and the floor said is not %s", ratio, aa.CILow, aa.CIHigh, pctText(reach))
	}
	return nil
}

// pctText writes a fraction as bench.FormatPct does (3 significant digits):
// how the floor appears in the sentence.
func pctText(f float64) string { return numtext.FormatPct(f) }

// aaNoFloor: the A/A control has no interval, or one wider than 4x.
func aaNoFloor(r *result.Result, _ findings.Sentence) error {
	if r.AA.Variant == "" || (figures.Bounded(r.AA.CILow, r.AA.CIHigh) && r.AA.CIHigh <= aaWidest*r.AA.CILow) {
		return fail("says no floor, the A/A control's interval [%g, %g] is bounded and narrower than %gx", r.AA.CILow, r.AA.CIHigh, aaWidest)
	}
	return nil
}

func placement(r *result.Result, _ findings.Sentence) error {
	for i := range r.Variants {
		if f := r.Variants[i].Series.Fresh; f != nil && f.Layout != nil {
			return nil
		}
	}
	return fail("no fresh series records a layout")
}

func layoutChance(r *result.Result, s findings.Sentence) error {
	if p := figures.LayoutP(r, s.Variant); !(p >= alpha) {
		return fail("%s: says no more than chance, the recomputed p is %g", s.Variant, p)
	}
	return nil
}

func layoutMore(r *result.Result, s findings.Sentence) error {
	if p := figures.LayoutP(r, s.Variant); !(p < alpha) {
		return fail("%s: says more than chance, the recomputed p is %g", s.Variant, p)
	}
	return nil
}

func layoutUnsplit(r *result.Result, s findings.Sentence) error {
	if p := figures.LayoutP(r, s.Variant); !math.IsNaN(p) {
		return fail("%s: says it cannot be split by layout, p = %g", s.Variant, p)
	}
	return nil
}

func gaps(r *result.Result, _ findings.Sentence) error {
	c := r.Conditions.Clock
	if c.GapWindowNS <= 0 || c.GapTotalNS > c.GapWindowNS || (c.GapCount > 0 && c.GapMaxNS > c.GapTotalNS) {
		return fail("gaps: window %g ns, total %g ns, longest %g ns do not agree", c.GapWindowNS, c.GapTotalNS, c.GapMaxNS)
	}
	return nil
}

// clockMove is the rule of docs/protocol.md on the processes' clock
// estimates (figures.ClockSpread): the spread of the estimates or the
// largest change within one process, over the median, beyond the larger of
// 3% and twice the estimates' repeatability.
func clockMove(r *result.Result) (moved bool, ok bool) {
	spread, within, repeat, ok := figures.ClockSpread(r)
	if !ok {
		return false, false
	}
	limit := freqLimitPct
	if !math.IsNaN(repeat) {
		limit = math.Max(limit, freqNoise*repeat)
	}
	return spread > limit || within > limit, true
}

func clockMoved(r *result.Result, _ findings.Sentence) error {
	if moved, ok := clockMove(r); !ok || !moved {
		return fail("says the clock moved; recomputed from the estimates it did not")
	}
	return nil
}

func clockStill(r *result.Result, _ findings.Sentence) error {
	if moved, ok := clockMove(r); !ok || moved {
		return fail("says the clock did not move; recomputed from the estimates it did")
	}
	return nil
}

// clockVariant: what it says of the fresh passes against their processes'
// clocks is what Spearman's rank correlation (recomputed, t approximation)
// gives.
func clockVariant(r *result.Result, s findings.Sentence) error {
	v := r.Variant(s.Variant)
	if v == nil {
		return fail("no variant %s", s.Variant)
	}
	f := v.Series.Fresh
	say := map[string]string{
		"came from the slower-clock processes": "slower",
		"came from the faster-clock processes": "faster",
		"does not follow its process's clock":  "none",
	}
	for phrase, want := range say {
		if !strings.Contains(s.Text, phrase) {
			continue
		}
		if f == nil || len(f.FreqMHz) != len(f.SamplesNS) {
			return fail("%s: no clock per fresh pass", s.Variant)
		}
		rho, p := figures.Spearman(f.FreqMHz, f.SamplesNS)
		got := "none"
		switch {
		case p < alpha && rho < 0:
			got = "slower"
		case p < alpha:
			got = "faster"
		}
		if got != want {
			return fail("%s: says %q, Spearman rho %.2f p %.2g", s.Variant, phrase, rho, p)
		}
	}
	return nil
}

// noisy: the series' cv is above the limit; a sentence that says the
// series cannot compare variants is false beside a comparison in it that
// resolves a difference.
func noisy(r *result.Result, s findings.Sentence) error {
	if cv := figures.CVPct(figures.Series(r, s.Variant, s.Key)); !(cv > spreadLimit) {
		return fail("%s %s: says noisy, cv %.3g%%", s.Variant, s.Key, cv)
	}
	if strings.Contains(s.Text, "too noisy to compare variants") {
		for _, c := range r.Comparisons {
			if (c.A == s.Variant || c.B == s.Variant) && c.Series == s.Key && c.Significant {
				return fail("%s %s: says too noisy to compare variants with, yet %s/%s in it resolves a difference (adjusted p %.2g)", s.Variant, s.Key, c.A, c.B, c.PAdjusted)
			}
		}
	}
	return nil
}

func quiet(r *result.Result, _ findings.Sentence) error {
	for _, cv := range figures.LiveCVs(r) {
		if cv > spreadLimit {
			return fail("says every series agrees, one has cv %.3g%%", cv)
		}
	}
	return nil
}

func rerun(r *result.Result, s findings.Sentence) error {
	if err := quiet(r, s); err == nil {
		return fail("advises a rerun, but no series is noisy")
	}
	return nil
}

// batchSingle: timed alone though the calibration would batch it; "its
// median sample lasts N clock reads" uses the median read cost, and "one
// pass is shorter than K clock reads" holds of its median.
func batchSingle(r *result.Result, s findings.Sentence) error {
	if err := readCost(r); err != nil {
		return err
	}
	v := r.Variant(s.Variant)
	if v == nil || v.Batch > 1 || v.BatchAuto <= 1 {
		return fail("%s was not timed alone against the calibration", s.Variant)
	}
	c := r.Conditions.Clock
	if c.Spaced == "" && c.MinStepNS == 0 && strings.Contains(s.Text, "clock reads") {
		return fail("%s: the read cost of a result before harness 6 is a mean, not one read", s.Variant)
	}
	m := figures.Median(figures.Series(r, v.Name, "interleaved"))
	if k := float64(r.Protocol.ReadsPerPass); k > 0 && m >= k*c.ReadCostNS {
		return fail("%s: says one pass is shorter than %g reads, its median %g ns is %g reads", s.Variant, k, m, m/c.ReadCostNS)
	}
	return nil
}

func batched(r *result.Result, s findings.Sentence) error {
	if v := r.Variant(s.Variant); v == nil || v.Batch <= 1 {
		return fail("%s was not batched", s.Variant)
	}
	return nil
}

func loadForced(r *result.Result, _ findings.Sentence) error {
	if r.Protocol.Load <= 0 {
		return fail("says the run started load, load=%d", r.Protocol.Load)
	}
	return nil
}

func loadHigh(r *result.Result, _ findings.Sentence) error {
	if b, a := r.Conditions.Before.Loadavg[0], r.Conditions.After.Loadavg[0]; r.Protocol.Load > 0 || !(b > loadLimit || a > loadLimit) {
		return fail("says the machine was loaded, load average %.2f and %.2f", b, a)
	}
	return nil
}

func loadLow(r *result.Result, _ findings.Sentence) error {
	if b, a := r.Conditions.Before.Loadavg[0], r.Conditions.After.Loadavg[0]; r.Protocol.Load > 0 || b > loadLimit || a > loadLimit {
		return fail("says little else ran, load average %.2f and %.2f", b, a)
	}
	return nil
}

func busyOthers(r *result.Result) int {
	n := 0
	if d := r.Conditions.During; d != nil {
		for _, p := range d.Busiest {
			if p.BusyPct >= busyPct {
				n++
			}
		}
	}
	return n
}

func during(r *result.Result, _ findings.Sentence) error {
	if r.Conditions.During == nil || busyOthers(r) > 0 {
		return fail("says no other process was busy, %d were", busyOthers(r))
	}
	return nil
}

func duringBusy(r *result.Result, _ findings.Sentence) error {
	if busyOthers(r) == 0 {
		return fail("names busy processes, none used %g%% of a CPU", busyPct)
	}
	return nil
}

func checksumOK(r *result.Result, s findings.Sentence) error {
	v := r.Variant(s.Variant)
	if v == nil || v.Checksum == nil {
		return fail("%s has no checksum", s.Variant)
	}
	c := v.Checksum
	if want := c.Want * float64(c.Passes); !c.OK || !figures.Near(c.Got, want, 1e-6) {
		return fail("%s: says ok, got %g against %g", s.Variant, c.Got, want)
	}
	return nil
}

func checksumMismatch(r *result.Result, s findings.Sentence) error {
	v := r.Variant(s.Variant)
	if v == nil || v.Checksum == nil {
		return fail("%s has no checksum", s.Variant)
	}
	c := v.Checksum
	if c.OK || figures.Near(c.Got, c.Want*float64(c.Passes), 1e-12) {
		return fail("%s: says mismatch, got %g against %g", s.Variant, c.Got, c.Want*float64(c.Passes))
	}
	return nil
}

func latencyOf(r *result.Result, s findings.Sentence) (*result.Latency, error) {
	v := r.Variant(s.Variant)
	if v == nil || v.Latency == nil || v.Latency.N == 0 {
		return nil, fail("%s timed no operations", s.Variant)
	}
	return v.Latency, nil
}

func latencyShared(r *result.Result, _ findings.Sentence) error {
	if figures.OpsCount(r) < 2 {
		return fail("says several BENCH_OPS variants were timed alike, %d were timed", figures.OpsCount(r))
	}
	return nil
}

// latencyWorst: the percentiles are in order and the worst is the largest.
func latencyWorst(r *result.Result, s findings.Sentence) error {
	l, err := latencyOf(r, s)
	if err != nil {
		return err
	}
	if !(l.P50NS <= l.P99NS && l.P99NS <= l.P999NS && l.P999NS <= l.P9999NS && l.P9999NS <= l.MaxNS) {
		return fail("%s: percentiles out of order: p50 %g p99 %g p99.9 %g p99.99 %g max %g", s.Variant, l.P50NS, l.P99NS, l.P999NS, l.P9999NS, l.MaxNS)
	}
	return nil
}

func latencyOverhead(r *result.Result, s findings.Sentence) error {
	l, err := latencyOf(r, s)
	if err != nil {
		return err
	}
	bound := l.P50NS > 0 && l.OverheadNS > timerBoundish*l.P50NS
	if strings.Contains(s.Text, "the median is mostly the timer") != bound {
		return fail("%s: timer %g ns against the median %g ns", s.Variant, l.OverheadNS, l.P50NS)
	}
	return nil
}

// aloneLatency is the latency of the sentence's variant, whose worst
// operation the sentence says stands alone: more than ten times the p99.99.
func aloneLatency(r *result.Result, s findings.Sentence) (*result.Latency, error) {
	l, err := latencyOf(r, s)
	if err != nil {
		return nil, err
	}
	if !(l.P9999NS > 0 && l.MaxNS > aloneRatio*l.P9999NS) {
		return nil, fail("%s: says the worst stands alone, max %g against p99.99 %g", s.Variant, l.MaxNS, l.P9999NS)
	}
	return l, nil
}

// latencyAlone: the worst is more than ten times the p99.99, and its cause
// is said from the interruption floor (the empty operations' worst): an
// interruption only within it, "does not measure what it was" only above.
func latencyAlone(r *result.Result, s findings.Sentence) error {
	l, err := aloneLatency(r, s)
	if err != nil {
		return err
	}
	if preemptedWorst(l) {
		return fail("%s: the pass holding the worst (%d ticks) waited %d ns with %d involuntary switches, a preemption of at least half of it, which the sentence does not name (%s)",
			s.Variant, l.MaxTicks, *l.MaxRunDelayNS, *l.MaxInvoluntary, findings.ClaimLatencyPreempted)
	}
	if strings.Contains(s.Text, "was preempted") || strings.Contains(s.Text, "a preemption can explain it") {
		return fail("%s: names a preemption that the run did not measure (run delay %s, involuntary switches %s of the worst's pass)", s.Variant, i64(l.MaxRunDelayNS), i64(l.MaxInvoluntary))
	}
	within := l.EmptyMaxTicks > 0 && l.MaxTicks <= l.EmptyMaxTicks
	above := l.EmptyMaxTicks > 0 && l.MaxTicks > l.EmptyMaxTicks
	if strings.Contains(s.Text, "an interruption explains it") != within || strings.Contains(s.Text, "does not measure what it was") != above {
		return fail("%s: the cause said does not follow from the worst %d ticks against the empty operations' %d", s.Variant, l.MaxTicks, l.EmptyMaxTicks)
	}
	if m := waitedRE.FindStringSubmatch(s.Text); m != nil {
		if err := waitsSaid(l, s.Variant, m[1], m[2]); err != nil {
			return err
		}
	}
	return noMechanism(s)
}

// noMechanism: no realloc, rehash or page fault is named: no run measures them.
func noMechanism(s findings.Sentence) error {
	for _, w := range []string{"realloc", "rehash", "page fault"} {
		if strings.Contains(s.Text, w) {
			return fail("%s: names a %s, which nothing measured", s.Variant, w)
		}
	}
	return nil
}

// preemptShare: a worst operation is put down to a preemption when its
// pass waited, runnable, at least this share of it, with at least one
// involuntary switch (docs/latency.md).
const preemptShare = 0.5

// preemptedWorst: the run measured a preemption that explains the worst
// operation: the pass that holds it had an involuntary switch and a run
// delay of at least half the worst (recomputed from its ticks).
func preemptedWorst(l *result.Latency) bool {
	if l.MaxRunDelayNS == nil || l.MaxInvoluntary == nil || l.TicksPerUS <= 0 {
		return false
	}
	worstNS := float64(l.MaxTicks) * 1000 / l.TicksPerUS
	return *l.MaxInvoluntary > 0 && *l.MaxRunDelayNS > 0 && float64(*l.MaxRunDelayNS) >= preemptShare*worstNS
}

func i64(p *int64) string {
	if p == nil {
		return "not recorded"
	}
	return strconv.FormatInt(*p, 10)
}

var (
	preemptedRE = regexp.MustCompile(`; the thread was preempted for (.+?) during the pass that holds it \((\d+) involuntary switch(?:es)?\)`)
	waitedRE    = regexp.MustCompile(`the thread waited (.+?) during the pass that holds it \((\d+) involuntary switch(?:es)?\)`)
)

// waitsSaid: the wait and the switches a sentence gives for the worst's
// pass are the recorded ones.
func waitsSaid(l *result.Latency, variant, delay, switches string) error {
	if l.MaxRunDelayNS == nil || l.MaxInvoluntary == nil {
		return fail("%s: gives the thread's waits during the worst's pass, which the result does not record", variant)
	}
	if delay != numtext.FormatNS(float64(*l.MaxRunDelayNS)) || switches != strconv.FormatInt(*l.MaxInvoluntary, 10) {
		return fail("%s: says the pass waited %s with %s involuntary switches, the record says %d ns and %d", variant, delay, switches, *l.MaxRunDelayNS, *l.MaxInvoluntary)
	}
	return nil
}

// latencyPreempted: the worst stands alone (as latencyAlone), the pass
// that holds it recorded a preemption of at least half of it, the sentence
// gives that wait and those switches, and names no other cause.
func latencyPreempted(r *result.Result, s findings.Sentence) error {
	l, err := aloneLatency(r, s)
	if err != nil {
		return err
	}
	if !preemptedWorst(l) {
		return fail("%s: says preempted, the worst's pass recorded a run delay of %s ns and %s involuntary switches against the worst of %d ticks",
			s.Variant, i64(l.MaxRunDelayNS), i64(l.MaxInvoluntary), l.MaxTicks)
	}
	m := preemptedRE.FindStringSubmatch(s.Text)
	if m == nil || !strings.Contains(s.Text, "a preemption can explain it") {
		return fail("%s: does not say the preemption and its wait: %q", s.Variant, s.Text)
	}
	if err := waitsSaid(l, s.Variant, m[1], m[2]); err != nil {
		return err
	}
	if strings.Contains(s.Text, "an interruption explains it") || strings.Contains(s.Text, "does not measure what it was") {
		return fail("%s: names a second cause beside the preemption", s.Variant)
	}
	return noMechanism(s)
}

// latencyRate: the tick rate drifted by more than rateDrift between its
// calibrations, or the TSC lacks constant_tsc and nonstop_tsc.
func latencyRate(r *result.Result, s findings.Sentence) error {
	l, err := latencyOf(r, s)
	if err != nil {
		return err
	}
	drift := math.Abs(l.TicksPerUSEnd-l.TicksPerUSStart) / math.Min(l.TicksPerUSStart, l.TicksPerUSEnd)
	flags := l.Clock == "rdtsc" && !(strings.Contains(l.CPUFlags, "constant_tsc") && strings.Contains(l.CPUFlags, "nonstop_tsc"))
	if !(drift > rateDrift || flags) {
		return fail("%s: says its times are doubtful, drift %g and the TSC flags %q", s.Variant, drift, l.CPUFlags)
	}
	return nil
}

// acrossWorstRE: the first span of the side-by-side sentence, the worst
// operations: the same in each, or from the least to the greatest, divided
// or said why not.
var acrossWorstRE = regexp.MustCompile(`^side by side, the worst operation of the \d+ BENCH_OPS variants (?:is (.+?) in each|ranges from (.+?) \((\S+)\) to (.+?) \((\S+)\)(?:, (\S+) times| \(not divided: (.*?)\))?), and their p99\.9 `)

// latencyAcross: two or more BENCH_OPS variants; the worst operations'
// span names the least and the greatest, and divides them only when both
// lie above their interruption floors (the empty operations' worst) and
// neither is put down to a preemption; when it does not divide, the
// reason it gives is one that holds.
func latencyAcross(r *result.Result, s findings.Sentence) error {
	if figures.OpsCount(r) < 2 {
		return fail("sets BENCH_OPS variants side by side, %d were timed", figures.OpsCount(r))
	}
	m := acrossWorstRE.FindStringSubmatch(s.Text)
	if m == nil {
		return fail("the worst operations' span is not said: %q", s.Text)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range r.Variants {
		if l := r.Variants[i].Latency; l != nil && l.N > 0 {
			lo, hi = math.Min(lo, l.MaxNS), math.Max(hi, l.MaxNS)
		}
	}
	if m[1] != "" {
		if m[1] != numtext.FormatNS(hi) || numtext.FormatNS(lo) != numtext.FormatNS(hi) {
			return fail("says the worst is %s in each, they run from %g to %g ns", m[1], lo, hi)
		}
		return nil
	}
	a, b := r.Variant(m[3]), r.Variant(m[5])
	if a == nil || b == nil || a.Latency == nil || b.Latency == nil {
		return fail("names %s and %s, not both BENCH_OPS variants", m[3], m[5])
	}
	la, lb := a.Latency, b.Latency
	if m[2] != numtext.FormatNS(lo) || m[4] != numtext.FormatNS(hi) || numtext.FormatNS(la.MaxNS) != m[2] || numtext.FormatNS(lb.MaxNS) != m[4] {
		return fail("the worst operations run from %g to %g ns; the sentence says %s (%s) to %s (%s)", lo, hi, m[2], m[3], m[4], m[5])
	}
	divisible := func(l *result.Latency) bool {
		return l.EmptyMaxTicks > 0 && l.MaxTicks > l.EmptyMaxTicks && !preemptedWorst(l)
	}
	switch {
	case m[6] != "":
		if !divisible(la) || !divisible(lb) {
			return fail("divides the worst of %s by that of %s, and one is within its interruption floor or put down to a preemption", m[5], m[3])
		}
		if want := numtext.FormatBigRatio(lb.MaxNS / la.MaxNS); m[6] != want {
			return fail("says %s times, the worst operations give %s", m[6], want)
		}
	case m[7] != "":
		if divisible(la) && divisible(lb) {
			return fail("does not divide the worst of %s by that of %s, and both lie above their floors, neither preempted", m[5], m[3])
		}
		pre := preemptedWorst(la) || preemptedWorst(lb)
		floored := func(l *result.Latency) bool {
			return l.EmptyMaxTicks > 0 && l.MaxTicks <= l.EmptyMaxTicks && !preemptedWorst(l)
		}
		noFloor := la.EmptyMaxTicks <= 0 || lb.EmptyMaxTicks <= 0
		if !noFloor && (strings.Contains(m[7], "preempted") != pre || strings.Contains(m[7], "within the worst of its empty operations") != (floored(la) || floored(lb))) {
			return fail("the reason it does not divide, %q, does not follow from the floors and the preemptions recorded", m[7])
		}
	default:
		if la.MaxNS > 0 {
			return fail("names the worst operations' ends without dividing them or saying why not")
		}
	}
	return nil
}
