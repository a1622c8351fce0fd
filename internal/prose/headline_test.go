package prose_test

import (
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/prose"
	"github.com/benchbook/benchbook/internal/result"
)

// lineOf is the first headline of r with the claim, and whether there is one.
func lineOf(r *result.Result, claim string, ok func(findings.HeadlineLine) bool) (findings.HeadlineLine, bool) {
	for _, l := range findings.Headline(r) {
		if l.Claim == claim && (ok == nil || ok(l)) {
			return l, true
		}
	}
	return findings.HeadlineLine{}, false
}

// withLine picks the first corpus result with such a headline; the line
// the renderer writes must hold, and each false one made from it must fail.
func withLine(t *testing.T, claim string, ok func(findings.HeadlineLine) bool) (*result.Result, findings.HeadlineLine) {
	t.Helper()
	var l findings.HeadlineLine
	r := pick(t, func(r *result.Result) bool {
		var found bool
		l, found = lineOf(r, claim, ok)
		return found
	})
	if err := prose.Check(r, l.Sentence()); err != nil {
		t.Fatalf("the renderer's line %q fails: %v", l.Text, err)
	}
	return r, l
}

func falseLine(t *testing.T, r *result.Result, l findings.HeadlineLine, old, new string) {
	t.Helper()
	if !strings.Contains(l.Text, old) {
		t.Fatalf("%q does not hold %q", l.Text, old)
	}
	bad := l
	bad.Text = strings.Replace(l.Text, old, new, 1)
	mustFail(t, r, bad.Sentence())
}

// A before/after's headline: the word against the interval, the faster
// interval left unturned, the ratio of another variant, what it was
// measured against, the pairs on its side.
func TestCounterHeadlineBaseline(t *testing.T) {
	r, l := withLine(t, findings.ClaimHeadlineBaseline, func(l findings.HeadlineLine) bool { return l.Verdict == result.VerdictFaster })
	v := r.Baseline.Verdicts[0]
	for _, x := range r.Baseline.Verdicts {
		if x.Name == l.Variant {
			v = x
		}
	}
	falseLine(t, r, l, "x faster", "x slower")
	falseLine(t, r, l, numtext.FormatInterval(1/v.CIHigh, 1/v.CILow), numtext.FormatInterval(v.CILow, v.CIHigh)) // the interval not turned
	falseLine(t, r, l, numtext.FormatRatio(1/v.Ratio)+"x", numtext.FormatRatio(v.Ratio)+"x")
	falseLine(t, r, l, "than the previous build", "than kernel other")
	falseLine(t, r, l, " pairs faster", " pairs slower")

	// A control's headline named "the previous build": what it was
	// measured against is the control's default side.
	ctl := pick(t, func(r *result.Result) bool {
		_, ok := lineOf(r, findings.ClaimHeadlineBaseline, nil)
		return ok && r.Control != nil
	})
	cl, _ := lineOf(ctl, findings.ClaimHeadlineBaseline, nil)
	base := map[string]string{result.ControlPages: "4 KiB pages", result.ControlPad: "unpadded rows"}[ctl.Control.Kind]
	if err := prose.Check(ctl, cl.Sentence()); err != nil {
		t.Fatalf("%q: %v", cl.Text, err)
	}
	falseLine(t, ctl, cl, base, "the previous build")
}

// A variant dead in one build called dead in both; a live one called dead.
func TestCounterHeadlineDead(t *testing.T) {
	r, l := withLine(t, findings.ClaimHeadlineNotLive, nil)
	falseLine(t, r, l, " in both builds", " now")
	r, l = withLine(t, findings.ClaimHeadlineDead, func(l findings.HeadlineLine) bool { return l.Verdict == result.VerdictDead })
	falseLine(t, r, l, ": DEAD: ", ": HOLLOW: ")
	live, ll := withLine(t, findings.ClaimHeadlineTime, nil)
	bad := ll
	bad.Claim, bad.Text = findings.ClaimHeadlineDead, ll.Variant+": DEAD: it times the clock (1 ns a pass); the compiler removed the work"
	mustFail(t, live, bad.Sentence())
}

// Without a baseline: the time per pass not the median, a verdict against
// a variant that is not the reference, the ratio the other way round.
func TestCounterHeadlineAlone(t *testing.T) {
	r, l := withLine(t, findings.ClaimHeadlineTime, nil)
	m := median(r.Variant(l.Variant).Series.Interleaved.SamplesNS)
	falseLine(t, r, l, numtext.FormatNS(m)+" a pass", numtext.FormatNS(m*1.5)+" a pass")
	falseLine(t, r, l, " rounds", "0 rounds")

	r, l = withLine(t, findings.ClaimHeadlineAlone, func(l findings.HeadlineLine) bool {
		return l.Verdict == result.VerdictSlower || l.Verdict == result.VerdictFaster
	})
	word := map[string]string{result.VerdictSlower: "x faster", result.VerdictFaster: "x slower"}[l.Verdict]
	falseLine(t, r, l, "x "+l.Verdict, word)
	falseLine(t, r, l, " than ", " than not-the-reference and ")
}

// A control's per-variant baseline lines said "new/previous" of two sides
// that are not builds: the ratio must name what was compared.
func TestCounterControlSidesNamed(t *testing.T) {
	for _, kind := range []string{result.ControlPad, result.ControlPages} {
		r := pick(t, func(r *result.Result) bool { return r.Control != nil && r.Control.Kind == kind && r.Baseline != nil })
		n := 0
		for _, s := range findings.Sentences(r) {
			if s.Claim == findings.ClaimBaselineMethod { // "Ratios are this build over unpadded rows"
				control, base := result.ControlName(r)
				bad := s
				bad.Text = strings.Replace(s.Text, "Ratios are "+control+" over", "Ratios are this build over", 1)
				if bad.Text == s.Text {
					t.Fatalf("%s: %q does not say the ratios are %s over %s", kind, s.Text, control, base)
				}
				mustFail(t, r, bad)
			}
			if s.Claim != findings.ClaimBaselineVerdict {
				continue
			}
			if err := prose.Check(r, s); err != nil {
				t.Fatalf("%q: %v", s.Text, err)
			}
			bad := s
			bad.Text = strings.ReplaceAll(s.Text, result.RatioName(r), "new/previous")
			if bad.Text == s.Text {
				t.Fatalf("%s: %q does not name its sides", kind, s.Text)
			}
			mustFail(t, r, bad)
			n++
		}
		if n == 0 {
			t.Fatalf("%s: no per-variant baseline line", kind)
		}
	}
}
