package prose_test

import (
	"math"
	"testing"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/prose"
	"github.com/benchbook/benchbook/internal/result"
	"github.com/benchbook/benchbook/stdlib/stats"
)

// Branches the corpus does not reach, made by changing a real result: the
// renderer's sentence for the changed numbers holds, and the sentence of
// the other branch on the same numbers does not.
func TestBranchesOffTheCorpus(t *testing.T) {
	claimed := func(r *result.Result, claim string) *findings.Sentence {
		for _, s := range findings.Sentences(r) {
			if s.Claim == claim {
				return &s
			}
		}
		return nil
	}
	cases := []struct {
		name        string
		pick        func(*result.Result) bool
		change      func(*result.Result)
		want, other string
	}{
		{"the reads allocated", func(r *result.Result) bool { return claimed(r, findings.ClaimZeroPage) != nil }, func(r *result.Result) {
			for i := range r.Variants {
				if c := r.Variants[i].Series.Cold; c != nil {
					for j := range c.SetupMinFlt {
						c.SetupMinFlt[j] = 3
					}
				}
			}
		}, findings.ClaimReadsAllocate, findings.ClaimZeroPage},
		{"only Holm stops it", func(r *result.Result) bool { return len(r.Comparisons) > 0 }, func(r *result.Result) {
			c := &r.Comparisons[0]
			c.Significant, c.PValue, c.PAdjusted = false, 0.01, 0.2
		}, findings.ClaimFamily, findings.ClaimDiffer},
		{"nobody else busy", func(r *result.Result) bool { return r.Conditions.During != nil }, func(r *result.Result) {
			r.Conditions.During.Busiest = nil
		}, findings.ClaimDuring, findings.ClaimDuringBusy},
		{"a layout runs slower", func(r *result.Result) bool { return claimed(r, findings.ClaimLayoutChance) != nil }, func(r *result.Result) {
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
		}, findings.ClaimLayoutMore, findings.ClaimLayoutChance},
		{"a difference of a size not known", func(r *result.Result) bool { return claimed(r, findings.ClaimDifferBeyondAA) != nil }, func(r *result.Result) {
			for i := range r.Comparisons {
				if c := &r.Comparisons[i]; c.Significant && c.CILow > 1 {
					c.CILow = 1 + r.Protocol.Resolve/4 // across the band's upper edge
				}
			}
		}, findings.ClaimSizeUnknown, findings.ClaimDiffer},
		{"within the A/A interval's reach", func(r *result.Result) bool {
			for _, s := range findings.Sentences(r) {
				if s.Claim != findings.ClaimDiffer && s.Claim != findings.ClaimDifferBeyondAA {
					continue
				}
				for _, c := range r.Comparisons {
					if c.A+"/"+c.B+"/"+c.Series == s.Key && c.Series == "interleaved" && c.Ratio > 1.05 && c.Ratio < 1.999 && math.Abs(r.AA.Ratio-1) < 0.05 {
						return true
					}
				}
			}
			return false
		}, func(r *result.Result) {
			// An A/A interval of [0.5, 2] (4x, the widest that sets a
			// floor) reaches past the ratio; the control's own ratio does not.
			r.AA.CILow, r.AA.CIHigh = 0.5, 2
		}, findings.ClaimDifferWithinAA, findings.ClaimDifferAsAA},
		{"the baseline left out", func(r *result.Result) bool { return r.Baseline != nil }, func(r *result.Result) {
			r.Baseline, r.BaselineDropped = nil, "the previous build failed to run"
		}, findings.ClaimBaselineDropped, findings.ClaimBaselineMethod},
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
