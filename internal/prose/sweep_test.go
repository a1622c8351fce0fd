package prose_test

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/prose"
	"github.com/benchbook/benchbook/internal/result"
)

// sweeps reads every real sweep under testdata/sweeps: each file the
// results of one sweep's points (README.md says how they were made).
func sweeps(t *testing.T) map[string][]*result.Result {
	t.Helper()
	files, err := filepath.Glob("testdata/sweeps/*.json.gz")
	if err != nil || len(files) < 3 {
		t.Fatalf("%d sweeps in testdata/sweeps (%v), want at least 3", len(files), err)
	}
	out := map[string][]*result.Result{}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		rd, err := gzip.NewReader(fh)
		if err != nil {
			t.Fatal(err)
		}
		var rs []*result.Result
		if err := json.NewDecoder(rd).Decode(&rs); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		fh.Close()
		out[filepath.Base(f)] = rs
	}
	return out
}

// TestSweepCorpus: every sentence SweepSentences writes for a real sweep
// holds by its oracle, and no fall goes unsaid.
func TestSweepCorpus(t *testing.T) {
	seen := map[string]int{}
	for name, rs := range sweeps(t) {
		for _, s := range findings.SweepSentences(rs) {
			seen[s.Claim]++
		}
		for _, f := range prose.CheckSweepAll(rs) {
			t.Errorf("%s: %s %q: %v", name, f.Sentence.Claim, f.Sentence.Text, f.Err)
		}
	}
	for _, c := range []string{findings.ClaimSweepCaches, findings.ClaimSweepSpan, findings.ClaimSweepStep, findings.ClaimSweepPrediction} {
		if seen[c] == 0 {
			t.Errorf("the sweep corpus has no %s sentence: %v", c, seen)
		}
	}
	t.Logf("sweep claims seen: %v", seen)
}

func TestEverySweepClaimHasAnOracle(t *testing.T) {
	a, b := slices.Clone(findings.SweepClaims), prose.SweepClaims()
	slices.Sort(a)
	slices.Sort(b)
	if !slices.Equal(a, b) {
		t.Errorf("claims %v, oracles %v", a, b)
	}
	for name, rs := range sweeps(t) {
		for _, s := range findings.SweepSentences(rs) {
			if s.Claim == "" {
				t.Errorf("%s: a sweep sentence without a claim: %q", name, s.Text)
			}
		}
	}
}

// sentenceOf is the first sentence of the sweep with the claim.
func sentenceOf(rs []*result.Result, claim string) (findings.Sentence, bool) {
	for _, s := range findings.SweepSentences(rs) {
		if s.Claim == claim {
			return s, true
		}
	}
	return findings.Sentence{}, false
}

// The counter-examples, put back on real sweeps, fail their oracle.
func TestSweepCounterExamples(t *testing.T) {
	all := sweeps(t)
	names := make([]string, 0, len(all))
	for n := range all {
		names = append(names, n)
	}
	slices.Sort(names)

	// A step where the interleaved rounds do not rise (the rule read the
	// fresh samples: "rises 1.376x from 64KB to 256KB", by hand 1.02x):
	// every consecutive pair of points without an interleaved rise, called
	// a step, is false.
	tried := 0
	for _, n := range names {
		rs := all[n]
		_, curves := findings.Curves(rs, findings.SweepOf(rs).Variant)
		for _, c := range curves {
			for i := 0; i+1 < len(c); i++ {
				s := findings.Sentence{Claim: findings.ClaimSweepStep, Variant: findings.SweepOf(rs).Variant, Key: key(c[i], c[i+1]),
					Text: "a step; no cache size lies between them"}
				if len(findings.FindSteps(c[i:i+2], nil)) == 0 {
					tried++
					if prose.CheckSweep(rs, s) == nil {
						t.Errorf("%s: a step between %s and %s, which do not rise, passes", n, c[i].Label, c[i+1].Label)
					}
				}
			}
		}
	}
	if tried == 0 {
		t.Fatal("no flat pair in the corpus to try")
	}

	rs := all[names[0]]
	step, ok := sentenceOf(rs, findings.ClaimSweepStep)
	for _, n := range names {
		if !ok {
			rs = all[n]
			step, ok = sentenceOf(rs, findings.ClaimSweepStep)
		}
	}
	if !ok {
		t.Fatal("no step in the corpus")
	}
	// "no step" where a confirmed step lies ("chain: no step" for 0.62 -> 2.05 ns).
	var keys []string
	for _, r := range rs {
		keys = append(keys, itoa(r.Sweep.Index))
	}
	_, curves := findings.Curves(rs, step.Variant)
	for _, c := range curves {
		var k []string
		for _, p := range c {
			k = append(k, itoa(p.Index))
		}
		if strings.Contains(","+strings.Join(k, ",")+",", ","+step.Key+",") {
			keys = k
		}
	}
	noStep := findings.Sentence{Claim: findings.ClaimSweepNoStep, Variant: step.Variant, Key: strings.Join(keys, ","), Text: "no step"}
	if prose.CheckSweep(rs, noStep) == nil {
		t.Errorf("'no step' over a curve holding the step %q passes", step.Text)
	}
	// A level left out, or a level from CPUID named.
	bad := step
	bad.Text = "a step; no cache size lies between them"
	if strings.Contains(step.Text, "reaches or crosses") && prose.CheckSweep(rs, bad) == nil {
		t.Errorf("a step that leaves out its level passes: %q", step.Text)
	}
	cpuid := cloneSweep(t, rs)
	sum := findings.SweepOf(cpuid)
	for i := range sum.Caches {
		sum.Caches[i].Source = "getconf (CPUID; /sys has no cache folder on this machine)"
	}
	named := step
	named.Text = "a step; the working set reaches or crosses L1d (48KB) and L2 (2MB) and L3 (260MB)"
	if prose.CheckSweep(cpuid, named) == nil {
		t.Error("a step named against CPUID's sizes passes")
	}
	// "inside" an interval of [10.7, 280].
	pr := cloneSweep(t, rs)
	if p := findings.SweepOf(pr).Prediction; p != nil {
		lo, hi, obs := 10.7, 280.0, 64.0
		p.Op, p.Value, p.CILow, p.CIHigh, p.Observed = "~", 64, &lo, &hi, &obs
		s := findings.Sentence{Claim: findings.ClaimSweepPrediction, Variant: findings.SweepOf(pr).Variant, Text: "the prediction ..., inside"}
		if prose.CheckSweep(pr, s) == nil {
			t.Error("'inside' [10.7, 280] passes")
		}
		p.Verdict = "uninformative" // bench's TestPredictVerdict holds the renderer to it
		s.Text = findings.SweepPredictionText(p)
		if err := prose.CheckSweep(pr, s); err != nil {
			t.Errorf("%q: %v", s.Text, err)
		}
	}
	// A disturbed small point (a 4 KiB point slower than 16 KiB), unflagged.
	fall := cloneSweep(t, rs)
	_, curves = findings.Curves(fall, findings.SweepOf(fall).Variant)
	first := curves[0][0].Index
	for _, r := range fall {
		if r.Sweep.Index == first {
			v := r.Variant(findings.SweepOf(fall).Variant)
			for i := range v.Series.Interleaved.SamplesNS {
				v.Series.Interleaved.SamplesNS[i] *= 5
			}
		}
	}
	var without []findings.Sentence
	flagged := false
	for _, s := range findings.SweepSentences(fall) {
		if s.Claim == findings.ClaimSweepFall {
			flagged = true
			continue
		}
		without = append(without, s)
	}
	if !flagged {
		t.Error("a first point 5x slower than the next is not flagged")
	}
	found := false
	for _, f := range prose.CheckSweepSentences(fall, without) {
		found = found || f.Sentence.Claim == findings.ClaimSweepFall
	}
	if !found {
		t.Error("the fall left unsaid is not found")
	}
}

func key(a, b findings.CurvePoint) string { return itoa(a.Index) + "," + itoa(b.Index) }

func itoa(i int) string { return strconv.Itoa(i) }

// cloneSweep is a deep copy of a sweep's results.
func cloneSweep(t *testing.T, rs []*result.Result) []*result.Result {
	t.Helper()
	b, err := json.Marshal(rs)
	if err != nil {
		t.Fatal(err)
	}
	var out []*result.Result
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

var ratioRE = regexp.MustCompile(`\(([0-9.]+)x\), `)

// The headline of every real sweep: a line per curve that its oracle
// holds, and counter-examples each oracle refuses: a wrong ratio, a step
// left out, a step the rule does not find, a dead count that is not the
// points'.
func TestSweepHeadline(t *testing.T) {
	lines, steps := 0, 0
	for name, rs := range sweeps(t) {
		hl := findings.SweepHeadline(rs)
		if len(hl) == 0 {
			t.Errorf("%s: no headline", name)
		}
		for _, l := range hl {
			if l.Claim != findings.ClaimSweepHeadline {
				continue
			}
			lines++
			s := l.Sentence()
			if err := prose.CheckSweep(rs, s); err != nil {
				t.Errorf("%s: %q: %v", name, s.Text, err)
			}
			bad := s
			bad.Text = ratioRE.ReplaceAllStringFunc(s.Text, func(m string) string { // 5% off, beyond the rounding
				x, _ := strconv.ParseFloat(ratioRE.FindStringSubmatch(m)[1], 64)
				return fmt.Sprintf("(%.4gx), ", 1.05*x)
			})
			if bad.Text == s.Text || prose.CheckSweep(rs, bad) == nil {
				t.Errorf("%s: a wrong ratio passes: %q", name, bad.Text)
			}
			if strings.Contains(s.Text, "no step") {
				bad.Text = strings.Replace(s.Text, "no step", "a step from N=4K to N=16K 2x", 1)
			} else {
				steps++
				j, k := strings.Index(s.Text, "x), ")+4, strings.LastIndex(s.Text, " (")
				bad.Text = s.Text[:j] + "no step" + s.Text[k:]
			}
			if prose.CheckSweep(rs, bad) == nil {
				t.Errorf("%s: a headline with its steps changed passes: %q", name, bad.Text)
			}
		}
	}
	if lines == 0 || steps == 0 {
		t.Errorf("the corpus gives %d headline lines, %d with steps: want some of each", lines, steps)
	}
}

// A variant dead at the first point is a not-live line with the count of
// the points it is dead at, which the oracle recounts: the corpus's sizes
// sweep with eight made dead at every point, then at the first three.
func TestSweepHeadlineNotLive(t *testing.T) {
	var base []*result.Result
	for name, rs := range sweeps(t) {
		if strings.HasPrefix(name, "sizes") && rs[0].Variant("eight") != nil {
			base = rs
			break
		}
	}
	if base == nil {
		t.Fatal("no sizes sweep with a variant eight in the corpus")
	}
	for _, dead := range []int{len(base), 3} {
		rs := cloneSweep(t, base)
		for _, r := range rs {
			if r.Sweep.Index < dead || dead == len(base) {
				r.Variant("eight").Dead = true
			}
		}
		var line *findings.HeadlineLine
		for _, l := range findings.SweepHeadline(rs) {
			if l.Claim == findings.ClaimSweepHeadlineNotLive && l.Variant == "eight" {
				line = &l
			}
			if l.Claim == findings.ClaimSweepHeadline && l.Variant == "eight" {
				t.Errorf("dead at %d points, yet on the curves: %q", dead, l.Text)
			}
		}
		if line == nil {
			t.Fatalf("dead at %d points: no not-live line", dead)
		}
		s := line.Sentence()
		if err := prose.CheckSweep(rs, s); err != nil {
			t.Errorf("%q: %v", s.Text, err)
		}
		bad := s
		if dead == len(base) {
			bad.Text = strings.Replace(s.Text, "every point", "3 of 8 points", 1)
		} else {
			bad.Text = strings.Replace(s.Text, "at 3 of", "at 4 of", 1)
		}
		if bad.Text == s.Text || prose.CheckSweep(rs, bad) == nil {
			t.Errorf("a wrong count passes: %q (from %q)", bad.Text, s.Text)
		}
	}
}

// A quick sweep's headline says QUICK, which its oracle checks against
// every point's protocol.
func TestSweepHeadlineQuick(t *testing.T) {
	for _, rs := range sweeps(t) {
		rs = cloneSweep(t, rs)
		for _, r := range rs {
			r.Protocol.Quick, r.Protocol.Reps, r.Protocol.Runs = true, 10, 10
		}
		var q *findings.HeadlineLine
		for _, l := range findings.SweepHeadline(rs) {
			if l.Claim == findings.ClaimHeadlineQuick {
				q = &l
			}
		}
		if q == nil {
			t.Fatal("a quick sweep's headline does not say QUICK")
		}
		if err := prose.CheckSweep(rs, q.Sentence()); err != nil {
			t.Error(err)
		}
		rs[len(rs)-1].Protocol.Quick = false
		if prose.CheckSweep(rs, q.Sentence()) == nil {
			t.Error("QUICK passes for a sweep whose last point is not quick")
		}
		return
	}
}
