package findings

import (
	"fmt"
	"strings"
	"time"

	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/result"
	"github.com/benchbook/benchbook/stdlib/stats"
)

// The claims of a sweep's headline lines (SweepHeadline); internal/prose's
// sweep oracles judge them, as they judge the commentary's sentences.
const (
	// A variant's curve: its time per element at the first and the last
	// point, their ratio, and the steps the step rule finds between them
	// (or none); Key lists the curve's points as a no-step sentence's does.
	ClaimSweepHeadline = "sweep.headline"
	// A variant dead or hollow at some of the points: not on the curves.
	ClaimSweepHeadlineNotLive = "sweep.headline_not_live"
)

// SweepHeadline is the answer of a sweep, one line per live variant (per
// curve, when a second axis draws several): its time per element from the
// first point to the last, the ratio, and where the step rule finds a
// step, then the points and the time the sweep took; a variant dead or
// hollow at some point says so instead; then the prediction judged, in the
// words of the commentary's sentence. The same functions as the
// commentary's (Curves, FindSteps) find the steps: one rule, said twice at
// two lengths.
func SweepHeadline(rs []*result.Result) []HeadlineLine {
	sum := SweepOf(rs)
	if sum == nil || len(rs) == 0 {
		return nil
	}
	took := sweepTime(rs)
	var out []HeadlineLine
	for _, variant := range SweepVariants(rs) {
		names, curves := Curves(rs, variant)
		for i, c := range curves {
			if len(c) == 0 {
				continue
			}
			of := ""
			if names[i] != "" {
				of = " at " + names[i]
			}
			if len(c) == 1 {
				_, m, _ := stats.Quartiles(c[0].PerEl)
				out = append(out, HeadlineLine{Variant: variant, Claim: ClaimSweepHeadline, Key: indices(c...),
					Text: fmt.Sprintf("%s%s: %s per element at %s (1 point%s)", variant, of, numtext.FormatNS(m), pointText(c[0]), seconds(took))})
				continue
			}
			_, m0, _ := stats.Quartiles(c[0].PerEl)
			_, m1, _ := stats.Quartiles(c[len(c)-1].PerEl)
			var steps []string
			for _, st := range FindSteps(c, sum.Caches) {
				if !st.Unchecked {
					steps = append(steps, fmt.Sprintf("%s to %s %sx", st.From.Label, st.To.Label, numtext.FormatRatio(st.Ratio)))
				}
			}
			where := "no step"
			switch len(steps) {
			case 0:
			case 1:
				where = "a step from " + steps[0]
			default:
				where = fmt.Sprintf("%d steps: from %s", len(steps), strings.Join(steps, ", from "))
			}
			text := fmt.Sprintf("%s%s: %s to %s per element from %s to %s (%sx), %s (%s%s)", variant, of, numtext.FormatNS(m0), numtext.FormatNS(m1),
				pointText(c[0]), pointText(c[len(c)-1]), numtext.FormatRatio(m1/m0), where, numtext.Plural(len(c), "point"), seconds(took))
			out = append(out, HeadlineLine{Variant: variant, Text: text, Claim: ClaimSweepHeadline, Key: indices(c...)})
		}
	}
	drawn := map[string]bool{}
	for _, v := range SweepVariants(rs) {
		drawn[v] = true
	}
	for _, v := range rs[0].Variants {
		if drawn[v.Name] {
			continue
		}
		var dead, hollow int
		for _, r := range rs {
			if x := r.Variant(v.Name); x != nil && x.Dead {
				dead++
			} else if x != nil && x.Hollow {
				hollow++
			}
		}
		word, what := "DEAD", "it times the clock"
		n := dead
		if hollow > dead {
			word, what, n = "HOLLOW", "only a counting loop is left", hollow
		}
		at := fmt.Sprintf("at %d of %d points", n, len(rs))
		if n == len(rs) {
			at = "at every point"
		}
		out = append(out, HeadlineLine{Variant: v.Name, Verdict: map[string]string{"DEAD": result.VerdictDead, "HOLLOW": result.VerdictHollow}[word],
			Text: fmt.Sprintf("%s: %s %s: %s; not on the curves", v.Name, word, at, what), Claim: ClaimSweepHeadlineNotLive})
	}
	if pr := rs[0].Protocol; pr.Quick {
		out = append(out, HeadlineLine{Claim: ClaimHeadlineQuick, Text: quickText(pr)})
	}
	if p := sum.Prediction; p != nil {
		text := SweepPredictionText(p)
		if len(SweepVariants(rs)) > 1 {
			text += ", judged on " + sum.Variant
		}
		out = append(out, HeadlineLine{Text: text, Claim: ClaimSweepPrediction})
	}
	return out
}

// sweepTime is the time from the first point's start to the last end of
// any point (the points are measured interleaved).
func sweepTime(rs []*result.Result) time.Duration {
	var first, last time.Time
	for _, r := range rs {
		a, e1 := time.Parse(time.RFC3339Nano, r.Conditions.Before.Time)
		b, e2 := time.Parse(time.RFC3339Nano, r.Conditions.After.Time)
		if e1 != nil || e2 != nil || b.Before(a) {
			return 0
		}
		if first.IsZero() || a.Before(first) {
			first = a
		}
		if b.After(last) {
			last = b
		}
	}
	return last.Sub(first)
}
