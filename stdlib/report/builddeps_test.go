package report

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/harness"
)

// Issue 23 item 1: the build line says "cached" only when no file that
// reaches the binary changed, and a rebuild names the file that did.
func TestBuildLineNamesTheChangedFile(t *testing.T) {
	inc := t.TempDir()
	header := filepath.Join(inc, "work.h")
	spec := harness.Spec{Name: "k", Lang: "c", Line: 2, Label: "Cell[1]", CacheDir: t.TempDir(), Flags: []string{"-O2", "-I" + inc},
		Code: "#include \"work.h\"\nBENCH(a) { bench_sink(WORK); }\n"}
	build := func(work string) string {
		t.Helper()
		if work != "" {
			if err := os.WriteFile(header, []byte("#define WORK "+work+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		k, err := harness.Build(context.Background(), spec)
		if err != nil {
			t.Fatal(err)
		}
		return BuildLine(k)
	}
	if line := build("1000"); !strings.Contains(line, "built in") {
		t.Errorf("first build: %s", line)
	}
	if line := build(""); !strings.Contains(line, "cached: source, flags, compiler, harness and the ") || !strings.Contains(line, "files the build read unchanged") {
		t.Errorf("unchanged: %s", line)
	}
	if line := build("1000000"); !strings.Contains(line, "rebuilt in ") || !strings.Contains(line, "header "+header+" changed") || strings.Contains(line, "cached") {
		t.Errorf("changed header: %s", line)
	}
}
