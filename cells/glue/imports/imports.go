// Package imports knows the packages a glue cell can import: the
// interpreter's standard library symbol tables (Go 1.22's), the generic
// standard library sources it ships (part of cmp, maps and slices) and a
// session's notebook packages, indexed by name, path and member; it picks
// the package that a name used without an import means, as goimports
// would, and says why a well-known package cannot be imported.
package imports

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
	"github.com/traefik/yaegi/stdlib/generic"
)

// stdlibIndex indexes the standard library's packages, once.
var stdlibIndex = sync.OnceValue(func() *Index { return New(stdlib.Symbols) })

// StdlibPackage is the import path of the standard-library package that a
// glue cell gets by using name without an import ("fmt": "fmt"), if any: a
// host that declares names in cells (a %bench result) must not hide it.
func StdlibPackage(name string) (path string, ok bool) {
	if ps := stdlibIndex().paths[name]; len(ps) > 0 {
		return ps[0], true
	}
	return "", false
}

// Index knows every package a cell can import: the interpreter's
// standard library symbol tables, the generic standard library sources the
// interpreter ships (part of cmp, maps and slices), and the session's
// exports.
type Index struct {
	paths   map[string][]string                 // package name -> import paths
	names   map[string]string                   // import path -> package name
	members map[string]map[string]bool          // import path -> exported names
	values  map[string]map[string]reflect.Value // import path -> symbols of compiled packages
}

// New indexes symbol tables (interp.Exports keys are "path/name").
func New(tables ...interp.Exports) *Index {
	ix := &Index{
		paths:   map[string][]string{},
		names:   map[string]string{},
		members: map[string]map[string]bool{},
		values:  map[string]map[string]reflect.Value{},
	}
	for _, t := range tables {
		for key, syms := range t {
			ix.addTable(key, syms)
		}
	}
	for _, src := range generic.Sources {
		ix.addGenericSource(src)
	}
	for name := range ix.paths {
		sort.Slice(ix.paths[name], func(i, j int) bool { return betterPath(ix.paths[name][i], ix.paths[name][j]) })
	}
	return ix
}

// hiddenPath reports the tables that are not packages a cell should see
// (under benchbook.local/ are a session's own, such as its runtime helper).
func hiddenPath(p string) bool {
	return p == "." || strings.HasPrefix(p, "github.com/traefik/yaegi") || strings.HasPrefix(p, "benchbook.local/") ||
		strings.HasPrefix(p, "internal/") || strings.Contains(p, "/internal/") || strings.HasPrefix(p, "vendor/")
}

func (ix *Index) addTable(key string, syms map[string]reflect.Value) {
	p, name := path.Dir(key), path.Base(key)
	if hiddenPath(p) || p == "." {
		return
	}
	ix.add(p, name)
	if ix.values[p] == nil {
		ix.values[p] = map[string]reflect.Value{}
	}
	for s, v := range syms {
		if ast.IsExported(s) {
			ix.members[p][s] = true
			ix.values[p][s] = v
		}
	}
}

func (ix *Index) add(p, name string) {
	if _, ok := ix.names[p]; !ok {
		ix.names[p] = name
		ix.paths[name] = append(ix.paths[name], p)
		ix.members[p] = map[string]bool{}
	}
}

// addGenericSource indexes a generic package source; its import path is its
// package name (cmp, maps, slices).
func (ix *Index) addGenericSource(src string) {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return
	}
	p := f.Name.Name
	ix.add(p, p)
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.IsExported() {
				ix.members[p][d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						ix.members[p][s.Name.Name] = true
					}
				case *ast.ValueSpec:
					for _, id := range s.Names {
						if id.IsExported() {
							ix.members[p][id.Name] = true
						}
					}
				}
			}
		}
	}
}

// betterPath orders candidates for a package name: no major version suffix
// first (math/rand before math/rand/v2), then shorter, then by name.
func betterPath(a, b string) bool {
	va, vb := hasMajorSuffix(a), hasMajorSuffix(b)
	if va != vb {
		return !va
	}
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

func hasMajorSuffix(p string) bool {
	base := path.Base(p)
	if len(base) < 2 || base[0] != 'v' {
		return false
	}
	_, err := strconv.Atoi(base[1:])
	return err == nil
}

// Known reports whether an import path is available.
func (ix *Index) Known(p string) bool {
	_, ok := ix.names[p]
	return ok
}

// Has reports whether package p exports sel.
func (ix *Index) Has(p, sel string) bool {
	return ix.members[p][sel]
}

// Resolve picks the package named name that exports the most of sels (all
// of them, ideally), as goimports would; ok is false when no package has
// that name.
func (ix *Index) Resolve(name string, sels []string) (string, bool) {
	best, bestScore := "", -1
	for _, p := range ix.paths[name] {
		score := 0
		for _, s := range sels {
			if ix.Has(p, s) {
				score++
			}
		}
		if score > bestScore {
			best, bestScore = p, score
		}
	}
	return best, bestScore >= 0
}

// Members lists the exported names of p, in order.
func (ix *Index) Members(p string) []string {
	out := make([]string, 0, len(ix.members[p]))
	for m := range ix.members[p] {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

// Name is the package name of the package at path p ("" if unknown).
func (ix *Index) Name(p string) string { return ix.names[p] }

// Paths are the import paths of the packages named name, the likeliest
// first (see betterPath).
func (ix *Index) Paths(name string) []string { return ix.paths[name] }

// Names lists the names of the packages, in order.
func (ix *Index) Names() []string {
	out := make([]string, 0, len(ix.paths))
	for name := range ix.paths {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// Value is the symbol table value of p.sel, when p is a compiled package
// (the invalid Value otherwise).
func (ix *Index) Value(p, sel string) reflect.Value { return ix.values[p][sel] }

// Unavailable says why a package cannot be imported: why for the
// well-known ones, what can be otherwise.
func Unavailable(p string) string {
	switch p {
	case "C":
		return "cgo is not available in interpreted glue cells; put C code in a %%c cell"
	case "unsafe":
		return "package unsafe is not available to the interpreter"
	case "os/exec", "syscall", "os/signal":
		return "package " + p + " is not available in glue cells (the interpreter runs restricted); run commands with a ! line"
	}
	return "package " + p + " is not available in glue cells: only the standard library compiled into the kernel (Go 1.22 symbol tables) and the notebook packages can be imported"
}
