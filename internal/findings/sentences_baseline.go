package findings

import (
	"fmt"
	"strings"
	"time"

	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/result"
)

// No sentence says the interleaved rounds are not independent. One did, from
// the autocorrelation a rank/1 verdict accounted for: on real results a
// permutation test found no correlation in 14 of 30 where it fired, it fired
// on independent data in 20% of 10-round comparisons, and it named a cause
// (slow drift) nothing measured. The blocks method models no autocorrelation
// (each block is one value), so its Rho is 0. internal/prose keeps the
// oracle (a permutation test of lag-1 autocorrelation) that such a sentence
// must pass if it is ever written again.

// baselineSentences say how the baseline was measured and, per variant and
// series, its verdict; or why a baseline asked for was left out.
func baselineSentences(f *facts) []Sentence {
	r := f.r
	if r.BaselineDropped != "" {
		return said(ClaimBaselineDropped, "", TopicBaseline, KindBaseline, "", r.BaselineDropped)
	}
	bl := r.Baseline
	if bl == nil {
		return nil
	}
	who := "the previous build of " + r.Kernel.Name
	than := "the previous build"
	if bl.Other != "" {
		who, than = "kernel "+bl.Other, bl.Other
	}
	over := "this build over " + than
	if control, base := result.ControlName(r); base != "" { // a control (controls.go): the default side
		who, over = "the same kernel with "+base, control+" over "+base
	}
	var head string
	if bl.Blocks > 0 {
		head = blocksHead(r, who, over)
	} else {
		head = fmt.Sprintf("%s (%s) ran in this run beside this build: %d pairs of processes, one of each build, took the %d interleaved rounds in turn "+
			"in a random order, and %d fresh processes of each alternated; ratios are %s, each verdict at 95%% with the p-values "+
			"of its %d verdicts adjusted together (Holm); the interleaved verdict is a test across the process pairs, the fresh and cold ones across processes",
			who, BuildChange(bl.Kernel, r.Kernel), r.Protocol.Pairs, len(bl.NewFirst), len(bl.FreshNewFirst)/max(len(r.Protocol.Fresh), 1), over, len(bl.Variants))
	}
	if bl.Note != "" {
		head += "; " + bl.Note
	}
	out := said(ClaimBaselineMethod, "", TopicBaseline, "", "", head)
	for _, e := range bl.Variants {
		out = append(out, said(ClaimBaselineVerdict, e.Series, TopicBaseline, KindBaseline, e.Name, baselineLine(r, e))...)
	}
	return out
}

// blocksHead says how a before/after in blocks was measured and judged.
func blocksHead(r *result.Result, who, over string) string {
	bl := r.Baseline
	why := map[string]string{
		result.StopDecided:     "every variant's verdict was known",
		result.StopBudget:      fmt.Sprintf("the next would have ended past the budget of %s", time.Duration(r.Protocol.BudgetMS*float64(time.Millisecond))),
		result.StopPairs:       "pairs= asked for that many",
		result.StopInterrupted: "the run was interrupted",
		result.StopFailed:      "a process failed",
	}[bl.Stop]
	if why == "" {
		why = bl.Stop
	}
	turns := fmt.Sprintf("%d interleaved rounds in turn (a random order each round, %s discarded before each)",
		r.Protocol.BlockRounds, numtext.Plural(r.Protocol.StepWarmup, "round"))
	if k := r.Protocol.StepRounds; k > 1 {
		turns = fmt.Sprintf("%d interleaved rounds, %d at a time in turn (a random order each round, %s discarded at the start of each turn)",
			r.Protocol.BlockRounds, k, numtext.Plural(r.Protocol.StepWarmup, "round"))
	}
	return fmt.Sprintf("%s (%s) ran in this run beside this build, in %s: in each, a process of each build took %s, "+
		"then a fresh process of each build per variant, in a random order; "+
		"the blocks stopped at %d because %s (at least %d are taken). Ratios are %s; each verdict is the sign test of the "+
		"blocks' median log-ratios, sequential, so that stopping when the answer is known keeps it at 95%%, with the %d series verdicts "+
		"adjusted together (Holm) and the headline's one verdict per variant (its interleaved rounds and fresh pair pooled per block) "+
		"adjusted over the variants",
		who, BuildChange(bl.Kernel, r.Kernel), numtext.Plural(bl.Blocks, "block"), turns,
		bl.Blocks, why, result.MinRuns, over, len(bl.Variants))
}

// BuildChange says what differs between two builds of a kernel.
func BuildChange(before, after result.Kernel) string {
	var what []string
	if before.SourceSHA256 != after.SourceSHA256 {
		what = append(what, fmt.Sprintf("source %s, now %s", numtext.ShortHash(before.SourceSHA256), numtext.ShortHash(after.SourceSHA256)))
	}
	if strings.Join(before.Flags, " ") != strings.Join(after.Flags, " ") {
		what = append(what, fmt.Sprintf("flags %q, now %q", strings.Join(before.Flags, " "), strings.Join(after.Flags, " ")))
	}
	if before.Compiler != after.Compiler {
		what = append(what, fmt.Sprintf("compiler %s, now %s", before.Compiler, after.Compiler))
	}
	if len(what) == 0 {
		if before.BinarySHA256 == after.BinarySHA256 {
			return "the same binary"
		}
		return "the same source and flags, another binary"
	}
	return strings.Join(what, "; ")
}

// baselineLine is one verdict of a baseline in words.
func baselineLine(r *result.Result, e result.BaselineVariant) string {
	series := seriesLabel(e.Series)
	asm := "assembly identical"
	if !e.AsmSame {
		asm = "assembly differs"
	}
	if e.Verdict == result.VerdictUndefined && e.Undefined != "" {
		return fmt.Sprintf("%s / %s (%s): undefined: %s; %s medians %s", e.Name, series, asm, e.Undefined, result.RatioName(r), numtext.FormatRatio(e.Ratio))
	}
	est := EstimateText(result.RatioName(r), e.Ratio, e.Shift, e.CILow, e.CIHigh, e.Undefined) + fmt.Sprintf(", p = %.2g adjusted", e.PAdjusted)
	if e.Verdict == result.VerdictUndefined {
		return fmt.Sprintf("%s / %s (%s): undefined: the interval is wider than resolve=%s, %s", e.Name, series, asm, percent(resolveOf(r)), est)
	}
	switch e.Verdict {
	case result.VerdictSlower, result.VerdictFaster:
		return fmt.Sprintf("%s / %s (%s): %s, %s", e.Name, series, asm, e.Verdict, est)
	}
	return fmt.Sprintf("%s / %s (%s): no difference this run can resolve, %s", e.Name, series, asm, est)
}

// EstimateText gives a verdict's figures: the ratio of medians, the typical
// ratio the test estimates and its interval. (The ratio of medians may lie
// outside the interval of the typical ratio; an earlier version said the
// distributions then "differ in shape", which nothing tested: it was
// printed on byte-identical binaries.)
func EstimateText(what string, ratio, shift, lo, hi float64, why string) string {
	text := fmt.Sprintf("%s = %s by the medians", what, ratioWords(ratio))
	if shift > 0 && numtext.FormatRatio(shift) != numtext.FormatRatio(ratio) {
		text += fmt.Sprintf(", typical ratio %s", numtext.FormatRatio(shift))
	}
	return text + ", " + intervalText(lo, hi, why)
}

// ratioWords is a ratio, with its change in percent when it is within a
// factor of two.
func ratioWords(r float64) string {
	if r > 0.5 && r < 2 {
		return fmt.Sprintf("%s (%+.1f%%)", numtext.FormatRatio(r), (r-1)*100)
	}
	return numtext.FormatRatio(r)
}
