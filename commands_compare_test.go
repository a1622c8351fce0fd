package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/machine"
	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/internal/protocol/benchtest"
	"github.com/benchbook/benchbook/ipynb"
	"github.com/benchbook/benchbook/ipynb/evidence"
	"github.com/benchbook/benchbook/stdlib/display"
	"github.com/benchbook/benchbook/stdlib/report"

	"github.com/benchbook/benchbook/internal/measuretest"
)

// resultsEngine answers each %bench line with its synthetic result, as
// the kernel renders one (the outputs verify).
type resultsEngine map[string]*protocol.Result

func (e resultsEngine) Execute(_ context.Context, _, code string, pub display.Publisher) (map[string]any, error) {
	r, ok := e[code]
	if !ok {
		return nil, fmt.Errorf("no result for %q", code)
	}
	pub.Display(display.Bundle{Data: report.Result(r), ID: display.NewID()}, false)
	pub.Display(display.Bundle{Data: report.CommentaryBundle(r), ID: display.NewID()}, false)
	return nil, nil
}

// syntheticNotebook writes a notebook of one synthetic result of seed
// 000's kernel whose live variants take scale times 500 us, with a tight
// A/A control (a floor of 10%).
func syntheticNotebook(t *testing.T, path string, seed uint64, scale float64) string {
	t.Helper()
	r := benchtest.Synthetic(benchtest.Spec{Seed: seed, FreqMHz: 2900, ReadNS: 21, Variants: []benchtest.VariantSpec{
		{Name: "sink", MedianNS: 500000 * scale, Spread: 0.01}, {Name: "discarded", MedianNS: 22, Spread: 0.05, Dead: true}}})
	r.Findings = protocol.Findings(r)
	code := "%bench seed"
	nb := ipynb.New(ipynb.NewCode(code))
	if err := ipynb.Execute(context.Background(), nb, resultsEngine{code: r}, ipynb.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := ipynb.WriteFile(path, nb); err != nil {
		t.Fatal(err)
	}
	return path
}

// --fail-on slower exits 1 exactly when a headline says slower.
func TestCompareFailOnSlower(t *testing.T) {
	dir := t.TempDir()
	a := syntheticNotebook(t, filepath.Join(dir, "a.ipynb"), 1, 1)
	b := syntheticNotebook(t, filepath.Join(dir, "b.ipynb"), 2, 2)
	c := syntheticNotebook(t, filepath.Join(dir, "c.ipynb"), 3, 1.02)
	for _, tc := range []struct {
		args   []string
		failed bool
		want   string
	}{
		{[]string{a, b}, true, "x slower in " + b + " than in " + a},
		{[]string{b, a}, false, "x faster in " + a + " than in " + b},
		{[]string{a, c}, false, "sink: no change beyond the run-to-run floor of 10.0%"},
		{[]string{a, c, b}, true, "x slower on b;"},
		{[]string{b, a, "--nway", "--ref", "a"}, true, "x slower on b;"},
	} {
		var stdout, stderr bytes.Buffer
		err := run(append([]string{"compare", "--fail-on", "slower"}, tc.args...), &stdout, &stderr)
		var code exitCode
		if failed := errors.As(err, &code) && code == 1; failed != tc.failed || (err != nil && !failed) {
			t.Errorf("%q: %v, want failed %t\n%s%s", tc.args, err, tc.failed, stdout.String(), stderr.String())
		}
		if !strings.Contains(strings.Join(strings.Fields(stdout.String()), " "), tc.want) {
			t.Errorf("%q: lacks %q:\n%s", tc.args, tc.want, stdout.String())
		}
	}
}

// runSmoke runs tests/notebooks/smoke.ipynb, its kernel's N doubled when
// slower (the same kernel name, twice the work), and returns the executed
// notebook's path.
func runSmoke(t *testing.T, dir, name string, slower bool) string {
	t.Helper()
	src, err := os.ReadFile("tests/notebooks/smoke.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	if slower {
		s := strings.ReplaceAll(string(src), "(1 << 20)", "(1 << 21)")
		s = strings.ReplaceAll(s, "917504.0", "1835008.0")
		src = []byte(strings.ReplaceAll(s, "elements=1048576", "elements=2097152"))
	}
	in, out := filepath.Join(dir, name+"-src.ipynb"), filepath.Join(dir, name+".ipynb")
	if err := os.WriteFile(in, src, 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if err := run([]string{"run", in, "-o", out}, &stdout, &stderr); err != nil {
		t.Fatalf("run %s: %v\n%s", name, err, stderr.String())
	}
	return out
}

// editResults rewrites every result of the notebook at path with edit (on
// its JSON) and every text of its outputs with replace, into a new file.
func editResults(t *testing.T, path, to string, edit func(r map[string]any), replace *strings.Replacer) string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var nb map[string]any
	if err := json.Unmarshal(raw, &nb); err != nil {
		t.Fatal(err)
	}
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if k == "application/vnd.benchbook.result+json" {
					edit(e.(map[string]any))
					continue
				}
				x[k] = walk(e)
			}
		case []any:
			for i, e := range x {
				x[i] = walk(e)
			}
		case string:
			if replace != nil {
				return replace.Replace(x)
			}
		}
		return v
	}
	for _, c := range nb["cells"].([]any) {
		if outs, ok := c.(map[string]any)["outputs"]; ok {
			walk(outs)
		}
	}
	b, _ := json.Marshal(nb)
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return to
}

// plantAddss writes a copy of the notebook whose fingerprint's addss takes
// one cycle more, with trials, noise and rendered text to match, so that it
// verifies: other hardware behind the same description.
func plantAddss(t *testing.T, path, to string) (string, string) {
	t.Helper()
	var was, now string
	edit := func(r map[string]any) {
		fp := r["conditions"].(map[string]any)["fingerprint"].(map[string]any)
		for _, e := range fp["entries"].([]any) {
			e := e.(map[string]any)
			if e["name"] != "addss" {
				continue
			}
			v := e["value"].(float64)
			was = machine.FormatEntryValue(v, "cycles")
			planted := machine.Entry{Name: "addss", Unit: "cycles", Value: v + 1, Trials: []float64{v + 1, v + 1, v + 1, v + 1, v + 1}}
			now = machine.FormatEntryValue(planted.Value, "cycles")
			e["value"], e["trials"], e["noise"], e["cycles"] = planted.Value, planted.Trials, machine.NoiseOf(planted), planted.Value
		}
	}
	// The first pass learns the values, the second writes the text.
	editResults(t, path, to, edit, nil)
	return editResults(t, path, to, edit, strings.NewReplacer("addss "+was+",", "addss "+now+",")), was
}

func TestCompareCommand(t *testing.T) {
	measuretest.Gate(t)
	dir := t.TempDir()
	a := runSmoke(t, dir, "node-a", false)
	b := runSmoke(t, dir, "node-b", false)
	c, was := plantAddss(t, a, filepath.Join(dir, "node-c.ipynb"))
	compare := func(args ...string) (string, string, error) {
		var stdout, stderr bytes.Buffer
		err := run(append([]string{"compare"}, args...), &stdout, &stderr)
		return stdout.String(), stderr.String(), err
	}
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }

	// The same notebook twice: same hardware, nothing slower.
	out, errOut, err := compare(a, a, "--fail-on", "slower")
	if err != nil || !strings.Contains(flat(out), "seed: same hardware:") || !strings.Contains(out, "Every input verified first") {
		t.Fatalf("a against itself: %v\n%s%s", err, out, errOut)
	}
	// Two ways, the host changed: the comparison leads with the fingerprint
	// entry that differs, before any ratio of the two runs.
	// The copy's fingerprint is edited, so its commentary (which quotes the
	// fingerprint's addss cycles) no longer verifies: compared unverified.
	out, errOut, err = compare(a, c, "--no-verify")
	hw := strings.Index(flat(out), "seed: different hardware behind the same description: on the host of")
	named := strings.Index(flat(out), "addss takes")
	ratio := strings.Index(flat(out), "A/A floor")
	if err != nil || hw < 0 || named < hw || ratio >= 0 && ratio < hw {
		t.Errorf("a against its planted copy: hardware at %d, addss at %d, first ratio at %d: %v\n%s%s", hw, named, ratio, err, out, errOut)
	}
	// N ways, machine-readable: the planted copy is other hardware, named by its addss.
	out, _, err = compare(a, b, c, "--json", "--plot", filepath.Join(dir, "m.png"), "--no-verify")
	if err != nil {
		t.Fatal(err)
	}
	var res evidence.NWayResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	if len(res.Kernels) != 1 {
		t.Fatalf("%d kernels compared", len(res.Kernels))
	}
	ms := res.Kernels[0].Machines
	if ms[0].Label != "node-a" || ms[0].Hardware != "reference" || ms[1].Hardware != machine.HardwareSame ||
		ms[2].Hardware != machine.HardwareDifferent || len(ms[2].Differs) == 0 || ms[2].Differs[0].Name != "addss" {
		t.Errorf("machines: %+v", ms)
	}
	if want := "addss takes " + machine.FormatEntryValue(ms[2].Differs[0].Value, "cycles") + " against " + strings.TrimSuffix(was, " cycles"); ms[2].Differs[0].Phrase != want {
		t.Errorf("phrase %q, want %q", ms[2].Differs[0].Phrase, want)
	}
	f, err := os.Open(filepath.Join(dir, "m.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Errorf("--plot: %v", err)
	}
	// The text names the planted difference before the table; --ref picks another reference.
	out, _, err = compare(a, b, c, "--ref", "node-b", "--no-verify")
	if err != nil || !strings.Contains(flat(out), "seed on 3 machines, against node-b:") || !strings.Contains(flat(out), "node-c: different hardware behind the same description as node-b") {
		t.Errorf("--ref node-b: %v\n%s", err, out)
	}
	// Evidence that does not verify is refused, unless --no-verify.
	tampered := editResults(t, a, filepath.Join(dir, "tampered.ipynb"), func(r map[string]any) {
		s := r["variants"].([]any)[1].(map[string]any)["series"].(map[string]any)["interleaved"].(map[string]any)
		s["samples_ns"].([]any)[0] = 1.0
	}, nil)
	if _, errOut, err := compare(a, tampered); err == nil || !strings.Contains(err.Error(), "does not verify") || errOut == "" {
		t.Errorf("a tampered notebook: %v\n%s", err, errOut)
	}
	if out, _, err := compare(a, tampered, "--no-verify"); err != nil || !strings.Contains(out, "were not verified") {
		t.Errorf("--no-verify: %v\n%s", err, out)
	}
	for _, bad := range [][]string{{a}, {a, b, "--fail-on", "faster"}, {a, b, "--ref", "nobody"}, {a, b, "--bogus"}} {
		if _, _, err := compare(bad...); err == nil {
			t.Errorf("compare %q: no error", bad)
		}
	}
}
