package report

import (
	"testing"

	"github.com/benchbook/benchbook/internal/prose"
)

// TestEveryTopicHolds: the result with every topic (commentary_test.go)
// says nothing its numbers contradict, by internal/prose's oracles.
func TestEveryTopicHolds(t *testing.T) {
	r := everything()
	for _, f := range prose.CheckAll(r) {
		t.Errorf("%s %q: %v", prose.ClaimOf(f.Sentence), f.Sentence.Text, f.Err)
	}
}
