package protocol

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/benchbook/benchbook/internal/harness"
	"github.com/benchbook/benchbook/internal/measuretest"
)

func buildC(t *testing.T, name, code string) *harness.Kernel {
	t.Helper()
	k, err := harness.Build(context.Background(), harness.Spec{Name: name, Lang: "c", Code: code, Line: 2, Label: "Cell[1]",
		CacheDir: filepath.Join(os.TempDir(), "benchbook-test-cache")})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func runQuick(t *testing.T, ctx context.Context, k *harness.Kernel, args ...string) (*Result, error) {
	t.Helper()
	opt, err := ParseOptions(append([]string{"quick"}, args...))
	if err != nil {
		t.Fatal(err)
	}
	opt.ResultsDir = t.TempDir()
	return Run(ctx, k, opt)
}

// A kernel that crashes or exits is reported by its signal or status, and
// what was measured before is kept.
func TestCrashAndExitAreReported(t *testing.T) {
	cases := []struct{ name, code, says string }{
		{"segfault", "#include <stdint.h>\nstatic volatile uintptr_t zero;\nBENCH(crash) { *(volatile int *)zero = 1; }\n", "killed by signal SIGSEGV"},
		{"exit status", "#include <stdlib.h>\nBENCH(quit) { exit(3); }\n", "exited with status 3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := runQuick(t, context.Background(), buildC(t, "k"+strings.ReplaceAll(c.name, " ", ""), c.code))
			if err == nil || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("got %v, want an error saying %q", err, c.says)
			}
			if r == nil || !r.Partial {
				t.Fatalf("the result is not kept as partial: %+v", r)
			}
			if _, statErr := os.Stat(filepath.Join(r.RawFile, ResultFile)); statErr != nil {
				t.Errorf("no result.json on disk: %v", statErr)
			}
		})
	}
}

// A pass shorter than 100 clock reads is timed in batches, and the result
// says what a batch hides.
func TestShortPassesAreBatched(t *testing.T) {
	measuretest.Gate(t)
	k := buildC(t, "tiny", "static unsigned x = 1;\nBENCH(step) { x = x * 1103515245u + 12345u; bench_sink(x); }\n")
	r, err := runQuick(t, context.Background(), k, "fresh=step")
	if err != nil {
		t.Fatal(err)
	}
	v := r.Variant("step")
	if v.Batch < 10 {
		t.Fatalf("a pass of a few instructions was timed %d at a time", v.Batch)
	}
	if !hasFinding(r, KindBatch, "step") {
		t.Errorf("no batch finding: %+v", r.Findings)
	}
	// Per-pass times: a batch divided by k is a few ns, far below one clock read.
	if m := r.Summary("step", "interleaved").Median; m <= 0 || m > r.Conditions.Clock.ReadCostNS {
		t.Errorf("per-pass median %v ns against a clock read of %v ns", m, r.Conditions.Clock.ReadCostNS)
	}
	// What the samples time is the batch loop: its own assembly, analysed.
	if v.BatchAsm == "" || v.BatchDead || v.BatchFinding == "" {
		t.Errorf("batch loop: asm %d bytes, dead %v, finding %q", len(v.BatchAsm), v.BatchDead, v.BatchFinding)
	}
	for _, f := range r.Findings {
		if f.Kind == KindResolution && f.Variant != nil && *f.Variant == "step" && strings.Contains(f.Text, "pairs of single passes") {
			t.Errorf("pair shares of batch means read as single passes: %s", f.Text)
		}
	}
}

// batch=1 times a short pass alone: the sample then holds the clock reads,
// and the result keeps what the calibration would have chosen; batch=K
// fixes K. The two are measured side by side on the same binary.
func TestBatchKeyFixesPassesPerSample(t *testing.T) {
	measuretest.Gate(t)
	k := buildC(t, "tiny", "static unsigned x = 1;\nBENCH(step) { x = x * 1103515245u + 12345u; bench_sink(x); }\n")
	alone, err := runQuick(t, context.Background(), k, "fresh=step", "batch=1")
	if err != nil {
		t.Fatal(err)
	}
	fixed, err := runQuick(t, context.Background(), k, "fresh=step", "batch=7")
	if err != nil {
		t.Fatal(err)
	}
	auto, err := runQuick(t, context.Background(), k, "fresh=step")
	if err != nil {
		t.Fatal(err)
	}
	a, f, b := alone.Variant("step"), fixed.Variant("step"), auto.Variant("step")
	if a.Batch != 1 || a.BatchAuto < 10 || f.Batch != 7 || f.BatchAuto < 10 || b.BatchAuto != 0 {
		t.Fatalf("batch=1: %d (auto %d); batch=7: %d (auto %d); auto: auto field %d", a.Batch, a.BatchAuto, f.Batch, f.BatchAuto, b.BatchAuto)
	}
	if alone.Protocol.Batch != "1" || fixed.Protocol.Batch != "7" || auto.Protocol.Batch != "auto" {
		t.Errorf("protocol.batch = %q, %q, %q", alone.Protocol.Batch, fixed.Protocol.Batch, auto.Protocol.Batch)
	}
	// A pass of a few instructions timed alone carries the clock: at least
	// 3x the same pass's share of a batch.
	perPass, batched := alone.Summary("step", "interleaved").Median, auto.Summary("step", "interleaved").Median
	if perPass < 3*batched {
		t.Errorf("timed alone %v ns per pass, in batches %v ns: the clock reads should dominate the single pass", perPass, batched)
	}
	var said bool
	for _, f := range alone.Findings {
		said = said || f.Kind == KindBatch && strings.Contains(f.Text, "pass by pass")
	}
	if !said {
		t.Errorf("batch=1 of a short pass not said: %+v", alone.Findings)
	}
	for _, bad := range []string{"batch=0", "batch=-1", "batch=x", "batch=99999999999"} {
		if _, err := ParseOptions([]string{bad}); err == nil || !strings.Contains(err.Error(), "batch=") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

// An interrupt kills the process group within 2 s, keeps what was measured
// and marks the result partial.
func TestInterruptKeepsWhatWasMeasured(t *testing.T) {
	k := seedKernel(t, "c")
	ctx, cancel := context.WithCancel(context.Background())
	opt, _ := ParseOptions([]string{"runs=200", "settle=50ms"})
	opt.ResultsDir = t.TempDir()
	sawFresh := make(chan struct{}, 1)
	opt.Progress = func(p Progress) {
		if p.Phase == "part 2: fresh processes" && p.Process == 5 {
			select {
			case sawFresh <- struct{}{}:
			default:
			}
		}
	}
	type out struct {
		r   *Result
		err error
	}
	done := make(chan out, 1)
	go func() { r, err := Run(ctx, k, opt); done <- out{r, err} }()
	select {
	case <-sawFresh:
	case <-time.After(2 * time.Minute):
		t.Fatal("the run never reached its fresh processes")
	}
	start := time.Now()
	cancel()
	var o out
	select {
	case o = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after the interrupt")
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("the interrupt took %v", took)
	}
	if !errors.Is(o.err, ErrInterrupted) || o.r == nil || !o.r.Partial {
		t.Fatalf("err=%v partial=%v", o.err, o.r != nil && o.r.Partial)
	}
	if n := len(o.r.Series("sink", "interleaved")); n != o.r.Protocol.Reps {
		t.Errorf("the interleaved series measured before the interrupt has %d samples", n)
	}
	if f := o.r.Series("sink", "fresh"); len(f) == 0 || len(f) >= 200 {
		t.Errorf("fresh samples kept: %d", len(f))
	}
	if !hasFinding(o.r, KindPartial, "") {
		t.Error("no partial finding")
	}
}

// A checksum mismatch fails the run with both numbers.
func TestChecksumMismatchFails(t *testing.T) {
	k := buildC(t, "wrong", "static float a[64];\nBENCH_SETUP() { for (int i = 0; i < 64; i++) a[i] = 1; }\n"+
		"BENCH(sum) { float s = 0; for (int i = 0; i < 64; i++) s += a[i]; bench_checksum(s, 65.0); }\n")
	r, err := runQuick(t, context.Background(), k)
	if !errors.Is(err, ErrChecksum) {
		t.Fatalf("err = %v, want a checksum mismatch", err)
	}
	c := r.Variant("sum").Checksum
	for _, want := range []string{fmt.Sprintf("%.10g", c.Got), fmt.Sprintf("%.10g", c.Want*float64(c.Passes))} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not give %s: %v", want, err)
		}
	}
	if c.OK || c.Got != 64*float64(c.Passes) {
		t.Errorf("checksum %+v", c)
	}
}
