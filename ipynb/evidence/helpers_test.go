package evidence

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/ipynb"
	"github.com/benchbook/benchbook/ipynb/ipynbtest"
	"github.com/benchbook/benchbook/stdlib/display"
	"github.com/benchbook/benchbook/stdlib/report"
)

// resultNotebook runs a notebook whose code cells each show one result as a
// %bench cell does (report.Result's bundle, then the commentary), after a
// markdown cell. Each result's findings are made from it as it is then, as
// the runner makes them last.
func resultNotebook(t *testing.T, results ...*protocol.Result) *ipynb.Notebook {
	t.Helper()
	nb := ipynb.New(ipynb.NewMarkdown("# results"))
	eng := &ipynbtest.Engine{Steps: map[string]ipynbtest.Step{}}
	for i, r := range results {
		// As the runner does last: the findings from the finished result.
		r.Findings = protocol.Findings(r)
		code := fmt.Sprintf("%%bench %s quick // %d", r.Kernel.Name, i)
		nb.Cells = append(nb.Cells, ipynb.NewCode(code))
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
	if err := ipynb.Execute(context.Background(), nb, eng, ipynb.RunOptions{}); err != nil {
		t.Fatalf("running the result notebook: %v", err)
	}
	return nb
}

// roleNotebook is resultNotebook with the outputs a %bench cell writes
// now: each with its role, the headline first (cells.Session.show).
func roleNotebook(t *testing.T, r *protocol.Result) *ipynb.Notebook {
	t.Helper()
	nb := ipynb.New(ipynb.NewMarkdown("# results"))
	eng := &ipynbtest.Engine{Steps: map[string]ipynbtest.Step{}}
	r.Findings = protocol.Findings(r)
	code := fmt.Sprintf("%%bench %s quick", r.Kernel.Name)
	nb.Cells = append(nb.Cells, ipynb.NewCode(code))
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
	if err := ipynb.Execute(context.Background(), nb, eng, ipynb.RunOptions{}); err != nil {
		t.Fatalf("running the result notebook: %v", err)
	}
	return nb
}

// wantMismatch fails t unless Verify rejects r with a MISMATCH saying says.
func wantMismatch(t *testing.T, r *protocol.Result, says string) {
	t.Helper()
	if ok, out := verifyOut(t, roundTrip(t, resultNotebook(t, r))); ok || !strings.Contains(out, ": MISMATCH: ") || !strings.Contains(out, says) {
		t.Errorf("Verify: ok %v, printed\n%s\nwant a MISMATCH saying %q", ok, out, says)
	}
}

// roundTrip encodes nb and parses it back: what a written notebook reads
// as.
func roundTrip(t testing.TB, nb *ipynb.Notebook) *ipynb.Notebook {
	t.Helper()
	return parse(t, marshal(t, nb))
}

// marshal is nb as nbformat JSON, as ipynb.WriteFile writes it.
func marshal(t testing.TB, nb *ipynb.Notebook) []byte {
	t.Helper()
	data, err := nb.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// parse is the notebook data holds, as ipynb.ReadFile reads it.
func parse(t testing.TB, data []byte) *ipynb.Notebook {
	t.Helper()
	nb, err := ipynb.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return nb
}
