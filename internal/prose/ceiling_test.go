package prose_test

import (
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/prose"
	"github.com/benchbook/benchbook/internal/result"
)

// claimSentence is the first sentence of a corpus result with the claim.
func claimSentence(t *testing.T, claim string) (*result.Result, findings.Sentence) {
	t.Helper()
	var s findings.Sentence
	r := pick(t, func(r *result.Result) bool {
		for _, x := range findings.Sentences(r) {
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
	r, under := claimSentence(t, findings.ClaimAddUnder)
	bad := under
	bad.Claim = findings.ClaimAddAt
	mustFail(t, r, bad)

	r2, at := claimSentence(t, findings.ClaimAddAt)
	bad = at
	bad.Claim = findings.ClaimAddUnder
	mustFail(t, r2, bad)

	noAdds := *r2
	noAdds.Variants = append([]result.Variant(nil), r2.Variants...)
	for i := range noAdds.Variants {
		if noAdds.Variants[i].Name == at.Variant {
			noAdds.Variants[i].Asm = "loop:\n\tmovq (%rax), %rax\n\tsubq $1, %rcx\n\tjne loop\n"
		}
	}
	mustFail(t, &noAdds, at)

	lat := ""
	for _, e := range r2.Conditions.Fingerprint.Entries {
		if e.Name == "addss" {
			lat = numtext.FormatNS(e.NS)
		}
	}
	bad = at
	bad.Text = strings.Replace(at.Text, "addss took "+lat, "addss took "+numtext.FormatNS(0.25), 1)
	mustFail(t, r2, bad)
}
