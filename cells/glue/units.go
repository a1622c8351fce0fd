package glue

import (
	"go/ast"
	"go/token"
	"strings"

	"github.com/benchbook/benchbook/cells/glue/source"
)

// The interpreter gets each item's source rewritten (see
// cells/glue/source's rewrite.go: go statements, range variables), and a
// statement in a form of its own, made on the text so that every line stays
// where it was:
//   - a statement other than a definition (x := ...) becomes the body of
//     func __glue_stmt() { ... }, declared and then called: the
//     interpreter's compiler fails on comma-ok forms and type switches at
//     the top level, not inside a function; a statement at the top level
//     keeps the frame slots of its temporaries in the interpreter's global
//     frame for ever (three for fmt.Sprint(3 * 2)), which every later run
//     copies as the frame grows; and a function literal called at the top
//     level, func() { ... }(), copies the whole global frame at each call.
//     The declared func is redeclared by the next statement and never joins
//     the history;
//   - the final expression E of a cell becomes __glue.Result(E) in that
//     body.

// unit is what is compiled and run at once: a run of declarations, or one
// statement.
type unit struct {
	decl  bool
	src   string // the source given to the interpreter
	plain string // the final expression without the result wrapper ("" if none)
	line  int    // cell line of its first item
	items []*source.Parsed
	// pieces are the sources of a declaration unit's items, each with its
	// line directive: src is "package main;" and their concatenation.
	pieces []string
	// call, when set, runs the statement that src declares as the body of
	// func stmtFunc.
	call string
}

// stmtFunc is the func that a statement other than a definition runs in
// (see the comment at the top of this file).
const stmtFunc = "__glue_stmt"

// isDefine reports a definition (x := ...), which stays at the top level:
// its names are the session's.
func isDefine(st ast.Stmt) bool {
	as, ok := st.(*ast.AssignStmt)
	return ok && as.Tok == token.DEFINE
}

// plan turns the items of a segment into units. final says whether the
// segment is the last of the cell, whose final expression is the result.
func (s *Session) plan(c *cellRun, items []*source.Parsed, final bool) []unit {
	var units []unit
	var decls []*source.Parsed
	flush := func() {
		if len(decls) == 0 {
			return
		}
		var b strings.Builder
		b.WriteString("package main;")
		pieces := make([]string, 0, len(decls))
		for _, pi := range decls {
			piece := source.Directive(c.seq, pi.Line, pi.Col) + source.Rewrite(pi, s.scope()) + "\n"
			pieces = append(pieces, piece)
			b.WriteString(piece)
		}
		units = append(units, unit{decl: true, src: b.String(), line: decls[0].Line, items: decls, pieces: pieces})
		decls = nil
	}
	for i, pi := range items {
		switch pi.Kind {
		case source.KindImport:
			continue
		case source.KindDecl:
			decls = append(decls, pi)
			continue
		}
		flush()
		body := source.Rewrite(pi, s.scope())
		dir := source.Directive(c.seq, pi.Line, pi.Col)
		u := unit{src: ";" + dir + body, line: pi.Line, items: []*source.Parsed{pi}}
		if !isDefine(pi.Stmt) {
			u.src = "package main;" + dir + "func " + stmtFunc + "() { " + body + "\n}"
			u.call = ";" + dir + stmtFunc + "()"
		}
		if final && i == len(items)-1 && s.showsResult(pi) {
			u.plain = u.src
			u.src = "package main;" + dir + "func " + stmtFunc + "() { " + rtName + ".Result(" + body + ")\n}"
		}
		units = append(units, u)
	}
	flush()
	return units
}

// showsResult reports whether a statement is an expression whose value is
// the cell's result. Calls of the display package are not: they show their
// output themselves and return a display id. Nor are fmt's printing
// functions: their (n, err) is not what a cell that prints wants to show.
func (s *Session) showsResult(pi *source.Parsed) bool {
	es, ok := pi.Stmt.(*ast.ExprStmt)
	if !ok {
		return false
	}
	if call, ok := es.X.(*ast.CallExpr); ok {
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Obj == nil {
				switch path := s.importedPath(id.Name); {
				case path == displayPath:
					return false
				case path == "fmt" && (strings.HasPrefix(sel.Sel.Name, "Print") || strings.HasPrefix(sel.Sel.Name, "Fprint")):
					return false
				}
			}
		}
	}
	return true
}
