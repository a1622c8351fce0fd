package evidence

import (
	"strings"
	"testing"

	"github.com/benchbook/benchbook/ipynb"
	"github.com/benchbook/benchbook/stdlib/display"
)

// batchedCell is the published notebook's first %bench cell whose result
// holds a variant's batch assembly (as=batched), alone in a notebook, with
// its plots left out (an earlier version drew them; plots are
// TestVerifyTampering's), and the name of that variant.
func batchedCell(t *testing.T) (*ipynb.Notebook, string) {
	t.Helper()
	nb, err := ipynb.ReadFile("../../notebooks/published/investigation.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range nb.Cells {
		if !strings.HasPrefix(c.Source, "%bench ") {
			continue
		}
		for _, o := range c.Outputs {
			r, ok := o.Data[display.MIMEResult].(map[string]any)
			if !ok || r["sweep"] != nil {
				continue
			}
			for _, v := range r["variants"].([]any) {
				if m := v.(map[string]any); m["batch_asm"] != nil && m["batch_asm"] != "" {
					keep := c.Outputs[:0]
					for _, o := range c.Outputs {
						if _, png := o.Data[display.MIMEPNG]; !png {
							keep = append(keep, o)
						}
					}
					c.Outputs = keep
					return &ipynb.Notebook{NBFormat: nb.NBFormat, NBFormatMinor: nb.NBFormatMinor, Metadata: nb.Metadata, Cells: []*ipynb.Cell{c}}, m["name"].(string)
				}
			}
		}
	}
	t.Fatal("the published notebook has no bench cell with a batch assembly")
	return nil, ""
}

// TestVerifyRederivesTheBatchAssembly: a result's batch_dead and
// batch_hollow are derived again from its stored batch assembly
// (asm.AnalyzeBatch), so flipping either is a mismatch that names the
// variant; untouched, the same result has no such mismatch.
func TestVerifyRederivesTheBatchAssembly(t *testing.T) {
	nb, name := batchedCell(t)
	_, before := verifyOut(t, nb)
	if strings.Contains(before, "batch_dead") {
		t.Fatalf("the untouched result already has a batch mismatch:\n%s", before)
	}
	for _, key := range []string{"batch_dead", "batch_hollow"} {
		t.Run(key, func(t *testing.T) {
			nb, _ := batchedCell(t)
			_, e := entry(t, nb, 0, display.MIMEResult)
			v := variantOfEntry(t, e, name)
			dead, hollow := v["batch_dead"] == true, v["batch_hollow"] == true
			gives := tf(dead) + ", " + tf(hollow) // untouched, they are what the assembly gives
			if key == "batch_dead" {
				dead = !dead
				v[key] = dead
			} else {
				hollow = !hollow
				v[key] = hollow
			}
			ok, out := verifyOut(t, roundTrip(t, nb))
			want := "variant " + name + ": batch_dead " + tf(dead) + ", batch_hollow " + tf(hollow) + ", but its batch assembly gives " + gives
			if ok || !strings.Contains(out, want) {
				t.Errorf("Verify with %s flipped: ok %v, printed\n%s\nwant it to say %q", key, ok, out, want)
			}
		})
	}
}

func tf(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
