package main

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const module = "github.com/benchbook/benchbook"

// TestImportRules holds the arrows of the README's layout, over every
// package's transitive dependencies (go list -deps): kernel/ (the wire
// protocol) depends on nothing of cells/ or stdlib/; cells/ (what a cell
// means) nothing of kernel/; stdlib/ and internal/ (what cells use)
// neither kernel/ nor cells/; internal/ not the notebook's facade
// stdlib/bench; and no package but the root command depends on both
// kernel/ and cells/: main.go and engine.go are the one adapter.
func TestImportRules(t *testing.T) {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(goTool, "list", "-deps=false", "-f", `{{.ImportPath}}:{{join .Deps " "}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := map[string][]string{}
	external := map[string][]string{} // the dependencies outside the module
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, list, _ := strings.Cut(line, ":")
		deps[rel(pkg)] = nil
		for _, d := range strings.Fields(list) {
			if strings.HasPrefix(d, module+"/") {
				deps[rel(pkg)] = append(deps[rel(pkg)], rel(d))
			} else {
				external[rel(pkg)] = append(external[rel(pkg)], d)
			}
		}
	}
	// cells/glue/source, what a glue cell's source says, reads it without
	// the interpreter: it depends on nothing of yaegi.
	if _, ok := deps["cells/glue/source"]; !ok {
		t.Error("go list found no cells/glue/source")
	}
	for _, d := range external["cells/glue/source"] {
		if under(d, "github.com/traefik/yaegi") {
			t.Errorf("cells/glue/source depends on %s: the source of a cell is read without the interpreter", d)
		}
	}
	if len(deps) < 10 || deps["."] == nil {
		t.Fatalf("go list found %d packages, the root among them: %v", len(deps), deps["."])
	}
	rules := []struct {
		from   string   // a top folder
		never  []string // folders it must not depend on
		reason string
	}{
		{"kernel", []string{"cells", "stdlib"}, "the wire protocol knows nothing of what a cell means"},
		{"cells", []string{"kernel"}, "a cell's meaning knows nothing of sockets"},
		{"stdlib", []string{"kernel", "cells"}, "what cells use is below them"},
		{"internal", []string{"kernel", "cells"}, "what cells use is below them"},
		{"stdlib", []string{"internal/prose"}, "the oracles and the figures they recompute are written apart from the renderers (docs/prose.md)"},
		{"internal", []string{"stdlib/bench"}, "stdlib/bench is the notebook's facade; code in the module uses internal/protocol"},
	}
	for pkg, ds := range deps {
		for _, r := range rules {
			if !under(pkg, r.from) {
				continue
			}
			for _, d := range ds {
				for _, n := range r.never {
					if under(d, n) {
						t.Errorf("%s depends on %s: %s/ must not depend on %s/ (%s)", pkg, d, r.from, n, r.reason)
					}
				}
			}
		}
		if pkg != "." && dependsOn(ds, "kernel") && dependsOn(ds, "cells") {
			t.Errorf("%s depends on both kernel/ and cells/: only the root command wires them", pkg)
		}
	}
	if !dependsOn(deps["."], "kernel") || !dependsOn(deps["."], "cells") {
		t.Errorf("the root command does not depend on kernel/ and cells/: %v", deps["."])
	}
}

// rel is a package path relative to the module: "." for the root.
func rel(pkg string) string {
	if pkg == module {
		return "."
	}
	return strings.TrimPrefix(pkg, module+"/")
}

// under says whether pkg is folder or inside it.
func under(pkg, folder string) bool { return pkg == folder || strings.HasPrefix(pkg, folder+"/") }

func dependsOn(deps []string, folder string) bool {
	for _, d := range deps {
		if under(d, folder) {
			return true
		}
	}
	return false
}
