package bench

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/benchbook/benchbook/stdlib/stats"
)

// TopicSweep is the topic of the sentences about a sweep (SweepSentences).
const TopicSweep = "sweep"

// KindStep is the finding kind of a step in a sweep's time per element.
const KindStep = "step"

// StepRatio is the least rise of the median time per element between two
// consecutive points of a sweep that is called a step; besides, the two
// points' interquartile ranges must not overlap (FindSteps).
const StepRatio = 1.3

// CurvePoint is one point of a sweep's curve: its working set (or, when
// unknown, its first axis value), and its time per element samples.
type CurvePoint struct {
	Label string
	Bytes *int64
	X     float64 // bytes when known, else the value
	PerEl []float64
}

// Quartiles are the 25th, 50th and 75th percentiles of x (x unchanged):
// the median as stats.Median computes it, the quartiles by linear
// interpolation between order statistics.
func Quartiles(x []float64) (q1, med, q3 float64) {
	s := slices.Clone(x)
	slices.Sort(s)
	at := func(p float64) float64 {
		h := p * float64(len(s)-1)
		lo := math.Floor(h)
		if int(lo)+1 >= len(s) {
			return s[len(s)-1]
		}
		return s[int(lo)] + (h-lo)*(s[int(lo)+1]-s[int(lo)])
	}
	if len(s) == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	return at(0.25), stats.Median(s), at(0.75)
}

// Step is a rise of time per element between two consecutive points.
type Step struct {
	From, To CurvePoint
	Ratio    float64
	Levels   []CacheMark // the cache levels whose size lies between the two working sets
}

// FindSteps applies the step rule to a curve ordered by X: between
// consecutive points, a ratio of medians of at least StepRatio with the
// upper quartile of the first below the lower quartile of the second (the
// rise is beyond both points' spread). The samples are the fresh rounds'
// (SweepSamples), which visit every point in turn, so a load that comes and
// goes widens every point alike instead of lifting one point's block of
// time. TestNoFalseSteps holds its false steps on noisy flat curves at 0 in
// 500; a test across the pair (a rank test, paired or not, with the
// autocorrelation accounted for) was tried and at 10 samples a point missed
// steps of 3x.
func FindSteps(curve []CurvePoint, caches []CacheMark) []Step {
	var steps []Step
	for i := 0; i+1 < len(curve); i++ {
		a, b := curve[i], curve[i+1]
		if len(a.PerEl) == 0 || len(b.PerEl) == 0 {
			continue
		}
		_, ma, qa3 := Quartiles(a.PerEl)
		qb1, mb, _ := Quartiles(b.PerEl)
		if ma <= 0 || mb/ma < StepRatio || qb1 <= qa3 {
			continue
		}
		st := Step{From: a, To: b, Ratio: mb / ma}
		if a.Bytes != nil && b.Bytes != nil {
			for _, c := range caches {
				if *a.Bytes <= c.Bytes && c.Bytes < *b.Bytes {
					st.Levels = append(st.Levels, c)
				}
			}
		}
		steps = append(steps, st)
	}
	return steps
}

// nearestLevels names the cache levels just below and above a working set
// range that crosses none: "L2 1MB below, L3 508MB above".
func nearestLevels(from, to int64, caches []CacheMark) string {
	var below, above *CacheMark
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
		parts = append(parts, fmt.Sprintf("%s %sB below", below.Name, FormatBytes(below.Bytes)))
	}
	if above != nil {
		parts = append(parts, fmt.Sprintf("%s %sB above", above.Name, FormatBytes(above.Bytes)))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// Curves are a sweep's curves of the variant: one per value of the second
// axis (one curve with one axis), each ordered by working set.
func Curves(rs []*Result, variant string) (names []string, curves [][]CurvePoint) {
	idx := map[string]int{}
	for _, r := range rs {
		sp := r.Sweep
		if sp == nil {
			continue
		}
		key := ""
		for k, v := range sp.Params {
			if k != sp.Param {
				key = k + "=" + FormatSize(v)
			}
		}
		i, ok := idx[key]
		if !ok {
			i = len(curves)
			idx[key] = i
			names, curves = append(names, key), append(curves, nil)
		}
		cp := CurvePoint{Label: pointLabel(*sp), Bytes: sp.Bytes, X: float64(sp.Value)}
		if sp.Bytes != nil {
			cp.X = float64(*sp.Bytes)
		}
		el := float64(max(sp.Elements, 1))
		for _, ns := range SweepSamples(r, variant) {
			cp.PerEl = append(cp.PerEl, ns/el)
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
func SweepOf(rs []*Result) *SweepSummary {
	for i := len(rs) - 1; i >= 0; i-- {
		if rs[i].Sweep != nil && rs[i].Sweep.Summary != nil {
			return rs[i].Sweep.Summary
		}
	}
	return nil
}

// FormatBytes writes a byte count with a binary suffix: 48K, 1M, 1.5M.
func FormatBytes(b int64) string {
	for _, u := range []struct {
		s string
		m float64
	}{{"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}} {
		if float64(b) >= u.m {
			return sig(float64(b)/u.m) + u.s
		}
	}
	return fmt.Sprintf("%d", b)
}

func pointText(p CurvePoint) string {
	if p.Bytes == nil {
		return p.Label
	}
	return fmt.Sprintf("%s (%sB)", p.Label, FormatBytes(*p.Bytes))
}

// SweepSentences writes the sentences about a sweep from its points: the
// caches it is set against, each step with the cache level it crosses,
// and the prediction judged.
func SweepSentences(rs []*Result) []Sentence {
	sum := SweepOf(rs)
	if sum == nil {
		return nil
	}
	var out []Sentence
	add := func(kind, text string) { out = append(out, one(TopicSweep, kind, sum.Variant, text)...) }
	add("", cachesText(sum.Caches))
	if rs[0].Sweep.Bytes == nil {
		add("", fmt.Sprintf("the working set of a point is not known (%s), so no step is set against a cache size", rs[0].Sweep.BytesRule))
	}
	variants := SweepVariants(rs)
	for _, variant := range variants {
		add := func(kind, text string) { out = append(out, one(TopicSweep, kind, variant, text)...) }
		names, curves := Curves(rs, variant)
		for i, c := range curves {
			of := ""
			if names[i] != "" {
				of = " at " + names[i]
			}
			if len(c) == 0 {
				continue
			}
			_, m0, _ := Quartiles(c[0].PerEl)
			_, m1, _ := Quartiles(c[len(c)-1].PerEl)
			add("", fmt.Sprintf("%s%s takes %s per element at %s and %s at %s (%sx)", variant, of, FormatNS(m0), pointText(c[0]),
				FormatNS(m1), pointText(c[len(c)-1]), FormatRatio(m1/m0)))
			steps := FindSteps(c, sum.Caches)
			if len(steps) == 0 {
				add("", fmt.Sprintf("%s%s: no step, no two consecutive points differ by %sx or more in median time per element beyond their spread", variant, of, g(StepRatio)))
			}
			for _, st := range steps {
				where := "no cache boundary lies between them"
				if st.From.Bytes != nil && st.To.Bytes != nil {
					where = "no cache size the machine states lies between them" + nearestLevels(*st.From.Bytes, *st.To.Bytes, sum.Caches)
				}
				if st.From.Bytes == nil || st.To.Bytes == nil {
					where = "their working sets are not known"
				} else if len(st.Levels) > 0 {
					var ls []string
					for _, l := range st.Levels {
						ls = append(ls, fmt.Sprintf("%s (%sB)", l.Name, FormatBytes(l.Bytes)))
					}
					where = "the working set crosses " + strings.Join(ls, " and ")
				}
				add(KindStep, fmt.Sprintf("%s%s: a step, time per element rises %sx from %s to %s; %s", variant, of, FormatRatio(st.Ratio),
					pointText(st.From), pointText(st.To), where))
			}
		}
	}
	if p := sum.Prediction; p != nil {
		text := SweepPredictionText(p)
		if len(variants) > 1 {
			text += ", judged on " + sum.Variant
		}
		add(KindPrediction, text)
	}
	return out
}

// SweepVariants are the variants a sweep's curves are drawn for: the
// summary's variant (the first that is not dead, which the prediction is
// judged on), then every other measured variant that is neither dead nor
// hollow.
func SweepVariants(rs []*Result) []string {
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
func SweepPredictionText(p *SweepPrediction) string {
	if p.Observed == nil {
		return fmt.Sprintf("the prediction %s, written before the run, could not be judged", p.Text)
	}
	return fmt.Sprintf("the prediction %s, written before the run: predicted %s%s, measured %s by the medians, %s of the typical ratio, %s", p.Text, opText(p.Op),
		g(p.Value), FormatRatio(*p.Observed), intervalText(*p.CILow, *p.CIHigh, "too few samples"), p.Verdict)
}

func opText(op string) string {
	if op == "~" {
		return ""
	}
	return op + " "
}

func cachesText(cs []CacheMark) string {
	if len(cs) == 0 {
		return "the cache sizes of the CPU the sweep ran on are not known: no level is named"
	}
	var parts []string
	for _, c := range cs {
		t := c.Name + " " + FormatBytes(c.Bytes) + "B"
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
