package report

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/benchbook/benchbook/internal/protocol/benchtest"
	"github.com/benchbook/benchbook/internal/result"
)

// run is one synthetic run of a two-variant kernel whose live variant takes
// scale times 500 µs, with an A/A interval of +-aa.
func run(seed uint64, scale, aa float64) *result.Result {
	r := benchtest.Synthetic(benchtest.Spec{Seed: seed, LoadAvg: [2]float64{0.3, 0.4}, FreqMHz: 2900, ReadNS: 21,
		Variants: []benchtest.VariantSpec{
			{Name: "sink", MedianNS: 500000 * scale, Spread: 0.01, Asm: "  1270:\tsub $0x28,%rsp\n  1274:\tmov $0x4000,%eax\n"},
			{Name: "discarded", MedianNS: 22, Spread: 0.05, Dead: true, Asm: "  1290:\tcall 1030 <clock_gettime@plt>\n"},
		}})
	r.Kernel.SourceSHA256 = strings.Repeat("5", 64) // the same code in every run
	r.AA = result.AA{Variant: "sink", Ratio: 1, CILow: 1 - aa, CIHigh: 1 + aa}
	return r
}

func TestCompareAcrossRuns(t *testing.T) {
	for _, tc := range []struct {
		name       string
		scale, aa  float64
		wantFloor  float64
		wantBeyond bool
		want       []string
	}{
		// The published notebook: identical code, another moment, -7.6%,
		// which passes-as-replicates called "moved significantly".
		{"identical code, noise of another moment", 0.924, 0.04, 0.10, false,
			[]string{"Across runs, every median is within the run-to-run floor of 10.0% (interleaved: sink -7.",
				"the floor is the largest of A/A 4.0% before, A/A 4.0% after and 10%"}},
		{"same samples' shape, other noise", 1, 0.04, 0.10, false, []string{"within the run-to-run floor"}},
		{"a 25% change", 1.25, 0.04, 0.10, true,
			[]string{"Across runs, beyond the floor of 10.0%: sink (interleaved +2", "measure both in one run to tell"}},
		{"a wide A/A raises the floor", 1.15, 0.2, 0.2, false, []string{"within the run-to-run floor of 20.0%", "A/A 20.0% before"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := Compare(run(1, 1, tc.aa), run(2, tc.scale, tc.aa))
			if !d.AcrossRuns || d.Floor < tc.wantFloor-1e-9 || d.Floor > tc.wantFloor+1e-9 {
				t.Errorf("across runs %t, floor %g, want %g", d.AcrossRuns, d.Floor, tc.wantFloor)
			}
			text := d.Text()
			html := d.Bundle()["text/html"].(string)
			for _, s := range []string{text, html, d.Sentence} {
				if strings.Contains(strings.ToLower(s), "significant") {
					t.Errorf("a comparison across runs says significant:\n%s", s)
				}
			}
			for _, w := range tc.want {
				if !strings.Contains(text, w) && !strings.Contains(strings.Join(strings.Fields(text), " "), w) {
					t.Errorf("the text lacks %q:\n%s", w, text)
				}
			}
			for _, v := range d.Variants {
				for _, s := range v.Series {
					if v.Variant == "sink" && s.Series == "interleaved" && s.Beyond != tc.wantBeyond {
						t.Errorf("sink / interleaved %+v: beyond %t, want %t", s, s.Beyond, tc.wantBeyond)
					}
					if v.Variant == "discarded" && (s.Beyond || s.Meaningless == "") {
						t.Errorf("a dead variant's ratio is judged: %+v", s)
					}
				}
			}
		})
	}
}

func TestCompareLeadsWithWhatChanged(t *testing.T) {
	before, after := run(1, 1, 0.04), run(2, 1.3, 0.04)
	before.Conditions.Machine.CPUModel = "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz"
	after.Conditions.Machine.CPUModel, after.Conditions.Machine.PhysicalCores = "AMD EPYC 7R13 Processor", 4
	after.Kernel.Compiler = "gcc (Debian 13.2.0-1) 13.2.0"
	after.Variants[0].Asm = strings.Replace(after.Variants[0].Asm, "$0x4000", "$0x10000", 1)
	text := Compare(before, after).Text()
	lines := strings.Split(text, "\n")
	for len(lines) > 0 && !strings.HasPrefix(lines[0], "seed: ") { // the headlines come first
		lines = lines[1:]
	}
	if !strings.HasPrefix(lines[0], "seed: the machine differs: Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz vs AMD EPYC 7R13 Processor") ||
		!strings.Contains(strings.Join(strings.Fields(text), " "), "vs AMD EPYC 7R13 Processor, 2 vs 4 cores; ratios across machines compare hardware, not code.") {
		t.Errorf("the first line does not say the machine differs:\n%s", text)
	}
	order := []string{"the machine differs", "The compiler differs: gcc (Debian 12.2.0-14+deb12u1) 12.2.0 vs gcc (Debian 13.2.0-1) 13.2.0",
		"Same flags: -std=c11 -O2", "Same source; the binary differs", "Assembly per variant: sink 2 lines differ; discarded identical",
		"sink: @@ -1,2 +1,2 @@ sub $0x28,%rsp -mov $0x4000,%eax +mov $0x10000,%eax", "Conditions: 1-minute load 0.30 then 0.30",
		"Across runs, beyond the floor of 10.0%"}
	flat, at := strings.Join(strings.Fields(text), " "), 0
	for _, w := range order {
		i := strings.Index(flat[at:], w)
		if i < 0 {
			t.Fatalf("%q missing or out of order:\n%s", w, text)
		}
		at += i
	}
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > TextWidth {
			t.Errorf("a line of %d runes: %q", n, l)
		}
	}
}

// Two runs that differ in a key that changes what a sample is (batch=,
// cold=, aslr=, layouts=) say so in the protocol line of the comparison.
func TestCompareNamesKeysThatChangeTheSample(t *testing.T) {
	before, after := run(1, 1, 0.04), run(2, 1, 0.04)
	before.Protocol.Batch, after.Protocol.Batch = "1", "auto"
	after.Protocol.ColdAfter, after.Protocol.ASLR, after.Protocol.Layouts = "setup", "off", 8
	flat := strings.Join(strings.Fields(Compare(before, after).Text()), " ")
	if !strings.Contains(flat, "batch=1, then reps=") || !strings.Contains(flat, "cold=after-setup aslr=off layouts=8") {
		t.Errorf("the protocol change is not said:\n%s", flat)
	}
}
