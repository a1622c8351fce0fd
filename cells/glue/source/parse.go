package source

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// Parsed is an item parsed with go/parser. Its parse source carries a line
// directive (see Directive), so that the positions of its nodes (and of the
// parser's errors) are cell positions.
type Parsed struct {
	Item
	Fset  *token.FileSet
	File  *ast.File
	base  int        // offset of Item.Text in the parse source
	Decls []ast.Decl // the declarations of an import or declaration item
	Stmt  ast.Stmt   // the statement of a statement item
}

// PosBase encodes a cell in a line number: line seq*PosBase+l is line l of
// cell seq. The file name of every position stays the interpreter's default
// one (SourceName), because the interpreter scopes imports by file name.
const PosBase = 100000

// SourceName is the interpreter's default source name (yaegi's
// interp.DefaultSourceName, which cells/glue's tests hold it to).
const SourceName = "_.go"

// Directive is the line directive that maps what follows to line, col of
// cell seq.
func Directive(seq, line, col int) string {
	return fmt.Sprintf("/*line %s:%d:%d*/", SourceName, seq*PosBase+line, col)
}

// CellLine splits an encoded line into a cell number and a line of it; seq
// is 0 for a line that is not encoded.
func CellLine(encoded int) (seq, line int) {
	if encoded < PosBase {
		return 0, encoded
	}
	return encoded / PosBase, encoded % PosBase
}

// Parse parses the items of a Go segment of cell seq. The first syntax
// error is returned as the error (a scanner.ErrorList with cell positions).
func Parse(seq int, items []Item) ([]*Parsed, error) {
	fset := token.NewFileSet()
	out := make([]*Parsed, 0, len(items))
	for _, it := range items {
		pi, err := parseItem(fset, seq, it)
		if err != nil {
			return nil, err
		}
		out = append(out, pi)
	}
	return out, nil
}

func parseItem(fset *token.FileSet, seq int, it Item) (*Parsed, error) {
	dir := Directive(seq, it.Line, it.Col)
	prefix, suffix := "package p;", "\n"
	if it.Kind == KindStmt {
		prefix, suffix = "package p;func _(){", "\n}"
	}
	src := prefix + dir + it.Text + suffix
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.DeclarationErrors)
	if err != nil {
		return nil, err
	}
	pi := &Parsed{Item: it, Fset: fset, File: f, base: len(prefix) + len(dir)}
	if it.Kind == KindStmt {
		body := f.Decls[len(f.Decls)-1].(*ast.FuncDecl).Body
		if len(body.List) > 0 {
			pi.Stmt = body.List[0]
		}
		return pi, nil
	}
	pi.Decls = f.Decls
	return pi, nil
}

// Off is the offset in Item.Text of a position in the parse source.
func (pi *Parsed) Off(p token.Pos) int {
	return pi.Fset.File(p).Offset(p) - pi.base
}

// TextOf is the item source of a node.
func (pi *Parsed) TextOf(n ast.Node) string {
	return pi.Text[pi.Off(n.Pos()):pi.Off(n.End())]
}

// LineOf is the cell line of a position.
func (pi *Parsed) LineOf(p token.Pos) int {
	_, line := CellLine(pi.Fset.Position(p).Line)
	return line
}

// Nodes returns the top-level nodes of the item.
func (pi *Parsed) Nodes() []ast.Node {
	if pi.Stmt != nil {
		return []ast.Node{pi.Stmt}
	}
	out := make([]ast.Node, 0, len(pi.Decls))
	for _, d := range pi.Decls {
		out = append(out, d)
	}
	return out
}

// DeclKind says what a declared name is.
type DeclKind string

const (
	DeclFunc   DeclKind = "func"
	DeclType   DeclKind = "type"
	DeclVar    DeclKind = "var"
	DeclConst  DeclKind = "const"
	DeclDefine DeclKind = "var (:=)" // a variable defined by a statement
)

// Decl is a name an item declares at the top level.
type Decl struct {
	Name string
	Kind DeclKind
	Line int
	Sig  string // the declaration's first line, for inspect
	Doc  string
}

// Declared lists the top-level names an item declares (not imports).
func (pi *Parsed) Declared() []Decl {
	var out []Decl
	add := func(id *ast.Ident, kind DeclKind, sig string) {
		if id == nil || id.Name == "_" {
			return
		}
		out = append(out, Decl{Name: id.Name, Kind: kind, Line: pi.LineOf(id.Pos()), Sig: sig, Doc: pi.Doc})
	}
	if as, ok := pi.Stmt.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
		for _, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok {
				add(id, DeclDefine, FirstLine(pi.TextOf(as)))
			}
		}
	}
	for _, d := range pi.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				add(d.Name, DeclFunc, pi.funcSignature(d))
			}
		case *ast.GenDecl:
			pi.genDeclared(d, add)
		}
	}
	return out
}

func (pi *Parsed) genDeclared(d *ast.GenDecl, add func(*ast.Ident, DeclKind, string)) {
	for _, spec := range d.Specs {
		switch sp := spec.(type) {
		case *ast.TypeSpec:
			add(sp.Name, DeclType, "type "+FirstLine(pi.TextOf(sp)))
		case *ast.ValueSpec:
			kind := DeclVar
			if d.Tok == token.CONST {
				kind = DeclConst
			}
			for _, id := range sp.Names {
				add(id, kind, string(kind)+" "+FirstLine(pi.TextOf(sp)))
			}
		}
	}
}

// funcSignature is a func declaration without its body.
func (pi *Parsed) funcSignature(d *ast.FuncDecl) string {
	end := d.Type.End()
	return strings.Join(strings.Fields(pi.Text[pi.Off(d.Pos()):pi.Off(end)]), " ")
}

// FirstLine is the first line of s, trimmed.
func FirstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i])
	}
	return strings.TrimSpace(s)
}

// Imports lists the import specs of an import item.
func (pi *Parsed) Imports() []*ast.ImportSpec {
	var out []*ast.ImportSpec
	for _, d := range pi.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			for _, s := range g.Specs {
				out = append(out, s.(*ast.ImportSpec))
			}
		}
	}
	return out
}

// Unresolved returns the identifiers of the item that go/parser could not
// resolve inside the item: names of other items, earlier cells, packages,
// the universe, or undefined.
func (pi *Parsed) Unresolved() []*ast.Ident {
	out := make([]*ast.Ident, 0, len(pi.File.Unresolved))
	for _, id := range pi.File.Unresolved {
		if id.Name == "_" {
			continue
		}
		out = append(out, id)
	}
	return out
}

// Selectors maps each unresolved identifier used as X in X.Sel to the
// selector expressions that use it.
func (pi *Parsed) Selectors() map[string][]*ast.SelectorExpr {
	out := map[string][]*ast.SelectorExpr{}
	for _, n := range pi.Nodes() {
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
