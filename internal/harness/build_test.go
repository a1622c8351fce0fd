package harness

import (
	"context"
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

func seedSpec(t *testing.T, lang string, flags []string) Spec {
	t.Helper()
	file := map[string]string{"c": "testdata/seed000.c", "go": "testdata/seed000_go.txt"}[lang]
	code, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return Spec{Name: "seed", Lang: lang, Code: string(code), Line: 2, Label: "Cell[1]", Flags: flags, CacheDir: t.TempDir()}
}

func build(t *testing.T, spec Spec) *Kernel {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	k, err := Build(ctx, spec)
	if err != nil {
		t.Fatalf("build %s: %v", spec.Lang, err)
	}
	return k
}

func deadness(k *Kernel) map[string]bool {
	m := map[string]bool{}
	for _, v := range k.Variants {
		m[v.Name] = v.Dead
	}
	return m
}

// Seed 000 at -O2 on gcc 12: the discarded sum is deleted, sink and checksum
// keep the loop; at -O0 nothing is deleted.
func TestSeedKernelC(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the assembly expectations are for amd64")
	}
	cases := []struct {
		name  string
		flags []string
		want  map[string]bool
	}{
		{"O2", nil, map[string]bool{"discarded": true, "sink": false, "checksum": false}},
		{"O0", []string{"-std=c11", "-O0"}, map[string]bool{"discarded": false, "sink": false, "checksum": false}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k := build(t, seedSpec(t, "c", c.flags))
			got := deadness(k)
			for name, want := range c.want {
				if got[name] != want {
					v, _ := k.Variant(name)
					t.Errorf("%s: dead=%v, want %v\n%s\n%s", name, got[name], want, v.Finding, v.Asm)
				}
			}
			if !k.Setup {
				t.Error("BENCH_SETUP not found")
			}
		})
	}
}

// The Go twin: whatever the Go compiler did, the finding agrees with the
// assembly shown: a variant is dead only if its region has no loop and no
// arithmetic, and a live variant's loop holds a float add.
func TestSeedKernelGo(t *testing.T) {
	k := build(t, seedSpec(t, "go", nil))
	for _, v := range k.Variants {
		a := v.Analysis
		if v.Dead != (len(a.Loops) == 0 && a.FP == 0 && a.Int == 0 && len(a.Calls) == 0) {
			t.Errorf("%s: dead=%v disagrees with its region %+v", v.Name, v.Dead, a)
		}
		if !strings.Contains(v.Asm, "runtime.nanotime") {
			t.Errorf("%s: assembly shows no clock read:\n%s", v.Name, v.Asm)
		}
	}
	for _, name := range []string{"sink", "checksum"} {
		v, _ := k.Variant(name)
		if v.Dead || v.Hollow || len(v.Analysis.Loops) == 0 || v.Analysis.Loops[0].FPOps() == 0 {
			t.Errorf("%s should keep its loop of float adds: %s", name, v.Finding)
		}
	}
	if d, _ := k.Variant("discarded"); !d.Dead && !d.Hollow {
		t.Errorf("discarded kept its arithmetic: %s", d.Finding)
	}
}

func TestCacheAndRebuild(t *testing.T) {
	spec := seedSpec(t, "c", nil)
	first := build(t, spec)
	if first.Cached {
		t.Fatal("first build says cached")
	}
	again := build(t, spec)
	if !again.Cached || again.BinarySHA256 != first.BinarySHA256 {
		t.Fatalf("unchanged rerun: cached=%v, same binary=%v", again.Cached, again.BinarySHA256 == first.BinarySHA256)
	}
	spec.Flags = []string{"-std=c11", "-O1"}
	if k := build(t, spec); k.Cached {
		t.Error("a flag change did not rebuild")
	}
	spec.Flags = nil
	spec.Code += "\n/* a change */\n"
	if k := build(t, spec); k.Cached {
		t.Error("a source change did not rebuild")
	}
}

func TestBuildErrors(t *testing.T) {
	cases := []struct {
		name, lang, code string
		flags            []string
		stage            string
		line             int
		says             string
	}{
		{"C syntax error on cell line 4", "c", "static int x;\nBENCH(a) { x++; }\nBENCH(b) { int y = ; }\n", nil, "compile", 4, "expected expression"},
		{"C duplicate variant", "c", "BENCH(a) { }\n\nBENCH(a) { }\n", nil, "source", 4, "defined twice, at lines 2 and 4"},
		{"C no variant", "c", "int x;\n", nil, "source", 0, "defines no variant"},
		{"C bad flag", "c", "BENCH(a) { }\n", []string{"-fno-such-flag"}, "flags", 0, "-fno-such-flag"},
		{"Go undefined name on cell line 3", "go", "func BenchA() {\n\tbench.Sink(y)\n}\n", nil, "compile", 3, "undefined: y"},
		{"Go main", "go", "func BenchA() {}\nfunc main() {}\n", nil, "source", 3, "must not define main"},
		{"Go wrong package", "go", "package foo\nfunc BenchA() {}\n", nil, "source", 2, "package main"},
		{"Go bad flag", "go", "func BenchA() {}\n", []string{"-nosuchflag"}, "flags", 0, "-nosuchflag"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			spec := Spec{Name: "k", Lang: c.lang, Code: c.code, Line: 2, Label: "Cell[7]", Flags: c.flags, CacheDir: t.TempDir()}
			_, err := Build(context.Background(), spec)
			var be *Error
			if !errors.As(err, &be) {
				t.Fatalf("want a *Error, got %v", err)
			}
			if be.Stage != c.stage || be.Line != c.line || !strings.Contains(be.Message, c.says) {
				t.Errorf("got stage=%q line=%d message:\n%s\nwant stage=%q line=%d containing %q", be.Stage, be.Line, be.Message, c.stage, c.line, c.says)
			}
		})
	}
}

func TestMissingCompiler(t *testing.T) {
	t.Setenv("CC", "no-such-cc-benchbook")
	_, err := Build(context.Background(), Spec{Name: "k", Lang: "c", Code: "BENCH(a) {}\n", Line: 2, Label: "Cell[1]", CacheDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "install the Debian package gcc") {
		t.Fatalf("want an error naming the package to install, got %v", err)
	}
}
