package prose_test

import (
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/prose"
	"github.com/benchbook/benchbook/internal/protocol"
)

// claimSentence is the first sentence of a corpus result with the claim.
func claimSentence(t *testing.T, claim string) (*protocol.Result, protocol.Sentence) {
	t.Helper()
	var s protocol.Sentence
	r := pick(t, func(r *protocol.Result) bool {
		for _, x := range protocol.Sentences(r) {
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
	r, under := claimSentence(t, protocol.ClaimAddUnder)
	bad := under
	bad.Claim = protocol.ClaimAddAt
	mustFail(t, r, bad)

	r2, at := claimSentence(t, protocol.ClaimAddAt)
	bad = at
	bad.Claim = protocol.ClaimAddUnder
	mustFail(t, r2, bad)

	noAdds := *r2
	noAdds.Variants = append([]protocol.Variant(nil), r2.Variants...)
	for i := range noAdds.Variants {
		if noAdds.Variants[i].Name == at.Variant {
			noAdds.Variants[i].Asm = "loop:\n\tmovq (%rax), %rax\n\tsubq $1, %rcx\n\tjne loop\n"
		}
	}
	mustFail(t, &noAdds, at)

	lat := ""
	for _, e := range r2.Conditions.Fingerprint.Entries {
		if e.Name == "addss" {
			lat = protocol.FormatNS(e.NS)
		}
	}
	bad = at
	bad.Text = strings.Replace(at.Text, "addss took "+lat, "addss took "+protocol.FormatNS(0.25), 1)
	mustFail(t, r2, bad)
}
