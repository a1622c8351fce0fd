package protocol

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/measuretest"
)

// load=1 without pin= puts the benchmark and the load on different CPUs
// and records both.
func TestLoadNeverSharesTheBenchmarkCPU(t *testing.T) {
	measuretest.Gate(t)
	k := seedKernel(t, "c")
	r := quickRun(t, k, "load=1", "fresh=sink")
	p := r.Protocol
	if len(p.BenchCPUs) != 1 || len(p.LoadCPUs) != 1 || slices.Contains(p.LoadCPUs, p.BenchCPUs[0]) {
		t.Fatalf("bench CPUs %v, load CPUs %v: want one each, disjoint", p.BenchCPUs, p.LoadCPUs)
	}
	if p.Pin != nil {
		t.Errorf("pin= was not given but the result records pin %d", *p.Pin)
	}
	found := false
	for _, f := range r.Findings {
		if f.Kind == KindLoad && strings.Contains(f.Text, "pinned to CPU") {
			found = true
		}
	}
	if !found {
		t.Errorf("the load finding does not say where the benchmark ran: %+v", r.Findings)
	}
}

// cold=after-setup times the first pass after setup: its faults are few,
// setup's are recorded per process, and the commentary says which cold
// pass it was.
func TestColdAfterSetupIsNamed(t *testing.T) {
	measuretest.Gate(t)
	k := seedKernel(t, "c")
	r := quickRun(t, k, "cold=after-setup", "fresh=sink")
	c := r.Variant("sink").Series.Cold
	if c == nil || c.After != "setup" || len(c.SetupNS) != len(c.SamplesNS) || len(c.SetupMinFlt) != len(c.SamplesNS) {
		t.Fatalf("cold series: %+v", c)
	}
	if f := c.MedianMinFlt(); f >= FaultFloor {
		t.Errorf("the cold pass after setup took a median of %v faults; setup should have mapped the memory", f)
	}
	text := ""
	for _, f := range r.Findings {
		if f.Kind == KindFirstTouch {
			text = f.Text
		}
	}
	if !strings.Contains(text, "first pass after setup") || !strings.Contains(text, "Setup, the program's first writes") {
		t.Errorf("first-touch finding: %q", text)
	}
	start := quickRun(t, k, "fresh=sink")
	if cs := start.Variant("sink").Series.Cold; cs.After != "start" || len(cs.SetupNS) == 0 {
		t.Errorf("the default cold pass: after %q, %d setup times", cs.After, len(cs.SetupNS))
	}
}

// Every fresh process is placed anew and its placement recorded; with
// aslr=off the OS does not randomise it.
func TestFreshProcessesRecordTheirLayout(t *testing.T) {
	measuretest.Gate(t)
	k := seedKernel(t, "c")
	r := quickRun(t, k, "fresh=sink", "aslr=off")
	l := r.Variant("sink").Series.Fresh.Layout
	n := len(r.Variant("sink").Series.Fresh.SamplesNS)
	if l == nil || len(l.IDs) != n || len(l.StackPad) != n || len(l.HeapPad) != n {
		t.Fatalf("layout: %+v for %d samples", l, n)
	}
	distinct := map[int]bool{}
	for i := range l.StackPad {
		if l.ASLR[i] {
			t.Errorf("process %d ran with ASLR on under aslr=off", i)
		}
		if l.StackPad[i]%16 != 0 || l.StackPad[i] < 0 || l.StackPad[i] > 4080 {
			t.Errorf("stack pad %d", l.StackPad[i])
		}
		distinct[l.StackPad[i]] = true
	}
	if len(distinct) < 3 {
		t.Errorf("%d fresh processes got only %d stack pads", n, len(distinct))
	}
	if r.Protocol.ASLR != "off" {
		t.Errorf("protocol.aslr = %q", r.Protocol.ASLR)
	}
}

// One measured variant has no pairs to compare: the result still holds an
// empty list, which the schema requires, not null.
func TestOneVariantHasAnEmptyComparisonList(t *testing.T) {
	r := quickRun(t, seedKernel(t, "c"), "variants=sink")
	if r.Comparisons == nil || len(r.Comparisons) != 0 {
		t.Errorf("comparisons %#v", r.Comparisons)
	}
	checkResult(t, r)
}

// counts gives each variant's instructions per pass under callgrind, the
// same on two runs, and a dead variant far fewer than a live one.
func TestCountsAreRepeatable(t *testing.T) {
	if _, err := exec.LookPath("valgrind"); err != nil {
		t.Skip("valgrind is not installed (scripts/setup.sh --browser installs it)")
	}
	k := seedKernel(t, "c")
	var per [2]map[string]int64
	for i := range per {
		r := quickRun(t, k, "counts", "elements=1048576", "fresh=sink")
		per[i] = map[string]int64{}
		for _, v := range r.Variants {
			if v.Counts == nil || v.Counts.InstructionsPerPass <= 0 {
				t.Fatalf("run %d: %s has no counts: %+v", i, v.Name, v.Counts)
			}
			per[i][v.Name] = v.Counts.InstructionsPerPass
		}
		if !hasFinding(r, KindCounts, "sink") {
			t.Errorf("no counts finding: %+v", r.Findings)
		}
	}
	for v, n := range per[0] {
		if per[1][v] != n {
			t.Errorf("%s: %d instructions per pass, then %d", v, n, per[1][v])
		}
	}
	// A float sum of 2^20 elements executes at least one add per element.
	if per[0]["sink"] < 1<<20 || per[0]["discarded"]*100 > per[0]["sink"] {
		t.Errorf("sink %d, discarded %d instructions per pass", per[0]["sink"], per[0]["discarded"])
	}
}
