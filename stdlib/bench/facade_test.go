package bench_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// documented are the facade's names: the notebook's API, each named in the
// package doc's groups (doc.go) and, the functions, in docs/cells.md. A
// name added to the facade is added here and to the docs in the same
// change; one that leaves it, too.
var documented = []string{
	// the session (session.go)
	"Run", "Get", "Kernels",
	// results (results.go)
	"Result", "Variant", "Series", "Samples", "Comparison", "Protocol", "Conditions", "Latency", "Results",
	"ReadNotebook", "Recover", "SweepSamples", "CheckMethod", "ErrDiskFull",
	// the words (words.go)
	"Sentence", "HeadlineLine", "CurvePoint", "Fall", "TopicControl", "StepRatio", "CheckRatio",
	"Sentences", "Headline", "SweepSentences", "SweepHeadline", "FindFalls",
	"FormatNS", "FormatRatio", "FormatPct", "FormatBytes",
	// the verdicts (verdicts.go)
	"HeadlineInput", "HeadlineSeries", "VariantVerdict", "BlockRounds", "StepRounds", "MaxPairs", "LatencyPreemptShare",
	"Verdict", "JudgeHeadline", "BlockPlan", "BlockStop",
}

// exported are the exported top-level names of the facade's non-test Go
// files, as go doc lists them.
func exported(t *testing.T) []string {
	t.Helper()
	names := exportedIn(t, ".")
	if len(names) < 10 {
		t.Fatalf("the facade exports %d names (%v): its files were not read", len(names), names)
	}
	return names
}

// exportedIn are the exported top-level names of the non-test Go files in
// dir, sorted (methods aside).
func exportedIn(t *testing.T, dir string) []string {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() {
					names = append(names, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							names = append(names, s.Name.Name)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								names = append(names, n.Name)
							}
						}
					}
				}
			}
		}
	}
	sort.Strings(names)
	return names
}

// TestFacadeNames holds the facade small: every name it exports is in
// documented, and every documented name is exported. The notebook sees
// each one (yaegi extracts the whole package), so a runner internal
// exported here by the way becomes API.
func TestFacadeNames(t *testing.T) {
	names := exported(t)
	for _, n := range names {
		if !slices.Contains(documented, n) {
			t.Errorf("bench.%s is exported, and glue cells see every exported name: it is not one of the documented names of the notebook API. "+
				"Add it to the docs (the groups of doc.go, docs/cells.md) and to documented in facade_test.go, or keep it in internal/protocol", n)
		}
	}
	for _, n := range documented {
		if !slices.Contains(names, n) {
			t.Errorf("bench.%s is documented (facade_test.go) but not exported: take it out of documented and of the docs", n)
		}
	}
}

// glueName is a name of package bench in glue code: bench.Name.
var glueName = regexp.MustCompile(`\bbench\.([A-Z][A-Za-z0-9_]*)`)

// TestNotebooksUseTheFacade: every bench.Name a notebook of this
// repository uses in a glue cell is exported by the facade, so that the
// facade cannot drop a name a notebook needs. The notebooks are every
// .ipynb of the repository (notebooks/, published ones included, tests/,
// testdata); a glue cell is a code cell without a %% magic (the %%go cells'
// bench is the Go driver's, internal/harness/go/bench).
func TestNotebooksUseTheFacade(t *testing.T) {
	names := exported(t)
	root := filepath.Join("..", "..")
	var notebooks []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "third_party" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".ipynb") {
			notebooks = append(notebooks, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(notebooks, filepath.Join(root, "notebooks", "investigation.ipynb")) {
		t.Fatalf("the notebooks found are %v: notebooks/investigation.ipynb is not among them", notebooks)
	}
	used := 0
	for _, path := range notebooks {
		for cell, src := range glueCells(t, path) {
			for _, m := range glueName.FindAllStringSubmatch(src, -1) {
				used++
				if !slices.Contains(names, m[1]) {
					t.Errorf("%s, cell %d, uses bench.%s, which the facade stdlib/bench does not export: add it (and to documented, and the docs)", path, cell+1, m[1])
				}
			}
		}
	}
	if used < 20 {
		t.Errorf("the notebooks use bench.X %d times: the glue cells were not read", used)
	}
}

// glueCells are the sources of a notebook's code cells, "" for the cells
// that are not glue (a %% magic: a kernel in C or Go).
func glueCells(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Cells []struct {
			Type   string          `json:"cell_type"`
			Source json.RawMessage `json:"source"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(b, &nb); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	out := make([]string, len(nb.Cells))
	for i, c := range nb.Cells {
		var src string
		if err := json.Unmarshal(c.Source, &src); err != nil { // nbformat allows a list of lines
			var lines []string
			if err := json.Unmarshal(c.Source, &lines); err != nil {
				t.Fatalf("%s, cell %d: source: %v", path, i+1, err)
			}
			src = strings.Join(lines, "")
		}
		if c.Type == "code" && !strings.HasPrefix(strings.TrimSpace(src), "%%") {
			out[i] = src
		}
	}
	return out
}

// TestDocsNameTheFacade: the docs, the README, the integration tests'
// cells and the cells package's tests name the notebook's bench by the
// facade's names: a bench.Name there is the facade's, or the Go driver's
// that %%go cells use (bench.Sink, bench.Checksum, bench.Op:
// internal/harness/go/bench).
func TestDocsNameTheFacade(t *testing.T) {
	names := exported(t)
	driver := driverNames(t)
	root := filepath.Join("..", "..")
	var files []string
	for _, pattern := range []string{"README.md", "docs/*.md", "tests/*.py", "cells/*_test.go", "cells/*/*_test.go"} {
		m, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	used := 0
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, m := range glueName.FindAllStringSubmatch(line, -1) {
				used++
				if !slices.Contains(names, m[1]) && !driver[m[1]] {
					t.Errorf("%s:%d names bench.%s, which neither the facade stdlib/bench nor the Go driver exports: "+
						"name the internal package that has it, or add it to the facade (and to documented, and the docs)", path, i+1, m[1])
				}
			}
		}
	}
	if used < 20 {
		t.Errorf("the docs and tests name bench.X %d times: they were not read", used)
	}
}

// driverNames are the exported names of the Go driver's package bench.
func driverNames(t *testing.T) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, n := range exportedIn(t, filepath.Join("..", "..", "internal", "harness", "go", "bench")) {
		out[n] = true
	}
	if !out["Sink"] || !out["Checksum"] || !out["Op"] {
		t.Fatalf("the Go driver's names %v lack Sink, Checksum or Op", out)
	}
	return out
}
