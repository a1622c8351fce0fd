package findings

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/result"
	"github.com/benchbook/benchbook/stdlib/stats"
)

// HeadlineLine is the answer of a run for one variant, in one line: what
// the first output of %bench shows. Verdict is the verdict word (slower,
// faster, no difference, undefined, dead, hollow, or "" for a variant that
// is measured but compared with nothing), for callers that act on it
// (benchbook run --fail-on slower).
type HeadlineLine struct {
	Variant string
	Verdict string
	Text    string
	// Claim is what the line asserts (claims.go): internal/prose holds its
	// oracle, as for every other sentence; Key names what it is about when
	// the variant does not (a sweep's points).
	Claim string
	Key   string
}

// TopicHeadline is the topic of the headline's lines as sentences.
const TopicHeadline = "headline"

// Sentence is the line as a sentence of the headline topic, for the
// oracles.
func (l HeadlineLine) Sentence() Sentence {
	return Sentence{Topic: TopicHeadline, Variant: l.Variant, Claim: l.Claim, Key: l.Key, Text: l.Text}
}

// Headline is one line per measured variant, the verdict first: with a
// baseline, its verdict against the previous build (or the other kernel),
// the ratio and the interval that decided it, what it was measured against
// and how, and the time the run took; without one, the first live variant's
// time per pass and every other variant against it; a variant whose timed
// code the compiler emptied says so instead of a ratio.
//
// After the variants come lines with no variant: what the session said of
// the baseline (what changed, or why there is none), a baseline left out,
// the prediction and whether it held, and a partial run.
func Headline(r *result.Result) []HeadlineLine {
	return append(variantHeadlines(r), contextHeadlines(r)...)
}

func contextHeadlines(r *result.Result) []HeadlineLine {
	var out []HeadlineLine
	add := func(claim, text string) {
		if text != "" {
			out = append(out, HeadlineLine{Text: text, Claim: claim})
		}
	}
	if r.Partial {
		add(ClaimPartial, "PARTIAL: the run stopped before it ended ("+r.Error+"); what it measured is above and on disk")
	}
	if r.Protocol.Quick {
		add(ClaimHeadlineQuick, quickText(r.Protocol))
	}
	add(ClaimHeadlineNote, r.BaselineNote)
	add(ClaimBaselineDropped, r.BaselineDropped)
	if n := r.Protocol.Layouts; n > 1 {
		add(ClaimHeadlineLayouts, fmt.Sprintf("layouts=%d: the fresh processes took %d builds with different code alignment in turn", n, n))
	}
	if p := r.Prediction; p != nil {
		switch {
		case p.Held == nil || p.Observed == nil:
			add(ClaimPrediction, fmt.Sprintf("prediction %s, written before the run: not judged (the run did not measure both)", p.Text))
		case *p.Held:
			add(ClaimPrediction, fmt.Sprintf("prediction %s, written before the run: held (%s/%s = %s)", p.Text, p.A, p.B, numtext.FormatRatio(*p.Observed)))
		default:
			add(ClaimPrediction, fmt.Sprintf("prediction %s, written before the run: did not hold (%s/%s = %s)", p.Text, p.A, p.B, numtext.FormatRatio(*p.Observed)))
		}
	}
	return out
}

// quickText is the headline's line of a quick run.
func quickText(p result.Protocol) string {
	return fmt.Sprintf("QUICK: reps=%d runs=%d, a smoke test that the cell runs, not a measurement (the quick key, or BENCHBOOK_QUICK=1)", p.Reps, p.Runs)
}

func variantHeadlines(r *result.Result) []HeadlineLine {
	took := runTime(r)
	if bl := r.Baseline; bl != nil && len(bl.Verdicts) > 0 {
		out := make([]HeadlineLine, 0, len(bl.Verdicts))
		for _, v := range bl.Verdicts {
			claim := ClaimHeadlineBaseline
			if v.Verdict == result.VerdictDead || v.Verdict == result.VerdictHollow {
				claim = ClaimHeadlineNotLive
			}
			out = append(out, HeadlineLine{Variant: v.Name, Verdict: v.Verdict, Text: baselineHeadline(r, v, took), Claim: claim})
		}
		return out
	}
	var out []HeadlineLine
	ref := ""
	for _, v := range r.Variants {
		if live(&v) && v.Series.Interleaved != nil {
			ref = v.Name
			break
		}
	}
	for _, v := range r.Variants {
		out = append(out, aloneHeadline(r, &v, ref, took))
	}
	return out
}

// runTime is how long the run took, from its conditions before and after.
func runTime(r *result.Result) time.Duration {
	a, e1 := time.Parse(time.RFC3339Nano, r.Conditions.Before.Time)
	b, e2 := time.Parse(time.RFC3339Nano, r.Conditions.After.Time)
	if e1 != nil || e2 != nil || b.Before(a) {
		return 0
	}
	return b.Sub(a)
}

func seconds(d time.Duration) string {
	if d <= 0 {
		return ""
	}
	return fmt.Sprintf(", %.1f s", d.Seconds())
}

// times writes a ratio as "1.25x slower" or "1.33x faster" (the inverse),
// with the interval turned the same way.
func times(ratio, lo, hi float64) (word, iv string) {
	if ratio >= 1 {
		return fmt.Sprintf("%sx slower", numtext.FormatRatio(ratio)), numtext.FormatInterval(lo, hi)
	}
	if lo > 0 && hi > 0 {
		iv = numtext.FormatInterval(1/hi, 1/lo)
	} else {
		iv = "none"
	}
	return fmt.Sprintf("%sx faster", numtext.FormatRatio(1/ratio)), iv
}

func baselineHeadline(r *result.Result, v result.VariantVerdict, took time.Duration) string {
	bl := r.Baseline
	than := "the previous build"
	if bl.Other != "" {
		than = bl.Other
	}
	if _, base := result.ControlName(r); base != "" { // a control (controls.go): what the other side is
		than = "the build with " + base
		if r.Control.Kind == result.ControlPages {
			than = "the same binary with " + base
		}
	}
	asm := "assembly differs"
	if v.AsmSame {
		asm = "assembly identical"
	}
	how := fmt.Sprintf("same run, %s%s", numtext.Plural(bl.Blocks, "pair"), seconds(took))
	switch v.Verdict {
	case result.VerdictDead, result.VerdictHollow:
		return notLiveHeadline(r, v, than)
	case result.VerdictSlower, result.VerdictFaster:
		word, iv := times(v.Ratio, v.CILow, v.CIHigh)
		side := "slower"
		if v.Verdict == result.VerdictFaster {
			side = "faster"
		}
		return fmt.Sprintf("%s: %s %s than %s (%s; %d of %d pairs %s) - %s", v.Name, word, iv, than, how,
			sidePairs(v), v.Blocks, side, asm)
	case result.VerdictNoDifference:
		return fmt.Sprintf("%s: no difference from %s: %s lies within ±%s (resolve=%s; %s) - %s", v.Name, than, numtext.FormatInterval(v.CILow, v.CIHigh),
			percent(r.Protocol.Resolve/2), percent(r.Protocol.Resolve), how, asm)
	}
	return fmt.Sprintf("%s: undefined %s against %s: %s (%s) - %s", v.Name, numtext.FormatInterval(v.CILow, v.CIHigh), than,
		needed(r, v), how, asm)
}

// sidePairs is how many of the deciding pairs lie on the verdict's side.
func sidePairs(v result.VariantVerdict) int {
	if v.Verdict == result.VerdictFaster {
		return v.Blocks - v.Positive
	}
	return v.Positive
}

// needed says what an undefined verdict lacks: more pairs than a verdict
// can come from, or an interval narrower than resolve, and about how many
// pairs would give one (an interval narrows as one over the square root of
// the pairs), or a quieter machine.
func needed(r *result.Result, v result.VariantVerdict) string {
	bl := r.Baseline
	first := stats.SeqMinBlocks(v.Level, 1000)
	if !numtext.Bounded(v.CILow, v.CIHigh) {
		return fmt.Sprintf("%s are too few for a verdict, which takes at least %d%s", numtext.Plural(bl.Blocks, "pair"), first, budgetNote(r))
	}
	width := v.CIHigh/v.CILow - 1
	more := int(math.Ceil(float64(bl.Blocks) * math.Pow(width/r.Protocol.Resolve, 2)))
	load := ""
	if l := max(r.Conditions.Before.Loadavg[0], r.Conditions.After.Loadavg[0]); l > 1 {
		load = fmt.Sprintf(", or a quieter machine (load %.1f)", l)
	}
	what := fmt.Sprintf("it holds 1 but reaches past ±%s", percent(r.Protocol.Resolve/2))
	if v.CILow > 1 || v.CIHigh < 1 {
		what = fmt.Sprintf("a difference, but whether it exceeds ±%s is not known", percent(r.Protocol.Resolve/2))
	}
	return fmt.Sprintf("%s (resolve=%s) after %s%s; about %d pairs would narrow it enough%s",
		what, percent(r.Protocol.Resolve), numtext.Plural(bl.Blocks, "pair"), budgetNote(r), more, load)
}

// budgetNote says the budget ended the blocks, when it did.
func budgetNote(r *result.Result) string {
	if r.Baseline.Stop == result.StopBudget {
		return fmt.Sprintf(" (the budget, %s, was spent)", time.Duration(r.Protocol.BudgetMS*float64(time.Millisecond)))
	}
	return ""
}

func percent(f float64) string {
	s := fmt.Sprintf("%.1f", f*100)
	return strings.TrimSuffix(s, ".0") + "%"
}

// notLiveHeadline is the headline of a variant whose timed code is dead or
// hollow in either build: which one, and that no ratio is a speed-up.
func notLiveHeadline(r *result.Result, v result.VariantVerdict, than string) string {
	now := r.Variant(v.Name)
	pass := ""
	if now != nil {
		if s := now.Series.Interleaved; s != nil {
			pass = fmt.Sprintf(", %s a pass", numtext.FormatNS(s.Summary.Median))
		}
	}
	what := map[string]string{result.VerdictDead: "DEAD", result.VerdictHollow: "HOLLOW"}
	means := map[string]string{result.VerdictDead: "it times the clock", result.VerdictHollow: "only a counting loop is left"}
	switch {
	case v.New != "" && v.Previous == v.New:
		return fmt.Sprintf("%s: %s in both builds: %s%s; nothing to compare", v.Name, what[v.New], means[v.New], pass)
	case v.New != "":
		return fmt.Sprintf("%s: %s now: %s%s (%s was live); not a speed-up", v.Name, what[v.New], means[v.New], pass, than)
	}
	return fmt.Sprintf("%s: live now%s; %s was %s (%s): no ratio to it means anything", v.Name, pass, than, what[v.Previous], means[v.Previous])
}

// aloneHeadline is the headline of a variant in a run without a baseline.
func aloneHeadline(r *result.Result, v *result.Variant, ref string, took time.Duration) HeadlineLine {
	s := v.Series.Interleaved
	med := ""
	if s != nil {
		med = numtext.FormatNS(s.Summary.Median) + " a pass"
	}
	blocks := len(blockSet(r.RoundBlock))
	how := fmt.Sprintf("%d rounds", len(r.RoundBlock))
	if blocks > 1 {
		how += fmt.Sprintf(" in %d processes", blocks)
	}
	how += seconds(took)
	switch {
	case v.Dead:
		return aloneLine(v.Name, result.VerdictDead, fmt.Sprintf("%s: DEAD: it times the clock (%s); the compiler removed the work", v.Name, med))
	case v.Hollow:
		return aloneLine(v.Name, result.VerdictHollow, fmt.Sprintf("%s: HOLLOW: only a counting loop is left (%s); the result is unused", v.Name, med))
	case v.Name == ref || ref == "":
		per := ""
		if e := r.Protocol.Elements; e != nil && *e > 0 && s != nil {
			per = fmt.Sprintf(", %s an element", numtext.FormatNS(s.Summary.Median/float64(*e)))
		}
		return aloneLine(v.Name, "", fmt.Sprintf("%s: %s%s (median of %s)", v.Name, med, per, how))
	}
	c, ok := comparisonOf(r, v.Name, ref)
	if !ok {
		return aloneLine(v.Name, "", fmt.Sprintf("%s: %s (%s)", v.Name, med, how))
	}
	res := resolveOf(r)
	switch result.Verdict(c.Significant, c.CILow, c.CIHigh, res) {
	case result.VerdictSlower, result.VerdictFaster:
		word, iv := times(c.Shift, c.CILow, c.CIHigh)
		verdict := result.VerdictSlower
		if c.Shift < 1 {
			verdict = result.VerdictFaster
		}
		return aloneLine(v.Name, verdict, fmt.Sprintf("%s: %s %s than %s (%s, %s)", v.Name, word, iv, ref, med, how))
	case result.VerdictNoDifference:
		return aloneLine(v.Name, result.VerdictNoDifference, fmt.Sprintf("%s: no difference from %s: %s lies within ±%s (%s, %s)", v.Name,
			ref, numtext.FormatInterval(c.CILow, c.CIHigh), percent(res/2), med, how))
	}
	if !numtext.Bounded(c.CILow, c.CIHigh) {
		return aloneLine(v.Name, result.VerdictUndefined, fmt.Sprintf("%s: undefined against %s: %s (%s, %s)", v.Name, ref, c.Undefined, med, how))
	}
	what := "holds 1 but reaches past"
	if c.CILow > 1 || c.CIHigh < 1 { // a difference, of a size not known against the band
		what = "excludes 1 but reaches across"
	}
	return aloneLine(v.Name, result.VerdictUndefined, fmt.Sprintf("%s: undefined against %s: %s %s ±%s; take more reps (%s, %s)",
		v.Name, ref, numtext.FormatInterval(c.CILow, c.CIHigh), what, percent(res/2), med, how))
}

// aloneLine is a headline without a baseline, with the claim its verdict
// makes.
func aloneLine(variant, verdict, text string) HeadlineLine {
	claim := ClaimHeadlineAlone
	switch verdict {
	case result.VerdictDead, result.VerdictHollow:
		claim = ClaimHeadlineDead
	case "":
		claim = ClaimHeadlineTime
	}
	return HeadlineLine{Variant: variant, Verdict: verdict, Text: text, Claim: claim}
}

// resolveOf is the width below which an interval holding 1 is "no
// difference": the run's resolve=, else the default.
func resolveOf(r *result.Result) float64 {
	if r.Protocol.Resolve > 0 {
		return r.Protocol.Resolve
	}
	return result.DefaultResolve
}

// comparisonOf is a over b from the result's comparisons, turned the right
// way (a comparison is stored slower over faster).
func comparisonOf(r *result.Result, a, b string) (result.Comparison, bool) {
	for _, c := range r.Comparisons {
		switch {
		case c.A == a && c.B == b:
			return c, true
		case c.A == b && c.B == a:
			inv := func(x float64) float64 {
				if x > 0 {
					return 1 / x
				}
				return 0
			}
			c.A, c.B = a, b
			c.Ratio, c.Shift = inv(c.Ratio), inv(c.Shift)
			c.CILow, c.CIHigh = inv(c.CIHigh), inv(c.CILow)
			return c, true
		}
	}
	return result.Comparison{}, false
}

func blockSet(b []int) map[int]bool {
	m := map[int]bool{}
	for _, j := range b {
		m[j] = true
	}
	return m
}
