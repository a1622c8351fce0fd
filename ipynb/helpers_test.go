package ipynb

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/ipynb/ipynbtest"
	"github.com/benchbook/benchbook/stdlib/display"
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
