package glue

import (
	"fmt"
	"go/ast"
	"go/token"
	"reflect"
	"strconv"
	"strings"
)

// Checks made before anything of a segment runs, so that what the
// interpreter would get wrong (or crash on) is reported with the cell line.

// universe lists Go's predeclared identifiers.
var universe = map[string]bool{
	"bool": true, "byte": true, "complex64": true, "complex128": true, "error": true, "float32": true,
	"float64": true, "int": true, "int8": true, "int16": true, "int32": true, "int64": true, "rune": true,
	"string": true, "uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true,
	"uintptr": true, "any": true, "comparable": true, "true": true, "false": true, "iota": true, "nil": true,
	"append": true, "cap": true, "clear": true, "close": true, "complex": true, "copy": true, "delete": true,
	"imag": true, "len": true, "make": true, "max": true, "min": true, "new": true, "panic": true,
	"print": true, "println": true, "real": true, "recover": true,
}

// missingBuiltins are the predeclared functions yaegi v0.16.1 lacks.
var missingBuiltins = map[string]string{
	"min":   "the builtin min (Go 1.21) is not supported by the interpreter: compare by hand or use math.Min",
	"max":   "the builtin max (Go 1.21) is not supported by the interpreter: compare by hand or use math.Max",
	"clear": "the builtin clear (Go 1.21) is not supported by the interpreter: delete the keys in a loop or make a new map or slice",
}

const (
	msgRangeInt  = "range over an integer is not supported by the interpreter (yaegi v0.16.1): write for i := 0; i < n; i++ { ... }"
	msgRangeFunc = "range over a function (an iterator) is not supported by the interpreter (yaegi v0.16.1): call the function with a yield callback instead"
	msgRangeAny  = "range over an integer or a function is not supported by the interpreter (yaegi v0.16.1): write for i := 0; i < n; i++ { ... }, or call the iterator with a yield callback"
	msgCommaOk   = "a comma-ok form (v, ok := m[k], <-c or x.(T)) declaring variables at the top level of a cell crashes the interpreter's compiler (yaegi v0.16.1): use it inside an if, a for or a func, e.g. if v, ok := m[k]; ok { ... }, or write v := m[k]"
	msgRedeclare = "%s is already declared (%s) and the interpreter keeps the first declaration of a type or a method (yaegi v0.16.1): give this one another name, or restart the kernel to start over"
	msgMain      = "a glue cell cannot declare func main: the interpreter would run it again before every later cell; give it another name"
	msgDefer     = "defer at the top level of a cell is not supported: the interpreter would run it again after every later cell; put the code in a func and defer inside it"
)

// segInfo is what a whole Go segment declares and imports.
type segInfo struct {
	declared map[string]declKind
}

func newSegInfo(items []*pitem) segInfo {
	si := segInfo{declared: map[string]declKind{}}
	for _, pi := range items {
		for _, d := range pi.declared() {
			si.declared[d.name] = d.kind
		}
	}
	return si
}

// checkUnsupported finds constructs the interpreter cannot run.
func (s *Session) checkUnsupported(c *cellRun, items []*pitem, si segInfo) *Error {
	for _, pi := range items {
		if _, ok := pi.stmt.(*ast.DeferStmt); ok {
			return errorAt(c, ErrUnsupported, pi.line, msgDefer)
		}
		if line := topLevelCommaOk(pi); line > 0 {
			return errorAt(c, ErrUnsupported, line, msgCommaOk)
		}
		for _, d := range pi.decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" {
				return errorAt(c, ErrUnsupported, pi.lineOf(fd.Name.Pos()), msgMain)
			}
		}
		for _, id := range pi.unresolved() {
			if msg, ok := missingBuiltins[id.Name]; ok && !s.declaredName(id.Name) && si.declared[id.Name] == "" {
				return errorAt(c, ErrUnsupported, pi.lineOf(id.Pos()), msg)
			}
		}
		if e := s.checkRanges(c, pi, si); e != nil {
			return e
		}
		if e := s.checkRedeclared(c, pi); e != nil {
			return e
		}
	}
	return nil
}

// shape is a type or method declaration, by name, with its source with
// blanks normalized: the interpreter ignores a changed redeclaration.
type shape struct {
	key, src string
	line     int
}

// shapes lists the types and methods an item declares.
func (pi *pitem) shapes() []shape {
	var out []shape
	for _, d := range pi.decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) == 1 {
				key := "method " + recvName(d.Recv.List[0].Type) + "." + d.Name.Name
				out = append(out, shape{key: key, src: normalize(pi.textOf(d)), line: pi.lineOf(d.Pos())})
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				if ts, ok := sp.(*ast.TypeSpec); ok {
					out = append(out, shape{key: "type " + ts.Name.Name, src: normalize(pi.textOf(ts)), line: pi.lineOf(ts.Pos())})
				}
			}
		}
	}
	return out
}

// recvName is the type name of a method receiver.
func recvName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return recvName(e.X)
	case *ast.ParenExpr:
		return recvName(e.X)
	case *ast.IndexExpr:
		return recvName(e.X)
	case *ast.IndexListExpr:
		return recvName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return "?"
}

func normalize(src string) string { return strings.Join(strings.Fields(src), " ") }

// checkRedeclared refuses a type or method that an earlier cell declared
// differently.
func (s *Session) checkRedeclared(c *cellRun, pi *pitem) *Error {
	for _, sh := range pi.shapes() {
		s.mu.Lock()
		old, ok := s.shapes[sh.key]
		s.mu.Unlock()
		if ok && old.src != sh.src {
			return errorAt(c, ErrUnsupported, sh.line, fmt.Sprintf(msgRedeclare, sh.key, old.label))
		}
	}
	return nil
}

// topLevelCommaOk is the line of a comma-ok form that declares top-level
// variables (v, ok := m[k] or var v, ok = m[k]), 0 if none.
func topLevelCommaOk(pi *pitem) int {
	if as, ok := pi.stmt.(*ast.AssignStmt); ok && as.Tok == token.DEFINE && isCommaOk(as.Lhs, as.Rhs) {
		return pi.lineOf(as.Pos())
	}
	for _, d := range pi.decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, sp := range g.Specs {
			vs := sp.(*ast.ValueSpec)
			lhs := make([]ast.Expr, len(vs.Names))
			for i, n := range vs.Names {
				lhs[i] = n
			}
			if isCommaOk(lhs, vs.Values) {
				return pi.lineOf(vs.Pos())
			}
		}
	}
	return 0
}

// checkRanges finds range statements over an integer or a function that
// can be told from the source.
func (s *Session) checkRanges(c *cellRun, pi *pitem, si segInfo) *Error {
	var found *Error
	for _, n := range pi.nodes() {
		ast.Inspect(n, func(n ast.Node) bool {
			rs, ok := n.(*ast.RangeStmt)
			if !ok || found != nil {
				return found == nil
			}
			switch s.rangeKind(rs.X, si) {
			case reflect.Int:
				found = errorAt(c, ErrUnsupported, pi.lineOf(rs.Pos()), msgRangeInt)
			case reflect.Func:
				found = errorAt(c, ErrUnsupported, pi.lineOf(rs.Pos()), msgRangeFunc)
			}
			return found == nil
		})
	}
	return found
}

// rangeKind returns reflect.Int or reflect.Func when x is evidently an
// integer or a function, reflect.Invalid when it cannot be told.
func (s *Session) rangeKind(x ast.Expr, si segInfo) reflect.Kind {
	switch x := x.(type) {
	case *ast.BasicLit:
		if x.Kind == token.INT {
			return reflect.Int
		}
	case *ast.ParenExpr:
		return s.rangeKind(x.X, si)
	case *ast.BinaryExpr:
		if s.rangeKind(x.X, si) == reflect.Int || s.rangeKind(x.Y, si) == reflect.Int {
			return reflect.Int
		}
	case *ast.FuncLit:
		return reflect.Func
	case *ast.CallExpr:
		if id, ok := x.Fun.(*ast.Ident); ok && id.Obj == nil && (id.Name == "len" || id.Name == "cap") {
			return reflect.Int
		}
	case *ast.Ident:
		return s.identKind(x, si)
	}
	return reflect.Invalid
}

func (s *Session) identKind(id *ast.Ident, si segInfo) reflect.Kind {
	if id.Obj != nil {
		return reflect.Invalid // a local name: its type is not known here
	}
	if si.declared[id.Name] == declFunc || s.nameKind(id.Name) == declFunc {
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

// firstRangeLine is the line of the first range statement of an item, for
// the interpreter's "nil type" error that has no position.
func firstRangeLine(pi *pitem) int {
	line := 0
	for _, n := range pi.nodes() {
		ast.Inspect(n, func(n ast.Node) bool {
			if rs, ok := n.(*ast.RangeStmt); ok && line == 0 {
				line = pi.lineOf(rs.Pos())
			}
			return line == 0
		})
	}
	return line
}

// planImports lists the imports a segment needs: its import declarations,
// then the packages its unresolved names select from (as goimports would).
func (s *Session) planImports(c *cellRun, items []*pitem, si segInfo) ([]importSpec, *Error) {
	var specs []importSpec
	bound := map[string]string{} // name -> path, this segment
	for _, pi := range items {
		for _, sp := range pi.imports() {
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
		for name, uses := range pi.selectors() {
			if bound[name] != "" || si.declared[name] != "" || s.declaredName(name) || s.importedPath(name) != "" || universe[name] {
				continue
			}
			sels := make([]string, 0, len(uses))
			for _, u := range uses {
				sels = append(sels, u.Sel.Name)
			}
			if p, ok := s.index.resolve(name, sels); ok {
				bound[name] = p
				specs = append(specs, importSpec{name: name, path: p, auto: true})
			}
		}
	}
	return specs, nil
}

// explicitImport checks one import spec written in the cell.
func (s *Session) explicitImport(c *cellRun, pi *pitem, sp *ast.ImportSpec) (importSpec, *Error) {
	line := pi.lineOf(sp.Pos())
	p, err := strconv.Unquote(sp.Path.Value)
	if err != nil {
		return importSpec{}, errorAt(c, ErrSyntax, line, "bad import path "+sp.Path.Value)
	}
	if !s.index.known(p) {
		return importSpec{}, errorAt(c, ErrUnsupported, line, unavailableHint(p))
	}
	name := s.index.names[p]
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
func (s *Session) checkNames(c *cellRun, items []*pitem, si segInfo) *Error {
	if s.hasDotImport() {
		return nil
	}
	for _, pi := range items {
		for _, id := range pi.unresolved() {
			if !universe[id.Name] && si.declared[id.Name] == "" && !s.declaredName(id.Name) && s.importedPath(id.Name) == "" {
				if _, ok := s.global(id.Name); !ok {
					return errorAt(c, ErrCompile, pi.lineOf(id.Pos()), "undefined: "+id.Name)
				}
			}
		}
		if e := s.checkSelectors(c, pi, si); e != nil {
			return e
		}
	}
	return nil
}

func (s *Session) checkSelectors(c *cellRun, pi *pitem, si segInfo) *Error {
	for name, uses := range pi.selectors() {
		p := s.importedPath(name)
		if p == "" || si.declared[name] != "" || s.declaredName(name) {
			continue
		}
		for _, u := range uses {
			if !s.index.has(p, u.Sel.Name) {
				msg := "undefined: " + name + "." + u.Sel.Name
				if !s.exported(p) {
					msg += " (the interpreter's standard library is Go 1.22's, without most generic functions: " +
						"of slices, maps and cmp only part is there; use sort.Slice, sort.Float64s and the like)"
				}
				return errorAt(c, ErrCompile, pi.lineOf(u.Pos()), msg)
			}
		}
	}
	return nil
}
