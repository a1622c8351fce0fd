package evidence

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/internal/protocol/benchtest"
	"github.com/benchbook/benchbook/ipynb"
)

// countSamples counts the samples of a result the long way, for the
// expected description.
func countSamples(r *protocol.Result) (series, samples int) {
	samples = len(r.AA.SamplesNS)
	for _, v := range r.Variants {
		for _, s := range []*protocol.Samples{v.Series.Interleaved, v.Series.InProcess, v.Series.Fresh} {
			if s != nil {
				series++
				samples += len(s.SamplesNS)
			}
		}
		if v.Series.Cold != nil {
			series++
			samples += len(v.Series.Cold.SamplesNS)
		}
	}
	return series, samples
}

func TestVerifyPassesOnAnHonestResult(t *testing.T) {
	r := benchtest.Seed000(7)
	r.AA = protocol.AAControl(r.AA.Variant, r.Variant(r.AA.Variant).Series.Interleaved.SamplesNS, r.AA.SamplesNS, r.Protocol, r.RoundBlock)
	r.Comparisons = protocol.Comparisons(r.Variants, r.Protocol, r.RoundBlock)
	nb := roundTrip(t, resultNotebook(t, r))
	var out bytes.Buffer
	ok, err := Verify(nb, &out)
	if err != nil || !ok {
		t.Fatalf("Verify: ok %v, err %v\n%s", ok, err, out.String())
	}
	series, samples := countSamples(r)
	want := fmt.Sprintf("cell 1 output 1: seed (c, -std=c11 -O2): 3 variants, %d series, 3 comparisons, %d samples; assembly not checked against a build (no build of seed in the notebook): ok\n", series, samples)
	if out.String() != want {
		t.Errorf("Verify printed\n%q\nwant\n%q", out.String(), want)
	}
}

func TestVerifyNamesWhatDoesNotMatch(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(r *protocol.Result)
		says   string
	}{
		{"one sample changed", func(r *protocol.Result) {
			s := r.Variant("sink").Series.Interleaved.SamplesNS
			s[slices.Index(s, slices.Max(s))] *= 3 // min and median stay, max moves
		}, "variant sink series interleaved: max is "},
		{"a median changed", func(r *protocol.Result) { r.Variant("sink").Series.Fresh.Summary.Median += 1 },
			"variant sink series fresh: median is "},
		{"a cold cv changed", func(r *protocol.Result) { r.Variant("checksum").Series.Cold.Summary.CVPct *= 1.5 },
			"variant checksum series cold: cv_pct is "},
		{"a pair share changed", func(r *protocol.Result) { r.Variant("sink").Series.InProcess.Summary.PairsOver2Pct += 0.01 },
			"variant sink series in_process: pairs_over_2pct is "},
		{"a comparison ratio changed", func(r *protocol.Result) { r.Comparisons[1].Ratio *= 1.01 },
			"(interleaved): ratio is "},
		{"a comparison p-value changed", func(r *protocol.Result) { r.Comparisons[0].PValue *= 2 }, "(interleaved): p_value is "},
		{"a comparison verdict flipped", func(r *protocol.Result) { r.Comparisons[0].Significant = !r.Comparisons[0].Significant },
			"(interleaved): significant is "},
		{"a comparison dropped", func(r *protocol.Result) { r.Comparisons = r.Comparisons[1:] }, ": missing; the samples give ratio "},
		{"the A/A ratio changed", func(r *protocol.Result) { r.AA.Ratio += 0.01 }, "A/A control (sink): ratio is "},
		{"the A/A interval changed", func(r *protocol.Result) { r.AA.CIHigh += 0.01 }, "A/A control (sink): ci_high is "},
		{"the A/A samples are gone", func(r *protocol.Result) { r.AA.SamplesNS = nil }, "aa.samples_ns is empty"},
		{"a checksum verdict flipped", func(r *protocol.Result) { r.Variant("checksum").Checksum.OK = false },
			"variant checksum checksum: ok is false, but got "},
		{"a checksum total changed", func(r *protocol.Result) { r.Variant("checksum").Checksum.Got += 1 },
			"variant checksum checksum: ok is true"},
		{"the schema is broken", func(r *protocol.Result) { r.Schema = "benchbook.result/0" }, "does not match result.schema.json"},
		{"the first and last fresh samples swapped", func(r *protocol.Result) {
			s := r.Variant("sink").Series.Fresh.SamplesNS
			s[0], s[len(s)-1] = s[len(s)-1], s[0]
		}, "samples_sha256 does not match the samples in their order"},
		{"a sample moved to another place in its round", func(r *protocol.Result) {
			p := r.Variant("sink").Series.Interleaved.Positions
			p[0] = (p[0] + 1) % 4
		}, "is not where order seed"},
		{"the order seed changed", func(r *protocol.Result) { r.Protocol.OrderSeed = "12345" }, "is not where order seed 12345"},
		{"an adjusted p-value changed", func(r *protocol.Result) { r.Comparisons[0].PAdjusted /= 2 }, "p_adjusted is "},
		{"the effective sample size changed", func(r *protocol.Result) { r.AA.NEff += 3 }, "n_eff is "},
		{"a baseline verdict changed", func(r *protocol.Result) {
			withBaseline(r)
			r.Baseline.Variants[0].Verdict = protocol.VerdictFaster
		}, "baseline sink (interleaved): verdict is"},
		{"a baseline measured in fewer blocks", func(r *protocol.Result) {
			withBaseline(r)
			r.Baseline.Blocks = 0
		}, "baseline sink (interleaved): "},
		{"a baseline sample changed", func(r *protocol.Result) {
			withBaseline(r)
			r.Baseline.Variants[0].SamplesNS[3] *= 2
		}, "baseline sink (interleaved): "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := benchtest.Seed000(3)
			tc.change(r)
			wantMismatch(t, r, tc.says)
		})
	}
}

func TestVerifyOneLinePerResult(t *testing.T) {
	bad := benchtest.Seed000(5)
	bad.Variant("discarded").Series.Interleaved.Summary.Min = 0.5
	nb := resultNotebook(t, benchtest.Seed000(4), bad)
	var out bytes.Buffer
	ok, err := Verify(nb, &out)
	if err != nil || ok {
		t.Fatalf("Verify: ok %v, err %v", ok, err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.HasSuffix(lines[0], ": ok") || !strings.HasPrefix(lines[0], "cell 1 output 1: ") ||
		!strings.HasPrefix(lines[1], "cell 2 output 1: seed") || !strings.Contains(lines[1], "variant discarded series interleaved: min is 0.5, the samples give ") {
		t.Errorf("Verify printed\n%s", out.String())
	}
}

func TestVerifyWithoutResults(t *testing.T) {
	nb := ipynb.New(ipynb.NewMarkdown("# nothing"), ipynb.NewCode("x := 1"))
	var out bytes.Buffer
	ok, err := Verify(nb, &out)
	if ok || !errors.Is(err, ErrNoResults) || !strings.Contains(err.Error(), "application/vnd.benchbook.result+json") {
		t.Fatalf("Verify of a notebook without results: ok %v, err %v", ok, err)
	}
}

func TestVerifyUnreadableResult(t *testing.T) {
	nb := ipynb.New(ipynb.NewCode("x"))
	nb.Cells[0].Outputs = []*ipynb.Output{{Type: ipynb.DisplayData, Data: map[string]any{"application/vnd.benchbook.result+json": map[string]any{"variants": "no"}}}}
	var out bytes.Buffer
	ok, err := Verify(nb, &out)
	if err != nil || ok || !strings.Contains(out.String(), "cell 0 output 0: result: MISMATCH: does not match result.schema.json") ||
		!strings.Contains(out.String(), "at '/variants': got string, want array") || strings.Contains(out.String(), "file:") {
		t.Errorf("Verify: ok %v, err %v, printed %s", ok, err, out.String())
	}
}

func TestVerifyJudgesThePrediction(t *testing.T) {
	r := benchtest.Seed000(6)
	p, err := protocol.ParsePrediction("sink/discarded>100")
	if err != nil {
		t.Fatal(err)
	}
	ratio, _ := r.Ratio("sink", "discarded")
	p.Judge(ratio)
	r.Prediction = p
	var out bytes.Buffer
	if ok, _ := Verify(resultNotebook(t, r), &out); !ok {
		t.Fatalf("an honest prediction fails:\n%s", out.String())
	}
	held := false
	r.Prediction.Held = &held
	out.Reset()
	if ok, _ := Verify(resultNotebook(t, r), &out); ok || !strings.Contains(out.String(), `prediction "sink/discarded>100": held is false, the medians say true`) {
		t.Errorf("a flipped prediction:\n%s", out.String())
	}
}

// withBaseline gives r a same-run baseline measured in blocks (its
// interleaved rounds' blocks, r.RoundBlock): the sink variant's previous
// build, 25% faster, judged as the runner judges it.
func withBaseline(r *protocol.Result) {
	now := r.Variant("sink").Series.Interleaved.SamplesNS
	prev := make([]float64, len(now))
	for i, x := range now {
		prev[i] = x * 0.8 * (1 + 0.001*float64(i%3))
	}
	r.Baseline = &protocol.Baseline{Kernel: r.Kernel, SameRun: true, Blocks: r.RoundBlock[len(r.RoundBlock)-1] + 1,
		Variants: []protocol.BaselineVariant{{Name: "sink", AsmSame: false, Series: "interleaved", SamplesNS: prev}}}
	r.Protocol.BlockRounds, r.Protocol.Resolve = protocol.BlockRounds, 0.02
	protocol.JudgeBaseline(r, r.Baseline)
}

func TestVerifyPassesWithABaseline(t *testing.T) {
	r := benchtest.Seed000(11)
	withBaseline(r)
	if e := r.Baseline.Variants[0]; e.Verdict != protocol.VerdictSlower {
		t.Fatalf("25%% more time judged %q (ratio %v)", e.Verdict, e.Ratio)
	}
	var out bytes.Buffer
	if ok, err := Verify(roundTrip(t, resultNotebook(t, r)), &out); err != nil || !ok {
		t.Fatalf("Verify: ok %v, err %v\n%s", ok, err, out.String())
	}
}
