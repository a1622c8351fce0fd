package prose_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/prose"
	"github.com/benchbook/benchbook/internal/result"
)

// The counter-examples of issue 20: each false sentence the tool once
// wrote, put back on a real result, must fail its oracle; the sentence the
// renderer writes now for the same numbers must pass.

// pick is the first corpus result (in name order) that ok accepts, a deep
// copy the test may change.
func pick(t *testing.T, ok func(*result.Result) bool) *result.Result {
	t.Helper()
	rs := corpus(t)
	names := make([]string, 0, len(rs))
	for n := range rs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if ok(rs[n]) {
			return rs[n]
		}
	}
	t.Fatal("no corpus result fits")
	return nil
}

func mustFail(t *testing.T, r *result.Result, s findings.Sentence) {
	t.Helper()
	err := prose.Check(r, s)
	if err == nil {
		t.Fatalf("the oracle of %s passed a false sentence: %q", s.Claim, s.Text)
	}
	t.Logf("caught: %v", err)
}

// sentencesPass: every sentence the renderer writes now holds.
func sentencesPass(t *testing.T, r *result.Result) {
	t.Helper()
	for _, f := range prose.CheckAll(r) {
		t.Errorf("%s %q: %v", prose.ClaimOf(f.Sentence), f.Sentence.Text, f.Err)
	}
}

func median(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// "identical code read as far apart" beside a ratio inside the A/A
// interval's reach but farther from 1 than the A/A control itself read.
func TestCounterIdenticalCodeAsFarApart(t *testing.T) {
	beyond := func(r *result.Result, c result.Comparison) bool {
		band := r.Protocol.Resolve / 2
		return c.Significant && (c.CILow >= 1+band || c.CIHigh <= 1-band) && math.Abs(c.Ratio-1) < 1
	}
	var c result.Comparison
	r := pick(t, func(r *result.Result) bool {
		for _, x := range r.Comparisons {
			if v := r.Variant(x.A); beyond(r, x) && v != nil && !v.Dead && !v.Hollow && !r.Variant(x.B).Dead && !r.Variant(x.B).Hollow {
				c = x
				return true
			}
		}
		return false
	})
	// The control reads exactly 1, its interval reaches twice as far as
	// the ratio: the old rule (the interval's reach) said identical code
	// read as far apart.
	d := math.Abs(c.Ratio - 1)
	r.AA.SamplesNS = slices.Clone(r.Variant(r.AA.Variant).Series.Interleaved.SamplesNS)
	r.AA.Ratio, r.AA.CILow, r.AA.CIHigh = 1, 1-2*d, 1+2*d
	key := c.A + "/" + c.B + "/" + c.Series
	s := findings.Sentence{Topic: findings.TopicComparison, Kind: findings.KindComparison, Claim: findings.ClaimDifferAsAA, Key: key,
		Text: fmt.Sprintf("the live variants %s and %s differ: ..., but within the A/A floor of this run (about %s): identical code read as far apart", c.A, c.B, numtext.FormatPct(2*d))}
	err := prose.Check(r, s)
	if err == nil || !strings.Contains(err.Error(), "the A/A control read") {
		t.Fatalf("the oracle of %s on %s: %v, want the A/A control's own ratio named", s.Claim, key, err)
	}
	t.Logf("caught: %v", err)
	sentencesPass(t, r)
}

// "differ ... a difference this run resolves" for an interval that lies
// within resolve/2 of 1, beside a headline of "no difference".
func TestCounterDifferInsideTheBand(t *testing.T) {
	var c result.Comparison
	r := pick(t, func(r *result.Result) bool {
		for _, x := range r.Comparisons {
			if band := r.Protocol.Resolve / 2; x.Significant && x.CILow > 1-band && x.CIHigh < 1+band {
				c = x
				return true
			}
		}
		return false
	})
	mustFail(t, r, findings.Sentence{Topic: findings.TopicComparison, Kind: findings.KindComparison, Claim: findings.ClaimDiffer, Key: c.A + "/" + c.B + "/" + c.Series,
		Text: "the live variants " + c.A + " and " + c.B + " differ: ..., a difference this run resolves"})
	sentencesPass(t, r)
}

// The A/A floor from the interval alone, when the control's own ratio lies
// outside it.
func TestCounterAAFloorOutsideItself(t *testing.T) {
	r := pick(t, func(r *result.Result) bool { return math.Abs(r.AA.Ratio-1) > 0.005 && r.AA.CILow > 0 })
	r.AA.CILow, r.AA.CIHigh = 0.998, 1.002
	old := fmt.Sprintf("the A/A control ran %s twice in the same round robin: identical code reads %s, 95%% interval [0.998, 1.002], so a ratio of medians closer to 1 than about %s cannot be told from no difference in this run, whatever the code",
		r.AA.Variant, numtext.FormatRatio(r.AA.Ratio), numtext.FormatPct(0.002))
	mustFail(t, r, findings.Sentence{Topic: findings.TopicResolution, Kind: findings.KindResolution, Variant: r.AA.Variant, Claim: findings.ClaimAAFloor, Text: old})
	sentencesPass(t, r)
}

// "the interleaved rounds are not independent" on rounds that are: the
// permutation test finds nothing; on rounds that drift, it does.
func TestCounterAutocorrelation(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	mk := func(drift bool) *result.Result {
		a, b := make([]float64, 30), make([]float64, 30)
		lvl := 0.0
		for i := range a {
			if drift {
				lvl = 0.9*lvl + rng.NormFloat64()*0.05
			} else {
				lvl = rng.NormFloat64() * 0.05
			}
			a[i], b[i] = 1000*math.Exp(lvl), 1000
		}
		return &result.Result{Variants: []result.Variant{
			{Name: "a", Series: result.Series{Interleaved: &result.Samples{SamplesNS: a}}},
			{Name: "b", Series: result.Series{Interleaved: &result.Samples{SamplesNS: b}}}}}
	}
	s := findings.Sentence{Topic: findings.TopicAutocorr, Kind: findings.KindAutocorr, Claim: findings.ClaimAutocorr, Key: "a/b",
		Text: "the interleaved rounds are not independent: in a/b the log-ratios of successive rounds correlate (lag-1 0.31 after the small-sample correction), ...; slow drift of the machine over the run does this"}
	mustFail(t, mk(false), s)
	if err := prose.Check(mk(true), s); err != nil {
		t.Errorf("rounds of an AR(1) with 0.9 read as independent: %v", err)
	}
}

// "too noisy to compare variants with" beside a comparison in that series
// that resolves a difference.
func TestCounterTooNoisyBesideResolved(t *testing.T) {
	var c result.Comparison
	r := pick(t, func(r *result.Result) bool {
		for _, x := range r.Comparisons {
			if x.Significant && r.Summary(x.A, x.Series).CVPct > findings.SpreadLimit {
				c = x
				return true
			}
		}
		return false
	})
	mustFail(t, r, findings.Sentence{Topic: findings.TopicSpread, Kind: findings.KindSpread, Variant: c.A, Claim: findings.ClaimNoisy, Key: c.Series,
		Text: c.A + ", " + c.Series + " series: cv ... (above 5%), max/min ...: this series is too noisy to compare variants with"})
	sentencesPass(t, r)
}

// The smallest step taken from the smallest back-to-back delta (the read
// cost) instead of the grid: "its fastest pass is below the clock's
// smallest step" for a pass above the grid.
func TestCounterClockStepIsTheReadCost(t *testing.T) {
	r := pick(t, func(r *result.Result) bool {
		for i := range r.Variants {
			if v := &r.Variants[i]; v.Dead && v.Batch <= 1 && v.Series.Interleaved.Summary.Min >= 10 {
				return true
			}
		}
		return false
	})
	c := &r.Conditions.Clock
	// The spaced deltas sit on a 10 ns grid; the smallest delta is 29 ns.
	c.Spaced, c.MinStepNS, c.ResolutionNS = "10,20,30", 29, 10
	sentencesPass(t, r)
	c.ResolutionNS = 29 // what the clock sentences read before harness 6
	caught := false
	for _, f := range prose.CheckAll(r) {
		if strings.Contains(f.Sentence.Text, "smallest step") {
			caught = true
			t.Logf("caught: %v", f.Err)
		}
	}
	if !caught {
		t.Fatal("a fastest pass above the 10 ns grid read as below the clock's step passed its oracle")
	}
}

// The read cost taken as the mean of back-to-back reads (217 ns, with
// descheduled time) instead of the median: "its median sample, 20 ns,
// lasts 0.1 clock reads".
func TestCounterReadCostIsAMean(t *testing.T) {
	r := pick(t, func(r *result.Result) bool {
		for i := range r.Variants {
			if v := &r.Variants[i]; v.Batch <= 1 && v.BatchAuto > 1 {
				return true
			}
		}
		return false
	})
	sentencesPass(t, r)
	r.Conditions.Clock.ReadCostNS = 10 * r.Conditions.Clock.ReadCostMeanNS
	bad := 0
	for _, f := range prose.CheckAll(r) {
		if f.Sentence.Claim == findings.ClaimBatchForced || f.Sentence.Claim == findings.ClaimImplausible {
			bad++
			t.Logf("caught: %v", f.Err)
		}
	}
	if bad == 0 {
		t.Fatal("a read cost ten times the mean passed the batch and plausibility oracles")
	}
}

// "the two distributions differ in shape, not only in place" has no
// predicate: a sentence that says it has no oracle, and so does any
// sentence without a claim.
func TestCounterShapeHasNoOracle(t *testing.T) {
	r := pick(t, func(r *result.Result) bool { return len(r.Comparisons) > 0 })
	for _, s := range []findings.Sentence{
		{Topic: findings.TopicComparison, Claim: "comparison.shape", Text: "the two distributions differ in shape, not only in place"},
		{Topic: findings.TopicComparison, Kind: findings.KindComparison, Text: "a sentence no generator claims"},
	} {
		if err := prose.Check(r, s); !errors.Is(err, prose.ErrNoOracle) {
			t.Errorf("%q: %v, want ErrNoOracle", s.Text, err)
		}
	}
	for _, s := range findings.Sentences(r) {
		if strings.Contains(s.Text, "differ in shape") {
			t.Errorf("the renderer writes %q", s.Text)
		}
	}
}

// Mechanisms named without their control (issue 20, item 2): the TLB
// beside a pages=huge run that decided nothing, set conflicts beside a
// pad=64 build that ran slower, the cause of a worst operation named
// above the interruption floor. Each fails; the renderer's sentences for
// the same results hold.
func TestMechanismsOnlyFromControls(t *testing.T) {
	pages := pick(t, func(r *result.Result) bool {
		return r.Control != nil && r.Control.Kind == result.ControlPages && r.Baseline != nil && r.Baseline.Verdicts[0].Verdict == result.VerdictUndefined
	})
	sentencesPass(t, pages)
	v := pages.Baseline.Verdicts[0]
	mustFail(t, pages, findings.Sentence{Claim: findings.ClaimControlVerdict, Variant: v.Name,
		Text: v.Name + ": huge pages against 4 KiB pages undefined, measured in the same run: TLB misses of the 4 KiB pages account for the difference"})

	pad := pick(t, func(r *result.Result) bool {
		return r.Control != nil && r.Control.Kind == result.ControlPad && r.Control.Value == "64"
	})
	sentencesPass(t, pad)
	v = pad.Baseline.Verdicts[0]
	mustFail(t, pad, findings.Sentence{Claim: findings.ClaimControlVerdict, Variant: v.Name,
		Text: v.Name + ": with rows padded 1.5x slower than with unpadded rows, measured in the same run: the unpadded walk's stride of 8 KiB, a power of two, made its accesses conflict in the same cache sets, and padding relieved it"})

	// The stride finding on a variant whose assembly steps no such stride.
	walk := pick(t, func(r *result.Result) bool { return r.Variant("rows") != nil && r.Control == nil })
	mustFail(t, walk, findings.Sentence{Claim: findings.ClaimStride, Variant: "rows",
		Text: "rows: its inner loop steps 8 KiB per access, a power of two: set conflicts are likely"})

	// "a single event (a realloc, a rehash, a page fault, an interrupt)".
	ops := pick(t, func(r *result.Result) bool {
		for _, s := range findings.Sentences(r) {
			if prose.ClaimOf(s) == prose.ClaimLatencyAlone {
				return true
			}
		}
		return false
	})
	for _, s := range findings.Sentences(ops) {
		if prose.ClaimOf(s) != prose.ClaimLatencyAlone {
			continue
		}
		bad := s
		bad.Text = strings.SplitN(s.Text, "; ", 2)[0] + "; a single event (a realloc, a rehash, a page fault, an interrupt)"
		mustFail(t, ops, bad)
		l := ops.Variant(s.Variant).Latency
		if l.EmptyMaxTicks > 0 && l.MaxTicks > l.EmptyMaxTicks {
			bad.Text = strings.SplitN(s.Text, "; ", 2)[0] + "; an interruption explains it, not the operation"
			mustFail(t, ops, bad)
		}
		break
	}
}
