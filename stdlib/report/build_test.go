package report

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/harness"
	"github.com/benchbook/benchbook/schema"
	"github.com/benchbook/benchbook/stdlib/display"
)

// The build bundle marks both clock reads of every variant, the loop of a
// live variant and none in a dead one, in marks a sanitizer keeps, and its
// machine-readable entry follows build.schema.json.
func TestBuildBundle(t *testing.T) {
	code, err := os.ReadFile("../../internal/harness/testdata/seed000.c")
	if err != nil {
		t.Fatal(err)
	}
	k, err := harness.Build(context.Background(), harness.Spec{Name: "seed", Lang: "c", Code: string(code), Line: 2,
		Label: "Cell[1]", CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	b := Build(k)
	if err := schema.ValidateBuild(b[display.MIMEBuild]); err != nil {
		t.Errorf("build entry: %v", err)
	}
	html := b[display.MIMEHTML].(string)
	sections := strings.Split(html, "<details open")[1:]
	if len(sections) != 3 {
		t.Fatalf("%d open blocks, want one per variant", len(sections))
	}
	// Each variant also shows its batch loop, closed: what a batched
	// variant's samples time.
	if n := strings.Count(html, "'s batch loop (what its samples time"); n != 3 {
		t.Errorf("%d batch-loop blocks, want one per variant", n)
	}
	for i, name := range []string{"discarded", "sink", "checksum"} {
		sec := sections[i]
		if !strings.Contains(sec, "<b>"+name+"</b>") || strings.Count(sec, "◀ clock read") != 2 {
			t.Errorf("%s: the block does not name it or mark its two clock reads", name)
		}
		if loop := strings.Contains(sec, "┃ "); loop == (name == "discarded") {
			t.Errorf("%s: loop marks present = %v", name, loop)
		}
	}
	if !strings.Contains(b[display.MIMEText].(string), "DEAD: between the two clock reads") {
		t.Error("the text/plain fallback does not say discarded is dead")
	}
}

func TestOptLevelNote(t *testing.T) {
	for _, c := range []struct {
		lang  string
		flags []string
		says  string
	}{
		{"c", nil, ""},
		{"c", []string{"-Wall"}, "built at -O0"},
		{"c", []string{"-O3", "-march=native"}, ""},
		{"c", []string{"-Os"}, ""},
		{"go", []string{"-gcflags=-N -l"}, "optimiser is off"},
		{"go", []string{"-trimpath"}, ""},
	} {
		got := OptLevelNote(c.lang, c.flags)
		if (c.says == "") != (got == "") || !strings.Contains(got, c.says) {
			t.Errorf("%s %v: %q, want %q", c.lang, c.flags, got, c.says)
		}
	}
}
