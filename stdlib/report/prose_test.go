package report

import (
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/prose"
	"github.com/benchbook/benchbook/internal/result"
	"github.com/benchbook/benchbook/stdlib/display"
)

// TestEveryTopicHolds: the result with every topic (commentary_test.go)
// says nothing its numbers contradict, by internal/prose's oracles.
func TestEveryTopicHolds(t *testing.T) {
	r := everything()
	for _, f := range prose.CheckAll(r) {
		t.Errorf("%s %q: %v", prose.ClaimOf(f.Sentence), f.Sentence.Text, f.Err)
	}
}

// TestBWCeilingHolds: the result with every topic, made a sweep point over
// the last-level cache with a stream in its fingerprint, writes both
// bandwidth sentences, in its commentary and in the sweep's, and they hold.
func TestBWCeilingHolds(t *testing.T) {
	r := withBWCeiling(everything())
	seen := map[string]bool{}
	for _, s := range findings.Sentences(r) {
		seen[s.Claim] = true
	}
	if !seen[findings.ClaimBWAt] || !seen[findings.ClaimBWOver] {
		t.Errorf("bandwidth claims %v, want %s and %s", seen, findings.ClaimBWAt, findings.ClaimBWOver)
	}
	for _, f := range prose.CheckAll(r) {
		t.Errorf("%s %q: %v", prose.ClaimOf(f.Sentence), f.Sentence.Text, f.Err)
	}
	rs := []*result.Result{r}
	for _, f := range prose.CheckSweepAll(rs) {
		t.Errorf("sweep: %s %q: %v", f.Sentence.Claim, f.Sentence.Text, f.Err)
	}
	md := SweepCommentary(rs)[display.MIMEText].(string)
	if !strings.Contains(md, "within 10% of the streaming read") || !strings.Contains(md, "more than memory delivered to one core") {
		t.Errorf("the sweep's commentary: %s", md)
	}
	if c := Commentary(r); !strings.Contains(c, "more than memory delivered to one core") {
		t.Errorf("the point's commentary: %s", c)
	}
}

// TestAddCeilingHolds: the result with every topic, given a fingerprint and
// float adds, writes the add ceiling's sentences, and they hold.
func TestAddCeilingHolds(t *testing.T) {
	r := withAddCeiling(everything())
	seen := map[string]bool{}
	for _, s := range findings.Sentences(r) {
		seen[s.Claim] = true
	}
	if !seen[findings.ClaimAddAt] {
		t.Errorf("no %s sentence for a variant at the add's latency", findings.ClaimAddAt)
	}
	for _, f := range prose.CheckAll(r) {
		t.Errorf("%s %q: %v", prose.ClaimOf(f.Sentence), f.Sentence.Text, f.Err)
	}
}
