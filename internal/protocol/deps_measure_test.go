package protocol

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/harness"

	"github.com/benchbook/benchbook/internal/measuretest"
)

// Issue 23 item 1: a header the cell includes changes from #define WORK
// 1000 to 1000000; the cell rebuilds and %bench measures the new code
// (the chain is a thousand times longer: its median at least a hundred
// times the old one), where a stale cache measured the old one.
func TestChangedHeaderIsMeasured(t *testing.T) {
	measuretest.Gate(t)
	inc := t.TempDir()
	header := filepath.Join(inc, "work.h")
	spec := harness.Spec{Name: "work", Lang: "c", Line: 2, Label: "Cell[1]", CacheDir: t.TempDir(),
		Flags: []string{"-std=c11", "-O2", "-I" + inc},
		Code:  "#include \"work.h\"\nstatic unsigned x = 1;\nBENCH(chain) { for (int i = 0; i < WORK; i++) x = x * 3u + 1u; bench_sink(x); }\n"}
	measure := func(work string) (*harness.Kernel, float64) {
		t.Helper()
		if err := os.WriteFile(header, []byte("#define WORK "+work+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		k, err := harness.Build(context.Background(), spec)
		if err != nil {
			t.Fatal(err)
		}
		return k, quickRun(t, k).Summary("chain", "interleaved").Median
	}
	k1, small := measure("1000")
	k2, large := measure("1000000")
	if k2.Cached || !strings.Contains(k2.Rebuilt, header+" changed") {
		t.Fatalf("the changed header: cached=%v rebuilt=%q", k2.Cached, k2.Rebuilt)
	}
	if k1.BinarySHA256 == k2.BinarySHA256 {
		t.Fatal("the same binary for both headers")
	}
	if !(large > 100*small) {
		t.Errorf("median %v ns with WORK 1000000, %v ns with WORK 1000: not the new code", large, small)
	}
}
