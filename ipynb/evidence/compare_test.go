package evidence

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/internal/protocol/benchtest"
	"github.com/benchbook/benchbook/ipynb"
)

// withAsm gives each variant of r an assembly listing.
func withAsm(r *protocol.Result) *protocol.Result {
	for i := range r.Variants {
		r.Variants[i].Asm = "  401000:\tmovss (%rax),%xmm1\n  401004:\taddss %xmm1,%xmm0\n  401008:\tret # " + r.Variants[i].Name
	}
	return r
}

func other(seed uint64) *protocol.Result {
	return benchtest.Synthetic(benchtest.Spec{Seed: seed, Kernel: "other", Variants: []benchtest.VariantSpec{
		{Name: "a", MedianNS: 1000, Spread: 0.02}, {Name: "b", MedianNS: 2000, Spread: 0.02}}})
}

func TestCompareWithItself(t *testing.T) {
	nb := roundTrip(t, resultNotebook(t, withAsm(benchtest.Seed000(1))))
	var out bytes.Buffer
	if err := Compare(Input{"a.ipynb", nb}, Input{"b.ipynb", nb}, &out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, s := range []string{"== seed: a.ipynb cell 1 output 1, b.ipynb cell 1 output 1\n",
		"seed: same machine description: Synthetic CPU", "The assembly of all 3 variants is identical.",
		"every median is within the run-to-run floor of 10.0%"} {
		if !strings.Contains(text, s) {
			t.Errorf("comparison does not say %q:\n%s", s, text)
		}
	}
	rows := 0
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, " / interleaved") || strings.Contains(l, " / fresh") {
			rows++
			if !strings.Contains(l, " 1.000 ") {
				t.Errorf("row %q has a ratio other than 1.000", l)
			}
		}
	}
	if rows != 6 || strings.Contains(text, "only in") {
		t.Errorf("%d interleaved and fresh rows, want 6:\n%s", rows, text)
	}
}

func TestComparePairsByKernelAndOrder(t *testing.T) {
	published := resultNotebook(t, withAsm(benchtest.Seed000(1)), other(2), withAsm(benchtest.Seed000(3)))
	rerunSeed := withAsm(benchtest.Seed000(4))
	rerunSeed.Variants[1].Asm += "\n  40100c:\tadd    $0x1,%eax"
	rerun := resultNotebook(t, other(5), rerunSeed, other(6))
	var out bytes.Buffer
	if err := Compare(Input{"published.ipynb", published}, Input{"rerun.ipynb", rerun}, &out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, s := range []string{
		"== seed: published.ipynb cell 1 output 1, rerun.ipynb cell 2 output 1\n",
		"== other: published.ipynb cell 2 output 1, rerun.ipynb cell 1 output 1\n",
		"Assembly per variant: discarded identical; sink 1 line differs; checksum identical.",
		"seed (published.ipynb cell 3 output 1): only in published.ipynb\n",
		"other (rerun.ipynb cell 3 output 1): only in rerun.ipynb\n",
	} {
		if !strings.Contains(text, s) {
			t.Errorf("comparison does not say %q:\n%s", s, text)
		}
	}
}

func TestCompareWithoutResults(t *testing.T) {
	empty := ipynb.New(ipynb.NewMarkdown("nothing"))
	if err := Compare(Input{"a.ipynb", empty}, Input{"b.ipynb", empty}, &bytes.Buffer{}); !errors.Is(err, ErrNoResults) {
		t.Errorf("Compare of notebooks without results: %v", err)
	}
	var out bytes.Buffer
	if err := Compare(Input{"a.ipynb", resultNotebook(t, benchtest.Seed000(1))}, Input{"b.ipynb", empty}, &out); err != nil ||
		!strings.Contains(out.String(), "seed (a.ipynb cell 1 output 1): only in a.ipynb") {
		t.Errorf("Compare against an empty rerun: %v\n%s", err, out.String())
	}
}

// A terminal is 100 columns: long CPU names, flags and compilers are wrapped
// or stacked, and the machine comes first when it changed.
func TestCompareFitsATerminal(t *testing.T) {
	published, rerun := withAsm(benchtest.Seed000(1)), withAsm(benchtest.Seed000(2))
	published.Conditions.Machine.CPUModel = "Intel(R) Xeon(R) Platinum 8488C CPU @ 2.40GHz with a very long model name string"
	rerun.Conditions.Machine.CPUModel = "AMD EPYC 9R14 96-Core Processor, an equally long name for the sake of the test"
	flags := []string{"-std=c11", "-O3", "-march=native", "-mtune=native", "-funroll-loops", "-fno-tree-vectorize",
		"-ffast-math", "-fno-strict-aliasing", "-DN=(1<<20)", "-DEXTRA_LONG_MACRO_NAME_FOR_TESTING=1", "-Wall", "-Wextra"}
	rerun.Kernel.Flags = flags
	rerun.Kernel.Compiler = "gcc (Debian 12.2.0-14+deb12u1) 12.2.0 built with a very long vendor suffix, configured --with-everything"
	var out bytes.Buffer
	if err := Compare(Input{"a.ipynb", resultNotebook(t, published)}, Input{"b.ipynb", resultNotebook(t, rerun)}, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	for _, l := range lines {
		if n := len([]rune(l)); n > 100 {
			t.Errorf("a line of %d runes: %q", n, l)
		}
	}
	first := 1
	for first < len(lines) && !strings.HasPrefix(lines[first], "seed: ") { // after the headlines
		first++
	}
	if first == len(lines) || !strings.HasPrefix(lines[first], "seed: the machine differs: Intel(R) Xeon(R) Platinum 8488C") {
		t.Errorf("the machine is not the first thing said:\n%s", out.String())
	}
	if strings.Contains(strings.ToLower(out.String()), "significant") {
		t.Errorf("a comparison across runs says significant:\n%s", out.String())
	}
}

// A virtual machine's description is the CPU model its hypervisor shows:
// two runs that read alike may still come from hosts of different
// generations, and compare says "description", not "machine", for them.
func TestCompareSameVMDescription(t *testing.T) {
	vm := func(seed uint64) *protocol.Result {
		r := withAsm(benchtest.Seed000(seed))
		r.Conditions.Machine.Virtualized = "yes"
		return r
	}
	var out bytes.Buffer
	if err := Compare(Input{"a.ipynb", roundTrip(t, resultNotebook(t, vm(1)))}, Input{"b.ipynb", roundTrip(t, resultNotebook(t, vm(2)))}, &out); err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(out.String()), " ")
	if !strings.Contains(text, "seed: same machine description: Synthetic CPU") || !strings.Contains(text, "can stay the same on other hardware") ||
		!strings.Contains(text, "Whether it is the same hardware was not measured") {
		t.Errorf("two VM runs with one description:\n%s", text)
	}
}
