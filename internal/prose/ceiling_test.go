package prose_test

import (
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/prose"
	"github.com/benchbook/benchbook/stdlib/bench"
)

// claimSentence is the first sentence of a corpus result with the claim.
func claimSentence(t *testing.T, claim string) (*bench.Result, bench.Sentence) {
	t.Helper()
	var s bench.Sentence
	r := pick(t, func(r *bench.Result) bool {
		for _, x := range bench.Sentences(r) {
			if x.Claim == claim {
				s = x
				return true
			}
		}
		return false
	})
	if err := prose.Check(r, s); err != nil {
		t.Fatalf("%q: %v", s.Text, err)
	}
	return r, s
}

// The add ceiling: "about one dependent add" of a variant that takes half
// of one, "not one dependent chain" of one at the add's latency, either of
// a variant whose assembly adds no floats, and a latency not the
// fingerprint's.
func TestCounterAddCeiling(t *testing.T) {
	r, under := claimSentence(t, bench.ClaimAddUnder)
	bad := under
	bad.Claim = bench.ClaimAddAt
	mustFail(t, r, bad)

	r2, at := claimSentence(t, bench.ClaimAddAt)
	bad = at
	bad.Claim = bench.ClaimAddUnder
	mustFail(t, r2, bad)

	noAdds := *r2
	noAdds.Variants = append([]bench.Variant(nil), r2.Variants...)
	for i := range noAdds.Variants {
		if noAdds.Variants[i].Name == at.Variant {
			noAdds.Variants[i].Asm = "loop:\n\tmovq (%rax), %rax\n\tsubq $1, %rcx\n\tjne loop\n"
		}
	}
	mustFail(t, &noAdds, at)

	lat := ""
	for _, e := range r2.Conditions.Fingerprint.Entries {
		if e.Name == "addss" {
			lat = bench.FormatNS(e.NS)
		}
	}
	bad = at
	bad.Text = strings.Replace(at.Text, "addss took "+lat, "addss took "+bench.FormatNS(0.25), 1)
	mustFail(t, r2, bad)
}
