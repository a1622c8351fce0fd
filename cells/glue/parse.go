package glue

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"

	"github.com/traefik/yaegi/interp"
)

// pitem is an item parsed with go/parser. Its parse source carries a line
// directive (see directive), so that the positions of its nodes (and of the
// parser's errors) are cell positions.
type pitem struct {
	item
	fset  *token.FileSet
	file  *ast.File
	base  int        // offset of item.text in the parse source
	decls []ast.Decl // the declarations of an import or declaration item
	stmt  ast.Stmt   // the statement of a statement item
}

// posBase encodes a cell in a line number: line seq*posBase+l is line l of
// cell seq. The file name of every position stays the interpreter's default
// one ("_.go"), because the interpreter scopes imports by file name.
const posBase = 100000

// directive is the line directive that maps what follows to line, col of
// cell seq.
func directive(seq, line, col int) string {
	return fmt.Sprintf("/*line %s:%d:%d*/", interp.DefaultSourceName, seq*posBase+line, col)
}

// cellLine splits an encoded line into a cell number and a line of it; seq
// is 0 for a line that is not encoded.
func cellLine(encoded int) (seq, line int) {
	if encoded < posBase {
		return 0, encoded
	}
	return encoded / posBase, encoded % posBase
}

// parseItems parses the items of a Go segment. The first syntax error is
// returned as the error (a scanner.ErrorList with cell positions).
func parseItems(seq int, items []item) ([]*pitem, error) {
	fset := token.NewFileSet()
	out := make([]*pitem, 0, len(items))
	for _, it := range items {
		pi, err := parseItem(fset, seq, it)
		if err != nil {
			return nil, err
		}
		out = append(out, pi)
	}
	return out, nil
}

func parseItem(fset *token.FileSet, seq int, it item) (*pitem, error) {
	dir := directive(seq, it.line, it.col)
	prefix, suffix := "package p;", "\n"
	if it.kind == kindStmt {
		prefix, suffix = "package p;func _(){", "\n}"
	}
	src := prefix + dir + it.text + suffix
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.DeclarationErrors)
	if err != nil {
		return nil, err
	}
	pi := &pitem{item: it, fset: fset, file: f, base: len(prefix) + len(dir)}
	if it.kind == kindStmt {
		body := f.Decls[len(f.Decls)-1].(*ast.FuncDecl).Body
		if len(body.List) > 0 {
			pi.stmt = body.List[0]
		}
		return pi, nil
	}
	pi.decls = f.Decls
	return pi, nil
}

// off is the offset in item.text of a position in the parse source.
func (pi *pitem) off(p token.Pos) int {
	return pi.fset.File(p).Offset(p) - pi.base
}

// textOf is the item source of a node.
func (pi *pitem) textOf(n ast.Node) string {
	return pi.text[pi.off(n.Pos()):pi.off(n.End())]
}

// lineOf is the cell line of a position.
func (pi *pitem) lineOf(p token.Pos) int {
	_, line := cellLine(pi.fset.Position(p).Line)
	return line
}

// nodes returns the top-level nodes of the item.
func (pi *pitem) nodes() []ast.Node {
	if pi.stmt != nil {
		return []ast.Node{pi.stmt}
	}
	out := make([]ast.Node, 0, len(pi.decls))
	for _, d := range pi.decls {
		out = append(out, d)
	}
	return out
}

// declKind says what a declared name is.
type declKind string

const (
	declFunc   declKind = "func"
	declType   declKind = "type"
	declVar    declKind = "var"
	declConst  declKind = "const"
	declDefine declKind = "var (:=)" // a variable defined by a statement
)

// declName is a name an item declares at the top level.
type declName struct {
	name string
	kind declKind
	line int
	sig  string // the declaration's first line, for inspect
	doc  string
}

// declared lists the top-level names an item declares (not imports).
func (pi *pitem) declared() []declName {
	var out []declName
	add := func(id *ast.Ident, kind declKind, sig string) {
		if id == nil || id.Name == "_" {
			return
		}
		out = append(out, declName{name: id.Name, kind: kind, line: pi.lineOf(id.Pos()), sig: sig, doc: pi.doc})
	}
	if as, ok := pi.stmt.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
		for _, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok {
				add(id, declDefine, firstLine(pi.textOf(as)))
			}
		}
	}
	for _, d := range pi.decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				add(d.Name, declFunc, pi.funcSignature(d))
			}
		case *ast.GenDecl:
			pi.genDeclared(d, add)
		}
	}
	return out
}

func (pi *pitem) genDeclared(d *ast.GenDecl, add func(*ast.Ident, declKind, string)) {
	for _, spec := range d.Specs {
		switch sp := spec.(type) {
		case *ast.TypeSpec:
			add(sp.Name, declType, "type "+firstLine(pi.textOf(sp)))
		case *ast.ValueSpec:
			kind := declVar
			if d.Tok == token.CONST {
				kind = declConst
			}
			for _, id := range sp.Names {
				add(id, kind, string(kind)+" "+firstLine(pi.textOf(sp)))
			}
		}
	}
}

// funcSignature is a func declaration without its body.
func (pi *pitem) funcSignature(d *ast.FuncDecl) string {
	end := d.Type.End()
	return strings.Join(strings.Fields(pi.text[pi.off(d.Pos()):pi.off(end)]), " ")
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i])
	}
	return strings.TrimSpace(s)
}

// imports lists the import specs of an import item.
func (pi *pitem) imports() []*ast.ImportSpec {
	var out []*ast.ImportSpec
	for _, d := range pi.decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			for _, s := range g.Specs {
				out = append(out, s.(*ast.ImportSpec))
			}
		}
	}
	return out
}

// unresolved returns the identifiers of the item that go/parser could not
// resolve inside the item: names of other items, earlier cells, packages,
// the universe, or undefined.
func (pi *pitem) unresolved() []*ast.Ident {
	out := make([]*ast.Ident, 0, len(pi.file.Unresolved))
	for _, id := range pi.file.Unresolved {
		if id.Name == "_" {
			continue
		}
		out = append(out, id)
	}
	return out
}

// selectors maps each unresolved identifier used as X in X.Sel to the
// selector expressions that use it.
func (pi *pitem) selectors() map[string][]*ast.SelectorExpr {
	out := map[string][]*ast.SelectorExpr{}
	for _, n := range pi.nodes() {
		ast.Inspect(n, func(n ast.Node) bool {
			if se, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := se.X.(*ast.Ident); ok && id.Obj == nil {
					out[id.Name] = append(out[id.Name], se)
				}
			}
			return true
		})
	}
	return out
}
