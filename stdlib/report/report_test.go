package report

import (
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/protocol/benchtest"
	"github.com/benchbook/benchbook/internal/result"
)

func loadedNoDead() *result.Result {
	return benchtest.Synthetic(benchtest.Spec{Seed: 7, LoadAvg: [2]float64{3.2, 2.9}, FreqMHz: 2400, ReadNS: 30, Elements: 1 << 16,
		Variants: []benchtest.VariantSpec{
			{Name: "rows", MedianNS: 80000, Spread: 0.08},
			{Name: "cols", MedianNS: 1300000, Spread: 0.09, ColdFactor: 1.4, Faults: 64},
		}})
}

// Two results give two texts: other numbers, other findings.
func TestCommentaryFollowsTheResult(t *testing.T) {
	a, b := benchtest.Seed000(1), loadedNoDead()
	ca, cb := Commentary(a), Commentary(b)
	if ca == cb {
		t.Fatal("two different results gave the same commentary")
	}
	if !strings.Contains(ca, "**Dead code.**") || strings.Contains(cb, "**Dead code.**") {
		t.Errorf("dead-code paragraph: in A %v, in B %v", strings.Contains(ca, "Dead code"), strings.Contains(cb, "Dead code"))
	}
	// The dead-code sentence is now the dead_code finding's, which words the
	// region as the assembly analysis does ("between the two clock reads
	// there are N instructions"), so the phrase checked here changed with it.
	if !strings.Contains(ca, "between the two clock reads there are 2 instructions") || strings.Contains(ca, "**Prediction.**") != (a.Prediction != nil) {
		t.Errorf("the dead-code paragraph does not count the region from the result:\n%s", ca)
	}
	if !strings.Contains(cb, "Above 1") || !strings.Contains(ca, "Below 1") {
		t.Error("the load paragraph does not follow the load averages")
	}
	if !strings.Contains(cb, "spread too widely") || strings.Contains(ca, "spread too widely") {
		t.Error("the spread paragraph does not follow the cv")
	}
	for _, want := range []string{numtext.FormatNS(a.Summary("discarded", "interleaved").Median), numtext.FormatNS(a.Summary("sink", "interleaved").Median),
		numtext.FormatRatio(a.AA.Ratio)} {
		if !strings.Contains(ca, want) {
			t.Errorf("A's commentary lacks its own number %s", want)
		}
	}
	if !strings.Contains(ca, "saw 100 gaps longer than 5 µs (1000 per second)") || !strings.Contains(cb, "saw 0 gaps") {
		t.Errorf("the interruptions paragraph does not follow the gap counts")
	}
	if want := numtext.FormatNS(b.Variant("rows").Series.Cold.Summary.Median); !strings.Contains(cb, want) {
		t.Errorf("B's commentary lacks its cold median %s:\n%s", want, cb)
	}
}

func TestBeforeAfterFlagsWhatMoved(t *testing.T) {
	base := benchtest.Spec{Seed: 3, LoadAvg: [2]float64{0.3, 0.3}, FreqMHz: 2900, ReadNS: 21, Variants: []benchtest.VariantSpec{
		{Name: "sink", MedianNS: 500000, Spread: 0.01, Asm: "  1270:\tsub $0x28,%rsp\n  127c:\tcall 1030 <clock_gettime@plt>\n"},
	}}
	before := benchtest.Synthetic(base)
	twice, tiny := base, base
	twice.Seed, tiny.Seed = 4, 5
	twice.Variants = []benchtest.VariantSpec{base.Variants[0]}
	twice.Variants[0].MedianNS *= 2
	tiny.Variants = []benchtest.VariantSpec{base.Variants[0]}
	tiny.Variants[0].MedianNS *= 1.001
	tiny.Variants[0].Asm = "  2270:\tsub $0x28,%rsp\n  227c:\tcall 2030 <clock_gettime@plt>\n" // moved, not changed
	d2 := Compare(before, benchtest.Synthetic(twice))
	d0 := Compare(before, benchtest.Synthetic(tiny))
	s2, s0 := interleaved(t, d2), interleaved(t, d0)
	if !s2.Beyond || s2.Ratio < 1.9 || s2.Ratio > 2.1 {
		t.Errorf("a 2x change: %+v", s2)
	}
	if s0.Beyond {
		t.Errorf("a 0.1%% change called beyond the floor: %+v", s0)
	}
	if !d0.Variants[0].AsmSame {
		t.Errorf("the same code at other addresses reads as changed:\n%s", d0.Variants[0].AsmDiff)
	}
	if !strings.Contains(d2.Text(), "beyond the floor") || strings.Contains(d0.Text(), "beyond the floor") {
		t.Errorf("sentences:\n%s\n%s", d2.Sentence, d0.Sentence)
	}
}

func interleaved(t *testing.T, d Diff) SeriesChange {
	t.Helper()
	for _, s := range d.Variants[0].Series {
		if s.Series == "interleaved" {
			return s
		}
	}
	t.Fatal("no interleaved series")
	return SeriesChange{}
}

func TestAsmDiffSeesAChangedInstruction(t *testing.T) {
	a := "  1298:\taddss  (%rax),%xmm0\n  12b2:\tjne    1298 <bench_time_sink+0x28>\n"
	b := "  1398:\taddss  (%rax),%xmm0\n  13b2:\tjne    1398 <bench_time_sink+0x28>\n"
	c := "  1298:\tvaddps (%rax),%ymm0,%ymm0\n  12b2:\tjne    1298 <bench_time_sink+0x28>\n"
	if _, n := asmDiff(a, b); n != 0 {
		t.Errorf("moved code counted as %d changed lines", n)
	}
	if diff, n := asmDiff(a, c); n != 2 || !strings.Contains(diff, "+vaddps") {
		t.Errorf("changed instruction: %d lines\n%s", n, diff)
	}
}

// A run that loads the machine on purpose says so, whatever the load average.
func TestCommentaryOnRequestedLoad(t *testing.T) {
	r := benchtest.Seed000(2)
	r.Protocol.Load, r.Protocol.LoadCPUs = 1, []int{0}
	c := Commentary(r)
	if !strings.Contains(c, "started 1 busy thread on CPU 0") || strings.Contains(c, "Below 1") {
		t.Errorf("load paragraph:\n%s", c)
	}
	quiet := benchtest.Seed000(2)
	d := Compare(quiet, r)
	if !strings.Contains(d.Sentence, "the protocol changed") || !strings.Contains(d.Sentence, "load=1") {
		t.Errorf("compare does not name the protocol change: %s", d.Sentence)
	}
}
