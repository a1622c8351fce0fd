package source

import (
	"fmt"
	"go/ast"
	"go/token"
	"sort"
	"strings"
)

// The interpreter gets each item's source with two rewrites, made on the
// text so that every line stays where it was (cells/glue adds those of
// statements, see its units.go):
//   - go f(x, y) becomes __glue.Go(f, x, y): the function and its arguments
//     are evaluated at the go statement, as Go does, and the compiled helper
//     calls f in a goroutine under recover, so that a panic there does not
//     kill the process (go f(xs...) becomes __glue.GoSlice(f, xs); go of a
//     builtin, which is not a value, becomes __glue.GoFunc(func() { ... })).
//     The function is passed as a value, not wrapped in a new closure, and
//     a function literal is stored in a variable first (go func() {...}()
//     becomes { __glue_f := func() {...}; __glue.Go(__glue_f) }): a literal
//     that the interpreter hands straight to compiled code reads the
//     variables it captures when it runs, so it would see the later values
//     of variables declared in a loop body;
//   - for k, v := range x { body }, when body holds a closure or a go
//     statement, gets "__glue_k1, __glue_v2 := k, v;" at the start of the
//     body and its uses of k and v renamed: the interpreter shares one
//     variable across iterations (Go before 1.22), Go 1.22+ does not (and
//     the interpreter mishandles "v := v" in a closure, hence the new names).

// Runtime is the name under which rewritten source calls the session's
// compiled helpers (__glue.Go, __glue.GoSlice, __glue.GoFunc).
const Runtime = "__glue"

// Scope is what the rewrites ask of the session the item runs in.
type Scope interface {
	// Declared is the kind of a top-level name that a cell declared, ""
	// if none.
	Declared(name string) DeclKind
	// PackageConst reports whether pkg.sel, pkg a package name as a cell
	// uses it, is a constant of that package.
	PackageConst(pkg, sel string) bool
}

// Rewrite is the text of an item with its rewrites.
func Rewrite(pi *Parsed, scope Scope) string {
	return newRewriter(pi, scope).render(0, len(pi.Text))
}

// RewriteNode is the text of a node of an item (a func declaration of it)
// with the rewrites inside it.
func RewriteNode(pi *Parsed, scope Scope, n ast.Node) string {
	return newRewriter(pi, scope).renderNode(n)
}

// rewriter renders an item's text with its rewrites.
type rewriter struct {
	scope Scope
	pi    *Parsed
	gos   []*ast.GoStmt
	edits map[int]edit // offset -> what replaces text[offset:end]
	fresh int
}

// edit replaces the text from an offset to end (== offset: an insertion).
type edit struct {
	end  int
	text string
}

func newRewriter(pi *Parsed, scope Scope) *rewriter {
	r := &rewriter{scope: scope, pi: pi, edits: map[int]edit{}}
	for _, n := range pi.Nodes() {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				r.gos = append(r.gos, n)
			case *ast.RangeStmt:
				r.loopCopy(n)
			}
			return true
		})
	}
	return r
}

// loopCopy plans the per-iteration copy of a range statement's variables:
// a fresh variable per iteration, which the body uses instead.
func (r *rewriter) loopCopy(rs *ast.RangeStmt) {
	if rs.Tok != token.DEFINE || !capturesInside(rs.Body) {
		return
	}
	var olds, news []string
	for _, e := range []ast.Expr{rs.Key, rs.Value} {
		id, ok := e.(*ast.Ident)
		if !ok || id.Name == "_" || id.Obj == nil {
			continue
		}
		r.fresh++
		name := fmt.Sprintf("__glue_%s%d", id.Name, r.fresh)
		olds, news = append(olds, id.Name), append(news, name)
		r.renameUses(rs.Body, id.Obj, name)
	}
	if len(olds) > 0 {
		at := r.pi.Off(rs.Body.Lbrace) + 1
		r.edits[at] = edit{end: at, text: " " + strings.Join(news, ", ") + " := " + strings.Join(olds, ", ") + ";"}
	}
}

// renameUses renames the identifiers of body that denote obj.
func (r *rewriter) renameUses(body *ast.BlockStmt, obj *ast.Object, name string) {
	ast.Inspect(body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Obj == obj {
			r.edits[r.pi.Off(id.Pos())] = edit{end: r.pi.Off(id.End()), text: name}
		}
		return true
	})
}

// capturesInside reports whether a block holds a function literal or a go
// statement, the only ways to observe per-iteration loop variables.
func capturesInside(b *ast.BlockStmt) bool {
	found := false
	ast.Inspect(b, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit, *ast.GoStmt:
			found = true
		}
		return !found
	})
	return found
}

// event is a rewrite inside a range of the text: a go statement to replace
// or an edit.
type event struct {
	start, end int
	goStmt     *ast.GoStmt
	text       string
}

// render returns text[lo:hi] with the rewrites inside it.
func (r *rewriter) render(lo, hi int) string {
	text := r.pi.Text
	var b strings.Builder
	pos := lo
	for _, ev := range r.events(lo, hi) {
		b.WriteString(text[pos:ev.start])
		if ev.goStmt != nil {
			b.WriteString(r.goText(ev.goStmt))
		} else {
			b.WriteString(ev.text)
		}
		pos = ev.end
	}
	b.WriteString(text[pos:hi])
	return b.String()
}

// events lists the outermost go statements in [lo, hi) and the edits that
// are not inside them, in order.
func (r *rewriter) events(lo, hi int) []event {
	var evs []event
	for _, g := range r.gos {
		s, e := r.pi.Off(g.Pos()), r.pi.Off(g.End())
		if s < lo || e > hi || r.insideOtherGo(g, lo, hi) {
			continue
		}
		evs = append(evs, event{start: s, end: e, goStmt: g})
	}
	gos := len(evs)
	for off, ed := range r.edits {
		if off < lo || ed.end > hi || (off == hi && ed.end == off) {
			continue
		}
		inGo := false
		for _, ev := range evs[:gos] {
			if off >= ev.start && ed.end <= ev.end && !(off == ev.start && ed.end == off) {
				inGo = true
			}
		}
		if !inGo {
			evs = append(evs, event{start: off, end: ed.end, text: ed.text})
		}
	}
	sort.Slice(evs, func(i, j int) bool {
		if evs[i].start != evs[j].start {
			return evs[i].start < evs[j].start
		}
		return evs[i].end < evs[j].end // an insertion before a replacement at the same place
	})
	return evs
}

// insideOtherGo reports whether g lies inside another go statement that is
// itself inside [lo, hi).
func (r *rewriter) insideOtherGo(g *ast.GoStmt, lo, hi int) bool {
	for _, o := range r.gos {
		if o == g {
			continue
		}
		s, e := r.pi.Off(o.Pos()), r.pi.Off(o.End())
		if s >= lo && e <= hi && s <= r.pi.Off(g.Pos()) && r.pi.Off(g.End()) <= e {
			return true
		}
	}
	return false
}

// goText is the replacement of a go statement.
func (r *rewriter) goText(g *ast.GoStmt) string {
	call := g.Call
	args := make([]string, 0, len(call.Args))
	for _, a := range call.Args {
		args = append(args, r.renderNode(a))
	}
	var out string
	if r.isBuiltin(call.Fun) {
		out = r.builtinGo(call, args)
	} else {
		fun, method, prefix, suffix := r.renderNode(call.Fun), ".Go(", "", ""
		if call.Ellipsis.IsValid() {
			method = ".GoSlice("
		}
		if _, lit := ast.Unparen(call.Fun).(*ast.FuncLit); lit {
			// A literal given straight to compiled code reads the variables
			// it captures when it runs, not as they were: store it first.
			prefix, suffix, fun = "{ __glue_f := "+fun+"; ", " }", "__glue_f"
		}
		out = prefix + Runtime + method + strings.Join(append([]string{fun}, args...), ", ") + ")" + suffix
	}
	orig := r.pi.TextOf(g)
	if pad := strings.Count(orig, "\n") - strings.Count(out, "\n"); pad > 0 {
		out += strings.Repeat("\n", pad)
	}
	return out
}

// builtinGo starts a builtin in a goroutine: its arguments that are not
// constants are evaluated first, into variables of a block.
func (r *rewriter) builtinGo(call *ast.CallExpr, args []string) string {
	var names, values []string
	for i, a := range call.Args {
		if r.isConst(a) {
			continue
		}
		n := fmt.Sprintf("__glue_a%d", i)
		names, values = append(names, n), append(values, args[i])
		args[i] = n
	}
	text := r.renderNode(call.Fun) + "(" + strings.Join(args, ", ")
	if call.Ellipsis.IsValid() {
		text += "..."
	}
	out := Runtime + ".GoFunc(func() { " + text + ") })"
	if len(names) > 0 {
		out = "{ " + strings.Join(names, ", ") + " := " + strings.Join(values, ", ") + "; " + out + " }"
	}
	return out
}

func (r *rewriter) renderNode(n ast.Node) string {
	return r.render(r.pi.Off(n.Pos()), r.pi.Off(n.End()))
}

// isBuiltin reports whether a called expression is a predeclared function,
// which cannot be a value.
func (r *rewriter) isBuiltin(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Obj == nil && predeclared[id.Name] && r.scope.Declared(id.Name) == ""
}

// isConst reports whether an argument is a constant expression, which is
// left in the call so that an untyped constant takes the parameter's type.
func (r *rewriter) isConst(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.ParenExpr:
		return r.isConst(e.X)
	case *ast.UnaryExpr:
		return e.Op != token.AND && e.Op != token.ARROW && r.isConst(e.X)
	case *ast.BinaryExpr:
		return r.isConst(e.X) && r.isConst(e.Y)
	case *ast.Ident:
		if e.Obj != nil {
			return e.Obj.Kind == ast.Con
		}
		switch e.Name {
		case "true", "false", "nil", "iota":
			return r.scope.Declared(e.Name) == ""
		}
		return r.scope.Declared(e.Name) == DeclConst
	case *ast.SelectorExpr:
		return r.isPackageConst(e)
	}
	return false
}

func (r *rewriter) isPackageConst(e *ast.SelectorExpr) bool {
	id, ok := e.X.(*ast.Ident)
	return ok && id.Obj == nil && r.scope.PackageConst(id.Name, e.Sel.Name)
}
