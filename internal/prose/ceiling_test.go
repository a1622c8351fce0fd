package prose_test

import (
	"fmt"
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

	lat := 0.0
	for _, e := range r2.Conditions.Fingerprint.Entries {
		if e.Name == "addss" {
			lat = e.Cycles
		}
	}
	bad = at
	bad.Text = strings.Replace(at.Text, "addss takes "+numtext.Sig(lat)+" cycles", "addss takes "+numtext.Sig(lat*1.5)+" cycles", 1)
	mustFail(t, r2, bad)
}

// The fingerprint's clock is not the kernel's: on an Intel Xeon VM its
// chains ran at 3.59 GHz, after its memory-bound chases, and the kernels
// at 4.19 GHz. The same result with the fingerprint's nanoseconds 17%
// longer (its cycles the same) is still about one add per element, and
// the ceiling sentence of old, which weighed nanoseconds against the
// fingerprint's, called a chain of one add per element "not one dependent
// chain" there: its oracle fails it.
func TestAddCeilingInCycles(t *testing.T) {
	r, at := claimSentence(t, findings.ClaimAddAt)
	slow := *r
	fp := *r.Conditions.Fingerprint
	fp.Entries = append(fp.Entries[:0:0], fp.Entries...)
	lat := 0.0
	for i := range fp.Entries {
		if fp.Entries[i].Name == "addss" || fp.Entries[i].Name == "int_add" {
			fp.Entries[i].NS *= 1.17
			fp.Entries[i].Value = fp.Entries[i].NS
		}
		if fp.Entries[i].Name == "addss" {
			lat = fp.Entries[i].NS
			fp.Entries[i].Value = fp.Entries[i].Cycles
		}
	}
	slow.Conditions.Fingerprint = &fp
	found := false
	for _, s := range findings.Sentences(&slow) {
		if s.Variant != at.Variant || (s.Claim != findings.ClaimAddAt && s.Claim != findings.ClaimAddUnder) {
			continue
		}
		found = true
		if s.Claim != findings.ClaimAddAt {
			t.Errorf("with the fingerprint's clock 17%% slower: %q", s.Text)
		}
		if err := prose.Check(&slow, s); err != nil {
			t.Errorf("%q: %v", s.Text, err)
		}
	}
	if !found {
		t.Fatalf("no ceiling sentence of %s", at.Variant)
	}
	per := 0.0
	if v := r.Variant(at.Variant); v != nil {
		per = v.Series.Interleaved.Summary.Median / float64(*r.Protocol.Elements)
	}
	old := at
	old.Claim = findings.ClaimAddUnder
	old.Text = fmt.Sprintf("%s: %s per element is %s of one dependent float add (one dependent addss took %s in this run's fingerprint): its float adds are not one dependent chain (several accumulators or vector lanes), or not all of the work is done",
		at.Variant, numtext.FormatNS(per), numtext.FormatPct(per/lat), numtext.FormatNS(lat))
	mustFail(t, &slow, old)
}
