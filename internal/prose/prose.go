package prose

import (
	"errors"
	"fmt"
	"strings"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/result"
)

// ErrNoOracle is returned for a sentence whose claim no oracle checks.
var ErrNoOracle = errors.New("no oracle for this sentence's claim")

// Oracle says whether a sentence holds for a result: nil when it does,
// else an error saying why not.
type Oracle func(r *result.Result, s findings.Sentence) error

// ClaimOf is the claim of a sentence: its Claim, or for a sentence whose
// generator names none, the claim its topic and opening words make (the
// latency sentences).
func ClaimOf(s findings.Sentence) string {
	if s.Claim != "" {
		return s.Claim
	}
	if s.Topic == findings.TopicLatency {
		for _, p := range []struct{ prefix, claim string }{
			{"the slowest of ", ClaimLatencyWorst},
			{"the timer's own cost", ClaimLatencyOverhead},
			{"the worst operation of ", ClaimLatencyAlone},
			{"the times of ", ClaimLatencyRate},
			{"side by side, the worst operation", ClaimLatencyAcross},
		} {
			if strings.HasPrefix(s.Text, p.prefix) {
				return p.claim
			}
		}
		if strings.Contains(s.Text, "BENCH_OPS variants (") {
			return ClaimLatencyShared
		}
	}
	return ""
}

// The claims of the latency sentences, whose generator gives none.
const (
	ClaimLatencyShared   = "latency.shared"
	ClaimLatencyWorst    = "latency.worst"
	ClaimLatencyOverhead = "latency.overhead"
	ClaimLatencyAlone    = "latency.alone"
	ClaimLatencyRate     = "latency.rate"
	ClaimLatencyAcross   = "latency.across"
)

// Check runs the oracle of s's claim on r: nil when the sentence holds,
// ErrNoOracle when no oracle knows its claim, else why it is false.
func Check(r *result.Result, s findings.Sentence) error {
	c := ClaimOf(s)
	o, ok := oracles[c]
	if !ok {
		return fmt.Errorf("claim %q: %w", c, ErrNoOracle)
	}
	return o(r, s)
}

// Claims lists every claim an oracle checks.
func Claims() []string {
	out := make([]string, 0, len(oracles))
	for c := range oracles {
		out = append(out, c)
	}
	for c := range acrossOracles {
		out = append(out, c)
	}
	out = append(out, findings.ClaimAcrossFloors, findings.ClaimAcrossNWay) // CheckNWay's
	return out
}

// Failure is a sentence of a result whose oracle says it is false.
type Failure struct {
	Sentence findings.Sentence
	Err      error
}

// CheckAll runs the oracle of every sentence bench.Sentences writes for r.
func CheckAll(r *result.Result) []Failure {
	var out []Failure
	for _, s := range findings.Sentences(r) {
		if err := Check(r, s); err != nil {
			out = append(out, Failure{s, err})
		}
	}
	return out
}

func fail(format string, a ...any) error { return fmt.Errorf(format, a...) }
