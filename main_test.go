package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/cells"
	"github.com/benchbook/benchbook/ipynb"
)

// TestMain lets this test binary be the glue child process of the
// sessions that benchbook run makes.
func TestMain(m *testing.M) {
	cells.ServeGlueChildIfAsked()
	os.Exit(m.Run())
}

// benchbook run writes the executed notebook with every output so far when
// a glue cell dies of a fatal error, with --allow-errors or not; the exit
// status says a cell failed, and with --allow-errors the later cells ran
// with the session replayed.
func TestRunWritesTheNotebookWhenACellDies(t *testing.T) {
	for _, allow := range []bool{false, true} {
		dir := t.TempDir()
		in, out := filepath.Join(dir, "nb.ipynb"), filepath.Join(dir, "out.ipynb")
		nb := ipynb.New(ipynb.NewCode("var base = 20\nfmt.Println(\"first ran\")"),
			ipynb.NewCode("m := map[int]int{}\nfor g := 0; g < 4; g++ {\n\tgo func() {\n\t\tfor i := 0; ; i++ {\n\t\t\tm[i%64] = i\n\t\t}\n\t}()\n}\ntime.Sleep(20 * time.Second)"),
			ipynb.NewCode("base + 1"))
		if err := ipynb.WriteFile(in, nb); err != nil {
			t.Fatal(err)
		}
		args := []string{"run", in, "-o", out}
		if allow {
			args = append(args, "--allow-errors")
		}
		var stdout, stderr bytes.Buffer
		err := run(args, &stdout, &stderr)
		var ce *ipynb.CellError
		if !allow && !errors.As(err, &ce) {
			t.Fatalf("without --allow-errors: %v, want a cell error\n%s", err, stderr.String())
		}
		if allow && err != nil {
			t.Fatalf("with --allow-errors: %v\n%s", err, stderr.String())
		}
		got, rerr := ipynb.ReadFile(out)
		if rerr != nil {
			t.Fatalf("allow-errors %v: the notebook was not written: %v", allow, rerr)
		}
		if o := got.Cells[0].Outputs; len(o) != 1 || !strings.Contains(o[0].Text, "first ran") {
			t.Errorf("allow-errors %v: the first cell's output is lost", allow)
		}
		if o := got.Cells[1].Outputs; len(o) != 1 || o[0].EName != "FatalError" || !strings.Contains(o[0].EValue, "concurrent map writes") {
			t.Errorf("allow-errors %v: the dead cell's output: %+v", allow, o)
		}
		if allow {
			if o := got.Cells[2].Outputs; len(o) != 1 || o[0].Data["text/plain"] != "21" {
				t.Errorf("the cell after the crash: %+v", o)
			}
		}
	}
}
