package ipynb

import (
	"context"
	"fmt"
	"github.com/benchbook/benchbook/ipynb/ipynbtest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/stdlib/bench"
	"github.com/benchbook/benchbook/stdlib/display"
	"github.com/benchbook/benchbook/stdlib/report"
)

func show(pub display.Publisher, id, s string, update bool) {
	pub.Display(display.Bundle{Data: ipynbtest.Plain(s), ID: id}, update)
}

// view is a compact form of outputs for comparing: one string per output.
func view(outs []*Output) []string {
	out := []string{}
	for _, o := range outs {
		switch o.Type {
		case StreamOutput:
			out = append(out, fmt.Sprintf("stream %s %q", o.Name, o.Text))
		case ErrorOutput:
			out = append(out, fmt.Sprintf("error %s: %s", o.EName, o.EValue))
		default:
			keys := make([]string, 0, len(o.Data))
			for k := range o.Data {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			var parts []string
			for _, k := range keys {
				if s, ok := o.Data[k].(string); ok {
					parts = append(parts, k+"="+s)
				} else {
					parts = append(parts, k+"=<"+fmt.Sprintf("%T", o.Data[k])+">")
				}
			}
			prefix := o.Type
			if o.ExecutionCount != nil {
				prefix += fmt.Sprintf("[%d]", *o.ExecutionCount)
			}
			out = append(out, prefix+" "+strings.Join(parts, " "))
		}
	}
	return out
}

// resultNotebook runs a notebook whose code cells each show one result as a
// %bench cell does (report.Result's bundle, then the commentary), after a
// markdown cell. Each result's findings are made from it as it is then, as
// the runner makes them last.
func resultNotebook(t *testing.T, results ...*bench.Result) *Notebook {
	t.Helper()
	nb := New(NewMarkdown("# results"))
	eng := &ipynbtest.Engine{Steps: map[string]ipynbtest.Step{}}
	for i, r := range results {
		// As the runner does last: the findings from the finished result.
		r.Findings = bench.Findings(r)
		code := fmt.Sprintf("%%bench %s quick // %d", r.Kernel.Name, i)
		nb.Cells = append(nb.Cells, NewCode(code))
		eng.Steps[code] = func(pub display.Publisher) (map[string]any, error) {
			pub.Stream("stdout", "prediction: none\n")
			pub.Display(display.Bundle{Data: report.Result(r), ID: display.NewID()}, false)
			pub.Display(display.Bundle{Data: report.CommentaryBundle(r), ID: display.NewID()}, false)
			if r.Baseline != nil {
				pub.Display(display.Bundle{Data: report.BaselineBundle(r), ID: display.NewID()}, false)
			}
			return nil, nil
		}
	}
	if err := Execute(context.Background(), nb, eng, RunOptions{}); err != nil {
		t.Fatalf("running the result notebook: %v", err)
	}
	return nb
}

// roleNotebook is resultNotebook with the outputs a %bench cell writes
// now: each with its role, the headline first (cells.Session.show).
func roleNotebook(t *testing.T, r *bench.Result) *Notebook {
	t.Helper()
	nb := New(NewMarkdown("# results"))
	eng := &ipynbtest.Engine{Steps: map[string]ipynbtest.Step{}}
	r.Findings = bench.Findings(r)
	code := fmt.Sprintf("%%bench %s quick", r.Kernel.Name)
	nb.Cells = append(nb.Cells, NewCode(code))
	eng.Steps[code] = func(pub display.Publisher) (map[string]any, error) {
		id := display.NewID()
		pub.Display(display.Bundle{Data: map[string]any{display.MIMEText: "%bench: starting"}, Metadata: report.Role(report.RoleHeadline), ID: id}, false)
		pub.Display(display.Bundle{Data: report.HeadlineBundle(r), Metadata: report.Role(report.RoleHeadline), ID: id}, true)
		if r.Baseline != nil {
			pub.Display(display.Bundle{Data: report.BaselineBundle(r), Metadata: report.Role(report.RoleBaseline), ID: display.NewID()}, false)
		}
		pub.Display(display.Bundle{Data: report.Result(r), Metadata: report.Role(report.RoleResult), ID: display.NewID()}, false)
		pub.Display(display.Bundle{Data: report.CommentaryBundle(r), Metadata: report.Role(report.RoleCommentary), ID: display.NewID()}, false)
		return nil, nil
	}
	if err := Execute(context.Background(), nb, eng, RunOptions{}); err != nil {
		t.Fatalf("running the result notebook: %v", err)
	}
	return nb
}

// roundTrip writes nb to a file and reads it back, as the command would.
func roundTrip(t *testing.T, nb *Notebook) *Notebook {
	t.Helper()
	path := filepath.Join(t.TempDir(), "nb.ipynb")
	if err := WriteFile(path, nb); err != nil {
		t.Fatal(err)
	}
	back, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return back
}

// dirNames lists the names in dir.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// wantMismatch fails t unless Verify rejects r with a MISMATCH saying says.
func wantMismatch(t *testing.T, r *bench.Result, says string) {
	t.Helper()
	if ok, out := verifyOut(t, roundTrip(t, resultNotebook(t, r))); ok || !strings.Contains(out, ": MISMATCH: ") || !strings.Contains(out, says) {
		t.Errorf("Verify: ok %v, printed\n%s\nwant a MISMATCH saying %q", ok, out, says)
	}
}
