// Package complete completes and inspects the code of a glue cell at a
// cursor (Jupyter's complete_request and inspect_request), against what a
// session's cells declared and imported (Session), the packages it can
// import (an imports.Index) and their documentation (source.Docs): members
// after "pkg." or a global's fields and methods, otherwise keywords,
// predeclared names, the session's names and packages and the identifiers
// of the cell; a member's declaration and doc comment, a declared name's
// line, cell and value.
package complete

import (
	"go/scanner"
	"go/token"
	"reflect"
	"sort"
	"strings"
	"unicode"

	"github.com/benchbook/benchbook/cells/glue/imports"
	"github.com/benchbook/benchbook/cells/glue/source"
)

// Cursor positions of Complete and Inspect count Unicode code points, as in
// Jupyter's protocol (5.2 and later).

// Session is what completion and inspection ask of a glue session: the
// names its cells declared and the packages they imported, and the values
// of its globals.
type Session interface {
	// Imported is the path of the package imported as name, "" if none.
	Imported(name string) string
	// Packages lists the names of the packages imported so far.
	Packages() []string
	// Name is a top-level name that a cell declared, and the cell's label.
	Name(name string) (d source.Decl, label string, ok bool)
	// Names lists the top-level names that cells declared.
	Names() []string
	// Global is the value of a global variable or constant, read when no
	// cell runs (as it was before the running segment otherwise).
	Global(name string) (reflect.Value, bool)
}

// Completer completes and inspects the code of a session's cells.
type Completer struct {
	Session Session
	Index   *imports.Index // the packages the session can import
	Docs    *source.Docs
}

// declared reports whether a cell declared name at the top level.
func (s Completer) declared(name string) bool {
	_, _, ok := s.Session.Name(name)
	return ok
}

var keywords = []string{
	"break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for",
	"func", "go", "goto", "if", "import", "interface", "map", "package", "range", "return", "select",
	"struct", "switch", "type", "var",
}

// Complete returns the completions of the word at cursor and the range
// [start, end) of code (in code points) they replace: after "pkg." the
// members of the package (or the fields and methods of a global variable),
// otherwise keywords, predeclared names, the session's names and packages,
// and the identifiers of code.
func (s Completer) Complete(code string, cursor int) (matches []string, start, end int) {
	runes := []rune(code)
	w := wordAt(runes, cursor)
	prefix := string(runes[w.start:w.cursor])
	var cands []string
	if w.qualifier != "" {
		cands = s.memberCandidates(w.qualifier)
	} else {
		cands = s.identCandidates(code, w)
	}
	seen := map[string]bool{}
	for _, c := range cands {
		if strings.HasPrefix(c, prefix) && !strings.HasPrefix(c, source.Runtime) && !seen[c] {
			seen[c] = true
			matches = append(matches, c)
		}
	}
	sort.Strings(matches)
	return matches, w.start, w.end
}

// word is the identifier around a cursor, and the identifier before a dot
// that precedes it.
type word struct {
	start, cursor, end int
	qualifier          string
}

func isIdentRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// wordAt finds the identifier that contains or ends at cursor.
func wordAt(runes []rune, cursor int) word {
	cursor = max(0, min(cursor, len(runes)))
	w := word{start: cursor, cursor: cursor, end: cursor}
	for w.start > 0 && isIdentRune(runes[w.start-1]) {
		w.start--
	}
	for w.end < len(runes) && isIdentRune(runes[w.end]) {
		w.end++
	}
	if w.start > 0 && runes[w.start-1] == '.' {
		q := w.start - 1
		for q > 0 && isIdentRune(runes[q-1]) {
			q--
		}
		w.qualifier = string(runes[q : w.start-1])
	}
	return w
}

// memberCandidates lists what may follow "q.".
func (s Completer) memberCandidates(q string) []string {
	if p := s.Session.Imported(q); p != "" && !s.declared(q) {
		return s.Index.Members(p)
	}
	if !s.declared(q) {
		var out []string
		for _, p := range s.Index.Paths(q) {
			out = append(out, s.Index.Members(p)...)
		}
		if len(out) > 0 {
			return out
		}
	}
	if v, ok := s.Session.Global(q); ok {
		return valueMembers(v)
	}
	return nil
}

// valueMembers lists the exported fields and methods of a value.
func valueMembers(v reflect.Value) []string {
	if !v.IsValid() {
		return nil
	}
	var out []string
	t := v.Type()
	for i := 0; i < t.NumMethod(); i++ {
		out = append(out, t.Method(i).Name)
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct {
		for i := 0; i < t.NumField(); i++ {
			if t.Field(i).IsExported() {
				out = append(out, t.Field(i).Name)
			}
		}
	}
	return out
}

// identCandidates lists the names that may start at w.
func (s Completer) identCandidates(code string, w word) []string {
	out := append([]string{}, keywords...)
	for _, name := range source.PredeclaredNames() {
		if _, missing := source.MissingBuiltin(name); !missing {
			out = append(out, name)
		}
	}
	out = append(out, s.Session.Names()...)
	out = append(out, s.Session.Packages()...)
	out = append(out, s.Index.Names()...)
	return append(out, codeIdents(code, w)...)
}

// codeIdents lists the identifiers written in code, except the word being
// completed.
func codeIdents(code string, w word) []string {
	fset := token.NewFileSet()
	src := []byte(code)
	file := fset.AddFile("", -1, len(src))
	var sc scanner.Scanner
	sc.Init(file, src, func(token.Position, string) {}, 0)
	runes := []rune(code)
	skip := string(runes[w.start:w.end])
	var out []string
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.IDENT && lit != skip {
			out = append(out, lit)
		}
	}
}
