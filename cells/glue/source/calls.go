package source

import (
	"go/ast"
	"go/token"
)

// What a replay of a declaration runs again (cells/glue's replay.go): the
// calls in its initializers, and the funcs that must be relinked when a
// name they use is declared again.

// InitCalls reports whether a var declaration's initializers call code:
// a call that is not a builtin, a conversion to a predeclared type or one
// of replayed ("bench.Get"), or a receive.
func InitCalls(d *ast.GenDecl, replayed map[string]bool) bool {
	if d.Tok != token.VAR {
		return false
	}
	found := false
	for _, spec := range d.Specs {
		vs, ok := spec.(*ast.ValueSpec)
		if !ok {
			continue
		}
		for _, v := range vs.Values {
			ast.Inspect(v, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					return false // runs only when called
				case *ast.UnaryExpr:
					found = found || n.Op == token.ARROW
				case *ast.CallExpr:
					found = found || !pureCall(n, replayed)
				}
				return !found
			})
		}
	}
	return found
}

// pureCalls are the builtins and predeclared types whose calls have no
// effect beyond their value.
var pureCalls = map[string]bool{
	"append": true, "cap": true, "complex": true, "imag": true, "len": true, "make": true,
	"new": true, "real": true, "bool": true, "byte": true, "complex64": true, "complex128": true,
	"error": true, "float32": true, "float64": true, "int": true, "int8": true, "int16": true, "int32": true,
	"int64": true, "rune": true, "string": true, "uint": true, "uint8": true, "uint16": true, "uint32": true,
	"uint64": true, "uintptr": true, "any": true,
}

func pureCall(c *ast.CallExpr, replayed map[string]bool) bool {
	switch f := c.Fun.(type) {
	case *ast.Ident:
		return pureCalls[f.Name]
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok {
			return replayed[x.Name+"."+f.Sel.Name]
		}
	case *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.InterfaceType, *ast.StructType:
		return true // a conversion
	case *ast.ParenExpr:
		return pureCall(&ast.CallExpr{Fun: f.X}, replayed)
	}
	return false
}

// IsInitFunc reports whether a declaration is func init(), which a replay
// leaves out: it ran when its cell did.
func IsInitFunc(d ast.Decl) bool {
	fd, ok := d.(*ast.FuncDecl)
	return ok && fd.Recv == nil && fd.Name.Name == "init"
}

// FuncRefs are the names that the body of a func declaration uses and
// does not declare: those whose redeclaration it must be relinked for.
func FuncRefs(fd *ast.FuncDecl) map[string]bool {
	refs := map[string]bool{}
	if fd.Body != nil {
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Obj == nil {
				refs[id.Name] = true
			}
			return true
		})
	}
	return refs
}
