package asm

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse reads arbitrary bytes as GNU objdump or go tool objdump output
// (All, and Find of each function read) and analyses every function read
// (Analyze, AnalyzeBatch, for amd64 and arm64 operand order), normalises the
// input, and diffs each function's Text with the one before: nothing panics, each
// function read is found again by name (of three at most), and an analysis without an error
// has its region inside the function and two clock reads at least. Seeds are
// the listings of testdata and testdata/normalize.
//
//	go test ./internal/asm -run '^$' -fuzz '^FuzzParse$' -fuzztime 60s
func FuzzParse(f *testing.F) {
	paths, _ := filepath.Glob("testdata/*objdump")
	more, _ := filepath.Glob("testdata/normalize/*objdump")
	for _, p := range append(paths, more...) {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, strings.HasSuffix(p, ".goobjdump"), false)
	}
	f.Add([]byte("0000000000001139 <f>:\n    1139:\tcall   1030 <clock_gettime@plt>\n    113e:\tjmp    1139 <f>\n    1140:\tcall   1030 <clock_gettime@plt>\n"), false, false)
	f.Add([]byte("TEXT main.f(SB) /x.go\n  x.go:1\t\t0x10\t\te8\t\tCALL runtime.nanotime(SB)\n  x.go:2\t\t0x15\t\teb\t\tJMP 0x10\n  x.go:3\t\t0x17\t\te8\t\tCALL runtime.nanotime(SB)\n"), true, false)
	f.Add([]byte("0000000000000010 <f>:\n  10:\tbl\t0 <clock_gettime>\n  14:\tsubs\tx0, x0, #0x1\n  18:\tb.ne\t14 <f+0x4>\n  1c:\tbl\t0 <clock_gettime>\n"), false, true)
	f.Fuzz(func(t *testing.T, data []byte, goSyntax, arm bool) {
		if len(data) > 1<<16 {
			return // the reader is linear; large inputs only slow the search
		}
		syntax := GNU
		if goSyntax {
			syntax = Go
		}
		funcs, err := All(bytes.NewReader(data), syntax)
		if err != nil {
			return // a line longer than the reader's buffer
		}
		_ = Normalize(string(data))
		prev := ""
		for name, fn := range funcs {
			if len(funcs) <= 3 {
				if found, err := Find(bytes.NewReader(data), syntax, name); err != nil || found.Name != name {
					t.Fatalf("function %q read by All is not found: %v", name, err)
				}
			}
			text := fn.Text()
			_, _ = Diff(prev, text)
			prev = text
			for _, analyze := range []func(Func, bool) (Analysis, error){Analyze, AnalyzeBatch} {
				a, err := analyze(fn, arm)
				if err != nil {
					continue
				}
				if a.ClockReads < 2 || len(a.Region) > len(fn.Insts) {
					t.Fatalf("%s: analysis with %d clock reads and a region of %d of %d instructions", name, a.ClockReads, len(a.Region), len(fn.Insts))
				}
				for _, l := range a.Loops {
					_, _ = l.FPOps(), l.Hollow()
				}
			}
		}
	})
}
