package prose

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/prose/figures"
	"github.com/benchbook/benchbook/internal/result"
)

// The oracles of the headline's lines (bench.Headline): the verdict word
// from the stored interval and the band, the ratio and the interval turned
// the way the word says, what the variant was measured against, the pairs
// on the verdict's side, the time per pass recomputed from the samples,
// dead and hollow from the analysis.

// CheckHeadline runs the oracle of every line bench.Headline writes for r.
func CheckHeadline(r *result.Result) []Failure {
	var out []Failure
	for _, l := range findings.Headline(r) {
		s := l.Sentence()
		if err := Check(r, s); err != nil {
			out = append(out, Failure{s, err})
		}
	}
	return out
}

var (
	// "v: 1.982x faster [1.884, 2.092] than X (same run, 10 pairs, 2.6 s; 7 of 7 pairs faster) - assembly differs"
	headMoved = regexp.MustCompile(`^(.+?): ([0-9.]+)x (slower|faster) (\[[0-9.]+, [0-9.]+\]|none) than (.+?) \((.*)\)`)
	// "v: no difference from X: [lo, hi] lies within ±1% (...)"
	headSame = regexp.MustCompile(`^(.+?): no difference from (.+?): (\[[0-9.]+, [0-9.]+\]|none) lies within ±([0-9.]+)% \(`)
	// "v: undefined [lo, hi] against X: ..." (a baseline) or "v: undefined against X: ..." (alone)
	headUndef = regexp.MustCompile(`^(.+?): undefined (?:(\[[0-9.]+, [0-9.]+\]|none) )?against (.+?): `)
	pairsSide = regexp.MustCompile(`(\d+) of (\d+) pairs (slower|faster)`)
	sameRun   = regexp.MustCompile(`same run, (\d+) pairs?`)
)

// bandWord is the verdict an interval gives against the band 1 -+ band
// (docs/verdicts.md), restated.
func bandWord(lo, hi, band float64) string {
	switch {
	case lo > 0 && lo > 1-band && hi < 1+band:
		return result.VerdictNoDifference
	case lo >= 1+band:
		return result.VerdictSlower
	case hi > 0 && hi <= 1-band:
		return result.VerdictFaster
	}
	return result.VerdictUndefined
}

// ratioText is how a ratio appears in a line: three decimals below 10.
func ratioText(x float64) string { return numtext.FormatRatio(x) }

// turned is a ratio and its interval as the word says them: "faster" is
// the inverse ratio, the interval inverted and swapped.
func turned(word string, ratio, lo, hi float64) (string, string) {
	if word == result.VerdictFaster {
		if !figures.Bounded(lo, hi) {
			return ratioText(1 / ratio), "none"
		}
		return ratioText(1 / ratio), "[" + ratioText(1/hi) + ", " + ratioText(1/lo) + "]"
	}
	if !figures.Bounded(lo, hi) {
		return ratioText(ratio), "none"
	}
	return ratioText(ratio), "[" + ratioText(lo) + ", " + ratioText(hi) + "]"
}

// against is what a before/after measured the variant against: the
// control's default side, else the other kernel, else the previous build.
func against(r *result.Result) string {
	if c := r.Control; c != nil {
		switch c.Kind {
		case result.ControlPages:
			return "the same binary with 4 KiB pages"
		case result.ControlPad:
			return "the build with unpadded rows"
		}
	}
	if r.Baseline != nil && r.Baseline.Other != "" {
		return r.Baseline.Other
	}
	return "the previous build"
}

func verdictOf(r *result.Result, name string) *result.VariantVerdict {
	if r.Baseline == nil {
		return nil
	}
	for i := range r.Baseline.Verdicts {
		if r.Baseline.Verdicts[i].Name == name {
			return &r.Baseline.Verdicts[i]
		}
	}
	return nil
}

// headlineBaseline: a variant's verdict in a before/after.
func headlineBaseline(r *result.Result, s findings.Sentence) error {
	v := verdictOf(r, s.Variant)
	if v == nil {
		return fail("%s: no verdict in a baseline", s.Variant)
	}
	band := figures.Resolve(r) / 2
	want := bandWord(v.CILow, v.CIHigh, band)
	than := against(r)
	if m := sameRun.FindStringSubmatch(s.Text); m == nil || m[1] != strconv.Itoa(r.Baseline.Blocks) {
		return fail("%s: the pairs said are not the %d blocks measured", s.Variant, r.Baseline.Blocks)
	}
	if len(r.Baseline.PairOf) > 0 {
		seen := map[int]bool{}
		for _, p := range r.Baseline.PairOf {
			seen[p] = true
		}
		if len(seen) != r.Baseline.Blocks {
			return fail("%s: %d blocks, the rounds name %d pairs", s.Variant, r.Baseline.Blocks, len(seen))
		}
	}
	if prev, ok := r.Baseline.Asm[s.Variant]; ok {
		if now := r.Variant(s.Variant); now != nil && prev == now.Asm && strings.Contains(s.Text, "assembly differs") {
			return fail("%s: says the assembly differs, the two builds' stored assembly is the same text", s.Variant)
		}
	}
	if m := headMoved.FindStringSubmatch(s.Text); m != nil {
		word := m[3]
		if word != want {
			return fail("%s: says %s, the interval [%g, %g] against ±%g gives %s", s.Variant, word, v.CILow, v.CIHigh, band, want)
		}
		if (word == result.VerdictSlower) != (v.Ratio > 1) {
			return fail("%s: says %s of a ratio %g", s.Variant, word, v.Ratio)
		}
		rt, iv := turned(word, v.Ratio, v.CILow, v.CIHigh)
		if m[2] != rt || m[4] != iv {
			return fail("%s: says %sx %s, the stored ratio %g and interval [%g, %g] read %sx %s", s.Variant, m[2], m[4], v.Ratio, v.CILow, v.CIHigh, rt, iv)
		}
		if m[5] != than {
			return fail("%s: says measured against %q, the run measured it against %q", s.Variant, m[5], than)
		}
		p := pairsSide.FindStringSubmatch(m[6])
		if p == nil || p[3] != word || p[2] != strconv.Itoa(v.Blocks) {
			return fail("%s: the pairs on the %s side are not said of %d pairs", s.Variant, word, v.Blocks)
		}
		k, _ := strconv.Atoi(p[1])
		side := v.Positive
		if word == result.VerdictFaster {
			side = v.Blocks - v.Positive
		}
		if k != side || 2*k <= v.Blocks {
			return fail("%s: says %d of %d pairs %s; %d of them were, which a sign test calls %s only past half", s.Variant, k, v.Blocks, word, side, word)
		}
		return nil
	}
	if m := headSame.FindStringSubmatch(s.Text); m != nil {
		if want != result.VerdictNoDifference {
			return fail("%s: says no difference, the interval [%g, %g] against ±%g gives %s", s.Variant, v.CILow, v.CIHigh, band, want)
		}
		if _, iv := turned(result.VerdictSlower, v.Ratio, v.CILow, v.CIHigh); m[3] != iv {
			return fail("%s: says the interval %s, stored [%g, %g]", s.Variant, m[3], v.CILow, v.CIHigh)
		}
		if m[2] != than {
			return fail("%s: says measured against %q, the run measured it against %q", s.Variant, m[2], than)
		}
		if m[4] != strings.TrimSuffix(strconv.FormatFloat(band*100, 'f', 1, 64), ".0") {
			return fail("%s: says within ±%s%%, the band is ±%g", s.Variant, m[4], band)
		}
		return nil
	}
	if m := headUndef.FindStringSubmatch(s.Text); m != nil {
		if want != result.VerdictUndefined && v.Verdict != result.VerdictUndefined {
			return fail("%s: says undefined, the interval [%g, %g] against ±%g gives %s", s.Variant, v.CILow, v.CIHigh, band, want)
		}
		if _, iv := turned(result.VerdictSlower, v.Ratio, v.CILow, v.CIHigh); m[2] != iv {
			return fail("%s: says the interval %s, stored [%g, %g]", s.Variant, m[2], v.CILow, v.CIHigh)
		}
		if m[3] != than {
			return fail("%s: says measured against %q, the run measured it against %q", s.Variant, m[3], than)
		}
		return nil
	}
	return fail("%s: a headline whose verdict the oracle cannot read: %q", s.Variant, s.Text)
}

// liveness is what the stored analysis says a variant's timed code is:
// "dead", "hollow" or "" (live).
func liveness(v *result.Variant) string {
	switch {
	case v == nil:
		return "missing"
	case v.Dead:
		return result.VerdictDead
	case v.Hollow:
		return result.VerdictHollow
	}
	return ""
}

// passText is a variant's median pass as the headline writes it,
// recomputed from its interleaved samples.
func passText(r *result.Result, variant string) string {
	x := figures.Series(r, variant, "interleaved")
	if len(x) == 0 {
		return ""
	}
	return numtext.FormatNS(figures.Median(x)) + " a pass"
}

// headlineNotLive: dead or hollow in a build of a before/after; the state
// said of the new build is its analysis', of the previous the stored one,
// and the pass is the recomputed median.
func headlineNotLive(r *result.Result, s findings.Sentence) error {
	v := verdictOf(r, s.Variant)
	if v == nil {
		return fail("%s: no verdict in a baseline", s.Variant)
	}
	now := liveness(r.Variant(s.Variant))
	prev := r.Baseline.Previous[s.Variant]
	upper := map[string]string{result.VerdictDead: "DEAD", result.VerdictHollow: "HOLLOW"}
	switch {
	case strings.Contains(s.Text, " in both builds: "):
		if now == "" || now != prev || !strings.HasPrefix(s.Text, s.Variant+": "+upper[now]+" in both builds") {
			return fail("%s: says %q; the new build is %q, the previous %q", s.Variant, s.Text, now, prev)
		}
	case strings.Contains(s.Text, " now: "):
		if now == "" || prev != "" || !strings.HasPrefix(s.Text, s.Variant+": "+upper[now]+" now") {
			return fail("%s: says %q; the new build is %q, the previous %q", s.Variant, s.Text, now, prev)
		}
	case strings.HasPrefix(s.Text, s.Variant+": live now"):
		if now != "" || prev == "" || !strings.Contains(s.Text, " was "+upper[prev]+" ") {
			return fail("%s: says %q; the new build is %q, the previous %q", s.Variant, s.Text, now, prev)
		}
	default:
		return fail("%s: a dead or hollow headline the oracle cannot read: %q", s.Variant, s.Text)
	}
	if p := passText(r, s.Variant); p != "" && !strings.Contains(s.Text, ", "+p) {
		return fail("%s: the pass said is not the median of its samples, %s", s.Variant, p)
	}
	if !strings.Contains(s.Text, " in both builds: ") && !strings.Contains(s.Text, against(r)) {
		return fail("%s: does not name what it was measured against, %s", s.Variant, against(r))
	}
	return nil
}

// reference is the variant a run without a baseline measures the others
// against: the first live one with interleaved samples.
func reference(r *result.Result) string {
	for i := range r.Variants {
		v := &r.Variants[i]
		if figures.Live(v) && v.Series.Interleaved != nil {
			return v.Name
		}
	}
	return ""
}

// howText is "N rounds in P processes" of a run, recomputed from the
// rounds' blocks.
func howText(r *result.Result) string {
	seen := map[int]bool{}
	for _, b := range r.RoundBlock {
		seen[b] = true
	}
	how := strconv.Itoa(len(r.RoundBlock)) + " rounds"
	if len(seen) > 1 {
		how += " in " + strconv.Itoa(len(seen)) + " processes"
	}
	return how
}

// headlineTime: a variant's time per pass (and per element), the median
// of its interleaved samples; only the reference, or a variant with no
// comparison to it, is said alone.
func headlineTime(r *result.Result, s findings.Sentence) error {
	v := r.Variant(s.Variant)
	if v == nil || !figures.Live(v) {
		return fail("%s: a time per pass of a variant that is not live", s.Variant)
	}
	p := passText(r, s.Variant)
	if p == "" || !strings.HasPrefix(s.Text, s.Variant+": "+p) {
		return fail("%s: the pass said is not the median of its samples, %s", s.Variant, p)
	}
	if !strings.Contains(s.Text, howText(r)) {
		return fail("%s: the rounds said are not %s", s.Variant, howText(r))
	}
	if ref := reference(r); ref != s.Variant && ref != "" {
		for _, c := range r.Comparisons {
			if (c.A == s.Variant && c.B == ref) || (c.A == ref && c.B == s.Variant) {
				return fail("%s: said alone, though it was compared with %s", s.Variant, ref)
			}
		}
	}
	if e := r.Protocol.Elements; e != nil && *e > 0 && s.Variant == reference(r) {
		per := numtext.FormatNS(figures.Median(figures.Series(r, s.Variant, "interleaved"))/float64(*e)) + " an element"
		if !strings.Contains(s.Text, per) {
			return fail("%s: the time per element is not %s", s.Variant, per)
		}
	}
	return nil
}

// headlineAlone: a variant against the reference without a baseline: the
// verdict is the band rule's on the stored interval of the resolved
// comparison, turned to variant over reference.
func headlineAlone(r *result.Result, s findings.Sentence) error {
	ref := reference(r)
	var c *result.Comparison
	inv := false
	for i := range r.Comparisons {
		x := &r.Comparisons[i]
		if x.A == s.Variant && x.B == ref {
			c = x
		} else if x.A == ref && x.B == s.Variant {
			c, inv = x, true
		}
	}
	if c == nil || ref == "" || ref == s.Variant {
		return fail("%s: a verdict against %q, which no comparison of the run holds", s.Variant, ref)
	}
	shift, lo, hi := c.Shift, c.CILow, c.CIHigh
	if inv {
		shift, lo, hi = 1/shift, 1/c.CIHigh, 1/c.CILow
	}
	band := figures.Resolve(r) / 2
	want := bandWord(lo, hi, band)
	if p := passText(r, s.Variant); !strings.Contains(s.Text, "("+p+", "+howText(r)) {
		return fail("%s: the pass said is not the median of its samples, %s, over %s", s.Variant, p, howText(r))
	}
	if m := headMoved.FindStringSubmatch(s.Text); m != nil {
		if m[3] != want {
			return fail("%s: says %s, the interval [%g, %g] against ±%g gives %s", s.Variant, m[3], lo, hi, band, want)
		}
		if rt, iv := turned(m[3], shift, lo, hi); m[2] != rt || m[4] != iv {
			return fail("%s: says %sx %s, the stored ratio %g and interval [%g, %g] read %sx %s", s.Variant, m[2], m[4], shift, lo, hi, rt, iv)
		}
		if m[5] != ref {
			return fail("%s: says measured against %q, the reference is %q", s.Variant, m[5], ref)
		}
		return nil
	}
	if m := headSame.FindStringSubmatch(s.Text); m != nil {
		if want != result.VerdictNoDifference || m[2] != ref {
			return fail("%s: says no difference from %s, the interval [%g, %g] against ±%g gives %s against %s", s.Variant, m[2], lo, hi, band, want, ref)
		}
		return nil
	}
	if m := headUndef.FindStringSubmatch(s.Text); m != nil {
		if want != result.VerdictUndefined || m[3] != ref {
			return fail("%s: says undefined against %s, the interval [%g, %g] against ±%g gives %s against %s", s.Variant, m[3], lo, hi, band, want, ref)
		}
		if figures.Bounded(lo, hi) && strings.Contains(s.Text, "excludes 1") == (lo <= 1 && hi >= 1) {
			return fail("%s: whether the interval [%g, %g] excludes 1 is misstated", s.Variant, lo, hi)
		}
		return nil
	}
	return fail("%s: a headline whose verdict the oracle cannot read: %q", s.Variant, s.Text)
}

// headlineDead: dead or hollow without a baseline, from the analysis.
func headlineDead(r *result.Result, s findings.Sentence) error {
	v := r.Variant(s.Variant)
	switch l := liveness(v); {
	case l == result.VerdictDead && strings.HasPrefix(s.Text, s.Variant+": DEAD: "):
	case l == result.VerdictHollow && strings.HasPrefix(s.Text, s.Variant+": HOLLOW: "):
	default:
		return fail("%s: says %q, the analysis says %q", s.Variant, s.Text, l)
	}
	if p := passText(r, s.Variant); p != "" && !strings.Contains(s.Text, "("+p+")") {
		return fail("%s: the pass said is not the median of its samples, %s", s.Variant, p)
	}
	return nil
}

func headlineQuick(r *result.Result, s findings.Sentence) error {
	p := r.Protocol
	if !p.Quick || !strings.Contains(s.Text, "reps="+strconv.Itoa(p.Reps)+" runs="+strconv.Itoa(p.Runs)) {
		return fail("says a quick run of reps=%d runs=%d; quick %v", p.Reps, p.Runs, p.Quick)
	}
	return nil
}

// headlineNote: what the session said of the baseline, as it is stored.
func headlineNote(r *result.Result, s findings.Sentence) error {
	if r.BaselineNote == "" || s.Text != r.BaselineNote {
		return fail("a note on the baseline the result does not store")
	}
	return nil
}

// headlineLayouts: the fresh processes took as many layouts as said, as
// their stored layout ids show.
func headlineLayouts(r *result.Result, s findings.Sentence) error {
	n := r.Protocol.Layouts
	if n < 2 || !strings.HasPrefix(s.Text, "layouts="+strconv.Itoa(n)+":") {
		return fail("says layouts, layouts=%d", n)
	}
	for i := range r.Variants {
		if f := r.Variants[i].Series.Fresh; f != nil && f.Layout != nil {
			ids := map[int]bool{}
			for _, id := range f.Layout.IDs {
				ids[id] = true
			}
			if len(ids) > n {
				return fail("says %d layouts, %s's fresh processes took %d", n, r.Variants[i].Name, len(ids))
			}
		}
	}
	return nil
}
