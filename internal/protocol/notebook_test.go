package protocol

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/stdlib/display"
)

// A notebook written with two results of two kernels, among other outputs,
// reads back in order, with a legacy 64-bit seed kept to the last digit.
func TestReadNotebookFindsResultsInOrder(t *testing.T) {
	a := &Result{Schema: SchemaID, Kernel: Kernel{Name: "seed", BinarySHA256: "aa"}}
	b := &Result{Schema: SchemaID, Kernel: Kernel{Name: "walk"}}
	c := &Result{Schema: SchemaID, Kernel: Kernel{Name: "seed", BinarySHA256: "cc"}}
	a.Protocol.BootstrapSeed = 1<<63 + 12345
	out := func(r *Result) map[string]any {
		return map[string]any{"output_type": "display_data", "metadata": map[string]any{},
			"data": map[string]any{display.MIMEText: "table", display.MIMEResult: r}}
	}
	nb := map[string]any{"nbformat": 4, "nbformat_minor": 5, "metadata": map[string]any{}, "cells": []any{
		map[string]any{"cell_type": "markdown", "source": "# x", "metadata": map[string]any{}},
		map[string]any{"cell_type": "code", "source": "%bench seed", "metadata": map[string]any{}, "outputs": []any{
			map[string]any{"output_type": "stream", "name": "stdout", "text": "hello"}, out(a), out(b)}},
		map[string]any{"cell_type": "code", "source": "%bench seed", "metadata": map[string]any{}, "outputs": []any{out(c)}},
	}}
	data, err := json.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "nb.ipynb")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	rs, err := ReadNotebook(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 3 || len(rs.Of("seed")) != 2 || rs.Of("seed")[1].Kernel.BinarySHA256 != "cc" {
		t.Fatalf("read %d results, %d of seed", len(rs), len(rs.Of("seed")))
	}
	first, err := rs.First("seed")
	if err != nil || first.Kernel.BinarySHA256 != "aa" || first.Protocol.BootstrapSeed != 1<<63+12345 {
		t.Errorf("first seed: %+v, %v", first, err)
	}
	if _, err := rs.First("nosuch"); err == nil || !strings.Contains(err.Error(), "walk") {
		t.Errorf("a missing kernel should list the kernels there are: %v", err)
	}
}

func TestReadNotebookErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.ipynb")
	_ = os.WriteFile(empty, []byte(`{"cells": [{"cell_type": "code", "outputs": []}]}`), 0o600)
	bad := filepath.Join(dir, "bad.ipynb")
	_ = os.WriteFile(bad, []byte(`{"cells": [`), 0o600)
	for _, p := range []string{empty, bad, filepath.Join(dir, "missing.ipynb")} {
		if _, err := ReadNotebook(p); err == nil || !strings.Contains(err.Error(), filepath.Base(p)) {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// Comparison turns a stated verdict round: b over a is the inverse of a
// over b, interval bounds swapped, the test the same.
func TestComparisonEitherWayRound(t *testing.T) {
	r := &Result{Comparisons: []Comparison{{A: "slow", B: "fast", Series: "interleaved", Ratio: 4, CILow: 2, CIHigh: 8,
		PValue: 0.01, Significant: true, Stat: Stat{Shift: 5}}}}
	c, ok := r.Comparison("slow", "fast")
	if !ok || c.Ratio != 4 || c.CILow != 2 {
		t.Fatalf("as stated: %+v %v", c, ok)
	}
	c, ok = r.Comparison("fast", "slow")
	if !ok || c.A != "fast" || c.Ratio != 0.25 || c.CILow != 0.125 || c.CIHigh != 0.5 || c.Shift != 0.2 || c.PValue != 0.01 || !c.Significant {
		t.Errorf("turned round: %+v %v", c, ok)
	}
	if _, ok := r.Comparison("fast", "other"); ok {
		t.Error("a pair never compared was found")
	}
	if r.Comparisons[0].Ratio != 4 {
		t.Error("turning round changed the result")
	}
}
