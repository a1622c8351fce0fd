package protocol

import (
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/benchbook/benchbook/internal/harness"
)

// walkKernel reads one byte of every 64 of a 16 MiB array (big) and of a
// 16 KiB one (small), after setup wrote both.
const walkKernel = `#define BIG (16 << 20)
#define SMALL (16 << 10)
static unsigned char big[BIG], small[SMALL];
BENCH_SETUP() { for (int i = 0; i < BIG; i++) big[i] = (unsigned char)i; for (int i = 0; i < SMALL; i++) small[i] = (unsigned char)i; }
BENCH(big)   { unsigned s = 0; for (int i = 0; i < BIG; i += 64) s += big[i]; bench_sink(s); }
BENCH(small) { unsigned s = 0; for (int i = 0; i < SMALL; i += 64) s += small[i]; bench_sink(s); }
`

// Under a simulated 1 MiB last-level cache, a walk of 16 MiB misses it
// about once per 64-byte line every pass (within 25% of 262144), and a
// walk of 16 KiB, which fits the 32 KiB first level, misses nothing once
// the cold misses of the first passes cancel in the difference of two
// runs. The geometry simulated is recorded, and said in the sentence.
func TestCountsSimulateCacheMisses(t *testing.T) {
	if _, err := exec.LookPath("valgrind"); err != nil {
		t.Skip("valgrind is not installed (scripts/setup.sh --browser installs it)")
	}
	old := countsCacheArgs
	countsCacheArgs = func() []string { return []string{"--I1=32768,8,64", "--D1=32768,8,64", "--LL=1048576,16,64"} }
	defer func() { countsCacheArgs = old }()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	k, err := harness.Build(ctx, harness.Spec{Name: "walk", Lang: "c", Code: walkKernel, Line: 2, Label: "Cell[1]",
		CacheDir: filepath.Join(os.TempDir(), "benchbook-test-cache")})
	if err != nil {
		t.Fatal(err)
	}
	r := quickRun(t, k, "counts", "fresh=small")
	lines := float64(16<<20) / 64
	b, s := r.Variant("big").Counts, r.Variant("small").Counts
	if b == nil || s == nil || b.LLMissesPerPass == nil || s.LLMissesPerPass == nil || b.D1MissesPerPass == nil || s.D1MissesPerPass == nil {
		t.Fatalf("counts without misses: %+v %+v", b, s)
	}
	t.Logf("big: D1 %v, LL %v misses per pass; small: D1 %v, LL %v; %q", *b.D1MissesPerPass, *b.LLMissesPerPass, *s.D1MissesPerPass, *s.LLMissesPerPass, b.Cache)
	if ll := *b.LLMissesPerPass; math.Abs(ll/lines-1) > 0.25 {
		t.Errorf("big: %v last-level misses per pass, want about %v", ll, lines)
	}
	if d1 := *b.D1MissesPerPass; math.Abs(d1/lines-1) > 0.25 {
		t.Errorf("big: %v first-level misses per pass, want about %v", d1, lines)
	}
	if *s.LLMissesPerPass > 2 || *s.D1MissesPerPass > 2 {
		t.Errorf("small: %v first-level and %v last-level misses per pass, want about 0", *s.D1MissesPerPass, *s.LLMissesPerPass)
	}
	if !strings.Contains(strings.Join(b.Cache, "\n"), "LL cache: 1048576 B, 64 B, 16-way associative") {
		t.Errorf("geometry recorded: %q", b.Cache)
	}
	text := ""
	for _, f := range r.Findings {
		if f.Kind == KindCounts && f.Variant != nil && *f.Variant == "big" {
			text = f.Text
		}
	}
	if !strings.Contains(text, "the last level") || !strings.Contains(text, "LL: 1048576 B") {
		t.Errorf("counts finding of big: %q", text)
	}
	// Every figure is recomputed from the two runs the result stores.
	if len(b.Runs) != 2 || b.Runs[0].Passes != countRounds[0] || b.Runs[1].Passes != countRounds[1] {
		t.Fatalf("big's runs: %+v, want two of %v passes", b.Runs, countRounds)
	}
	if again, err := CountsOf(b.Runs, b.Cache, r.Protocol.Elements); err != nil || !reflect.DeepEqual(again, b) {
		t.Errorf("CountsOf(big's runs) = %+v, %v; stored %+v", again, err, b)
	}
	checkResult(t, r)
}
