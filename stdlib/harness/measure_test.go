package harness

import (
	"runtime"
	"strings"
	"testing"
)

// A store to a static variable of the cell stays between the two clock
// reads of the timed function and inside the loop over k of the batch
// function: benchbook.h puts a compiler barrier at each clock read, since
// glibc declares clock_gettime __leaf__ and a store to memory the call
// cannot see could otherwise move across it.
func TestClockBarrierKeepsStore(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the assembly expectations are for amd64")
	}
	code := "static int n;\nstatic long out;\nBENCH_SETUP() { n = 3; }\nBENCH(store) { out = n * 7L; }\nBENCH(read) { bench_sink(out); }\n"
	k := build(t, Spec{Name: "barrier", Lang: "c", Code: code, Line: 2, Label: "Cell[1]", CacheDir: t.TempDir()})
	v, _ := k.Variant("store")
	stores := func(insts []string) int {
		n := 0
		for _, s := range insts {
			if strings.HasPrefix(s, "mov") && strings.Contains(s, "<out>") && strings.Contains(s, ",") &&
				strings.Index(s, "(%rip)") > strings.Index(s, ",") {
				n++
			}
		}
		return n
	}
	var region []string
	for _, in := range v.Analysis.Region {
		region = append(region, in.Text)
	}
	if stores(region) != 1 {
		t.Errorf("the store to out is not between the two clock reads:\n%s", v.Asm)
	}
	var kLoop []string
	if b := v.BatchAnalysis.Batch; b != nil {
		for _, in := range v.BatchAnalysis.Region {
			if in.Addr >= b.Start && in.Addr <= b.End {
				kLoop = append(kLoop, in.Text)
			}
		}
	}
	if stores(kLoop) != 1 {
		t.Errorf("the store to out is not inside the loop over k of the batch function:\n%s", v.BatchAsm)
	}
}

// Every variant's batch function is disassembled and analysed with the
// loop over k set aside: the batch of a body the compiler removed is not
// live, the batch of a body that keeps its float adds is.
func TestBatchFunctionsAnalysed(t *testing.T) {
	for _, lang := range []string{"c", "go"} {
		t.Run(lang, func(t *testing.T) {
			k := seedKernel(t, lang)
			for _, v := range k.Variants {
				if v.BatchAsm == "" || v.BatchAnalysis.Batch == nil {
					t.Errorf("%s: batch function %q not analysed: %s", v.Name, v.BatchSymbol, v.BatchFinding)
				}
			}
			d, _ := k.Variant("discarded")
			if !d.BatchDead && !d.BatchHollow {
				t.Errorf("discarded: the batch is live: %s\n%s", d.BatchFinding, d.BatchAsm)
			}
			if lang == "c" && runtime.GOARCH == "amd64" && !d.BatchDead {
				t.Errorf("discarded at -O2: the batch should be dead: %s", d.BatchFinding)
			}
			for _, name := range []string{"sink", "checksum"} {
				v, _ := k.Variant(name)
				if v.BatchDead || v.BatchHollow || len(v.BatchAnalysis.Loops) == 0 || v.BatchAnalysis.Loops[0].FPOps() == 0 {
					t.Errorf("%s: the batch should keep its loop of float adds: %s", name, v.BatchFinding)
				}
				if v.BatchAnalysis.Hoisted != 0 {
					t.Errorf("%s: work outside the loop over k: %s", name, v.BatchFinding)
				}
			}
		})
	}
}
