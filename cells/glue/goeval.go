package glue

import (
	"errors"
	"go/ast"
	"go/token"
	"reflect"
	"strings"

	"github.com/traefik/yaegi/interp"

	"github.com/benchbook/benchbook/cells/glue/machine"
	"github.com/benchbook/benchbook/cells/glue/source"
)

// evalGo runs a Go segment: parse, check, import, then each unit in order.
// final says whether its last expression is the cell's result.
func (s *Session) evalGo(c *cellRun, seg source.Segment, final bool) *Error {
	items, err := source.Parse(c.seq, source.SplitItems(seg))
	if err != nil {
		return s.syntaxError(c, err)
	}
	if len(items) == 0 {
		return nil
	}
	s.snapshotGlobals()
	si := newSegInfo(items)
	if e := s.checkUnsupported(c, items, si); e != nil {
		return e
	}
	specs, e := s.planImports(c, items, si)
	if e != nil {
		return e
	}
	if e := s.doImports(c, specs); e != nil {
		return e
	}
	if e := s.checkNames(c, items, si); e != nil {
		return e
	}
	for _, u := range s.plan(c, items, final) {
		if e := s.runUnit(c, u); e != nil {
			return e
		}
	}
	return nil
}

// doImports imports what a segment needs and was not imported yet.
func (s *Session) doImports(c *cellRun, specs []importSpec) *Error {
	for _, sp := range specs {
		if sp.name == "." {
			s.mu.Lock()
			s.dot = true
			s.mu.Unlock()
		} else if s.importedPath(sp.name) == sp.path {
			continue
		}
		if e := s.runSource(c, sp.source(), sp.line); e != nil {
			return e
		}
		s.mu.Lock()
		if sp.name != "." {
			s.pkgs[sp.name] = sp.path
			s.chg.pkgs[sp.name] = true
		}
		s.history = append(s.history, histEntry{label: c.label, src: sp.source(), names: []string{sp.name}})
		s.keepLabel(c.seq)
		s.mu.Unlock()
		s.declared()
	}
	return nil
}

// errStuck is a compilation that did not end.
type errStuck struct{ note string }

func (e errStuck) Error() string { return "the interpreter is stuck: " + e.note }

// compile compiles src on the session's interpreter; when the compilation
// does not end, the interpreter is replaced (see replace).
func (s *Session) compile(c *cellRun, src string) (*interp.Program, error) {
	p, err := s.machine().Compile(c.ctx, src)
	if errors.Is(err, machine.ErrStuck) {
		return nil, errStuck{note: s.replace(c)}
	}
	return p, err
}

// runSource compiles and runs one source.
func (s *Session) runSource(c *cellRun, src string, line int) *Error {
	p, err := s.compile(c, src)
	if err != nil {
		return s.compileFailure(c, err, line, nil)
	}
	return s.execute(c, p, line)
}

// runUnit compiles and runs a unit; the final expression is compiled with
// its result wrapper first, and without it when that fails (a call with no
// value, for instance).
func (s *Session) runUnit(c *cellRun, u unit) *Error {
	m := s.machine()
	base := m.SourceBase()
	var old map[string]reflect.Value // the globals it redeclares, before it compiles
	slots := 0
	if u.decl {
		old = m.GlobalsNamed(unitNames(u))
		slots = m.FrameLen()
	}
	p, err := s.compile(c, u.src)
	if err != nil && u.plain != "" {
		var err2 error
		if p, err2 = s.compile(c, u.plain); err2 != nil {
			err = err2
		} else {
			err = nil
		}
	}
	if err != nil {
		return s.compileFailure(c, err, u.line, u.items)
	}
	s.recordNames(c, u)
	switch {
	case u.call != "" && leavesNothing(u):
		defer m.ForgetSources(base, false)
	case !u.decl:
		// the interpreter parses a statement as a file first, then as the
		// body of func main: only the last source it added is used
		defer m.ForgetSources(base, true)
	}
	if u.call != "" {
		if e := s.execute(c, p, u.line); e != nil {
			return e
		}
		if p, err = s.compile(c, u.call); err != nil {
			return s.compileFailure(c, err, u.line, u.items)
		}
	}
	if !u.decl {
		return s.execute(c, p, u.line)
	}
	// The unit joins the history before it runs, so that a host that keeps
	// the state elsewhere has it if an initializer kills the process (a
	// replay then leaves that initializer out and keeps the rest, such as
	// a func declared before it); it leaves the history if it fails.
	h := s.entryOf(c, u)
	s.pushEntry(c, h)
	s.setSite(h.site)
	e := s.execute(c, p, u.line)
	s.setSite("")
	if e != nil {
		s.popEntry()
		return e
	}
	s.recordDecls(c, u, h, old)
	s.machine().DropTemps(slots, unitVars(u))
	return nil
}

// leavesNothing reports a statement that leaves nothing pointing into its
// source once it has run: no function literal (which compiled code may
// call later) and no go statement.
func leavesNothing(u unit) bool {
	for _, pi := range u.items {
		if pi.Stmt == nil {
			return false
		}
		found := false
		ast.Inspect(pi.Stmt, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.FuncLit, *ast.GoStmt:
				found = true
			}
			return !found
		})
		if found {
			return false
		}
	}
	return true
}

// pushEntry adds a unit about to run to the history and tells OnDeclare.
func (s *Session) pushEntry(c *cellRun, h histEntry) {
	s.mu.Lock()
	s.history = append(s.history, h)
	s.keepLabel(c.seq)
	s.mu.Unlock()
	s.declared()
}

// popEntry takes back the last entry pushed: its unit failed.
func (s *Session) popEntry() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.history = s.history[:len(s.history)-1]
	s.chg.history = min(s.chg.history, len(s.history))
}

// compileFailure turns a compile error into an Error; the interpreter's
// position-less "nil type" comes from a range over an integer or a function.
func (s *Session) compileFailure(c *cellRun, err error, line int, items []*source.Parsed) *Error {
	var stuck errStuck
	if errors.As(err, &stuck) {
		return s.interrupted(c, line, stuck.note)
	}
	if strings.Contains(err.Error(), "nil type") {
		for _, pi := range items {
			if l, msg := pi.AnyRange(); l > 0 {
				return errorAt(c, ErrUnsupported, l, msg)
			}
		}
	}
	return s.compileError(c, err, line)
}

// execute runs a compiled program and turns its failure into an Error.
// Nothing starts once the cell is cancelled: the interpreter would run a
// program started after its stop as if nothing had happened.
func (s *Session) execute(c *cellRun, p *interp.Program, line int) *Error {
	if c.ctx.Err() != nil {
		if e := c.failure(); e != nil {
			return e
		}
		return s.interrupted(c, line, "")
	}
	c.setLine(line)
	err, stuck := s.machine().Execute(c.ctx, p, s.token, s.wakeSleepers)
	if err == nil {
		return nil
	}
	if c.ctx.Err() != nil {
		note := ""
		if stuck {
			note = s.replace(c)
		}
		if e := c.failure(); e != nil {
			if note != "" {
				e.Traceback = append(e.Traceback, note)
			}
			return e
		}
		return s.interrupted(c, line, note)
	}
	var pe interp.Panic
	if errors.As(err, &pe) {
		return s.panicError(c, pe.Value, line, s.takeFrames(), "")
	}
	s.takeFrames()
	msg, l := s.mapPositions(err.Error(), c.seq)
	if l == 0 {
		l = line
	}
	return errorAt(c, ErrPanic, l, stripLeadingPosition(msg, c.label, l))
}

// interrupted is the Error of a cancelled cell; note says what happened to
// the interpreter, if anything.
func (s *Session) interrupted(c *cellRun, line int, note string) *Error {
	e := errorAt(c, ErrInterrupted, line, "interrupted")
	if note != "" {
		e.Traceback = append(e.Traceback, note)
	}
	return e
}

// recordNames remembers the top-level names a compiled unit declares.
func (s *Session) recordNames(c *cellRun, u unit) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, pi := range u.items {
		for _, d := range pi.Declared() {
			s.names[d.Name] = nameInfo{Decl: d, label: c.label}
			s.chg.names[d.Name] = true
		}
	}
}

// histEntry is an import or a run of declarations that a new interpreter
// replays to get the session's state back (see replay.go).
type histEntry struct {
	label string
	src   string     // an import's source
	items []histItem // a declaration unit's declarations, func init left out
	names []string   // the names it declares
	funcs map[string]source.Func
	site  string // siteOf the unit's source
	inits int    // func init declarations left out
}

// shapeSrc is the normalized source of a type or method declaration, and
// the cell that declared it.
type shapeSrc struct {
	src, label string
}

// entryOf is the history entry of a declaration unit: its items (func
// init left out), the funcs it declares and the key of its calls.
func (s *Session) entryOf(c *cellRun, u unit) histEntry {
	h := histEntry{label: c.label, site: siteOf(u.src), funcs: map[string]source.Func{}}
	for i, pi := range u.items {
		if len(pi.Decls) > 0 && source.IsInitFunc(pi.Decls[0]) {
			h.inits++
			continue
		}
		it := histItem{src: u.pieces[i]}
		for _, d := range pi.Declared() {
			it.names = append(it.names, d.Name)
		}
		for _, d := range pi.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					h.funcs[d.Name.Name] = s.funcSource(c, pi, d)
				}
			case *ast.GenDecl:
				it.calls = it.calls || source.InitCalls(d, s.replayedCalls())
				it.isVar = it.isVar || d.Tok == token.VAR
			}
		}
		h.names = append(h.names, it.names...)
		h.items = append(h.items, it)
	}
	return h
}

// recordDecls records what a declaration unit that ran declared (its
// entry h is in the history already), and relinks the funcs that call a
// func it redefines (the interpreter binds calls at compile time, so they
// would keep calling the old one).
func (s *Session) recordDecls(c *cellRun, u unit, h histEntry, old map[string]reflect.Value) {
	s.mu.Lock()
	for _, pi := range u.items {
		for _, sh := range pi.Shapes() {
			if _, ok := s.shapes[sh.Key]; !ok {
				s.shapes[sh.Key] = shapeSrc{src: sh.Src, label: c.label}
				s.chg.shapes[sh.Key] = true
			}
		}
	}
	relink := source.Relink(s.funcs, h.funcs, old)
	s.mu.Unlock()
	s.declared()
	if relink != "" {
		if p, err := s.compile(c, relink); err == nil {
			_ = s.execute(c, p, u.line)
		}
	}
	machine.Release(old, unitVars(u))
}

// unitNames are the names a declaration unit declares.
func unitNames(u unit) []string {
	var out []string
	for _, pi := range u.items {
		for _, d := range pi.Declared() {
			out = append(out, d.Name)
		}
	}
	return out
}

// unitVars are the vars a declaration unit declares.
func unitVars(u unit) map[string]bool {
	out := map[string]bool{}
	for _, pi := range u.items {
		for _, d := range pi.Declared() {
			if d.Kind == source.DeclVar {
				out[d.Name] = true
			}
		}
	}
	return out
}

// replayedCalls are the calls of Options.Replayed, as a set.
func (s *Session) replayedCalls() map[string]bool {
	out := map[string]bool{}
	for _, r := range s.opt.Replayed {
		out[r] = true
	}
	return out
}

// declared tells Options.OnDeclare that the history grew.
func (s *Session) declared() {
	if s.opt.OnDeclare != nil {
		s.opt.OnDeclare()
	}
}

// funcSource is the rewritten source of a func declaration, with its
// position directive.
func (s *Session) funcSource(c *cellRun, pi *source.Parsed, fd *ast.FuncDecl) source.Func {
	pos := pi.Fset.Position(fd.Pos())
	src := source.Directive(c.seq, pi.LineOf(fd.Pos()), pos.Column) + source.RewriteNode(pi, s.scope(), fd)
	return source.Func{Src: src, Refs: source.FuncRefs(fd)}
}
