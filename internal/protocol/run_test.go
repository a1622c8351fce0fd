package protocol

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/benchbook/benchbook/internal/harness"
	"github.com/benchbook/benchbook/schema"
	"github.com/benchbook/benchbook/stdlib/stats"

	"github.com/benchbook/benchbook/internal/measuretest"
)

// seedKernel is seed 000's kernel, built once per test binary per language.
func seedKernel(t *testing.T, lang string) *harness.Kernel {
	t.Helper()
	src := map[string]string{"c": "../../internal/harness/testdata/seed000.c", "go": "../../internal/harness/testdata/seed000_go.txt"}[lang]
	code, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), measuretest.Scale(2*time.Minute))
	defer cancel()
	k, err := harness.Build(ctx, harness.Spec{Name: "seed", Lang: lang, Code: string(code), Line: 2, Label: "Cell[1]",
		CacheDir: filepath.Join(os.TempDir(), "benchbook-test-cache")})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func quickRun(t *testing.T, k *harness.Kernel, args ...string) *Result {
	t.Helper()
	opt, err := ParseOptions(append([]string{"quick"}, args...))
	if err != nil {
		t.Fatal(err)
	}
	opt.ResultsDir = t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), measuretest.Scale(3*time.Minute))
	defer cancel()
	r, err := Run(ctx, k, opt)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return r
}

// The properties issue 4 asks of seed 000's kernel with quick.
func TestSeedProtocolC(t *testing.T) {
	measuretest.Gate(t)
	k := seedKernel(t, "c")
	r := quickRun(t, k, "elements=1048576")
	disc, sink := r.Summary("discarded", "interleaved"), r.Summary("sink", "interleaved")
	if !(disc.Median < 0.01*sink.Median) {
		t.Errorf("discarded median %v is not below 1%% of sink's %v", disc.Median, sink.Median)
	}
	if ratio, ok := r.Ratio("sink", "checksum"); !ok || ratio < 0.8 || ratio > 1.25 {
		t.Errorf("sink/checksum = %v, want within [0.8, 1.25]", ratio)
	}
	cs := r.Variant("checksum").Checksum
	if cs == nil || !cs.OK || cs.Passes == 0 {
		t.Errorf("checksum: %+v", cs)
	}
	cold := r.Variant("sink").Series.Cold
	if cold == nil || len(cold.SamplesNS) != r.Protocol.Runs || len(cold.MinFlt) != r.Protocol.Runs {
		t.Fatalf("cold series: %+v, want %d entries", cold, r.Protocol.Runs)
	}
	for i, f := range cold.MinFlt {
		if f <= 0 {
			t.Errorf("cold pass %d took %d page faults", i, f)
		}
	}
	checkResult(t, r)
	if !hasFinding(r, KindDeadCode, "discarded") || hasFinding(r, KindDeadCode, "sink") {
		t.Errorf("dead_code findings: %+v", r.Findings)
	}
	if !hasFinding(r, KindImplausible, "discarded") {
		t.Errorf("a pass of a million elements in %v ns is not called implausible: %+v", disc.Median, r.Findings)
	}
	if c := r.Conditions.Clock; c.GapWindowNS < GapWindowMS*1e6 || c.GapTotalNS > c.GapWindowNS || !hasFinding(r, KindGaps, "") {
		t.Errorf("gaps: %+v", c)
	}
	if !hasFinding(r, KindFirstTouch, "sink") || !hasFinding(r, KindResolution, "") {
		t.Errorf("first_touch and resolution findings missing: %+v", r.Findings)
	}
	if r.AA.Variant == "" || r.AA.Ratio < 0.8 || r.AA.Ratio > 1.25 || len(r.AA.SamplesNS) != r.Protocol.Reps {
		t.Errorf("A/A control: %+v", r.AA)
	}
	if _, err := os.Stat(filepath.Join(r.RawFile, ResultFile)); err != nil {
		t.Errorf("the result was not written before returning: %v", err)
	}
}

func TestSeedProtocolGo(t *testing.T) {
	measuretest.Gate(t)
	k := seedKernel(t, "go")
	r := quickRun(t, k, "fresh=sink")
	if cs := r.Variant("checksum").Checksum; cs == nil || !cs.OK {
		t.Errorf("checksum: %+v", cs)
	}
	if r.Variant("discarded").Series.Fresh != nil || r.Variant("sink").Series.Fresh == nil {
		t.Error("fresh= did not select the fresh-process series")
	}
	checkResult(t, r)
}

func hasFinding(r *Result, kind, variant string) bool {
	for _, f := range r.Findings {
		if f.Kind == kind && (variant == "" || f.Variant != nil && *f.Variant == variant) {
			return true
		}
	}
	return false
}

// checkResult validates against the schema and recomputes every summary
// from the samples beside it.
func checkResult(t *testing.T, r *Result) {
	t.Helper()
	if err := schema.ValidateResult(r); err != nil {
		t.Errorf("schema: %v", err)
	}
	b, _ := json.Marshal(r)
	var back Result
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	for _, v := range back.Variants {
		for _, name := range SeriesNames {
			s := v.Get(name)
			if s == nil {
				continue
			}
			if field, ok := s.Summary.Equal(stats.Summarize(s.SamplesNS), 1e-12); !ok {
				t.Errorf("%s %s: summary field %s differs from its recomputation", v.Name, name, field)
			}
		}
	}
}

func TestOptionErrors(t *testing.T) {
	cases := []struct {
		args []string
		says string
	}{
		{[]string{"reps=9"}, "minimum is 10"},
		{[]string{"runs=3"}, "minimum is 10"},
		{[]string{"bogus=1"}, "valid keys are"},
		{[]string{"settle=fast"}, "duration"},
		{[]string{`predict=sink>3`}, "ratio of two variants"},
	}
	for _, c := range cases {
		if _, err := ParseOptions(c.args); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%v: got %v, want an error saying %q", c.args, err, c.says)
		}
	}
	opt, err := ParseOptions([]string{"quick", "reps=12"})
	if err != nil || opt.Reps != 12 || opt.Runs != MinRuns {
		t.Errorf("quick then reps=12: %+v %v", opt, err)
	}
}

func TestRunRefusesUnknownNames(t *testing.T) {
	k := seedKernel(t, "c")
	for _, c := range []struct{ args, says string }{
		{"variants=sink,nope", `no variant "nope"`},
		{"fresh=zzz", `no variant "zzz"`},
		{"pin=4096", "pin=4096"},
	} {
		opt, err := ParseOptions([]string{"quick", c.args})
		if err != nil {
			t.Fatal(err)
		}
		opt.ResultsDir = t.TempDir()
		if _, err := Run(context.Background(), k, opt); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: got %v, want %q", c.args, err, c.says)
		}
	}
}
