package report

import (
	"testing"

	"github.com/benchbook/benchbook/internal/prose"
	"github.com/benchbook/benchbook/stdlib/bench"
)

// TestEveryTopicHolds: the result with every topic (commentary_test.go)
// says nothing its numbers contradict, by internal/prose's oracles.
func TestEveryTopicHolds(t *testing.T) {
	r := everything()
	for _, f := range prose.CheckAll(r) {
		t.Errorf("%s %q: %v", prose.ClaimOf(f.Sentence), f.Sentence.Text, f.Err)
	}
}

// TestAddCeilingHolds: the result with every topic, given a fingerprint and
// float adds, writes the add ceiling's sentences, and they hold.
func TestAddCeilingHolds(t *testing.T) {
	r := withAddCeiling(everything())
	seen := map[string]bool{}
	for _, s := range bench.Sentences(r) {
		seen[s.Claim] = true
	}
	if !seen[bench.ClaimAddAt] {
		t.Errorf("no %s sentence for a variant at the add's latency", bench.ClaimAddAt)
	}
	for _, f := range prose.CheckAll(r) {
		t.Errorf("%s %q: %v", prose.ClaimOf(f.Sentence), f.Sentence.Text, f.Err)
	}
}
