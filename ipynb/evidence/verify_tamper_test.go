package evidence

import (
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/ipynb"
	"github.com/benchbook/benchbook/stdlib/display"
	"github.com/benchbook/benchbook/stdlib/plot"
)

// seedCells is a real executed notebook cut to what one investigation
// step holds: the published notebook's first %%c seed cell and its build,
// the %bench seed cell after it with its result and plots, and the first
// glue cell with an output after that. The cells are found by what they
// are, not by their index, so that a republished notebook still serves.
func seedCells(t *testing.T) *ipynb.Notebook {
	t.Helper()
	nb, err := ipynb.ReadFile("../../notebooks/published/investigation.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	var cells []*ipynb.Cell
	for _, c := range nb.Cells {
		first, _, _ := strings.Cut(c.Source, "\n")
		switch {
		case len(cells) == 0 && strings.HasPrefix(first, "%%c seed"):
			cells = append(cells, c)
		case len(cells) == 1 && strings.HasPrefix(first, "%bench seed "):
			cells = append(cells, c)
		case len(cells) == 2 && c.Type == ipynb.CodeCell && !strings.HasPrefix(first, "%") && len(c.Outputs) > 0:
			cells = append(cells, c)
		}
	}
	if len(cells) != 3 {
		t.Fatalf("the published notebook has no %%%%c seed cell, %%bench seed cell and glue cell in that order (found %d)", len(cells))
	}
	redraw(t, cells[1])
	return &ipynb.Notebook{NBFormat: nb.NBFormat, NBFormatMinor: nb.NBFormatMinor, Metadata: nb.Metadata, Cells: cells}
}

// redraw puts in place of a %bench cell's plots what this benchbook draws
// of its result (plot.All, in the same order): the published notebook may
// have been drawn by an earlier version, whose labels differ.
func redraw(t *testing.T, c *ipynb.Cell) {
	t.Helper()
	var r *protocol.Result
	var pngs []int
	for j, o := range c.Outputs {
		if v, ok := o.Data[display.MIMEResult]; ok {
			var err error
			if r, err = ipynb.DecodeResult(v); err != nil {
				t.Fatal(err)
			}
		}
		if _, ok := o.Data[display.MIMEPNG]; ok {
			pngs = append(pngs, j)
		}
	}
	figs := plot.All(r)
	if len(figs) != len(pngs) {
		t.Fatalf("the cell shows %d plots, its result draws %d", len(pngs), len(figs))
	}
	for i, j := range pngs {
		c.Outputs[j].Data = figs[i].Bundle()
	}
}

// entry is output j's JSON entry of the given MIME type in cell c, as a
// generic object to edit.
func entry(t *testing.T, nb *ipynb.Notebook, c int, mime string) (int, map[string]any) {
	t.Helper()
	for j, o := range nb.Cells[c].Outputs {
		if m, ok := o.Data[mime].(map[string]any); ok {
			return j, m
		}
	}
	t.Fatalf("cell %d has no %s output", c, mime)
	return 0, nil
}

// variantOfEntry is the variant named name of an entry's "variants".
func variantOfEntry(t *testing.T, e map[string]any, name string) map[string]any {
	t.Helper()
	for _, v := range e["variants"].([]any) {
		if m := v.(map[string]any); m["name"] == name {
			return m
		}
	}
	t.Fatalf("no variant %s", name)
	return nil
}

// TestVerifyTampering: each edit of evidence that its numbers alone do not
// show is a mismatch that names the cell and what differs: the source of a
// native cell after its build, the assembly of its build or of the result,
// the dead flag against the stored assembly, and a swapped plot. Before
// the edit, the same notebook has none of these mismatches.
func TestVerifyTampering(t *testing.T) {
	cases := []struct {
		name   string
		tamper func(t *testing.T, nb *ipynb.Notebook)
		says   string
	}{
		{"edited %%c source", func(t *testing.T, nb *ipynb.Notebook) {
			nb.Cells[0].Source = strings.Replace(nb.Cells[0].Source, "s += a[i]", "s += 2 * a[i]", 1)
		}, "cell 0 (%%c seed): build: MISMATCH: the cell's source hashes to"},
		{"edited build assembly", func(t *testing.T, nb *ipynb.Notebook) {
			_, e := entry(t, nb, 0, display.MIMEBuild)
			v := variantOfEntry(t, e, "sink")
			v["asm"] = strings.Replace(v["asm"].(string), "addss", "mulss", 1)
		}, "variant sink: its assembly is not the build's in cell 0"},
		{"edited build text", func(t *testing.T, nb *ipynb.Notebook) {
			j, _ := entry(t, nb, 0, display.MIMEBuild)
			d := nb.Cells[0].Outputs[j].Data
			d[display.MIMEText] = strings.Replace(ipynb.Text(d[display.MIMEText]), "addss", "mulss", 1)
		}, "output 0 text/plain: sink's assembly, verdict or finding is not the build entry's"},
		{"edited build html", func(t *testing.T, nb *ipynb.Notebook) {
			j, _ := entry(t, nb, 0, display.MIMEBuild)
			d := nb.Cells[0].Outputs[j].Data
			d[display.MIMEHTML] = strings.Replace(ipynb.Text(d[display.MIMEHTML]), ":  addss", ":  mulss", 1)
		}, "output 0 text/html: sink shows no instruction"},
		{"dead flag against the assembly", func(t *testing.T, nb *ipynb.Notebook) {
			_, e := entry(t, nb, 1, display.MIMEResult)
			variantOfEntry(t, e, "discarded")["dead"] = false
		}, "variant discarded: dead false, hollow false, but its assembly gives dead true, hollow false"},
		{"swapped plot", func(t *testing.T, nb *ipynb.Notebook) {
			var pngs []int
			for j, o := range nb.Cells[1].Outputs {
				if _, ok := o.Data[display.MIMEPNG]; ok {
					pngs = append(pngs, j)
				}
			}
			a, b := nb.Cells[1].Outputs[pngs[0]].Data, nb.Cells[1].Outputs[pngs[1]].Data
			a[display.MIMEPNG], b[display.MIMEPNG] = b[display.MIMEPNG], a[display.MIMEPNG]
		}, "image/png (plot \"seed: every interleaved sample"},
	}
	ok, before := verifyOut(t, seedCells(t))
	for _, c := range cases {
		if strings.Contains(before, c.says) {
			t.Fatalf("%s: the untouched notebook already says %q:\n%s", c.name, c.says, before)
		}
	}
	if !strings.Contains(before, "5 plots drawn again from the samples, byte for byte the same") {
		t.Errorf("the untouched notebook's plots are not all drawn again the same (ok %v):\n%s", ok, before)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			nb := seedCells(t)
			c.tamper(t, nb)
			ok, out := verifyOut(t, roundTrip(t, nb))
			if ok || !strings.Contains(out, c.says) {
				t.Errorf("Verify: ok %v, printed\n%s\nwant it to say %q", ok, out, c.says)
			}
		})
	}
}

// TestVerifyListsUnchecked: verify says plainly what it cannot hold to a
// result (the outputs of glue cells) and that a quick result is a smoke
// test, on its own line, naming who asked for it.
func TestVerifyListsUnchecked(t *testing.T) {
	nb := seedCells(t)
	_, out := verifyOut(t, nb)
	if !strings.Contains(out, "glue: 1 output of 1 cell (2) unchecked") {
		t.Errorf("no line lists the glue output as unchecked:\n%s", out)
	}
	if strings.Contains(out, "QUICK") {
		t.Errorf("a full run is called quick:\n%s", out)
	}
	_, e := entry(t, nb, 1, display.MIMEResult)
	e["protocol"].(map[string]any)["quick"] = true
	nb.Metadata["benchbook"] = map[string]any{"version": "test", "quick": true}
	_, out = verifyOut(t, nb)
	if !strings.Contains(out, "QUICK (reps=30 runs=30, the cell has no quick key: the session was quick; executed with BENCHBOOK_QUICK=1): a smoke test, not a measurement") {
		t.Errorf("the quick result's line does not say it is quick and why:\n%s", out)
	}
}
