package prose_test

import (
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/prose"
	"github.com/benchbook/benchbook/internal/protocol/benchtest"
	"github.com/benchbook/benchbook/internal/result"
	"github.com/benchbook/benchbook/stdlib/report"
)

// TestConditionsCorpus runs the oracle of every conditions line of every
// real and synthetic result.
func TestConditionsCorpus(t *testing.T) {
	seen := map[string]int{}
	check := func(name string, r *result.Result) {
		for _, s := range report.ConditionSentences(r) {
			seen[s.Claim]++
			if err := prose.Check(r, s); err != nil {
				t.Errorf("%s: %s %q: %v", name, s.Claim, s.Text, err)
			}
		}
	}
	for name, r := range corpus(t) {
		check(name, r)
	}
	for seed := uint64(1); seed <= 5; seed++ {
		check("synthetic", benchtest.Seed000(seed))
	}
	for _, c := range []string{findings.ClaimCondClock, findings.ClaimCondFingerprint, findings.ClaimCondDuring} {
		if seen[c] == 0 {
			t.Errorf("no conditions line claims %s", c)
		}
	}
	t.Logf("conditions seen: %v", seen)
}

// The clock's step said as its smallest back-to-back delta (the read cost)
// instead of the grid; a read cost that is a mean; the zero page read the
// other way; a busy process left out.
func TestCounterConditions(t *testing.T) {
	r := pick(t, func(r *result.Result) bool {
		c := r.Conditions
		return c.Clock.Spaced != "" && c.Fingerprint != nil && c.Fingerprint.ZeroPage != nil && c.During != nil && len(c.During.Busiest) > 0 && c.During.Busiest[0].BusyPct >= 1
	})
	lines := map[string]findings.Sentence{}
	for _, s := range report.ConditionSentences(r) {
		if err := prose.Check(r, s); err != nil {
			t.Fatalf("%q: %v", s.Text, err)
		}
		lines[s.Claim] = s
	}
	clock := lines[findings.ClaimCondClock]
	c := r.Conditions.Clock
	bad := clock
	bad.Text = strings.Replace(clock.Text, "smallest step "+numtext.FormatNS(c.ResolutionNS), "smallest step "+numtext.FormatNS(c.MinStepNS+c.ResolutionNS), 1)
	mustFail(t, r, bad)
	// The read cost a mean with descheduled time in it: the stored read
	// cost raised a thousandfold beside a dead pass timed alone (which
	// spans about one read), and the line saying it.
	mean := *pick(t, func(r *result.Result) bool {
		for i := range r.Variants {
			if r.Variants[i].Dead && r.Variants[i].Batch <= 1 && r.Variants[i].Series.Interleaved != nil {
				return true
			}
		}
		return false
	})
	mean.Conditions.Clock.ReadCostNS = 1000 * (mean.Conditions.Clock.ReadCostNS + 1)
	for _, s := range report.ConditionSentences(&mean) {
		if s.Claim == findings.ClaimCondClock {
			mustFail(t, &mean, s)
		}
	}
	fp := lines[findings.ClaimCondFingerprint]
	bad = fp
	if strings.Contains(fp.Text, "a read maps the zero page") {
		bad.Text = strings.Replace(fp.Text, "a read maps the zero page", "a read allocates", 1)
	} else {
		bad.Text = strings.Replace(fp.Text, "a read allocates", "a read maps the zero page", 1)
	}
	mustFail(t, r, bad)
	during := lines[findings.ClaimCondDuring]
	bad = during
	bad.Text, _, _ = strings.Cut(during.Text, "; ")
	mustFail(t, r, bad)
}

// The harness's own system calls (harness version 10): said as its
// processes counted them, and not at all where none did.
func TestCounterHarnessSyscalls(t *testing.T) {
	r := *pick(t, func(r *result.Result) bool { return r.Protocol.HarnessSyscalls == nil })
	protocolLine := func(r *result.Result) findings.Sentence {
		for _, s := range report.ConditionSentences(r) {
			if s.Claim == findings.ClaimCondProtocol {
				return s
			}
		}
		t.Fatal("no protocol line")
		return findings.Sentence{}
	}
	old := protocolLine(&r)
	if err := prose.Check(&r, old); err != nil || strings.Contains(old.Text, "system calls") {
		t.Fatalf("a result of harness 9 or older: %q (%v)", old.Text, err)
	}
	r.Protocol.HarnessSyscalls = &result.HarnessSyscalls{AfterDiscarded: 0, Between: 3, Processes: 11}
	counted := protocolLine(&r)
	if err := prose.Check(&r, counted); err != nil || !strings.Contains(counted.Text, "0 between a discarded pass and the measured one after it, at most 3 between two measured passes") {
		t.Fatalf("%q (%v)", counted.Text, err)
	}
	bad := counted
	bad.Text = strings.Replace(counted.Text, "at most 3 between", "at most 2 between", 1)
	mustFail(t, &r, bad)
	mustFail(t, &r, old) // the counts left out
	r.Protocol.HarnessSyscalls = nil
	mustFail(t, &r, counted) // named where no process counted them
}
