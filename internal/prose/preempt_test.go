package prose_test

import (
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/prose"
	"github.com/benchbook/benchbook/internal/result"
)

// Mechanisms only from controls (issue 20, item 2): a worst operation is
// put down to a preemption only when the pass that holds it recorded one
// (a run delay of at least half the worst, with an involuntary switch),
// and two worst operations are divided only when both lie above their
// interruption floors and neither was preempted. The corpus results
// predate harness 8, so each case sets the floor and the waits on a real
// two-variant BENCH_OPS result.

// opsPair is a real result with two BENCH_OPS variants whose worst
// operations stand alone, each given an interruption floor of half its
// worst and the waits (run delay ns, involuntary switches) of its pass.
func opsPair(t *testing.T, waits map[string][2]int64) *result.Result {
	t.Helper()
	r := pick(t, func(r *result.Result) bool {
		n := 0
		for i := range r.Variants {
			if l := r.Variants[i].Latency; l != nil && l.N > 0 && l.MaxNS > 10*l.P9999NS {
				n++
			}
		}
		return n == 2
	})
	for i := range r.Variants {
		l := r.Variants[i].Latency
		if l == nil {
			continue
		}
		l.EmptyMaxTicks = l.MaxTicks / 2
		l.EmptyMaxNS = float64(l.EmptyMaxTicks) * 1000 / l.TicksPerUS
		if w, ok := waits[r.Variants[i].Name]; ok {
			delay, nivcsw := w[0], w[1]
			l.MaxRunDelayNS, l.MaxInvoluntary = &delay, &nivcsw
		}
	}
	return r
}

// latencySentence is the renderer's latency sentence of claim c (about variant
// v, when v is given).
func latencySentence(t *testing.T, r *result.Result, c, v string) findings.Sentence {
	t.Helper()
	for _, s := range findings.Sentences(r) {
		if prose.ClaimOf(s) == c && (v == "" || s.Variant == v) {
			return s
		}
	}
	t.Fatalf("no %s sentence of %q", c, v)
	return findings.Sentence{}
}

func opsNames(r *result.Result) (string, string) {
	var out []string
	for i := range r.Variants {
		if r.Variants[i].Latency != nil {
			out = append(out, r.Variants[i].Name)
		}
	}
	return out[0], out[1]
}

// A preemption said while the pass recorded no wait fails; the sentence
// the renderer writes gives the (zero) wait and names no cause.
func TestCounterPreemptedWithoutAWait(t *testing.T) {
	r := opsPair(t, nil)
	a, b := opsNames(r)
	r = opsPair(t, map[string][2]int64{a: {0, 0}, b: {0, 0}})
	sentencesPass(t, r)
	s := latencySentence(t, r, prose.ClaimLatencyAlone, a)
	if !strings.Contains(s.Text, "the thread waited 0 ns during the pass that holds it (0 involuntary switches)") || !strings.Contains(s.Text, "does not measure what it was") {
		t.Errorf("the renderer: %q", s.Text)
	}
	l := r.Variant(a).Latency
	head := strings.SplitN(s.Text, "; ", 2)[0]
	preempted := head + "; the thread was preempted for " + numtext.FormatNS(l.MaxNS) + " during the pass that holds it (1 involuntary switch), at least half the worst operation: a preemption can explain it (the run does not time where in the pass the wait fell)"
	bad := s
	bad.Text = preempted
	mustFail(t, r, bad) // read by its topic: latency.alone
	bad.Claim = findings.ClaimLatencyPreempted
	mustFail(t, r, bad)
	// The same with no waits recorded at all (an older harness).
	r0 := opsPair(t, nil)
	mustFail(t, r0, bad)
	// A wait given that differs from the recorded one.
	bad = s
	bad.Text = strings.Replace(s.Text, "waited 0 ns", "waited 3 ns", 1)
	mustFail(t, r, bad)

	// Both above their floors, neither preempted: the worsts are divided,
	// and a sentence that declines to fails.
	across := latencySentence(t, r, prose.ClaimLatencyAcross, "")
	if strings.Contains(across.Text, "not divided") || !strings.Contains(across.Text, " times, and their p99.9") {
		t.Errorf("the renderer does not divide two worsts above their floors: %q", across.Text)
	}
	bad = across
	i := strings.Index(across.Text, ", and their p99.9")
	j := strings.LastIndex(across.Text[:i], ", ")
	bad.Text = across.Text[:j] + " (not divided: the thread of " + a + " was preempted for at least half its worst during the pass that holds it, and a ratio to it would divide by the noise floor)" + across.Text[i:]
	mustFail(t, r, bad)
}

// A run delay of most of the worst with an involuntary switch: the
// renderer names the preemption and does not divide; the floor's reading
// and a ratio fail, and so does the preemption when the pass had no
// involuntary switch.
func TestCounterPreemptionMeasured(t *testing.T) {
	r := opsPair(t, nil)
	a, b := opsNames(r)
	quiet := opsPair(t, map[string][2]int64{a: {0, 0}, b: {0, 0}})
	wait := int64(0.9 * r.Variant(a).Latency.MaxNS)
	r = opsPair(t, map[string][2]int64{a: {wait, 2}, b: {0, 0}})
	sentencesPass(t, r)
	s := latencySentence(t, r, findings.ClaimLatencyPreempted, a)
	want := "; the thread was preempted for " + numtext.FormatNS(float64(wait)) + " during the pass that holds it (2 involuntary switches), at least half the worst operation: a preemption can explain it (the run does not time where in the pass the wait fell)"
	if !strings.HasSuffix(s.Text, want) {
		t.Errorf("the renderer: %q, want it to end %q", s.Text, want)
	}
	// The floor's reading of the same worst, as for a pass without waits.
	bad := latencySentence(t, quiet, prose.ClaimLatencyAlone, a)
	mustFail(t, r, bad)
	// Another wait than the recorded one.
	bad = s
	bad.Text = strings.Replace(s.Text, "preempted for "+numtext.FormatNS(float64(wait)), "preempted for 1 ns", 1)
	mustFail(t, r, bad)
	// A second cause beside it.
	bad = s
	bad.Text = s.Text + "; an interruption explains it, not the operation"
	mustFail(t, r, bad)
	// The preemption said to be the cause: the counters are read around the
	// pass, not the operation, so the run cannot say the wait fell on it.
	bad = s
	bad.Text = strings.Replace(s.Text, "a preemption can explain it (the run does not time where in the pass the wait fell)", "a preemption explains it, not the operation", 1)
	mustFail(t, r, bad)

	// The worsts are not divided, and say why; the ratio fails.
	across := latencySentence(t, r, prose.ClaimLatencyAcross, "")
	if !strings.Contains(across.Text, "(not divided: the thread of "+a+" was preempted") {
		t.Errorf("the renderer divides a preempted worst: %q", across.Text)
	}
	mustFail(t, r, latencySentence(t, quiet, prose.ClaimLatencyAcross, ""))

	// The same run delay without an involuntary switch is no preemption.
	r2 := opsPair(t, map[string][2]int64{a: {wait, 0}, b: {0, 0}})
	sentencesPass(t, r2)
	mustFail(t, r2, s)
	// Nor is a wait of less than half the worst.
	r3 := opsPair(t, map[string][2]int64{a: {int64(0.4 * r.Variant(a).Latency.MaxNS), 3}, b: {0, 0}})
	sentencesPass(t, r3)
	mustFail(t, r3, s)
}

// Within the floor on one side: the worsts are not divided, the reason is
// the floor, and a reason that names a preemption fails.
func TestCounterAcrossWithinFloor(t *testing.T) {
	r := opsPair(t, nil)
	a, b := opsNames(r)
	r = opsPair(t, map[string][2]int64{a: {0, 0}, b: {0, 0}})
	l := r.Variant(b).Latency
	l.EmptyMaxTicks = l.MaxTicks
	l.EmptyMaxNS = float64(l.EmptyMaxTicks) * 1000 / l.TicksPerUS
	sentencesPass(t, r)
	across := latencySentence(t, r, prose.ClaimLatencyAcross, "")
	if !strings.Contains(across.Text, "(not divided: the worst of "+b+" is within the worst of its empty operations") {
		t.Errorf("the renderer: %q", across.Text)
	}
	bad := across
	bad.Text = strings.Replace(across.Text, "the worst of "+b+" is within the worst of its empty operations, as long as an interruption",
		"the thread of "+b+" was preempted for at least half its worst during the pass that holds it", 1)
	mustFail(t, r, bad)
}
