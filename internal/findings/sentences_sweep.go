package findings

import (
	"fmt"
	"slices"
	"strings"

	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/result"
	"github.com/benchbook/benchbook/stdlib/stats"
)

// TopicSweep is the topic of the sentences about a sweep (SweepSentences).
const TopicSweep = "sweep"

// KindStep is the finding kind of a step in a sweep's time per element;
// KindFall of a point slower than the larger one after it (a curve of time
// per element should not fall as the working set grows).
const (
	KindStep = "step"
	KindFall = "non_monotonic"
)

// StepRatio is the least rise of the median time per element between two
// consecutive points of a sweep that is called a step; besides, the two
// points' interquartile ranges must not overlap (FindSteps).
const StepRatio = 1.3

// The claims of the sweep sentences (internal/prose's SweepOracles judge
// them over the sweep's results). The Key of a sentence about points lists
// their sweep indices (SweepPoint.Index) in curve order, comma-separated.
const (
	ClaimSweepCaches       = "sweep.caches"
	ClaimSweepBytesUnknown = "sweep.bytes_unknown"
	ClaimSweepSpan         = "sweep.span"
	ClaimSweepStep         = "sweep.step"
	ClaimSweepUnchecked    = "sweep.unchecked"
	ClaimSweepNoStep       = "sweep.no_step"
	ClaimSweepFall         = "sweep.fall"
	ClaimSweepPrediction   = "sweep.prediction"
)

// SweepClaims lists every claim SweepSentences and SweepHeadline name.
// The bandwidth ceiling's claims are here too: each point's sentences of
// it are said in the sweep's commentary, keyed by the point's index.
var SweepClaims = []string{ClaimSweepCaches, ClaimSweepBytesUnknown, ClaimSweepSpan, ClaimSweepStep, ClaimSweepUnchecked,
	ClaimSweepNoStep, ClaimSweepFall, ClaimSweepPrediction, ClaimSweepHeadline, ClaimSweepHeadlineNotLive, ClaimHeadlineQuick, ClaimBWOver, ClaimBWAt}

// CurvePoint is one point of a sweep's curve: its working set (or, when
// unknown, its first axis value), its time per element samples (the
// interleaved rounds, SweepSamples), the fresh processes' as a check (nil
// when fewer than MinRuns), and the batch its passes were timed in.
type CurvePoint struct {
	Label string
	Bytes *int64
	X     float64 // bytes when known, else the value
	PerEl []float64
	Check []float64
	Batch int
	Index int // the point's SweepPoint.Index
}

// Step is a rise of time per element between two consecutive points.
type Step struct {
	From, To CurvePoint
	Ratio    float64
	Levels   []result.CacheMark // the cache levels whose size lies between the two working sets
	// CheckRatio is the fresh processes' ratio of medians (0: no check);
	// Unchecked, that it is below CheckRatio, so the rise is not called a step.
	CheckRatio float64
	Unchecked  bool
}

// FindSteps applies the step rule to a curve ordered by X: between
// consecutive points, a ratio of medians of at least StepRatio with the
// upper quartile of the first below the lower quartile of the second (the
// rise is beyond both points' spread), on the interleaved rounds. The
// fresh processes are the check: where both points have them, their ratio
// of medians must be at least CheckRatio, or the rise is not a step (Step
// Unchecked says so) - a load that lifted one point's block of processes
// lifts its interleaved rounds alone, while the fresh rounds visit every
// point in turn. The fresh samples are not the rule itself: one pass in a
// new process, after its cold pass and a few syscalls, read 1.38x from
// 64 KiB to 256 KiB where a hand-written loop read 1.02x (issue 20).
// TestNoFalseSteps holds the false steps on noisy flat curves at 0 in 500.
//
// A cache level lies between two points when its size is at least the
// first working set and at most the second, ends included (a working set
// the size of L2 may or may not fit it beside the stack and the code: the
// strict rule said "no cache size lies between" a point at L2's size and
// the next); sizes only CPUID states
// (getconf) are never set between points (cpuidCaches).
func FindSteps(curve []CurvePoint, caches []result.CacheMark) []Step {
	var steps []Step
	for i := 0; i+1 < len(curve); i++ {
		a, b := curve[i], curve[i+1]
		if len(a.PerEl) == 0 || len(b.PerEl) == 0 {
			continue
		}
		ratio, ok := risesBeyondSpread(a.PerEl, b.PerEl)
		if !ok {
			continue
		}
		st := Step{From: a, To: b, Ratio: ratio}
		if len(a.Check) > 0 && len(b.Check) > 0 {
			ca, cb := stats.Median(a.Check), stats.Median(b.Check)
			st.CheckRatio = cb / ca
			st.Unchecked = !(ca > 0 && cb/ca >= CheckRatio)
		}
		if a.Bytes != nil && b.Bytes != nil && !cpuidCaches(caches) {
			for _, c := range caches {
				if *a.Bytes <= c.Bytes && c.Bytes <= *b.Bytes {
					st.Levels = append(st.Levels, c)
				}
			}
		}
		steps = append(steps, st)
	}
	return steps
}

// risesBeyondSpread is the step rule between two points' samples: hi's
// median over lo's, and whether it is at least StepRatio with lo's upper
// quartile below hi's lower (a fall is the rule with the two swapped).
func risesBeyondSpread(lo, hi []float64) (float64, bool) {
	_, ml, ql3 := stats.Quartiles(lo)
	qh1, mh, _ := stats.Quartiles(hi)
	if ml <= 0 {
		return 0, false
	}
	return mh / ml, mh/ml >= StepRatio && qh1 > ql3
}

// CheckRatio is the least ratio of the fresh processes' medians that
// confirms a step of the interleaved rounds: half of StepRatio's rise.
const CheckRatio = 1 + (StepRatio-1)/2

// Fall is a point slower than the next, larger one (FindFalls).
type Fall struct {
	From, To CurvePoint
	Ratio    float64 // the first's median over the second's
}

// FindFalls finds where a curve ordered by X falls between consecutive
// points by StepRatio or more, beyond both points' spread (the mirror of
// FindSteps' rule): time per element does not fall as the working set
// grows, so one of the two points was disturbed (a calibration pass that
// chose another batch, a load) and the curve there says nothing.
func FindFalls(curve []CurvePoint) []Fall {
	var out []Fall
	for i := 0; i+1 < len(curve); i++ {
		a, b := curve[i], curve[i+1]
		if len(a.PerEl) == 0 || len(b.PerEl) == 0 {
			continue
		}
		ratio, ok := risesBeyondSpread(b.PerEl, a.PerEl)
		if !ok {
			continue
		}
		out = append(out, Fall{From: a, To: b, Ratio: ratio})
	}
	return out
}

// cpuidCaches: the sizes come from getconf (CPUID), which states a
// socket's caches, not the part of them one core of a virtual machine can
// use (one VM here reported an L3 of 508 MB): they are shown, never set
// between two points.
func cpuidCaches(cs []result.CacheMark) bool {
	return len(cs) > 0 && strings.HasPrefix(cs[0].Source, "getconf")
}

// nearestLevels names the cache levels just below and above a working set
// range that crosses none: "L2 1MB below, L3 508MB above".
func nearestLevels(from, to int64, caches []result.CacheMark) string {
	var below, above *result.CacheMark
	for i := range caches {
		c := &caches[i]
		if c.Bytes < from && (below == nil || c.Bytes > below.Bytes) {
			below = c
		}
		if c.Bytes >= to && (above == nil || c.Bytes < above.Bytes) {
			above = c
		}
	}
	var parts []string
	if below != nil {
		parts = append(parts, fmt.Sprintf("%s %sB below", below.Name, numtext.FormatBytes(below.Bytes)))
	}
	if above != nil {
		parts = append(parts, fmt.Sprintf("%s %sB above", above.Name, numtext.FormatBytes(above.Bytes)))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// Curves are a sweep's curves of the variant: one per value of the second
// axis (one curve with one axis), each ordered by working set.
func Curves(rs []*result.Result, variant string) (names []string, curves [][]CurvePoint) {
	idx := map[string]int{}
	for _, r := range rs {
		sp := r.Sweep
		if sp == nil {
			continue
		}
		key := ""
		for k, v := range sp.Params {
			if k != sp.Param {
				key = k + "=" + numtext.FormatSize(v)
			}
		}
		i, ok := idx[key]
		if !ok {
			i = len(curves)
			idx[key] = i
			names, curves = append(names, key), append(curves, nil)
		}
		cp := CurvePoint{Label: result.SweepPointLabel(*sp), Bytes: sp.Bytes, X: float64(sp.Value), Index: sp.Index}
		if sp.Bytes != nil {
			cp.X = float64(*sp.Bytes)
		}
		el := float64(max(sp.Elements, 1))
		for _, ns := range result.SweepSamples(r, variant) {
			cp.PerEl = append(cp.PerEl, ns/el)
		}
		if v := r.Variant(variant); v != nil {
			cp.Batch = v.Batch
			if f := v.Series.Fresh; f != nil && len(f.SamplesNS) >= result.MinRuns {
				for _, ns := range f.SamplesNS {
					cp.Check = append(cp.Check, ns/el)
				}
			}
		}
		curves[i] = append(curves[i], cp)
	}
	for _, c := range curves {
		slices.SortStableFunc(c, func(a, b CurvePoint) int {
			switch {
			case a.X < b.X:
				return -1
			case a.X > b.X:
				return 1
			}
			return 0
		})
	}
	return names, curves
}

// SweepOf is the summary of a sweep (its last point's), or nil.
func SweepOf(rs []*result.Result) *result.SweepSummary {
	for i := len(rs) - 1; i >= 0; i-- {
		if rs[i].Sweep != nil && rs[i].Sweep.Summary != nil {
			return rs[i].Sweep.Summary
		}
	}
	return nil
}

func pointText(p CurvePoint) string {
	if p.Bytes == nil {
		return p.Label
	}
	return fmt.Sprintf("%s (%sB)", p.Label, numtext.FormatBytes(*p.Bytes))
}

// SweepSentences writes the sentences about a sweep from its points: the
// caches it is set against, each step with the cache level it crosses,
// each point's bytes per ns against the fingerprint's stream (sweepBW),
// and the prediction judged.
func SweepSentences(rs []*result.Result) []Sentence {
	sum := SweepOf(rs)
	if sum == nil {
		return nil
	}
	var out []Sentence
	add := func(claim, key, kind, text string) {
		out = append(out, said(claim, key, TopicSweep, kind, sum.Variant, text)...)
	}
	add(ClaimSweepCaches, "", "", cachesText(sum.Caches))
	if rs[0].Sweep.Bytes == nil {
		add(ClaimSweepBytesUnknown, "", "", fmt.Sprintf("the working set of a point is not known (%s), so no step is set against a cache size", rs[0].Sweep.BytesRule))
	}
	variants := SweepVariants(rs)
	for _, variant := range variants {
		add := func(claim, key, kind, text string) {
			out = append(out, said(claim, key, TopicSweep, kind, variant, text)...)
		}
		names, curves := Curves(rs, variant)
		for i, c := range curves {
			of := ""
			if names[i] != "" {
				of = " at " + names[i]
			}
			if len(c) == 0 {
				continue
			}
			_, m0, _ := stats.Quartiles(c[0].PerEl)
			_, m1, _ := stats.Quartiles(c[len(c)-1].PerEl)
			add(ClaimSweepSpan, indices(c[0], c[len(c)-1]), "", fmt.Sprintf("%s%s takes %s per element at %s and %s at %s (%sx)", variant, of, numtext.FormatNS(m0), pointText(c[0]),
				numtext.FormatNS(m1), pointText(c[len(c)-1]), numtext.FormatRatio(m1/m0)))
			steps := FindSteps(c, sum.Caches)
			called := 0
			for _, st := range steps {
				if st.Unchecked {
					add(ClaimSweepUnchecked, indices(st.From, st.To), "", fmt.Sprintf("%s%s: time per element rises %sx from %s to %s in the interleaved rounds but %sx in the fresh processes, below %sx: the two series disagree, so it is not called a step",
						variant, of, numtext.FormatRatio(st.Ratio), pointText(st.From), pointText(st.To), numtext.FormatRatio(st.CheckRatio), g(CheckRatio)))
					continue
				}
				called++
				where := "no cache size lies between them"
				switch {
				case st.From.Bytes == nil || st.To.Bytes == nil:
					where = "their working sets are not known"
				case cpuidCaches(sum.Caches):
					where = "the cache sizes here are CPUID's, a socket's and not one core's share, so no level is named"
				case len(st.Levels) > 0:
					var ls []string
					for _, l := range st.Levels {
						ls = append(ls, fmt.Sprintf("%s (%sB)", l.Name, numtext.FormatBytes(l.Bytes)))
					}
					where = "the working set reaches or crosses " + strings.Join(ls, " and ")
				default:
					where += nearestLevels(*st.From.Bytes, *st.To.Bytes, sum.Caches)
				}
				check := ""
				if st.CheckRatio > 0 {
					check = fmt.Sprintf(" (fresh processes %sx)", numtext.FormatRatio(st.CheckRatio))
				}
				add(ClaimSweepStep, indices(st.From, st.To), KindStep, fmt.Sprintf("%s%s: a step, time per element rises %sx from %s to %s%s; %s", variant, of, numtext.FormatRatio(st.Ratio),
					pointText(st.From), pointText(st.To), check, where))
			}
			if called == 0 {
				text := fmt.Sprintf("%s%s: no step, no two consecutive points differ by %sx or more in median time per element beyond their spread", variant, of, g(StepRatio))
				if m0 > 0 && m1/m0 >= StepRatio && len(steps) == 0 {
					text += fmt.Sprintf("; the rise of %sx is spread over %d points", numtext.FormatRatio(m1/m0), len(c))
				}
				add(ClaimSweepNoStep, indices(c...), "", text)
			}
			for _, f := range FindFalls(c) {
				batch := ""
				if f.From.Batch != f.To.Batch {
					batch = fmt.Sprintf("; its passes were timed in batches of %d there and of %d at %s, which the calibration chose from its own passes", max(f.From.Batch, 1), max(f.To.Batch, 1), f.To.Label)
				}
				add(ClaimSweepFall, indices(f.From, f.To), KindFall, fmt.Sprintf("%s%s at %s is %sx slower per element than at the larger %s: time per element does not fall as the working set grows, so one of the two points was disturbed and the curve between them says nothing%s",
					variant, of, pointText(f.From), numtext.FormatRatio(f.Ratio), pointText(f.To), batch))
			}
		}
	}
	out = append(out, sweepBW(rs)...)
	if p := sum.Prediction; p != nil {
		text := SweepPredictionText(p)
		if len(variants) > 1 {
			text += ", judged on " + sum.Variant
		}
		add(ClaimSweepPrediction, "", KindPrediction, text)
	}
	return out
}

// indices is the Key of a sentence about points: their sweep indices.
func indices(ps ...CurvePoint) string {
	var out []string
	for _, p := range ps {
		out = append(out, fmt.Sprint(p.Index))
	}
	return strings.Join(out, ",")
}

// SweepVariants are the variants a sweep's curves are drawn for: the
// summary's variant (the first that is not dead, which the prediction is
// judged on), then every other measured variant that is neither dead nor
// hollow.
func SweepVariants(rs []*result.Result) []string {
	sum := SweepOf(rs)
	if sum == nil || len(rs) == 0 {
		return nil
	}
	out := []string{sum.Variant}
	for i := range rs[0].Variants {
		if v := &rs[0].Variants[i]; v.Name != sum.Variant && live(v) {
			out = append(out, v.Name)
		}
	}
	return out
}

// SweepPredictionText is the verdict of a sweep's prediction:
// "predicted 64, measured 110 [104, 117], outside".
func SweepPredictionText(p *result.SweepPrediction) string {
	if p.Observed == nil {
		return fmt.Sprintf("the prediction %s, written before the run, could not be judged", p.Text)
	}
	return fmt.Sprintf("the prediction %s, written before the run: predicted %s%s, measured %s by the medians, %s of the typical ratio, %s", p.Text, opText(p.Op),
		g(p.Value), numtext.FormatRatio(*p.Observed), intervalText(*p.CILow, *p.CIHigh, "too few samples"), p.Verdict)
}

func opText(op string) string {
	if op == "~" {
		return ""
	}
	return op + " "
}

func cachesText(cs []result.CacheMark) string {
	if len(cs) == 0 {
		return "the cache sizes of the CPU the sweep ran on are not known: no level is named"
	}
	var parts []string
	for _, c := range cs {
		t := c.Name + " " + numtext.FormatBytes(c.Bytes) + "B"
		if c.Shared != "" {
			t += " shared by CPUs " + c.Shared
		}
		parts = append(parts, t)
	}
	text := fmt.Sprintf("caches of the CPU the sweep ran on (%s): %s", cs[0].Source, strings.Join(parts, ", "))
	if cs[len(cs)-1].Shared == "" && len(cs) > 2 {
		text += "; nothing here says how many cores share the last level, so the part of it one core can use may be smaller"
	}
	return text
}
