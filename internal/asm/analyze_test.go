package asm

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

func analyzeFixture(t *testing.T, file string, syntax Syntax, fn string) Analysis {
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
	a, err := Analyze(fun, false)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// The seed's kernel (seed 000): at -O2 the discarded sum is removed and the
// two consuming variants keep the loop with its dependent float adds; at -O0
// nothing is removed.
func TestSeedKernelC(t *testing.T) {
	cases := []struct {
		name, file, fn string
		dead, hollow   bool
		minFP          int
	}{
		{"O2 discarded is dead", "testdata/seed000_c_O2_amd64.objdump", "bench_time_discarded", true, false, 0},
		{"O2 sink keeps the adds", "testdata/seed000_c_O2_amd64.objdump", "bench_time_sink", false, false, 1},
		{"O2 checksum keeps the adds", "testdata/seed000_c_O2_amd64.objdump", "bench_time_checksum", false, false, 1},
		{"O0 discarded keeps the loop", "testdata/seed000_c_O0_amd64.objdump", "bench_time_discarded", false, false, 1},
		{"O0 sink", "testdata/seed000_c_O0_amd64.objdump", "bench_time_sink", false, false, 1},
		{"O0 checksum", "testdata/seed000_c_O0_amd64.objdump", "bench_time_checksum", false, false, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := analyzeFixture(t, c.file, GNU, c.fn)
			if a.Dead != c.dead || a.Hollow != c.hollow {
				t.Errorf("dead=%v hollow=%v, want dead=%v hollow=%v; finding: %s", a.Dead, a.Hollow, c.dead, c.hollow, a.Finding)
			}
			if !c.dead && (len(a.Loops) == 0 || a.Loops[0].FPOps() < c.minFP) {
				t.Errorf("want a loop with at least %d FP ops, got %+v", c.minFP, a.Loops)
			}
			if c.dead && !strings.Contains(a.Finding, "this variant times the clock") {
				t.Errorf("finding does not say the variant times the clock: %s", a.Finding)
			}
			if a.ClockReads != 2 {
				t.Errorf("clock reads = %d, want 2", a.ClockReads)
			}
		})
	}
}

// Go's compiler keeps the counting loop of a discarded sum but drops the adds.
func TestSeedKernelGo(t *testing.T) {
	a := analyzeFixture(t, "testdata/seed000_go_amd64.goobjdump", Go, "main.bbTime_discarded")
	if a.Dead || !a.Hollow {
		t.Errorf("discarded: dead=%v hollow=%v, want a hollow loop; %s", a.Dead, a.Hollow, a.Finding)
	}
	for _, fn := range []string{"main.bbTime_sink", "main.bbTime_checksum"} {
		a := analyzeFixture(t, "testdata/seed000_go_amd64.goobjdump", Go, fn)
		if a.Dead || a.Hollow || len(a.Loops) != 1 || a.Loops[0].FP["addss"] != 1 {
			t.Errorf("%s: want one live loop with one addss, got dead=%v hollow=%v loops=%+v", fn, a.Dead, a.Hollow, a.Loops)
		}
	}
}

func TestTooFewClockReads(t *testing.T) {
	f := Func{Name: "f", Insts: []Inst{{Addr: 1, Mnemonic: "call", Sym: "clock_gettime@plt"}, {Addr: 2, Mnemonic: "ret"}}}
	if _, err := Analyze(f, false); err == nil || !strings.Contains(err.Error(), "found 1") {
		t.Fatalf("want an error naming one clock read, got %v", err)
	}
}

// What Func.Text writes, ParseText reads back to the same instructions and
// the same analysis, for either disassembler: verify re-derives dead and
// hollow from the assembly a notebook stores.
func TestParseTextRoundTrip(t *testing.T) {
	for _, c := range []struct {
		file   string
		syntax Syntax
	}{{"testdata/seed000_c_O2_amd64.objdump", GNU}, {"testdata/seed000_c_O0_amd64.objdump", GNU},
		{"testdata/seed000_go_amd64.goobjdump", Go}, {"testdata/seed000_go_batch_amd64.goobjdump", Go}} {
		f, err := os.Open(c.file)
		if err != nil {
			t.Fatal(err)
		}
		funcs, err := All(f, c.syntax)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for name, fn := range funcs {
			back, err := ParseText(fn.Text())
			if err != nil {
				t.Fatalf("%s %s: %v", c.file, name, err)
			}
			if !reflect.DeepEqual(back, fn) {
				t.Fatalf("%s %s: read back as\n%+v\nwant\n%+v", c.file, name, back, fn)
			}
			if want, err := Analyze(fn, false); err == nil {
				n++
				if got, _ := Analyze(back, false); got.Dead != want.Dead || got.Hollow != want.Hollow || got.Finding != want.Finding {
					t.Errorf("%s %s: analysed %v/%v %q, want %v/%v %q", c.file, name, got.Dead, got.Hollow, got.Finding, want.Dead, want.Hollow, want.Finding)
				}
			}
		}
		if n == 0 {
			t.Errorf("%s: no timed function analysed", c.file)
		}
	}
	for _, bad := range []string{"", "  401000:\tret", "f:\n401000 ret", "f:\n  zz:\tret"} {
		if _, err := ParseText(bad); err == nil {
			t.Errorf("ParseText(%q) read it", bad)
		}
	}
}
