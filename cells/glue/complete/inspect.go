package complete

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/benchbook/benchbook/cells/glue/output"
	"github.com/benchbook/benchbook/cells/glue/source"
	"github.com/benchbook/benchbook/stdlib/display"
)

const noDoc = "no documentation"

// Inspect describes the symbol at cursor: for a standard library member its
// declaration and doc comment from GOROOT's sources; for a notebook package
// member its type; for a name a cell declared its declaration line, cell and
// doc comment (and a variable's current value); for a predeclared name the
// documentation of package builtin. The data has text/plain and
// text/markdown.
func (s Completer) Inspect(code string, cursor int) (map[string]any, bool) {
	runes := []rune(code)
	w := wordAt(runes, cursor)
	name := string(runes[w.start:w.end])
	if name == "" {
		return nil, false
	}
	var title, decl, text string
	var ok bool
	if w.qualifier != "" {
		title, decl, text, ok = s.inspectMember(w.qualifier, name)
	} else {
		title, decl, text, ok = s.inspectName(name)
	}
	if !ok {
		return nil, false
	}
	return inspectBundle(title, decl, text), true
}

func inspectBundle(title, decl, text string) map[string]any {
	if text == "" {
		text = noDoc
	}
	plain := decl + "\n    " + title + "\n\n" + text
	md := "```go\n" + decl + "\n```\n\n*" + title + "*\n\n" + text
	return map[string]any{display.MIMEText: plain, display.MIMEMarkdown: md}
}

// inspectMember describes q.name where q is a package or a global variable.
func (s Completer) inspectMember(q, name string) (title, decl, text string, ok bool) {
	p := s.Session.Imported(q)
	if p == "" && !s.declared(q) {
		p, _ = s.Index.Resolve(q, []string{name})
	}
	if p != "" && s.Index.Has(p, name) {
		return s.packageMember(p, name)
	}
	if v, found := s.Session.Global(q); found && v.IsValid() {
		t := v.Type()
		if m, found := t.MethodByName(name); found {
			return q + " is a " + t.String(), "func (" + t.String() + ") " + name + strings.TrimPrefix(m.Type.String(), "func"), "", true
		}
	}
	return "", "", "", false
}

// packageMember documents a member of the package at path p.
func (s Completer) packageMember(p, name string) (title, decl, text string, ok bool) {
	title = "package " + p
	if dp := s.Docs.Load(p); dp != nil { // the standard library's, or the notebook packages' (stdlib.Sources)
		if decl, text, found := dp.Symbol(name); found {
			return title, decl, text, true
		}
	}
	return title, reflectDecl(name, s.Index.Value(p, name)), "", true
}

// reflectDecl describes a symbol from its symbol table value.
func reflectDecl(name string, v reflect.Value) string {
	if !v.IsValid() {
		return name
	}
	t := v.Type()
	switch {
	case t.Kind() == reflect.Func:
		return "func " + name + strings.TrimPrefix(t.String(), "func")
	case t.Kind() == reflect.Pointer && v.IsNil():
		return "type " + name + " " + t.Elem().String()
	case t.Kind() == reflect.Pointer:
		return "var " + name + " " + t.Elem().String()
	}
	return "const " + name + " = " + fmt.Sprint(v.Interface())
}

// inspectName describes an unqualified name.
func (s Completer) inspectName(name string) (title, decl, text string, ok bool) {
	n, label, declared := s.Session.Name(name)
	p := s.Session.Imported(name)
	switch {
	case declared:
		return s.inspectDeclared(n, label)
	case p != "":
		return s.inspectPackage(p)
	case source.Predeclared(name):
		if dp := s.Docs.Load("builtin"); dp != nil {
			if decl, text, found := dp.Symbol(name); found {
				return "predeclared", decl, text, true
			}
		}
		return "predeclared", name, "", true
	}
	if paths := s.Index.Paths(name); len(paths) > 0 {
		return s.inspectPackage(paths[0])
	}
	return "", "", "", false
}

func (s Completer) inspectDeclared(n source.Decl, label string) (title, decl, text string, ok bool) {
	title = fmt.Sprintf("declared in %s, line %d", label, n.Line)
	text = strings.TrimSpace(commentText(n.Doc))
	if n.Kind == source.DeclVar || n.Kind == source.DeclDefine {
		if v, found := s.Session.Global(n.Name); found && v.IsValid() && v.CanInterface() {
			value := fmt.Sprintf("%s = %s", v.Type(), output.FormatValue(v.Interface()))
			if text != "" {
				value += "\n\n" + text
			}
			text = value
		}
	}
	return title, n.Sig, text, true
}

func (s Completer) inspectPackage(p string) (title, decl, text string, ok bool) {
	decl = "package " + s.Index.Name(p) + " // import " + fmt.Sprintf("%q", p)
	if dp := s.Docs.Load(p); dp != nil {
		text = dp.Synopsis()
	}
	return "package", decl, text, true
}

// commentText strips the comment markers of a doc comment.
func commentText(doc string) string {
	var out []string
	for _, l := range strings.Split(doc, "\n") {
		l = strings.TrimSpace(l)
		l = strings.TrimPrefix(l, "//")
		l = strings.TrimPrefix(l, "/*")
		l = strings.TrimSuffix(l, "*/")
		out = append(out, strings.TrimSpace(l))
	}
	return strings.Join(out, "\n")
}
