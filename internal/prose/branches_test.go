package prose_test

import (
	"math"
	"testing"

	"github.com/benchbook/benchbook/internal/prose"
	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/stdlib/stats"
)

// Branches the corpus does not reach, made by changing a real result: the
// renderer's sentence for the changed numbers holds, and the sentence of
// the other branch on the same numbers does not.
func TestBranchesOffTheCorpus(t *testing.T) {
	claimed := func(r *protocol.Result, claim string) *protocol.Sentence {
		for _, s := range protocol.Sentences(r) {
			if s.Claim == claim {
				return &s
			}
		}
		return nil
	}
	cases := []struct {
		name        string
		pick        func(*protocol.Result) bool
		change      func(*protocol.Result)
		want, other string
	}{
		{"the reads allocated", func(r *protocol.Result) bool { return claimed(r, protocol.ClaimZeroPage) != nil }, func(r *protocol.Result) {
			for i := range r.Variants {
				if c := r.Variants[i].Series.Cold; c != nil {
					for j := range c.SetupMinFlt {
						c.SetupMinFlt[j] = 3
					}
				}
			}
		}, protocol.ClaimReadsAllocate, protocol.ClaimZeroPage},
		{"only Holm stops it", func(r *protocol.Result) bool { return len(r.Comparisons) > 0 }, func(r *protocol.Result) {
			c := &r.Comparisons[0]
			c.Significant, c.PValue, c.PAdjusted = false, 0.01, 0.2
		}, protocol.ClaimFamily, protocol.ClaimDiffer},
		{"nobody else busy", func(r *protocol.Result) bool { return r.Conditions.During != nil }, func(r *protocol.Result) {
			r.Conditions.During.Busiest = nil
		}, protocol.ClaimDuring, protocol.ClaimDuringBusy},
		{"a layout runs slower", func(r *protocol.Result) bool { return claimed(r, protocol.ClaimLayoutChance) != nil }, func(r *protocol.Result) {
			for i := range r.Variants {
				if f := r.Variants[i].Series.Fresh; f != nil && f.Layout != nil {
					for j := range f.SamplesNS {
						if f.Layout.IDs[j] == 0 {
							f.SamplesNS[j] *= 3
						}
					}
					f.Summary = stats.Summarize(f.SamplesNS)
				}
			}
		}, protocol.ClaimLayoutMore, protocol.ClaimLayoutChance},
		{"a difference of a size not known", func(r *protocol.Result) bool { return claimed(r, protocol.ClaimDifferBeyondAA) != nil }, func(r *protocol.Result) {
			for i := range r.Comparisons {
				if c := &r.Comparisons[i]; c.Significant && c.CILow > 1 {
					c.CILow = 1 + r.Protocol.Resolve/4 // across the band's upper edge
				}
			}
		}, protocol.ClaimSizeUnknown, protocol.ClaimDiffer},
		{"within the A/A interval's reach", func(r *protocol.Result) bool {
			for _, s := range protocol.Sentences(r) {
				if s.Claim != protocol.ClaimDiffer && s.Claim != protocol.ClaimDifferBeyondAA {
					continue
				}
				for _, c := range r.Comparisons {
					if c.A+"/"+c.B+"/"+c.Series == s.Key && c.Series == "interleaved" && c.Ratio > 1.05 && c.Ratio < 1.999 && math.Abs(r.AA.Ratio-1) < 0.05 {
						return true
					}
				}
			}
			return false
		}, func(r *protocol.Result) {
			// An A/A interval of [0.5, 2] (4x, the widest that sets a
			// floor) reaches past the ratio; the control's own ratio does not.
			r.AA.CILow, r.AA.CIHigh = 0.5, 2
		}, protocol.ClaimDifferWithinAA, protocol.ClaimDifferAsAA},
		{"the baseline left out", func(r *protocol.Result) bool { return r.Baseline != nil }, func(r *protocol.Result) {
			r.Baseline, r.BaselineDropped = nil, "the previous build failed to run"
		}, protocol.ClaimBaselineDropped, protocol.ClaimBaselineMethod},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := pick(t, c.pick)
			c.change(r)
			s := claimed(r, c.want)
			if s == nil {
				t.Fatalf("the renderer wrote no %s sentence", c.want)
			}
			sentencesPass(t, r)
			other := *s
			other.Claim = c.other
			if err := prose.Check(r, other); err == nil {
				t.Errorf("%s passed on the numbers of %s: %q", c.other, c.want, s.Text)
			}
		})
	}
}
