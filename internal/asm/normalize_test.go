package asm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func listing(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "normalize", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// asText is the listing as the harness stores it in a result: Func.Text.
func asText(t *testing.T, name string, syntax Syntax, fn string) string {
	t.Helper()
	f, err := Find(strings.NewReader(listing(t, name)), syntax, fn)
	if err != nil {
		t.Fatal(err)
	}
	return f.Text()
}

func TestDiff(t *testing.T) {
	c := listing(t, "c_O2.objdump")
	goL := listing(t, "go.goobjdump")
	edit := func(s, old, new string) string {
		if !strings.Contains(s, old) {
			t.Fatalf("fixture lacks %q", old)
		}
		return strings.Replace(s, old, new, 1)
	}
	for _, tc := range []struct {
		name          string
		before, after string
		changed       int      // lines that differ, added plus removed
		want          []string // in the diff
	}{
		{"same listing", c, c, 0, nil},
		{"C: an unrelated function linked before it, raw bytes shown", c, listing(t, "c_O2_unrelated_before_rawbytes.objdump"), 0, nil},
		{"C: -falign-functions=64 -falign-loops=32 (other padding)", c, listing(t, "c_O2_align64.objdump"), 0, nil},
		{"C: a jmp over the nops of an alignment of 128", edit(c, "jne    11a8 <kern+0x38>", "jne    11a8 <kern+0x38>\n    123d:\tjmp    1242 <kern+0xd2>\n    123f:\tnopl   0x0(%rax)"), c, 0, nil},
		{"C: a jmp to the next instruction over no padding is kept", edit(c, "jne    11a8 <kern+0x38>", "jne    11a8 <kern+0x38>\n    123f:\tjmp    1242 <kern+0xd2>"), c, 1, []string{"-jmp .+1"}},
		{"C: Intel syntax against itself moved", listing(t, "c_O2_intel.objdump"),
			strings.NewReplacer("1170:", "2170:", "[rip+0x2fc9]", "[rip+0x1fc9]", "4140 <a>", "5140 <a>").Replace(listing(t, "c_O2_intel.objdump")), 0, nil},
		{"C: stored as Func.Text", c, asText(t, "c_O2.objdump", GNU, "kern"), 0, nil},
		{"C: a changed displacement (N from 1<<14 to 1<<16)", c, listing(t, "c_O2_N65536.objdump"), 2,
			[]string{"-lea 0x10000(%rsi),%r9", "+lea 0x40000(%rsi),%r9"}},
		{"C: a changed immediate", c, edit(c, "add    $0x10,%rsi", "add    $0x20,%rsi"), 2, []string{"-add $0x10,%rsi", "+add $0x20,%rsi"}},
		{"C: a changed register", c, edit(c, "movd   %xmm0,%r8d", "movd   %xmm0,%r9d"), 2, []string{"+movd %xmm0,%r9d"}},
		{"C: a changed scale", c, edit(c, "mov    (%rdi,%rax,4),%eax", "mov    (%rdi,%rax,8),%eax"), 2, []string{"+mov (%rdi,%rax,8),%eax"}},
		{"C: a negative displacement", c, edit(c, "mulps  -0x10(%rsi),%xmm0", "mulps  -0x20(%rsi),%xmm0"), 2, []string{"+mulps -0x20(%rsi),%xmm0"}},
		{"C: another element of a named array", c, edit(c, "# 4040 <tbl>", "# 4080 <tbl+0x40>"), 2, []string{"+lea (%rip),%rdi # <tbl+0x40>"}},
		{"C: a loop branch to another instruction", c, edit(c, "jne    11a8 <kern+0x38>", "jne    11ac <kern+0x3c>"), 2, []string{"-jne .-39", "+jne .-38"}},
		{"Go: an unrelated function before it", goL, listing(t, "go_unrelated_before.goobjdump"), 0, nil},
		{"Go: stored as Func.Text", asText(t, "go.goobjdump", Go, "main.kern"), goL, 0, nil},
		{"Go: a changed immediate (N from 1<<14 to 1<<16)", goL, listing(t, "go_N65536.goobjdump"), 2, []string{"+CMPQ AX, $0x10000"}},
		{"Go: a changed displacement", goL, edit(goL, "MULSS 0(CX)(AX*4), X1", "MULSS 0x10(CX)(AX*4), X1"), 2, []string{"+MULSS 0x10(CX)(AX*4), X1"}},
		{"Go: a changed register", goL, edit(goL, "ADDSS X1, X0", "ADDSS X2, X0"), 2, []string{"+ADDSS X2, X0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			diff, n := Diff(tc.before, tc.after)
			if n != tc.changed {
				t.Errorf("%d lines differ, want %d:\n%s", n, tc.changed, diff)
			}
			for _, w := range tc.want {
				if !strings.Contains(diff, w) {
					t.Errorf("the diff lacks %q:\n%s", w, diff)
				}
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	got := Normalize(listing(t, "c_O2.objdump"))
	for _, w := range []string{"kern:", "lea (%rip),%rsi # <a>", "movdqa (%rip),%xmm2 # <_IO_stdin_used>", "lea 0x10000(%rsi),%r9",
		"pshufd $0x55,%xmm0,%xmm1", "jne .-39", "ret"} {
		found := false
		for _, l := range got {
			found = found || l == w
		}
		if !found {
			t.Errorf("normalised listing lacks the line %q:\n%s", w, strings.Join(got, "\n"))
		}
	}
	for _, l := range got {
		if strings.Contains(l, "nop") || strings.Contains(l, "1170") {
			t.Errorf("padding or an address survived: %q", l)
		}
	}
	g := Normalize(listing(t, "go.goobjdump"))
	want := []string{"main.kern:", "XORL AX, AX", "XORPS X0, X0", "JMP .+9", "MOVQ AX, CX"}
	for i, w := range want {
		if i >= len(g) || g[i] != w {
			t.Fatalf("Go listing normalised to:\n%s\nwant it to start with %q", strings.Join(g, "\n"), want)
		}
	}
	if !strings.Contains(strings.Join(g, "\n"), "JL .-9\nRET") {
		t.Errorf("the loop branch: %s", strings.Join(g, "\n"))
	}
	for _, tc := range []struct{ name, in, want string }{
		{"call through the PLT", "  1c1c:\tcall   1060 <clock_gettime@plt>", "call <clock_gettime@plt>"},
		{"indirect call off rip", "  1c1c:\tcall   *0x2fe2(%rip)        # 3fd8 <f@GLIBC>", "call *(%rip) # <f@GLIBC>"},
		{"jump into another function", "  1c1c:\tjmp    23e0 <bench_register_+0x10>", "jmp <bench_register_>"},
		{"non-PIE absolute address", "  401000:\tmov    0x404028,%eax", "mov ADDR,%eax"},
		{"immediate kept", "  401000:\tmov    $0x404028,%eax", "mov $0x404028,%eax"},
		{"arm64 page address", "  7a4:\tadrp\tx0, 11000 <a+0x8>", "adrp x0, <a+0x8>"},
		{"arm64 branch in another function", "  7a8:\tb.ne\t7f0 <f+0x40>", "b.ne <f>"},
		{"Go absolute branch outside", "  main.go:3\t\t0x47a745\t\teb21\t\tJBE 0x47a800\t", "JBE ADDR"},
	} {
		if got := Normalize(tc.in); len(got) != 1 || got[0] != tc.want {
			t.Errorf("%s: %q normalises to %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}
