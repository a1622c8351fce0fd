package source

import (
	"go/ast"
	"go/token"
	"reflect"
	"sort"
	"strings"
)

// Checks of what the interpreter would get wrong (or crash on) that the
// source alone tells, so that it is reported with the cell line before
// anything of the segment runs; cells/glue adds those that need the
// session (names, types and methods of earlier cells).

// predeclared lists Go's predeclared identifiers.
var predeclared = map[string]bool{
	"bool": true, "byte": true, "complex64": true, "complex128": true, "error": true, "float32": true,
	"float64": true, "int": true, "int8": true, "int16": true, "int32": true, "int64": true, "rune": true,
	"string": true, "uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true,
	"uintptr": true, "any": true, "comparable": true, "true": true, "false": true, "iota": true, "nil": true,
	"append": true, "cap": true, "clear": true, "close": true, "complex": true, "copy": true, "delete": true,
	"imag": true, "len": true, "make": true, "max": true, "min": true, "new": true, "panic": true,
	"print": true, "println": true, "real": true, "recover": true,
}

// Predeclared reports whether name is one of Go's predeclared identifiers.
func Predeclared(name string) bool { return predeclared[name] }

// PredeclaredNames lists Go's predeclared identifiers, in order.
func PredeclaredNames() []string {
	out := make([]string, 0, len(predeclared))
	for name := range predeclared {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// missingBuiltins are the predeclared functions yaegi v0.16.1 lacks.
var missingBuiltins = map[string]string{
	"min":   "the builtin min (Go 1.21) is not supported by the interpreter: compare by hand or use math.Min",
	"max":   "the builtin max (Go 1.21) is not supported by the interpreter: compare by hand or use math.Max",
	"clear": "the builtin clear (Go 1.21) is not supported by the interpreter: delete the keys in a loop or make a new map or slice",
}

// MissingBuiltin is what to say of a predeclared function that the
// interpreter lacks; ok is false for the others.
func MissingBuiltin(name string) (msg string, ok bool) {
	msg, ok = missingBuiltins[name]
	return msg, ok
}

const (
	msgRangeInt  = "range over an integer is not supported by the interpreter (yaegi v0.16.1): write for i := 0; i < n; i++ { ... }"
	msgRangeFunc = "range over a function (an iterator) is not supported by the interpreter (yaegi v0.16.1): call the function with a yield callback instead"
	msgRangeAny  = "range over an integer or a function is not supported by the interpreter (yaegi v0.16.1): write for i := 0; i < n; i++ { ... }, or call the iterator with a yield callback"
	msgCommaOk   = "a comma-ok form (v, ok := m[k], <-c or x.(T)) declaring variables at the top level of a cell crashes the interpreter's compiler (yaegi v0.16.1): use it inside an if, a for or a func, e.g. if v, ok := m[k]; ok { ... }, or write v := m[k]"
	msgMain      = "a glue cell cannot declare func main: the interpreter would run it again before every later cell; give it another name"
	msgDefer     = "defer at the top level of a cell is not supported: the interpreter would run it again after every later cell; put the code in a func and defer inside it"
)

// Unsupported finds in an item what the interpreter cannot run whatever
// the session: defer at the top level, a comma-ok form that declares
// top-level variables, func main. line is 0 when there is none.
func (pi *Parsed) Unsupported() (line int, msg string) {
	if _, ok := pi.Stmt.(*ast.DeferStmt); ok {
		return pi.Line, msgDefer
	}
	if line := topLevelCommaOk(pi); line > 0 {
		return line, msgCommaOk
	}
	for _, d := range pi.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" {
			return pi.LineOf(fd.Name.Pos()), msgMain
		}
	}
	return 0, ""
}

// topLevelCommaOk is the line of a comma-ok form that declares top-level
// variables (v, ok := m[k] or var v, ok = m[k]), 0 if none.
func topLevelCommaOk(pi *Parsed) int {
	if as, ok := pi.Stmt.(*ast.AssignStmt); ok && as.Tok == token.DEFINE && isCommaOk(as.Lhs, as.Rhs) {
		return pi.LineOf(as.Pos())
	}
	for _, d := range pi.Decls {
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
				return pi.LineOf(vs.Pos())
			}
		}
	}
	return 0
}

// isCommaOk reports a two-value assignment from a map index, a channel
// receive or a type assertion.
func isCommaOk(lhs, rhs []ast.Expr) bool {
	if len(lhs) != 2 || len(rhs) != 1 {
		return false
	}
	switch r := ast.Unparen(rhs[0]).(type) {
	case *ast.IndexExpr, *ast.TypeAssertExpr:
		return true
	case *ast.UnaryExpr:
		return r.Op == token.ARROW
	}
	return false
}

// UnsupportedRange finds a range statement over an integer or a function
// that can be told from the source; kind says what an identifier that is
// not a local name of the item is (reflect.Int, reflect.Func, or
// reflect.Invalid when it cannot be told). line is 0 when there is none.
func (pi *Parsed) UnsupportedRange(kind func(*ast.Ident) reflect.Kind) (line int, msg string) {
	for _, n := range pi.Nodes() {
		ast.Inspect(n, func(n ast.Node) bool {
			rs, ok := n.(*ast.RangeStmt)
			if !ok || line > 0 {
				return line == 0
			}
			switch rangeKind(rs.X, kind) {
			case reflect.Int:
				line, msg = pi.LineOf(rs.Pos()), msgRangeInt
			case reflect.Func:
				line, msg = pi.LineOf(rs.Pos()), msgRangeFunc
			}
			return line == 0
		})
	}
	return line, msg
}

// rangeKind returns reflect.Int or reflect.Func when x is evidently an
// integer or a function, reflect.Invalid when it cannot be told.
func rangeKind(x ast.Expr, kind func(*ast.Ident) reflect.Kind) reflect.Kind {
	switch x := x.(type) {
	case *ast.BasicLit:
		if x.Kind == token.INT {
			return reflect.Int
		}
	case *ast.ParenExpr:
		return rangeKind(x.X, kind)
	case *ast.BinaryExpr:
		if rangeKind(x.X, kind) == reflect.Int || rangeKind(x.Y, kind) == reflect.Int {
			return reflect.Int
		}
	case *ast.FuncLit:
		return reflect.Func
	case *ast.CallExpr:
		if id, ok := x.Fun.(*ast.Ident); ok && id.Obj == nil && (id.Name == "len" || id.Name == "cap") {
			return reflect.Int
		}
	case *ast.Ident:
		if x.Obj != nil {
			return reflect.Invalid // a local name: its type is not known here
		}
		return kind(x)
	}
	return reflect.Invalid
}

// AnyRange is the line of the first range statement of an item and what
// to say of it, for the interpreter's "nil type" error that has no
// position (a range over an integer or a function that the source did not
// tell); line is 0 when the item has none.
func (pi *Parsed) AnyRange() (line int, msg string) {
	for _, n := range pi.Nodes() {
		ast.Inspect(n, func(n ast.Node) bool {
			if rs, ok := n.(*ast.RangeStmt); ok && line == 0 {
				line = pi.LineOf(rs.Pos())
			}
			return line == 0
		})
	}
	if line == 0 {
		return 0, ""
	}
	return line, msgRangeAny
}

// Shape is a type or method declaration, by name ("type T", "method
// T.M"), with its source with blanks normalized: the interpreter ignores a
// changed redeclaration.
type Shape struct {
	Key, Src string
	Line     int
}

// Shapes lists the types and methods an item declares.
func (pi *Parsed) Shapes() []Shape {
	var out []Shape
	for _, d := range pi.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) == 1 {
				key := "method " + recvName(d.Recv.List[0].Type) + "." + d.Name.Name
				out = append(out, Shape{Key: key, Src: normalize(pi.TextOf(d)), Line: pi.LineOf(d.Pos())})
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				if ts, ok := sp.(*ast.TypeSpec); ok {
					out = append(out, Shape{Key: "type " + ts.Name.Name, Src: normalize(pi.TextOf(ts)), Line: pi.LineOf(ts.Pos())})
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
