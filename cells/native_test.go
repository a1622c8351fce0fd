package cells

import (
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/harness"
)

func TestWhatChanged(t *testing.T) {
	base := func() *harness.Kernel {
		return &harness.Kernel{Name: "k", Lang: "c", Compiler: "gcc 12", CompilerPath: "/usr/bin/cc", Flags: []string{"-O2"},
			SourceSHA256: "aaa", Key: "k1", Inputs: map[string]string{"lang": "c", "code": "aaa", "line": "2", "flags": "-O2",
				"compiler": "gcc 12", "path": "/usr/bin/cc", "harness": "h1"}}
	}
	for _, tc := range []struct {
		name   string
		change func(k *harness.Kernel)
		want   string
	}{
		{"nothing", func(k *harness.Kernel) {}, "unchanged (cached)"},
		{"source", func(k *harness.Kernel) { k.SourceSHA256, k.Key = "bbb", "k2" }, "source changed"},
		{"flags", func(k *harness.Kernel) { k.Flags, k.Key = []string{"-O3"}, "k2" }, "flags [-O2] -> [-O3]"},
		{"compiler", func(k *harness.Kernel) { k.Compiler, k.Key = "gcc 13", "k2" }, "compiler gcc 12 -> gcc 13"},
		{"environment", func(k *harness.Kernel) { k.Inputs["env CC"], k.Key = "clang", "k2" }, "environment changed: CC=clang (was unset)"},
		{"harness", func(k *harness.Kernel) { k.Inputs["harness"], k.Key = "h2", "k2" }, "the harness changed (benchbook was rebuilt)"},
		{"source and flags", func(k *harness.Kernel) { k.SourceSHA256, k.Flags, k.Key = "bbb", []string{"-O3"}, "k2" },
			"source changed and flags [-O2] -> [-O3]"},
		{"inputs not recorded", func(k *harness.Kernel) { k.Inputs, k.Key = nil, "k2" }, "the build inputs differ: cache key k1 -> k2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prev, k := base(), base()
			tc.change(k)
			got := whatChanged(prev, k)
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if tc.name != "harness" && strings.Contains(got, "harness") {
				t.Errorf("says the harness changed when it did not: %q", got)
			}
		})
	}
}

// An unchanged %%c cell executed again (a new label) is a cache hit and is
// not announced as replaced; an edited one says what changed.
func TestRedefinedKernelSaysWhatChanged(t *testing.T) {
	s := newSession(t)
	cell := "%%c k\nstatic volatile int x;\nBENCH(a) { x++; }\n"
	if _, _, e := execute(t, s, "Cell[1]", cell); e != nil {
		t.Fatal(e)
	}
	rec, _, e := execute(t, s, "Cell[2]", cell)
	if e != nil {
		t.Fatal(e)
	}
	if out := rec.streams.String(); strings.Contains(out, "replaced") {
		t.Errorf("an unchanged cell re-executed is announced: %q", out)
	}
	if k := s.kernels["k"]; k == nil || !k.Cached {
		t.Errorf("an unchanged cell re-executed was rebuilt: %+v", k)
	}
	rec, _, e = execute(t, s, "Cell[3]", "%%c k -std=c11 -O1\nstatic volatile int x;\nBENCH(a) { x++; }\n")
	if e != nil {
		t.Fatal(e)
	}
	if out, want := rec.streams.String(), "k was defined before in this session; it is replaced (flags [-std=c11 -O2] -> [-std=c11 -O1]).\n"; out != want {
		t.Errorf("got %q, want %q", out, want)
	}
}
