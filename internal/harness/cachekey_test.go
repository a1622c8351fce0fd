package harness

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Re-executing an unchanged cell gives it a new label (Cell[1], then
// Cell[7]); nothing of the label reaches the binary, so it is a cache hit.
func TestCacheIgnoresTheLabel(t *testing.T) {
	for _, tc := range []struct {
		name, lang string
		flags      []string
	}{
		{"C", "c", nil},
		{"C with -g (DWARF names the file)", "c", []string{"-std=c11", "-O2", "-g"}},
		{"Go (pcln tables name the file)", "go", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := seedSpec(t, tc.lang, tc.flags)
			first := build(t, spec)
			spec.Label = "Cell[7]"
			again := build(t, spec)
			if !again.Cached || again.Key != first.Key || again.BinarySHA256 != first.BinarySHA256 {
				t.Fatalf("the same cell under another label: cached=%v, same key=%v, same binary=%v",
					again.Cached, again.Key == first.Key, again.BinarySHA256 == first.BinarySHA256)
			}
			if first.Label != "Cell[1]" || again.Label != "Cell[7]" {
				t.Errorf("labels %q and %q", first.Label, again.Label)
			}
			for _, k := range []*Kernel{first, again} {
				for _, v := range k.Variants {
					if strings.Contains(v.Asm, compileLabel) {
						t.Errorf("%s: the assembly shows the compile's file name:\n%s", v.Name, v.Asm)
					}
				}
			}
			if tc.lang == "go" {
				if v := again.Variants[1]; !strings.Contains(v.Asm, "Cell[7]:") {
					t.Errorf("the Go listing does not name the cell:\n%s", v.Asm)
				}
			}
		})
	}
}

// The key holds what reaches the binary and nothing else.
func TestCacheInputs(t *testing.T) {
	spec := Spec{Name: "k", Lang: "c", Code: "BENCH(a) {}\n", Line: 2, Label: "Cell[1]"}
	base := cacheKey(cacheInputs(spec, DefaultFlags("c"), "gcc 12", "/usr/bin/cc"))
	other := spec
	other.Label, other.Name = "Cell[9]", "renamed"
	if cacheKey(cacheInputs(other, DefaultFlags("c"), "gcc 12", "/usr/bin/cc")) != base {
		t.Error("the label or the kernel name changes the key")
	}
	for _, tc := range []struct {
		name string
		key  func() string
	}{
		{"code", func() string {
			s := spec
			s.Code += "\n"
			return cacheKey(cacheInputs(s, DefaultFlags("c"), "gcc 12", "/usr/bin/cc"))
		}},
		{"line", func() string {
			s := spec
			s.Line = 3
			return cacheKey(cacheInputs(s, DefaultFlags("c"), "gcc 12", "/usr/bin/cc"))
		}},
		{"flags", func() string { return cacheKey(cacheInputs(spec, []string{"-O3"}, "gcc 12", "/usr/bin/cc")) }},
		{"compiler", func() string { return cacheKey(cacheInputs(spec, DefaultFlags("c"), "gcc 13", "/usr/bin/cc")) }},
		{"CC", func() string {
			t.Setenv("CC", "clang")
			return cacheKey(cacheInputs(spec, DefaultFlags("c"), "gcc 12", "/usr/bin/cc"))
		}},
	} {
		if tc.key() == base {
			t.Errorf("a change of %s keeps the key", tc.name)
		}
	}
}

// A compile error still names the cell by its label and line.
func TestCompileErrorNamesTheLabel(t *testing.T) {
	for _, tc := range []struct{ lang, code, says string }{
		{"c", "static int x;\nBENCH(a) { x++; }\nBENCH(b) { int y = ; }\n", "Cell[7]:4:"},
		{"go", "func BenchA() {\n\tbench.Sink(y)\n}\n", "Cell[7]:3:"},
		{"go", "func BenchA() {\n\tx := \n}\n", "Cell[7]:"},
	} {
		_, err := Build(context.Background(), Spec{Name: "k", Lang: tc.lang, Code: tc.code, Line: 2, Label: "Cell[7]", CacheDir: t.TempDir()})
		var be *Error
		if !errors.As(err, &be) || !strings.Contains(be.Message, tc.says) || strings.Contains(be.Message, compileLabel) || be.Line == 0 {
			t.Errorf("%s: %v (line %d), want a message naming %q", tc.lang, err, be.Line, tc.says)
		}
	}
}

// Rebuilding a changed kernel leaves the previous build runnable.
func TestEarlierBuildsStay(t *testing.T) {
	spec := seedSpec(t, "c", nil)
	first := build(t, spec)
	spec.Code += "\n/* a change */\n"
	second := build(t, spec)
	if second.Key == first.Key || second.Binary == first.Binary {
		t.Fatal("a changed source shares the entry")
	}
	if sum, err := fileSHA256(first.Binary); err != nil || sum != first.BinarySHA256 {
		t.Errorf("the earlier build is gone or changed: %v", err)
	}
	if _, err := os.Stat(second.Binary); err != nil {
		t.Error(err)
	}
}

// What the toolchain generates around the cell (the #line'd cell, the Go
// main, the harness) is in the key by its hash: the same for two prepares
// of one cell, another when one byte of it differs, so that a benchbook
// whose generator changed does not take a binary built from the old text.
func TestKeyHoldsTheGeneratedText(t *testing.T) {
	for _, lang := range []string{"c", "go"} {
		spec := seedSpec(t, lang, nil)
		k := build(t, spec)
		tc, _ := toolchainFor(lang)
		dir := t.TempDir()
		spec.Label = compileLabel
		if _, _, err := tc.prepare(spec, dir); err != nil {
			t.Fatal(err)
		}
		h, err := treeSHA256(dir)
		if err != nil || len(h) != 64 || k.Inputs["generated"] != h {
			t.Fatalf("%s: generated %q, a prepare of the same cell hashes to %q (%v)", lang, k.Inputs["generated"], h, err)
		}
		entries, _ := os.ReadDir(dir)
		i := slices.IndexFunc(entries, func(e os.DirEntry) bool { return !e.IsDir() })
		if i < 0 {
			t.Fatalf("%s: prepare wrote no file at the top of %s", lang, dir)
		}
		f := filepath.Join(dir, entries[i].Name())
		b, _ := os.ReadFile(f)
		_ = os.WriteFile(f, append(b, ' '), 0o600)
		if h2, _ := treeSHA256(dir); h2 == h {
			t.Errorf("%s: one byte more in %s left the hash as it was", lang, entries[i].Name())
		}
	}
}
