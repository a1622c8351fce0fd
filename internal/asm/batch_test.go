package asm

import (
	"os"
	"strings"
	"testing"
)

func analyzeBatchFixture(t *testing.T, file string, syntax Syntax, fn string) Analysis {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fun, err := Find(f, syntax, fn)
	if err != nil {
		t.Fatal(err)
	}
	a, err := AnalyzeBatch(fun, false)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// The batch functions of seed 000: the loop over k is set aside, so the
// batch of the discarded sum is dead in C at -O2 (the loop over k and its
// barrier are all that is left) and hollow in Go (the counting loop the Go
// compiler keeps), while sink and checksum keep their float adds inside
// the loop over k, and nothing is computed outside it.
func TestAnalyzeBatchSeed(t *testing.T) {
	cases := []struct {
		name, file   string
		syntax       Syntax
		fn           string
		dead, hollow bool
		fp           string // a mnemonic an inner loop must hold, "" for none
		findingSays  string
	}{
		{"C O2 discarded", "testdata/seed000_c_O2_amd64.objdump", GNU, "bench_batch_discarded", true, false, "", "times the clock and an empty loop"},
		{"C O2 sink", "testdata/seed000_c_O2_amd64.objdump", GNU, "bench_batch_sink", false, false, "addss", "the work is there"},
		{"C O2 checksum", "testdata/seed000_c_O2_amd64.objdump", GNU, "bench_batch_checksum", false, false, "addss", "the work is there"},
		{"C O0 discarded", "testdata/seed000_c_O0_amd64.objdump", GNU, "bench_batch_discarded", false, false, "addss", "the work is there"},
		{"Go discarded", "testdata/seed000_go_batch_amd64.goobjdump", Go, "main.bbBatch_BenchDiscarded", false, true, "", "times empty loops"},
		{"Go sink", "testdata/seed000_go_batch_amd64.goobjdump", Go, "main.bbBatch_BenchSink", false, false, "addss", "the work is there"},
		{"Go checksum", "testdata/seed000_go_batch_amd64.goobjdump", Go, "main.bbBatch_BenchChecksum", false, false, "addss", "the work is there"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := analyzeBatchFixture(t, c.file, c.syntax, c.fn)
			if a.Batch == nil {
				t.Fatalf("no loop over k found: %s", a.Finding)
			}
			if a.Dead != c.dead || a.Hollow != c.hollow {
				t.Errorf("dead=%v hollow=%v, want dead=%v hollow=%v; %s", a.Dead, a.Hollow, c.dead, c.hollow, a.Finding)
			}
			if c.fp != "" && (len(a.Loops) == 0 || a.Loops[0].FP[c.fp] == 0) {
				t.Errorf("want an inner loop with %s, got %+v", c.fp, a.Loops)
			}
			if a.Hoisted != 0 {
				t.Errorf("%d instructions outside the loop over k: %s", a.Hoisted, a.Finding)
			}
			for _, l := range a.Loops {
				if l.Start < a.Batch.Start || l.End > a.Batch.End {
					t.Errorf("inner loop %+v outside the loop over k %+v", l, *a.Batch)
				}
			}
			if !strings.Contains(a.Finding, c.findingSays) {
				t.Errorf("finding does not say %q: %s", c.findingSays, a.Finding)
			}
		})
	}
}

// The single-pass analysis of a batch function would count the loop over k
// as a hollow loop; the batch analysis does not.
func TestAnalyzeBatchSetsKAside(t *testing.T) {
	f, err := os.Open("testdata/seed000_c_O2_amd64.objdump")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fun, err := Find(f, GNU, "bench_batch_discarded")
	if err != nil {
		t.Fatal(err)
	}
	single, _ := Analyze(fun, false)
	if single.Dead || !single.Hollow {
		t.Errorf("single-pass analysis of the batch: dead=%v hollow=%v, want the loop over k seen as a hollow loop", single.Dead, single.Hollow)
	}
	batch, _ := AnalyzeBatch(fun, false)
	if !batch.Dead || len(batch.Loops) != 0 || batch.Int != 0 {
		t.Errorf("batch analysis: dead=%v loops=%d int=%d, want dead with no loop and no arithmetic", batch.Dead, len(batch.Loops), batch.Int)
	}
}

// Work the compiler computed once, before the loop over k, is named.
func TestAnalyzeBatchHoisted(t *testing.T) {
	insts := []Inst{
		{Addr: 0x10, Mnemonic: "call", Sym: "clock_gettime@plt"},
		{Addr: 0x14, Mnemonic: "addss", Operands: "%xmm1,%xmm0"},
		{Addr: 0x18, Mnemonic: "xor", Operands: "%eax,%eax"},
		{Addr: 0x1c, Mnemonic: "add", Operands: "$0x1,%rax"},
		{Addr: 0x20, Mnemonic: "cmp", Operands: "%rax,%rbx"},
		{Addr: 0x24, Mnemonic: "jne", Operands: "1c", Target: 0x1c},
		{Addr: 0x28, Mnemonic: "call", Sym: "clock_gettime@plt"},
	}
	a, err := AnalyzeBatch(Func{Name: "bench_batch_h", Insts: insts}, false)
	if err != nil {
		t.Fatal(err)
	}
	if a.Dead || a.Hoisted != 1 || !strings.Contains(a.Finding, "computed once for all k passes") {
		t.Errorf("dead=%v hoisted=%d: %s", a.Dead, a.Hoisted, a.Finding)
	}
}
