package glue

import (
	"fmt"
	"go/ast"
	"reflect"
	"strconv"

	"github.com/benchbook/benchbook/cells/glue/imports"
	"github.com/benchbook/benchbook/cells/glue/source"
)

// Checks made before anything of a segment runs, so that what the
// interpreter would get wrong (or crash on) is reported with the cell line:
// those that need the session's names, types and imports (the source
// alone tells the others: cells/glue/source's check.go).

const msgRedeclare = "%s is already declared (%s) and the interpreter keeps the first declaration of a type or a method (yaegi v0.16.1): give this one another name, or restart the kernel to start over"

// segInfo is what a whole Go segment declares and imports.
type segInfo struct {
	declared map[string]source.DeclKind
}

func newSegInfo(items []*source.Parsed) segInfo {
	si := segInfo{declared: map[string]source.DeclKind{}}
	for _, pi := range items {
		for _, d := range pi.Declared() {
			si.declared[d.Name] = d.Kind
		}
	}
	return si
}

// checkUnsupported finds constructs the interpreter cannot run.
func (s *Session) checkUnsupported(c *cellRun, items []*source.Parsed, si segInfo) *Error {
	for _, pi := range items {
		if line, msg := pi.Unsupported(); line > 0 {
			return errorAt(c, ErrUnsupported, line, msg)
		}
		for _, id := range pi.Unresolved() {
			if msg, ok := source.MissingBuiltin(id.Name); ok && !s.declaredName(id.Name) && si.declared[id.Name] == "" {
				return errorAt(c, ErrUnsupported, pi.LineOf(id.Pos()), msg)
			}
		}
		if line, msg := pi.UnsupportedRange(func(id *ast.Ident) reflect.Kind { return s.identKind(id, si) }); line > 0 {
			return errorAt(c, ErrUnsupported, line, msg)
		}
		if e := s.checkRedeclared(c, pi); e != nil {
			return e
		}
	}
	return nil
}

// checkRedeclared refuses a type or method that an earlier cell declared
// differently.
func (s *Session) checkRedeclared(c *cellRun, pi *source.Parsed) *Error {
	for _, sh := range pi.Shapes() {
		s.mu.Lock()
		old, ok := s.shapes[sh.Key]
		s.mu.Unlock()
		if ok && old.src != sh.Src {
			return errorAt(c, ErrUnsupported, sh.Line, fmt.Sprintf(msgRedeclare, sh.Key, old.label))
		}
	}
	return nil
}

// identKind says what a name that a range statement ranges over is, when
// a cell declared it or it holds a value: reflect.Func for a func,
// reflect.Int for an integer, reflect.Invalid when it cannot be told.
func (s *Session) identKind(id *ast.Ident, si segInfo) reflect.Kind {
	if si.declared[id.Name] == source.DeclFunc || s.nameKind(id.Name) == source.DeclFunc {
		return reflect.Func
	}
	if si.declared[id.Name] != "" {
		return reflect.Invalid
	}
	v, ok := s.global(id.Name)
	if !ok || !v.IsValid() {
		return reflect.Invalid
	}
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return reflect.Int
	case reflect.Func:
		return reflect.Func
	}
	return reflect.Invalid
}

// planImports lists the imports a segment needs: its import declarations,
// then the packages its unresolved names select from (as goimports would).
func (s *Session) planImports(c *cellRun, items []*source.Parsed, si segInfo) ([]importSpec, *Error) {
	var specs []importSpec
	bound := map[string]string{} // name -> path, this segment
	for _, pi := range items {
		for _, sp := range pi.Imports() {
			spec, e := s.explicitImport(c, pi, sp)
			if e != nil {
				return nil, e
			}
			if spec.name == "_" || spec.name == "" {
				continue
			}
			bound[spec.name] = spec.path
			specs = append(specs, spec)
		}
	}
	for _, pi := range items {
		for name, uses := range pi.Selectors() {
			if bound[name] != "" || si.declared[name] != "" || s.declaredName(name) || s.importedPath(name) != "" || source.Predeclared(name) {
				continue
			}
			sels := make([]string, 0, len(uses))
			for _, u := range uses {
				sels = append(sels, u.Sel.Name)
			}
			if p, ok := s.index.Resolve(name, sels); ok {
				bound[name] = p
				specs = append(specs, importSpec{name: name, path: p, auto: true})
			}
		}
	}
	return specs, nil
}

// importSpec is one package to import into the interpreter.
type importSpec struct {
	name string // the name the cell uses
	path string
	line int // cell line, 0 for automatic imports
	auto bool
}

// source is the import declaration for the interpreter.
func (sp importSpec) source() string {
	return "package main; import " + sp.name + " " + strconv.Quote(sp.path)
}

// StdlibPackage is the import path of the standard-library package that a
// glue cell gets by using name without an import ("fmt": "fmt"), if any: a
// host that declares names in cells (a %bench result) must not hide it.
func StdlibPackage(name string) (path string, ok bool) { return imports.StdlibPackage(name) }

// explicitImport checks one import spec written in the cell.
func (s *Session) explicitImport(c *cellRun, pi *source.Parsed, sp *ast.ImportSpec) (importSpec, *Error) {
	line := pi.LineOf(sp.Pos())
	p, err := strconv.Unquote(sp.Path.Value)
	if err != nil {
		return importSpec{}, errorAt(c, ErrSyntax, line, "bad import path "+sp.Path.Value)
	}
	if !s.index.Known(p) {
		return importSpec{}, errorAt(c, ErrUnsupported, line, imports.Unavailable(p))
	}
	name := s.index.Name(p)
	if sp.Name != nil {
		name = sp.Name.Name
	}
	if old := s.importedPath(name); old != "" && old != p && name != "." && name != "_" {
		return importSpec{}, errorAt(c, ErrCompile, line, name+" is already imported as "+strconv.Quote(old)+
			" in this session; import "+strconv.Quote(p)+" under another name, e.g. import x"+name+" "+strconv.Quote(p))
	}
	return importSpec{name: name, path: p, line: line}, nil
}

// checkNames reports names that nothing defines, and package members the
// interpreter does not have (generic or newer standard library functions).
func (s *Session) checkNames(c *cellRun, items []*source.Parsed, si segInfo) *Error {
	if s.hasDotImport() {
		return nil
	}
	for _, pi := range items {
		for _, id := range pi.Unresolved() {
			if !source.Predeclared(id.Name) && si.declared[id.Name] == "" && !s.declaredName(id.Name) && s.importedPath(id.Name) == "" {
				if _, ok := s.global(id.Name); !ok {
					return errorAt(c, ErrCompile, pi.LineOf(id.Pos()), "undefined: "+id.Name)
				}
			}
		}
		if e := s.checkSelectors(c, pi, si); e != nil {
			return e
		}
	}
	return nil
}

func (s *Session) checkSelectors(c *cellRun, pi *source.Parsed, si segInfo) *Error {
	for name, uses := range pi.Selectors() {
		p := s.importedPath(name)
		if p == "" || si.declared[name] != "" || s.declaredName(name) {
			continue
		}
		for _, u := range uses {
			if !s.index.Has(p, u.Sel.Name) {
				msg := "undefined: " + name + "." + u.Sel.Name
				if !s.exported(p) {
					msg += " (the interpreter's standard library is Go 1.22's, without most generic functions: " +
						"of slices, maps and cmp only part is there; use sort.Slice, sort.Float64s and the like)"
				}
				return errorAt(c, ErrCompile, pi.LineOf(u.Pos()), msg)
			}
		}
	}
	return nil
}
