// Package glue runs benchbook's Go glue cells: plain Go statements and
// declarations, interpreted by github.com/traefik/yaegi v0.16.1, with state
// that lasts from cell to cell. It knows nothing of Jupyter messages: a
// cell's output goes to a display.Publisher.
//
// # Use
//
//	s, err := glue.New(glue.Options{Exports: ..., Preload: map[string]string{"bench": "github.com/benchbook/benchbook/stdlib/bench"}})
//	defer s.Close()
//	result, err := s.Eval(ctx, "Cell [3]", code, pub) // err is a *glue.Error
//	matches, start, end := s.Complete(code, cursor)
//	data, found := s.Inspect(code, cursor)
//	status, indent := s.IsComplete(code)
//
// Eval runs one cell at a time; Complete, Inspect and IsComplete may be
// called at any time. Cursor positions and the range Complete returns count
// Unicode code points, as Jupyter's protocol does.
//
// Options.Exports are symbol tables ("importpath/name" -> symbols) for the
// notebook packages. Their functions may publish to the cell that runs
// through Session.Current, which exists only once New returns; capture the
// session in a variable that the closures read:
//
//	var s *glue.Session
//	exports := interp.Exports{"example.com/nb/nb": {"Say": reflect.ValueOf(func(m string) { s.Current().Stream("stdout", m) })}}
//	s, err = glue.New(glue.Options{Exports: exports, Preload: map[string]string{"nb": "example.com/nb"}})
//
// # Packages
//
// A session is made of packages with one job each, which do not import
// this one: cells/glue/source reads a cell's source without running it
// (segments and items, what they declare and use, the checks the source
// alone tells, the rewrites, IsComplete, go/doc), with no yaegi;
// cells/glue/imports knows the packages a cell can import;
// cells/glue/machine is one interpreter; cells/glue/output carries the
// streams and displays to the publisher; cells/glue/complete completes and
// inspects. This package runs cells with them: the checks that need the
// session, the units, errors, goroutines, interrupts, the history, its
// replays and State.
//
// # Cells
//
// A cell is split into lines that start with "!" (shell lines) and runs of
// Go lines, run in order. A Go run is split into top-level items: imports,
// declarations (func, method, type, var, const) and statements. They take
// effect in order, top to bottom: consecutive declarations are compiled
// together (so they may refer to each other), each statement is compiled
// and run on its own, and an error stops the cell there (what ran before it
// stays done, as in IPython). Names declared at the top level, including by
// x := ..., are the session's globals and last across cells. Declaring a
// func or var again replaces it, and funcs of earlier cells that call a
// redeclared func are recompiled so that they call the new one.
//
// Imports may be written anywhere in a cell. A package used without an
// import is imported as goimports would: by its name, choosing among the
// packages of that name the one that exports the selectors used (rand.Prime
// is crypto/rand, rand.Perm math/rand, rand.IntN math/rand/v2), and never
// for a name that a cell declared. The display package and Options.Preload
// are always imported.
//
// The value of the cell's final expression is its result: the Bundle of a
// display.Renderer (an interpreted type with a Bundle method is one too),
// otherwise text/plain in Go form: strings as Go literals ("a\tb"), numbers
// plainly, errors and Stringers by their text, structs with field names
// ({X:1 Y:2}), several values separated by commas. Assignments, calls with
// no value, declarations and calls of the display package show nothing.
//
// Everything written to stdout and stderr (fmt.Print*, os.Stdout,
// os.Stderr, log, shell lines) streams to the publisher while the cell
// runs: whole lines as they come, a partial line after 20 ms; all of it is
// delivered before Eval returns. What goroutines write between cells is
// delivered at the start of the next cell.
//
// display.HTML(s), display.Markdown(s), display.SVG(s), display.PNG(b) and
// display.JSON(v) each publish one output and return its display id;
// display.Update(id, kind, content) replaces it (kind is html, markdown, svg,
// png, json or text); display.Clear() clears the cell's output;
// display.Show(bundle) publishes a prepared bundle. They publish to the cell
// running when they are called, in order with its streams.
//
// A "!" line runs with /bin/sh -c in Options.Dir with Options.Env, in its
// own process group; a line starting with "!" inside an unfinished Go
// expression stays Go. As in IPython a non-zero exit does not fail the cell:
// it is reported on stderr ("! cmd: exit status 3").
//
// # Errors
//
// A failure is a *Error. Name is SyntaxError, CompileError,
// UnsupportedError, Panic, Interrupted or SessionError; Line is the line of
// the cell (0 if unknown): for a compile error the line the interpreter
// names, for a panic the first line of the top-level statement that was
// running; Traceback[0] is "Cell [3], line 2: Name: message", then the
// source line, then for a panic the interpreted functions it went through
// ("in boom (declared in Cell [1])"). Names that nothing defines are
// reported before anything runs (the interpreter's own messages for them
// are misleading).
//
// A panic in a goroutine a cell started fails that cell if it still runs;
// after the cell has finished it is written on stderr, attributed to the
// cell that started the goroutine ("panic in a goroutine started by Cell
// [2], after it finished: ..."). Go statements are rewritten into calls of a
// compiled helper that recovers, since a panic in an interpreted goroutine
// would end the process. os.Exit panics instead of exiting.
//
// # Interrupts
//
// Cancelling Eval's context stops the cell, including loops, blocked
// channel operations, time.Sleep (which cells get in an interruptible form)
// and every goroutine that cells started, and Eval returns an Interrupted
// error. A cell inside another compiled call that cannot be interrupted (a
// lock, WaitGroup.Wait, I/O) would resume as soon as the interpreter runs
// anything else; when it has not stopped 750 ms after the cancel, the
// session replaces the interpreter by a new one and replays the imports and
// declarations of the earlier cells into it. The Interrupted error then says
// so, and lists what was restored and what was not: variables defined by
// statements (x := ...) are lost, and variables declared with var are
// re-initialized from their declarations (their later values are lost);
// statements are not replayed, since they may have effects. Cancelling also
// kills the process group of a running shell line.
//
// # Another process
//
// State returns what such a replay needs (the sources of the imports and
// declarations, the names declared, the cell labels; never values), as
// JSON, and Restore replays it into a fresh session. cells/gluechild uses
// them to run a session in a child process and to start it again when a
// fatal error of the Go runtime (stack overflow, concurrent map writes, out
// of memory, a panic in a goroutine that compiled code started) ends it;
// Options.OnDeclare lets it keep the state while a cell runs, and
// StateChanges gives only what changed since it last ran, so that the cost
// of a cell does not grow with the session.
//
// # Replays
//
// A replay (replay.go) runs the history entry by entry, in the order
// written: each declaration unit, then the relinking of the funcs that call
// a func it redefined, as when its cell ran, so that a var initialized from
// a func sees the func of its time. func init is never run again (it ran
// with its cell), and the note says so; a var whose initializer calls code
// runs it again, and the note names it, except the calls of
// Options.Replayed, whose host answers them from what they returned
// (CallSite names each call, the same in the cell and in the replay). A
// declaration unit joins the history before it runs, so that when an
// initializer ends the process the func declared beside it is kept:
// RestoreOptions.Skip then leaves that unit's initializers that call code
// out of the next replay, and NoCalls all of them. An interrupt stops a
// replay; what it did not reach is named. Whatever is not restored is
// forgotten, so that the next replay does not meet it again.
//
// # What glue cells do not support (yaegi v0.16.1 on Go 1.26)
//
// Checked on this version; where the interpreter would fail obscurely or
// crash, the cell gets an UnsupportedError or CompileError at its line:
//   - range over an integer (for i := range 10) or a function (iterators):
//     the interpreter fails with "nil type"; write for i := 0; i < n; i++.
//   - the builtins min, max and clear (Go 1.21): undefined.
//   - generic functions of the standard library: the symbol tables are Go
//     1.22's and cannot hold generic functions; the interpreter ships part
//     of slices (Contains, Index, Equal, ...), maps and cmp as source, but
//     not slices.Sort, slices.Max or slices.Min, and maps.Clone fails to
//     compile; packages newer than Go 1.22 (iter, unique, ...) are absent.
//     User-defined generic functions work.
//   - cgo (import "C"), unsafe, os/exec and syscall: not available (the
//     interpreter runs restricted); run commands with a "!" line.
//   - comma-ok forms that declare variables at the top level of a cell
//     (v, ok := m[k], <-c, x.(T)): the interpreter's compiler fails; use
//     them inside an if, a for or a func (those are run inside a function
//     literal, where they work).
//   - defer at the top level of a cell, and func main: the interpreter would
//     run them again with every later cell.
//   - changing a type or a method once declared: the interpreter keeps the
//     first declaration; redeclaring the same source is accepted.
//   - labels and goto across top-level statements, since each one runs on
//     its own.
//   - a 3-clause for loop keeps one variable for all iterations (Go before
//     1.22) when closures capture it; range loops get one per iteration.
//   - a panic in an interpreted function that compiled code runs in its own
//     goroutine (time.AfterFunc(d, func() { panic(...) })) still ends the
//     process: only go statements are covered (the kernel runs sessions in
//     a child process, see above, so it ends only that).
//   - os.Getwd and relative paths in Go lines use the kernel's working
//     directory, not Options.Dir (which applies to shell lines).
//   - yaegi is not free of data races when interpreted goroutines run
//     (go test -race reports races inside the interpreter).
//   - the interpreter writes "nil type" with the standard logger to the
//     process's stderr when it meets some of the forms above.
//
// Glue is for glue: the interpreter is hundreds of times slower than
// compiled Go, so nothing should be measured in a glue cell.
package glue
