package ipynb

import (
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      error
		says      []string
	}{
		{"a syntax error says line and column", "{\"nbformat\": 4,\n \"cells\": [}", ErrNotJSON, []string{"line 2, column 12"}},
		{"a syntax error on the first line", `{"nbformat" 4}`, ErrNotJSON, []string{"line 1, column 13"}},
		{"the column counts characters, not bytes", "{\"é\": 1,\n\"ü\" x}", ErrNotJSON, []string{"line 2, column 5"}},
		{"a truncated file", "{\"nbformat\": 4,\n \"cells\": [", ErrNotJSON, []string{"line 2", "unexpected end"}},
		{"an array is not a notebook", `[1, 2]`, ErrNotNotebook, []string{"top level is a JSON array"}},
		{"no nbformat key", `{"cells": []}`, ErrNotNotebook, []string{"no nbformat key"}},
		{"nbformat 3 names its version", `{"nbformat": 3, "nbformat_minor": 0, "worksheets": []}`, ErrVersion, []string{"nbformat 3 notebook"}},
		{"nbformat as a string", `{"nbformat": "4"}`, ErrNotNotebook, []string{"nbformat is a string"}},
		{"unknown cell type names the cell", `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
			{"cell_type": "markdown", "source": "hi", "metadata": {}},
			{"cell_type": "heading", "source": "hi", "metadata": {}}]}`, ErrMalformed, []string{"cell 1", `unknown cell_type "heading"`}},
		{"source that is a number", `{"nbformat": 4, "nbformat_minor": 5, "cells": [{"cell_type": "code", "source": 7}]}`,
			ErrMalformed, []string{"cell 0", "source is a number, want a string or a list of strings"}},
		{"source list with a number", `{"nbformat": 4, "nbformat_minor": 5, "cells": [{"cell_type": "code", "source": ["a", 1]}]}`,
			ErrMalformed, []string{"cell 0", "source is a list with an item that is not a string"}},
		{"missing source", `{"nbformat": 4, "nbformat_minor": 5, "cells": [{"cell_type": "raw"}]}`,
			ErrMalformed, []string{"cell 0", "source is missing"}},
		{"missing cell_type", `{"nbformat": 4, "nbformat_minor": 5, "cells": [{"source": ""}]}`,
			ErrMalformed, []string{"cell 0", "cell_type is missing"}},
		{"cell metadata that is a list", `{"nbformat": 4, "nbformat_minor": 5, "cells": [{"cell_type": "raw", "source": "", "metadata": []}]}`,
			ErrMalformed, []string{"cell 0", "metadata is a list, want an object"}},
		{"execution count that is a string", `{"nbformat": 4, "nbformat_minor": 5, "cells": [{"cell_type": "code", "source": "", "execution_count": "1", "outputs": []}]}`,
			ErrMalformed, []string{"cell 0", "execution_count"}},
		{"unknown output type names cell and output", `{"nbformat": 4, "nbformat_minor": 5, "cells": [{"cell_type": "code", "source": "", "outputs": [
			{"output_type": "stream", "name": "stdout", "text": "x"}, {"output_type": "pyout"}]}]}`,
			ErrMalformed, []string{"cell 0", "output 1", `unknown output_type "pyout"`}},
		{"notebook metadata that is a string", `{"nbformat": 4, "metadata": "x"}`, ErrMalformed, []string{"notebook metadata is a string"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.src))
			if !errors.Is(err, tc.want) {
				t.Fatalf("Parse: got %v, want an error wrapping %v", err, tc.want)
			}
			for _, s := range tc.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not say %q", err, s)
				}
			}
		})
	}
}

func TestReadFileNamesThePath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "broken.ipynb")
	if err := os.WriteFile(path, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(path)
	if err == nil || !strings.HasPrefix(err.Error(), path+": ") {
		t.Fatalf("ReadFile error %v does not start with the path", err)
	}
}

// A 4.4 notebook as another tool writes it: sources as lists, no ids, extra
// metadata everywhere, and a 64-bit integer that a float64 would round.
const v44 = `{
 "nbformat": 4, "nbformat_minor": 4,
 "metadata": {"kernelspec": {"name": "other", "display_name": "Other", "language": "x"}, "custom": {"seed": 18446744073709551557}},
 "cells": [
  {"cell_type": "markdown", "metadata": {"tags": ["intro"]}, "source": ["# Title\n", "text"], "attachments": {"a.png": {"image/png": "iVBORw0KGgo="}}},
  {"cell_type": "code", "execution_count": 3, "metadata": {"collapsed": false, "mine": {"k": 1}}, "source": "print(1)",
   "outputs": [{"output_type": "stream", "name": "stdout", "text": ["1\n", "2\n"]},
               {"output_type": "execute_result", "execution_count": 3, "metadata": {"m": true}, "data": {"text/plain": ["a\n", "b"], "application/json": {"x": [1, 2]}}},
               {"output_type": "error", "ename": "E", "evalue": "v", "traceback": ["t1", "t2"]}]},
  {"cell_type": "code", "metadata": {}, "source": [], "outputs": [], "execution_count": null, "id": "keep-me_1"},
  {"cell_type": "raw", "metadata": {}, "source": "raw", "id": "keep-me_1"}
 ]
}`

func TestParseAndWriteKeepWhatTheyRead(t *testing.T) {
	nb, err := Parse([]byte(v44))
	if err != nil {
		t.Fatal(err)
	}
	if got := nb.Cells[0].Source; got != "# Title\ntext" {
		t.Errorf("source list joined to %q", got)
	}
	out := nb.Cells[1].Outputs
	if out[0].Text != "1\n2\n" || out[1].Data["text/plain"] != "a\nb" {
		t.Errorf("multiline output text not joined: %q, %q", out[0].Text, out[1].Data["text/plain"])
	}
	back := roundTrip(t, nb)
	if back.NBFormatMinor != 5 {
		t.Errorf("written minor version %d, want 5", back.NBFormatMinor)
	}
	if !reflect.DeepEqual(back.Metadata, nb.Metadata) {
		t.Errorf("notebook metadata changed:\n%v\n%v", nb.Metadata, back.Metadata)
	}
	seed := back.Metadata["custom"].(map[string]any)["seed"].(json.Number)
	if seed.String() != "18446744073709551557" {
		t.Errorf("64-bit integer became %s", seed)
	}
	for i := range nb.Cells {
		a, b := nb.Cells[i], back.Cells[i]
		if a.Source != b.Source || !reflect.DeepEqual(a.Metadata, b.Metadata) || !reflect.DeepEqual(a.Attachments, b.Attachments) {
			t.Errorf("cell %d changed in a round trip:\n%+v\n%+v", i, a, b)
		}
		if !reflect.DeepEqual(view(a.Outputs), view(b.Outputs)) || (i == 1 && !reflect.DeepEqual(a.Outputs[1].Metadata, b.Outputs[1].Metadata)) {
			t.Errorf("cell %d outputs changed: %v, %v", i, view(a.Outputs), view(b.Outputs))
		}
	}
	ids := []string{}
	for _, c := range back.Cells {
		if !cellIDRE.MatchString(c.ID) {
			t.Errorf("cell id %q is not valid", c.ID)
		}
		ids = append(ids, c.ID)
	}
	if ids[2] != "keep-me_1" {
		t.Errorf("a valid id was replaced: %v", ids)
	}
	if len(slices.Compact(slices.Sorted(slices.Values(ids)))) != len(ids) {
		t.Errorf("ids are not unique: %v", ids)
	}
	first, _ := nb.Marshal()
	second, _ := back.Marshal()
	if string(first) != string(second) {
		t.Errorf("writing what was read changes the file:\n%s\n%s", first, second)
	}
}

func TestWrittenLayout(t *testing.T) {
	nb := New(NewCode("a := 1\nb := <a>\n"))
	data, err := nb.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cells []struct {
			Source         []string `json:"source"`
			ExecutionCount *int     `json:"execution_count"`
			Outputs        []any    `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	c := doc.Cells[0]
	if !reflect.DeepEqual(c.Source, []string{"a := 1\n", "b := <a>\n"}) || c.Outputs == nil {
		t.Errorf("code cell written as %s", data)
	}
	if strings.Contains(string(data), `\u003c`) {
		t.Errorf("HTML characters escaped in the file: %s", data)
	}
}

func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.ipynb")
	if err := WriteFile(path, New(NewMarkdown("one"))); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, New(NewMarkdown("two"))); err != nil {
		t.Fatal(err)
	}
	if names := dirNames(t, dir); !reflect.DeepEqual(names, []string{"out.ipynb"}) {
		t.Errorf("the folder holds %v after two writes, want only out.ipynb", names)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v after overwrite, want the old 0600", st.Mode().Perm())
	}
	old, _ := os.ReadFile(path)
	if nb, err := Parse(old); err != nil || nb.Cells[0].Source != "two" {
		t.Fatalf("second write not in place: %v", err)
	}

	failures := []struct {
		name  string
		write func() error
	}{
		{"the write fails half way", func() error {
			return writeAtomic(path, func(w io.Writer) error {
				_, _ = w.Write([]byte(`{"nbformat": 4, "cel`))
				return errors.New("disk full")
			})
		}},
		{"the notebook does not encode", func() error {
			nb := New(NewCode("x"))
			nb.Cells[0].Outputs = []*Output{{Type: DisplayData, Data: map[string]any{"application/json": math.NaN()}}}
			return WriteFile(path, nb)
		}},
	}
	for _, f := range failures {
		t.Run(f.name, func(t *testing.T) {
			if err := f.write(); err == nil || !strings.Contains(err.Error(), path) {
				t.Fatalf("failed write returned %v, want an error naming %s", err, path)
			}
			now, _ := os.ReadFile(path)
			if string(now) != string(old) {
				t.Errorf("a failed write changed the old file to %q", now)
			}
			if names := dirNames(t, dir); !reflect.DeepEqual(names, []string{"out.ipynb"}) {
				t.Errorf("a failed write left %v", names)
			}
		})
	}
	if err := WriteFile(filepath.Join(dir, "missing", "x.ipynb"), New()); err == nil {
		t.Error("writing into a missing folder succeeded")
	}
}
