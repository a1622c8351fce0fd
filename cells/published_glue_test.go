package cells

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/stdlib/display"
)

// The glue cells of the published investigation notebook run again on the
// results it recorded, without measuring anything: each %bench cell's
// results are put in the session (as the cell would have left them: the
// kernel's latest, each sweep point under NAME@point) and bound to its
// glue variable, and every glue cell after it runs through yaegi with the
// notebook packages' symbol tables (stdlib/symbols, the facade
// stdlib/bench among them). A cell that no longer compiles or fails
// against those tables fails here; what a cell prints from the recorded
// results is the published text, byte for byte.
func TestPublishedNotebookGlue(t *testing.T) {
	src := filepath.Join("..", "notebooks", "published", "investigation.ipynb")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Cells []struct {
			Type    string          `json:"cell_type"`
			Source  json.RawMessage `json:"source"`
			Outputs []struct {
				Type string                     `json:"output_type"`
				Name string                     `json:"name"`
				Text json.RawMessage            `json:"text"`
				Data map[string]json.RawMessage `json:"data"`
			} `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(b, &nb); err != nil {
		t.Fatal(err)
	}
	s := newSession(t)
	// the last glue cell compares with published/investigation.ipynb, as
	// the notebook's folder has it
	if err := os.MkdirAll(filepath.Join(s.opt.Dir, "published"), 0o755); err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(abs, filepath.Join(s.opt.Dir, "published", "investigation.ipynb")); err != nil {
		t.Fatal(err)
	}
	glueCells, benchCells := 0, 0
	for i, c := range nb.Cells {
		label := "Cell[" + strconv.Itoa(i+1) + "]"
		code := nbText(t, c.Source)
		if c.Type != "code" || strings.HasPrefix(code, "%%") || strings.HasPrefix(code, "!") {
			continue
		}
		if strings.HasPrefix(code, "%bench ") {
			var rs []*protocol.Result
			for _, o := range c.Outputs {
				if raw, ok := o.Data[display.MIMEResult]; ok {
					r := new(protocol.Result)
					if err := json.Unmarshal(raw, r); err != nil {
						t.Fatalf("%s: %v", label, err)
					}
					rs = append(rs, r)
				}
			}
			if len(rs) == 0 {
				t.Fatalf("%s (%s) recorded no result", label, code)
			}
			name, as := benchNames(code)
			s.mu.Lock()
			for _, r := range rs {
				if r.Sweep != nil {
					s.results[name+"@"+protocol.PointLabel(r)] = r
				}
			}
			s.results[name] = rs[len(rs)-1]
			s.mu.Unlock()
			if err := s.bind(context.Background(), as, name, &recorder{}); err != nil {
				t.Fatalf("%s: binding %s: %v", label, as, err)
			}
			benchCells++
			continue
		}
		glueCells++
		rec, _, e := execute(t, s, label, code)
		if e != nil {
			t.Errorf("%s fails on the published results: %s: %s\n%s", label, e.Name, e.Value, code)
			continue
		}
		var want strings.Builder
		for _, o := range c.Outputs {
			if o.Type == "stream" && o.Name == "stdout" {
				want.WriteString(nbText(t, o.Text))
			}
		}
		if got := rec.streams.String(); got != want.String() {
			t.Errorf("%s prints, on the results its notebook recorded:\n%s\nthe published notebook has:\n%s"+
				"(a change meant to write these numbers otherwise publishes the notebook again)", label, got, want.String())
		}
	}
	if benchCells < 10 || glueCells < 10 {
		t.Errorf("%d %%bench cells and %d glue cells: the notebook was not read", benchCells, glueCells)
	}
}

// benchNames are the kernel of a %bench line and the glue variable its
// result is bound to (as=, else the kernel's name).
func benchNames(line string) (name, as string) {
	fields := strings.Fields(strings.SplitN(line, "\n", 2)[0])
	name, as = fields[1], fields[1]
	for _, f := range fields[2:] {
		if v, ok := strings.CutPrefix(f, "as="); ok {
			as = v
		}
	}
	return name, as
}

// nbText is a notebook string: one string or a list of lines.
func nbText(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s
	}
	var lines []string
	if err := json.Unmarshal(raw, &lines); err != nil {
		t.Fatalf("not a notebook string: %.80s", raw)
	}
	return strings.Join(lines, "")
}
