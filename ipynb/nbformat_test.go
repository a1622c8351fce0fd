package ipynb

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/protocol/benchtest"
	"github.com/benchbook/benchbook/ipynb/ipynbtest"
	"github.com/benchbook/benchbook/stdlib/display"
)

// nbformatCheck reads a notebook with Debian's nbformat, validates it against
// the nbformat schema and checks that every cell has a unique id.
const nbformatCheck = `
import sys, nbformat
nb = nbformat.read(sys.argv[1], as_version=4)
nbformat.validate(nb)
ids = [c.get("id") for c in nb.cells]
assert all(ids), "cell without id: %r" % ids
assert len(set(ids)) == len(ids), "duplicate ids: %r" % ids
print("valid", nb.nbformat, nb.nbformat_minor, len(nb.cells), sum(len(c.get("outputs", [])) for c in nb.cells))
`

// nbformatWrite writes a 4.4 notebook with Python's nbformat, as another tool
// would, without cell ids.
const nbformatWrite = `
import sys, nbformat
from nbformat.v4 import new_notebook, new_code_cell, new_markdown_cell, new_output
nb = new_notebook(cells=[new_markdown_cell("# T"), new_code_cell("x", execution_count=1, outputs=[
    new_output("stream", name="stdout", text="a\nb\n"),
    new_output("execute_result", data={"text/plain": "1"}, execution_count=1)])])
nb.nbformat_minor = 4
for c in nb.cells:
    c.pop("id", None)
nbformat.write(nb, sys.argv[1], version=4)
`

// python runs Debian's python3 with nbformat, or skips the test.
func python(t *testing.T, script string, args ...string) string {
	t.Helper()
	if err := exec.Command("/usr/bin/python3", "-c", "import nbformat").Run(); err != nil {
		t.Skipf("no nbformat for /usr/bin/python3 (apt-get install -y --no-install-recommends python3-nbformat): %v", err)
	}
	out, err := exec.Command("/usr/bin/python3", append([]string{"-c", script}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("python nbformat: %v\n%s", err, out)
	}
	return string(out)
}

func TestWrittenNotebooksValidateWithNbformat(t *testing.T) {
	nb := New(NewMarkdown("# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |"), NewCode("all"), NewCode(""), NewCode("fail"))
	nb.Cells = append(nb.Cells, &Cell{Type: RawCell, Source: "raw", Metadata: map[string]any{"format": "text/plain"}, ID: "bad id!"})
	eng := &ipynbtest.Engine{Steps: map[string]ipynbtest.Step{
		"all": func(pub display.Publisher) (map[string]any, error) {
			pub.Stream("stdout", "a")
			pub.Stream("stdout", "b\n")
			pub.Stream("stderr", "e\n")
			show(pub, "d1", "v1", false)
			show(pub, "d1", "v2", true)
			pub.Display(display.Bundle{Data: map[string]any{display.MIMESVG: "<svg xmlns=\"http://www.w3.org/2000/svg\"/>", display.MIMEText: "svg"},
				Metadata: map[string]any{"isolated": true}}, false)
			return map[string]any{display.MIMEText: "r", display.MIMEResult: benchtest.Seed000(1)}, nil
		},
		"fail": func(display.Publisher) (map[string]any, error) {
			return nil, &ipynbtest.ExecErr{Name: "E", Value: "v", Traceback: []string{"\x1b[31mred\x1b[0m"}}
		},
	}}
	_ = Execute(context.Background(), nb, eng, RunOptions{AllowErrors: true, Version: "test", Command: "go test"})
	path := filepath.Join(t.TempDir(), "out.ipynb")
	if err := WriteFile(path, nb); err != nil {
		t.Fatal(err)
	}
	out := python(t, nbformatCheck, path)
	if !strings.HasPrefix(out, "valid 4 5 5 6") {
		t.Errorf("nbformat says %q, want 5 cells with 6 outputs in nbformat 4.5", out)
	}
}

func TestNotebooksWrittenByNbformatReadAndWriteBack(t *testing.T) {
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "in.ipynb"), filepath.Join(dir, "out.ipynb")
	python(t, nbformatWrite, src)
	nb, err := ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if got := view(nb.Cells[1].Outputs); len(got) != 2 || got[0] != `stream stdout "a\nb\n"` {
		t.Errorf("outputs read as %q", got)
	}
	if err := WriteFile(dst, nb); err != nil {
		t.Fatal(err)
	}
	if out := python(t, nbformatCheck, dst); !strings.HasPrefix(out, "valid 4 5 2 2") {
		t.Errorf("nbformat says %q", out)
	}
}
