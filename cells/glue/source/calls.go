package source

import (
	"go/ast"
	"go/token"
	"sort"
	"strings"
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

// Func is the source of a func declaration, as the interpreter gets it, and
// the names its body uses (FuncRefs).
type Func struct {
	Src  string
	Refs map[string]bool
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

// Relink adds the funcs that a declaration unit declared (fresh) to funcs,
// the latest source of each func, and returns the source that redeclares
// the funcs that use a name the unit declared again (the keys of
// redeclared, those that existed before it, and the funcs of fresh that
// funcs had), transitively, but for those of fresh; "" if none. The
// interpreter binds names when it compiles a func, so those would keep
// using the old ones.
func Relink[V any](funcs, fresh map[string]Func, redeclared map[string]V) string {
	redefined := map[string]bool{}
	for name := range redeclared {
		redefined[name] = true
	}
	for name, f := range fresh {
		if _, ok := funcs[name]; ok {
			redefined[name] = true
		}
		funcs[name] = f
	}
	return dependents(funcs, redefined, fresh)
}

// dependents returns the source that redeclares every func of funcs which
// calls a redefined one, transitively, except those in fresh (just
// declared); "" if none.
func dependents(funcs map[string]Func, redefined map[string]bool, fresh map[string]Func) string {
	todo := redefined
	done := map[string]bool{}
	var srcs []string
	for len(todo) > 0 {
		next := map[string]bool{}
		for name, f := range funcs {
			if done[name] || fresh[name].Src != "" {
				continue
			}
			for r := range todo {
				if f.Refs[r] {
					done[name], next[name] = true, true
					srcs = append(srcs, f.Src)
					break
				}
			}
		}
		todo = next
	}
	if len(srcs) == 0 {
		return ""
	}
	sort.Strings(srcs)
	return "package main;" + strings.Join(srcs, "\n") + "\n"
}
