package glue

import (
	"go/constant"
	"reflect"
	"strings"

	"github.com/benchbook/benchbook/cells/glue/complete"
	"github.com/benchbook/benchbook/cells/glue/source"
)

// What the cells of a session declared and imported, as its checks, the
// rewrites of cells/glue/source and cells/glue/complete ask for it.

// Complete returns the completions of the word at cursor and the range
// [start, end) of code (in code points) they replace (see
// complete.Completer.Complete).
func (s *Session) Complete(code string, cursor int) (matches []string, start, end int) {
	return s.completer().Complete(code, cursor)
}

// Inspect describes the symbol at cursor, in text/plain and text/markdown
// (see complete.Completer.Inspect): for a standard library member its
// declaration and doc comment from GOROOT's sources; for a notebook package
// member its type; for a name a cell declared its declaration line, cell
// and doc comment (and a variable's current value); for a predeclared name
// the documentation of package builtin.
func (s *Session) Inspect(code string, cursor int) (map[string]any, bool) {
	return s.completer().Inspect(code, cursor)
}

func (s *Session) completer() complete.Completer {
	return complete.Completer{Session: view{s}, Index: s.index, Docs: s.docs}
}

// IsComplete says whether code is ready to run (see source.IsComplete):
// StatusComplete, StatusIncomplete with the indent of the next line, or
// StatusInvalid.
func (s *Session) IsComplete(code string) (status, indent string) {
	return source.IsComplete(code)
}

// Statuses returned by IsComplete.
const (
	StatusComplete   = source.StatusComplete
	StatusIncomplete = source.StatusIncomplete
	StatusInvalid    = source.StatusInvalid
)

// declaredName reports whether a cell declared name at the top level.
func (s *Session) declaredName(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.names[name]
	return ok
}

func (s *Session) nameKind(name string) source.DeclKind {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.names[name].Kind
}

// importedPath is the path of the package imported as name, or "".
func (s *Session) importedPath(name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pkgs[name]
}

func (s *Session) hasDotImport() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dot
}

// exported reports whether p is a notebook package (not the standard library).
func (s *Session) exported(p string) bool {
	if p == displayPath {
		return true
	}
	for key := range s.opt.Exports {
		if strings.HasPrefix(key, p+"/") {
			return true
		}
	}
	return false
}

// global is the value of a global variable or constant of the interpreter,
// from the snapshot taken before the running segment.
func (s *Session) global(name string) (reflect.Value, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.globals[name]
	return v, ok
}

// snapshotGlobals refreshes the snapshot of the interpreter's globals. Only
// call it when no cell code runs in the interpreter's main flow.
func (s *Session) snapshotGlobals() {
	s.mu.Lock()
	m := s.m
	s.mu.Unlock()
	g, ok := m.Globals()
	if !ok {
		return // keep the previous snapshot
	}
	s.mu.Lock()
	s.globals = g
	s.mu.Unlock()
}

// idleGlobal reads a global of the interpreter when no cell runs.
func (s *Session) idleGlobal(name string) (reflect.Value, bool) {
	if !s.evalMu.TryLock() {
		return s.global(name)
	}
	defer s.evalMu.Unlock()
	s.snapshotGlobals()
	return s.global(name)
}

// scope is what the rewrites of cells/glue/source ask of the session.
func (s *Session) scope() source.Scope { return view{s} }

// view is the session as cells/glue/source's rewrites (a source.Scope) and
// cells/glue/complete (a complete.Session) ask for it.
type view struct{ s *Session }

// Declared implements source.Scope.
func (sc view) Declared(name string) source.DeclKind { return sc.s.nameKind(name) }

// PackageConst implements source.Scope: pkg is the package imported under
// that name, or the one an import of it would get.
func (sc view) PackageConst(pkg, sel string) bool {
	p := sc.s.importedPath(pkg)
	if p == "" {
		p, _ = sc.s.index.Resolve(pkg, []string{sel})
	}
	v := sc.s.index.Value(p, sel)
	if !v.IsValid() || !v.CanInterface() {
		return false
	}
	_, isConst := v.Interface().(constant.Value)
	return isConst
}

// Imported implements complete.Session.
func (sc view) Imported(name string) string { return sc.s.importedPath(name) }

// Packages implements complete.Session.
func (sc view) Packages() []string {
	sc.s.mu.Lock()
	defer sc.s.mu.Unlock()
	return sortedKeys(sc.s.pkgs)
}

// Name implements complete.Session.
func (sc view) Name(name string) (source.Decl, string, bool) {
	sc.s.mu.Lock()
	defer sc.s.mu.Unlock()
	n, ok := sc.s.names[name]
	return n.Decl, n.label, ok
}

// Names implements complete.Session.
func (sc view) Names() []string {
	sc.s.mu.Lock()
	defer sc.s.mu.Unlock()
	return sortedKeys(sc.s.names)
}

// Global implements complete.Session.
func (sc view) Global(name string) (reflect.Value, bool) { return sc.s.idleGlobal(name) }
