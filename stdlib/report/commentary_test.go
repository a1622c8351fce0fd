package report

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/machine"
	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/protocol/benchtest"
	"github.com/benchbook/benchbook/internal/result"
)

// twoLoops is a kernel whose live variants are two ways of doing the work,
// naive and unrolled, not two ways of consuming a result.
func twoLoops(seed uint64, naiveNS, unrolledNS float64, extra ...benchtest.VariantSpec) *result.Result {
	vs := append([]benchtest.VariantSpec{
		{Name: "naive", MedianNS: naiveNS, Spread: 0.01},
		{Name: "unrolled", MedianNS: unrolledNS, Spread: 0.01},
	}, extra...)
	return benchtest.Synthetic(benchtest.Spec{Seed: seed, LoadAvg: [2]float64{0.2, 0.3}, FreqMHz: 2900, ReadNS: 21,
		Elements: 1 << 20, Gaps: 10, Variants: vs})
}

// refresh recomputes the findings after a test changed the result.
func refresh(r *result.Result) *result.Result {
	r.Findings = findings.Findings(r)
	return r
}

// everything is a result with every topic: partial, a prediction, a dead
// variant, batches, load on purpose and busy processes during the run.
func everything() *result.Result {
	r := twoLoops(11, 1e6, 5.2e5, benchtest.VariantSpec{Name: "empty", MedianNS: 21, Spread: 0.05, Dead: true})
	r.Partial, r.Error = true, "interrupted by the user"
	r.Protocol.Quick = true // the QUICK headline line
	r.Variants[1].Batch = 4
	// The observed ratio is the result's own (internal/prose checks it).
	obs, _ := r.Ratio("naive", "unrolled")
	held := obs > 1.5
	r.Prediction = &result.Prediction{Text: "naive/unrolled>1.5", A: "naive", B: "unrolled", Op: ">", Value: 1.5, Observed: &obs, Held: &held}
	r.Protocol.Load, r.Protocol.LoadCPUs = 1, []int{1}
	r.Conditions.During = &machine.During{Seconds: 12.5, BusyPct: []float64{97, 100},
		Busiest: []machine.ProcUse{{PID: 42, Command: "stress", CPU: 1, BusyPct: 99}, {PID: 7, Command: "sshd", CPU: 0, BusyPct: 0.5}}}
	r.AA.Rho, r.AA.NEff = 0.45, 11.4
	now := r.Variant("naive").Series.Interleaved.SamplesNS
	prev, pairOf := make([]float64, len(now)), make([]int, len(now))
	for i, x := range now {
		prev[i], pairOf[i] = x/1.25, i*5/len(now)
	}
	r.Protocol.Pairs = 5
	r.Protocol.Layouts = 2
	r.Variants[0].Counts = &result.Counts{Tool: "callgrind", InstructionsPerPass: 3145760}
	for i := range r.Variants {
		if fr := r.Variants[i].Series.Fresh; fr != nil {
			l := &result.Layout{}
			for j := range fr.SamplesNS {
				l.IDs, l.StackPad, l.HeapPad, l.ASLR = append(l.IDs, j%2), append(l.StackPad, 16*j), append(l.HeapPad, 32*j), append(l.ASLR, true)
			}
			fr.Layout = l
			for j := range fr.SamplesNS { // the clock of each fresh process
				e := &result.FreqEstimate{MHz: 3000 - float64(j), NS: 1e6, MedianNS: 1e6 + 2000, WorstNS: 1e6 + 9000, Iterations: 46875, Adds: 64}
				fr.FreqProcesses = append(fr.FreqProcesses, result.FreqProcess{Before: e, After: e, Samples: 1})
				fr.FreqMHz = append(fr.FreqMHz, e.MHz)
			}
		}
	}
	// A before/after in blocks, as the runner measures one: a block per
	// process pair, its rounds in lock step, stopped once decided.
	copy(pairOf, r.RoundBlock)
	r.Protocol.BlockRounds, r.Protocol.StepWarmup, r.Protocol.Sequential = result.BlockRounds, result.StepWarmup, true
	r.Baseline = &result.Baseline{Kernel: r.Kernel, SameRun: true, PairOf: pairOf, Blocks: r.RoundBlock[len(r.RoundBlock)-1] + 1,
		Stop: result.StopDecided, Variants: []result.BaselineVariant{{Name: "naive", Series: "interleaved", SamplesNS: prev}}}
	result.JudgeBaseline(r, r.Baseline)
	r.Baseline.Counts = map[string]int64{r.Variants[0].Name: 3145760}
	r.Variants[0].Latency = simulatedLatency() // latency_test.go
	// An inner loop that steps 8 KiB per access: the stride finding.
	r.Variants[0].Asm = "bench_time_naive:\n  10:\tcall   0 <clock_gettime@plt>\n  20:\taddss  (%rax),%xmm0\n  24:\tadd    $0x2000,%rax\n" +
		"  2a:\tcmp    %rdx,%rax\n  2d:\tjne    20 <bench_time_naive+0x10>\n  30:\tcall   0 <clock_gettime@plt>\n"
	return refresh(r)
}

func results() map[string]*result.Result {
	return map[string]*result.Result{
		"seed 000 shape":             benchtest.Seed000(1),
		"loaded, nothing dead":       loadedNoDead(),
		"naive and unrolled":         twoLoops(1, 1e6, 5.2e5),
		"naive and unrolled agree":   twoLoops(2, 5e5, 5.002e5),
		"naive, unrolled and a dead": twoLoops(3, 1e6, 5.2e5, benchtest.VariantSpec{Name: "empty", MedianNS: 21, Spread: 0.05, Dead: true}),
		"every topic":                everything(),
	}
}

// allText is the commentary and every finding, for word searches.
func allText(r *result.Result) string {
	var b strings.Builder
	b.WriteString(Commentary(r))
	for _, f := range r.Findings {
		b.WriteString("\n" + f.Text)
	}
	return b.String()
}

// (a) No sentence assumes what the variants are for: a kernel whose
// variants are naive and unrolled never reads as one about consuming a
// result, unless a variant does carry a checksum.
func TestNoSentenceAssumesVariantRoles(t *testing.T) {
	withChecksum := twoLoops(4, 1e6, 5.2e5)
	withChecksum.Variants[1].Checksum = &result.Checksum{Got: 60, Want: 1, Passes: 60, OK: true}
	refresh(withChecksum)
	cases := []struct {
		name     string
		r        *result.Result
		checksum bool
	}{
		{"significant", twoLoops(1, 1e6, 5.2e5), false},
		{"no difference", twoLoops(2, 5e5, 5.002e5), false},
		{"beside a dead variant", twoLoops(3, 1e6, 5.2e5, benchtest.VariantSpec{Name: "empty", MedianNS: 21, Spread: 0.05, Dead: true}), false},
		{"every topic", everything(), false},
		{"unrolled carries a checksum", withChecksum, true},
	}
	words := regexp.MustCompile(`(?i)consum|sink|checksum`)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			found := words.FindAllString(allText(c.r), -1)
			if !c.checksum && len(found) > 0 {
				t.Errorf("the prose speaks of %q for variants named naive and unrolled:\n%s", found, allText(c.r))
			}
			if c.checksum && !strings.Contains(allText(c.r), "checksum 60 over 60 passes") {
				t.Errorf("the checksum the variant carries is not reported:\n%s", allText(c.r))
			}
		})
	}
}

// (b) One sentence, one source: every finding the commentary covers is in
// it word for word, and every number of the commentary comes from a
// sentence (headings and lead-ins carry none).
func TestCommentaryIsTheSentences(t *testing.T) {
	digit := regexp.MustCompile(`[0-9]`)
	for name, r := range results() {
		t.Run(name, func(t *testing.T) {
			c := Commentary(r)
			for _, f := range r.Findings {
				if f.Kind == findings.KindChecksum {
					continue // shown by Result, not in the commentary
				}
				if !strings.Contains(c, f.Text[1:]) {
					t.Errorf("the %s finding is not in the commentary as written:\n%s\n---\n%s", f.Kind, f.Text, c)
				}
			}
			rest := c
			names := map[string]bool{}
			for _, v := range r.Variants {
				names[v.Name] = true
			}
			for _, s := range findings.Sentences(r) {
				rest = strings.Replace(rest, sentence(s.Text, names), "", 1)
			}
			if d := digit.FindString(rest); d != "" {
				t.Errorf("the commentary has a number no sentence wrote:\n%s", rest)
			}
		})
	}
}

// (b) The resolution figure is written once: the same string in the
// finding and in the commentary, from PairDifference at PairQuantile.
func TestResolutionFigureIsOne(t *testing.T) {
	for name, r := range results() {
		t.Run(name, func(t *testing.T) {
			ref := r.Variant(r.AA.Variant)
			fig := numtext.FormatPct(findings.PairDifference(ref.Series.Interleaved.SamplesNS, findings.PairQuantile))
			want := fmt.Sprintf("in the interleaved series of %s, ", ref.Name)
			var text string
			for _, f := range r.Findings {
				if f.Kind == findings.KindResolution && strings.HasPrefix(f.Text, want) {
					text = f.Text
				}
			}
			phrase := "differ by at most " + fig + ","
			if !strings.Contains(text, phrase) || !strings.Contains(Commentary(r), phrase) {
				t.Errorf("resolution figure %s: finding %q; commentary:\n%s", fig, text, Commentary(r))
			}
		})
	}
}

// (c) One busy-process threshold: a process is named in the findings and
// in the commentary, or in neither, and only from BusyProcessPct up.
func TestBusyProcessThreshold(t *testing.T) {
	cases := []struct {
		name string
		pct  float64
		load float64
	}{
		{"3% of a CPU on a quiet machine", 3, 0.2},
		{"3% of a CPU on a loaded machine", 3, 2.5},
		{"just below the threshold", findings.BusyProcessPct - 0.1, 2.5},
		{"at the threshold", findings.BusyProcessPct, 0.2},
		{"busy, on a quiet machine", 40, 0.2},
		{"busy, on a loaded machine", 40, 2.5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := twoLoops(5, 1e6, 5.2e5)
			r.Conditions.Before.Loadavg[0], r.Conditions.After.Loadavg[0] = c.load, c.load
			r.Conditions.During = &machine.During{Seconds: 10, BusyPct: []float64{100, 12},
				Busiest: []machine.ProcUse{{PID: 4242, Command: "indexer", CPU: 1, BusyPct: c.pct}}}
			refresh(r)
			inFindings := false
			for _, f := range r.Findings {
				inFindings = inFindings || strings.Contains(f.Text, "indexer")
			}
			inCommentary := strings.Contains(Commentary(r), "indexer")
			want := c.pct >= findings.BusyProcessPct
			if inFindings != want || inCommentary != want {
				t.Errorf("process at %g%% (threshold %g%%): in findings %v, in commentary %v, want %v",
					c.pct, findings.BusyProcessPct, inFindings, inCommentary, want)
			}
		})
	}
}

// (d) The comparison's significant field, and nothing else, decides between
// "differ" and "no difference": flipping it on the same numbers flips the
// wording, and the measured ratio and interval are written either way.
func TestSignificanceWording(t *testing.T) {
	cases := []struct {
		name        string
		significant bool
		want, not   string
	}{
		{"significant", true, "the live variants naive and unrolled differ: ", "no difference"},
		{"not significant", false, "the live variants naive and unrolled show no difference this run can resolve (", "differ:"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := twoLoops(6, 1e6, 5.2e5)
			r.Comparisons[0].Significant = c.significant
			refresh(r)
			var text string
			for _, s := range findings.Sentences(r) {
				if s.Topic == findings.TopicComparison {
					text = s.Text
				}
			}
			cmp := r.Comparisons[0]
			measured := fmt.Sprintf("%s/%s = %s", cmp.A, cmp.B, numtext.FormatRatio(cmp.Ratio))
			iv := fmt.Sprintf("95%% interval [%s, %s]", numtext.FormatRatio(cmp.CILow), numtext.FormatRatio(cmp.CIHigh))
			if !strings.HasPrefix(text, c.want) || strings.Contains(text, c.not) || !strings.Contains(text, measured) || !strings.Contains(text, iv) {
				t.Errorf("comparison sentence %q: want it to start %q, lack %q, and hold %q", text, c.want, c.not, measured)
			}
			if !strings.Contains(Commentary(r), text[1:]) {
				t.Errorf("the comparison sentence is not in the commentary")
			}
		})
	}
}

// A comparison with a dead variant is the dead-code sentence's business,
// not a comparison between live variants.
func TestOnlyLiveVariantsAreCompared(t *testing.T) {
	r := twoLoops(3, 1e6, 5.2e5, benchtest.VariantSpec{Name: "empty", MedianNS: 21, Spread: 0.05, Dead: true})
	n := 0
	for _, f := range r.Findings {
		if f.Kind == findings.KindComparison {
			n++
			if strings.Contains(f.Text, "empty") {
				t.Errorf("a dead variant compared as live: %s", f.Text)
			}
		}
		if f.Kind == findings.KindDeadCode && !strings.HasPrefix(f.Text, "empty is dead: its timed region holds no work (") {
			t.Errorf("dead-code finding: %s", f.Text)
		}
	}
	if n != 1 {
		t.Errorf("%d comparisons between live variants, want 1: %+v", n, r.Findings)
	}
}

// Every topic the generator writes has a paragraph, except the checksums
// that Result shows.
func TestEveryTopicHasAParagraph(t *testing.T) {
	have := map[string]bool{}
	for _, p := range paragraphs {
		have[p.topic] = true
	}
	for _, topic := range findings.Topics {
		if !have[topic] && topic != findings.TopicChecksum {
			t.Errorf("topic %s has no paragraph", topic)
		}
	}
	c := Commentary(everything())
	for _, p := range paragraphs {
		if !strings.Contains(c, "**"+p.heading+"**") {
			t.Errorf("a result with every topic lacks the paragraph %q:\n%s", p.heading, c)
		}
	}
}

// A sentence that starts with a variant name keeps the name as spelled.
func TestSentenceKeepsVariantNames(t *testing.T) {
	names := map[string]bool{"naive": true}
	cases := []struct{ in, want string }{
		{"naive is dead", "naive is dead."},
		{"naive: 1 ns per element", "naive: 1 ns per element."},
		{"the run", "The run."},
		{"naively", "Naively."},
	}
	for _, c := range cases {
		if got := sentence(c.in, names); got != c.want {
			t.Errorf("sentence(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// (d') A comparison whose own p is below alpha but whose Holm-adjusted p is
// not says that the family's adjustment is what stops it, and no
// comparison sentence repeats the A/A floor, which the resolution paragraph
// says once.
func TestAdjustedAwayWording(t *testing.T) {
	r := twoLoops(6, 1e6, 5.2e5, benchtest.VariantSpec{Name: "third", MedianNS: 7e5, Spread: 0.01})
	if len(r.Comparisons) != 3 {
		t.Fatalf("%d comparisons, want 3", len(r.Comparisons))
	}
	c := &r.Comparisons[0]
	c.PValue, c.PAdjusted, c.Significant, c.Undefined = 0.02, 0.06, false, ""
	refresh(r)
	var texts []string
	for _, s := range findings.Sentences(r) {
		if s.Topic == findings.TopicComparison {
			texts = append(texts, s.Text)
		}
	}
	want := fmt.Sprintf("the live variants %s and %s are not told apart once this run's 3 comparisons are counted (", c.A, c.B)
	if len(texts) != 3 || !strings.HasPrefix(texts[0], want) || !strings.Contains(texts[0], "p = 0.02 (0.06 adjusted for the 3 comparisons, Holm)") ||
		!strings.HasSuffix(texts[0], "but Holm's adjusted p does not") {
		t.Errorf("comparison sentences:\n%s\nwant the first to start %q", strings.Join(texts, "\n"), want)
	}
	c.PValue = 0.2 // alone it would not count either
	refresh(r)
	for _, s := range findings.Sentences(r) {
		if s.Topic == findings.TopicComparison && strings.Contains(s.Text, c.A+" and "+c.B) && !strings.Contains(s.Text, "show no difference this run can resolve") {
			t.Errorf("p 0.2: %s", s.Text)
		}
		if s.Topic == findings.TopicComparison && strings.Contains(s.Text, "A/A floor of this run is") {
			t.Errorf("a comparison repeats the A/A floor: %s", s.Text)
		}
	}
}

// A quick run says so in its headline, the answer a reader sees first,
// with its reps and runs; a full run does not.
func TestHeadlineSaysQuick(t *testing.T) {
	r := benchtest.Seed000(3)
	if s := HeadlineText(r); strings.Contains(s, "QUICK") {
		t.Errorf("a full run's headline says QUICK:\n%s", s)
	}
	r.Protocol.Quick, r.Protocol.Reps, r.Protocol.Runs = true, 10, 10
	for _, s := range []string{HeadlineText(r), HeadlineBundle(r)["text/html"].(string)} {
		if !strings.Contains(s, "QUICK: reps=10 runs=10, a smoke test that the cell runs, not a measurement") {
			t.Errorf("a quick run's headline does not say it is quick:\n%s", s)
		}
	}
}

// How a before/after's blocks were taken is said from the protocol it
// records: a result of text version 6 or older took its lock-step rounds
// one at a time (no step_rounds), a newer one StepRounds at a time.
func TestBlocksHeadTurns(t *testing.T) {
	for _, tc := range []struct {
		stepRounds int
		want       string
	}{
		{0, "took 5 interleaved rounds in turn (a random order each round, 1 round discarded before each)"},
		{2, "took 5 interleaved rounds, 2 at a time in turn (a random order each round, 1 round discarded at the start of each turn)"},
	} {
		r := everything()
		r.Protocol.StepRounds = tc.stepRounds
		refresh(r)
		if c := Commentary(r); !strings.Contains(c, tc.want) {
			t.Errorf("step_rounds %d: the commentary does not say %q", tc.stepRounds, tc.want)
		}
	}
}
