package evidence

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/benchbook/benchbook/internal/machine"
	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/internal/protocol/benchtest"
	"github.com/benchbook/benchbook/ipynb"
	"github.com/benchbook/benchbook/stdlib/report"
)

// fingerprinted is seed 000's synthetic result (sink scaled) with a
// fingerprint whose addss takes addss cycles.
func fingerprinted(t *testing.T, seed uint64, scale, addss float64) *protocol.Result {
	t.Helper()
	r := benchtest.Synthetic(benchtest.Spec{Seed: seed, FreqMHz: 2900, ReadNS: 21, Variants: []benchtest.VariantSpec{
		{Name: "sink", MedianNS: 500000 * scale, Spread: 0.01}, {Name: "discarded", MedianNS: 22, Spread: 0.05, Dead: true}}})
	r.AA = protocol.AA{Variant: "sink", Ratio: 1, CILow: 0.97, CIHigh: 1.03}
	f := &machine.Fingerprint{Version: machine.FingerprintVersion, Host: "h", CPU: -1, Exact: true,
		Boot: machine.Boot{Cmdline: "quiet", PCID: "yes", Mitigations: map[string]string{}}}
	for _, e := range []machine.Entry{{Name: "int_add", Unit: "ns", Trials: []float64{0.3, 0.3, 0.3}},
		{Name: "addss", Unit: "cycles", Trials: []float64{addss, addss, addss}},
		{Name: "chase_64M", Unit: "ns", Trials: []float64{200, 205, 210}}} {
		e.Value = machine.Median(e.Trials)
		e.Noise = machine.NoiseOf(e)
		f.Entries = append(f.Entries, e)
	}
	r.Conditions.Fingerprint = f
	return r
}

func TestCompareNotebooksNWays(t *testing.T) {
	a := roundTrip(t, resultNotebook(t, fingerprinted(t, 1, 1, 2), other(9)))
	b := roundTrip(t, resultNotebook(t, fingerprinted(t, 2, 1.9, 3)))
	c := roundTrip(t, resultNotebook(t, fingerprinted(t, 3, 1.01, 2)))
	res, err := CompareN(Machines{Labels: []string{"node-a", "node-b", "node-c"}, Notebooks: []*ipynb.Notebook{a, b, c}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Kernels) != 1 || len(res.Unpaired) != 1 || !strings.Contains(res.Unpaired[0], "other (result 1 of that kernel): not compared, it is only in [node-a]") {
		t.Fatalf("kernels %d, unpaired %q", len(res.Kernels), res.Unpaired)
	}
	n := res.Kernels[0]
	if n.Machines[1].Hardware != machine.HardwareDifferent || n.Machines[1].Differs[0].Name != "addss" || n.Machines[2].Hardware != machine.HardwareSame {
		t.Errorf("hardware: %+v", n.Machines)
	}
	text := res.Text()
	flat := strings.Join(strings.Fields(text), " ")
	for _, w := range []string{"== seed on 3 machines, against node-a:",
		"sink: 1.", "x slower on node-b, where addss takes 3 cycles against 2; within the floor on node-c (1.0",
		"discarded: dead code", "node-b: different hardware behind the same description as node-a: addss takes 3 cycles against 2.",
		"node-c: same hardware as node-a", "no paired test", "node-a (ref)"} {
		if !strings.Contains(flat, w) {
			t.Errorf("lacks %q:\n%s", w, text)
		}
	}
	if !strings.HasPrefix(strings.SplitN(text, "\n", 3)[1], "sink: ") && !strings.HasPrefix(strings.SplitN(text, "\n", 3)[1], "discarded: ") {
		t.Errorf("the headlines do not come first:\n%s", text)
	}
	for _, l := range strings.Split(text, "\n") {
		if utf8.RuneCountInString(l) > report.TextWidth {
			t.Errorf("a line of %d runes: %q", utf8.RuneCountInString(l), l)
		}
	}
	if !report.AnySlower(res.Headlines()) {
		t.Error("no headline says slower")
	}
	b2, _ := json.Marshal(res)
	var back NWayResult
	if err := json.Unmarshal(b2, &back); err != nil || back.Kernels[0].Machines[1].Differs[0].Phrase != "addss takes 3 cycles against 2" {
		t.Errorf("the JSON form: %v %s", err, b2)
	}
	// Against node-b instead: node-a is now 1.9x faster, where addss takes 2 against 3.
	res, _ = CompareN(Machines{Labels: []string{"node-a", "node-b", "node-c"}, Notebooks: []*ipynb.Notebook{a, b, c}, Ref: 1})
	if flat := strings.Join(strings.Fields(res.Text()), " "); !strings.Contains(flat, "x faster on node-a, where addss takes 2 cycles against 3") {
		t.Errorf("against node-b:\n%s", res.Text())
	}
}

// Many machines: the table's columns are split so that every line fits.
func TestCompareManyMachinesFits(t *testing.T) {
	var nbs []*ipynb.Notebook
	var labels []string
	for i := range 9 {
		nbs = append(nbs, roundTrip(t, resultNotebook(t, fingerprinted(t, uint64(i+1), 1+float64(i)/10, 2))))
		labels = append(labels, "compute-node-"+strings.Repeat("x", i))
	}
	res, err := CompareN(Machines{Labels: labels, Notebooks: nbs})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Text()
	for _, l := range strings.Split(text, "\n") {
		if utf8.RuneCountInString(l) > report.TextWidth {
			t.Errorf("a line of %d runes: %q", utf8.RuneCountInString(l), l)
		}
	}
	if strings.Count(text, "compute-node- (ref)") < 2 {
		t.Errorf("the reference's column is not in every split table:\n%s", text)
	}
}
