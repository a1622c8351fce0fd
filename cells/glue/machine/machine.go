// Package machine is one yaegi interpreter as a glue session uses it:
// made with the session's symbol tables, streams and preloaded packages
// (New); compiling with a bound (Compile) and running until a run ends or,
// once cancelled, stops or is given up as stuck (Execute), since the
// interpreter cannot stop a run inside a compiled call; and letting go of
// what yaegi v0.16.1 would keep for ever of every program it compiled
// (yaegileak.go). It knows nothing of cells: cells/glue says what runs.
package machine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/token"
	"os"
	"reflect"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/traefik/yaegi/interp"
)

// Machine is one interpreter. A session replaces its machine when a
// cancelled cell does not stop (it is inside a compiled call, such as
// time.Sleep or a lock): running anything else on that interpreter would
// resume the cancelled code, since each run resets the interpreter's run id.
type Machine struct {
	in   *interp.Interpreter
	runs atomic.Int64
}

const (
	// stopGrace is how long a cancelled run may take to stop before its
	// interpreter is given up.
	stopGrace = 750 * time.Millisecond
	// compileLimit bounds a compilation (the interpreter can deadlock on
	// some invalid sources).
	compileLimit = 20 * time.Second
	// ReplayLimit bounds the replay of a history into a new interpreter,
	// and each run of RunPlain and RunReplayed.
	ReplayLimit = 10 * time.Second
	// labelKey is the pprof label that marks the goroutines running cells.
	labelKey = "benchbook-glue-run"
)

// Options say what an interpreter is made with.
type Options struct {
	Stdin, Stdout, Stderr *os.File
	// Env is the environment of os.Getenv in cells.
	Env []string
	// Symbols are the symbol tables it uses, in order.
	Symbols []interp.Exports
	// Preload maps a package name to the import path imported under it
	// before anything else runs.
	Preload map[string]string
}

// New makes an interpreter with opt's symbols and streams, and imports
// opt.Preload into it.
func New(opt Options) (*Machine, error) {
	in := interp.New(interp.Options{Stdin: opt.Stdin, Stdout: opt.Stdout, Stderr: opt.Stderr, Env: opt.Env})
	for _, t := range opt.Symbols {
		if err := in.Use(t); err != nil {
			return nil, fmt.Errorf("glue: loading symbols: %w", err)
		}
	}
	m := &Machine{in: in}
	for name, p := range opt.Preload {
		src := "package main; import " + name + " " + strconv.Quote(p)
		if err := m.RunPlain(context.Background(), src); err != nil {
			return nil, fmt.Errorf("glue: preloading %s %q: %w", name, p, err)
		}
	}
	return m, nil
}

// RunPlain compiles and runs a source outside any cell, until it ends or
// ctx does (and at most ReplayLimit).
func (m *Machine) RunPlain(ctx context.Context, src string) error {
	err, _ := m.RunReplayed(ctx, src, "", func() {})
	return err
}

// RunReplayed is RunPlain for a replay: a run that ctx stops is woken
// (wake) and waited for as a cell's is (Execute); stuck says it did not
// stop, which leaves the interpreter unusable.
func (m *Machine) RunReplayed(ctx context.Context, src, token string, wake func()) (err error, stuck bool) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	ctx, cancel := context.WithTimeout(ctx, ReplayLimit)
	defer cancel()
	p, err := m.in.Compile(src)
	dropCompiled(m.in)
	if err != nil {
		return err, false
	}
	return m.Execute(ctx, p, token, wake)
}

// Stop stops every interpreted goroutine of the machine (they check the
// interpreter's run id as they go): the interpreter's stop is only reachable
// by cancelling a run, so run a program that blocks with a cancelled context.
func (m *Machine) Stop() {
	p, err := m.in.Compile(";select {}")
	if err != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _ = m.in.ExecuteWithContext(ctx, p)
}

// ErrStuck is the error of a compilation that did not end (in compileLimit,
// or in stopGrace once its context ended): the interpreter is unusable.
var ErrStuck = errors.New("the compilation did not end")

// Compile compiles src, recovering the interpreter's panics and bounding
// the time it takes (ErrStuck).
func (m *Machine) Compile(ctx context.Context, src string) (*interp.Program, error) {
	type res struct {
		p   *interp.Program
		err error
	}
	ch := make(chan res, 1)
	go func() {
		var r res
		defer func() {
			if v := recover(); v != nil {
				r.err = fmt.Errorf("%v", v)
			}
			ch <- r
		}()
		r.p, r.err = m.in.Compile(src)
		dropCompiled(m.in)
	}()
	t := time.NewTimer(compileLimit)
	defer t.Stop()
	select {
	case r := <-ch:
		return r.p, r.err
	case <-ctx.Done():
		t.Reset(stopGrace) // a compilation is short: let it end
		select {
		case r := <-ch:
			return r.p, r.err
		case <-t.C:
		}
	case <-t.C:
	}
	return nil, ErrStuck
}

// Execute runs p until it ends or ctx is cancelled. After a cancel it calls
// wake (to end blocking calls it can end) and waits up to stopGrace for the
// run to stop; stuck says it did not. token tags the runs of one session
// (the pprof label of their goroutines).
func (m *Machine) Execute(ctx context.Context, p *interp.Program, token string, wake func()) (err error, stuck bool) {
	tag := token + "-" + strconv.FormatInt(m.runs.Add(1), 10)
	pprof.Do(context.Background(), pprof.Labels(labelKey, tag), func(context.Context) {
		_, err = m.in.ExecuteWithContext(ctx, p)
	})
	if err == nil || ctx.Err() == nil {
		return err, false
	}
	wake()
	deadline := time.Now().Add(stopGrace)
	for time.Now().Before(deadline) {
		if !runAlive(tag) {
			return err, false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return err, runAlive(tag)
}

// runAlive reports whether the goroutine that the interpreter started for
// the run tagged tag still exists. It inherits the pprof label set around
// ExecuteWithContext, and its stack starts in ExecuteWithContext.
func runAlive(tag string) bool {
	var b bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&b, 1); err != nil {
		return false
	}
	label := strconv.Quote(labelKey) + ":" + strconv.Quote(tag)
	for _, rec := range strings.Split(b.String(), "\n\n") {
		if strings.Contains(rec, label) && strings.Contains(rec, "ExecuteWithContext.func1") {
			return true
		}
	}
	return false
}

// What a session keeps of the globals and sources of the units it runs.

// Globals reads the interpreter's globals. The interpreter's Globals
// panics when a variable was compiled but its cell failed before running it
// (the interpreter's frame was not grown yet): ok is then false.
func (m *Machine) Globals() (g map[string]reflect.Value, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return m.in.Globals(), true
}

// DropTemps zeroes the slots of the global frame from slots on (FrameLen
// before the declaration unit just run) that the unit left, but for its
// vars (see zeroTemps).
func (m *Machine) DropTemps(slots int, vars map[string]bool) {
	if len(vars) == 0 {
		return
	}
	names := make([]string, 0, len(vars))
	for n := range vars {
		names = append(names, n)
	}
	keep := make([]reflect.Value, 0, len(vars))
	for _, v := range m.GlobalsNamed(names) {
		keep = append(keep, v)
	}
	zeroTemps(m.in, slots, keep)
}

// GlobalsNamed are the interpreter's globals among names (those a unit
// about to run redeclares).
func (m *Machine) GlobalsNamed(names []string) map[string]reflect.Value {
	g, ok := m.Globals()
	out := map[string]reflect.Value{}
	if !ok {
		return out
	}
	for _, n := range names {
		if v, ok := g[n]; ok {
			out[n] = v
		}
	}
	return out
}

// Release zeroes the old slots (old: GlobalsNamed before the unit ran) of
// the vars a unit redeclared. The interpreter gives a redeclared var a new
// slot and keeps the old one, with its value, for ever (a %bench result
// bound 50 times kept 50 results); the funcs that read it are relinked to
// the new one (source.Relink).
func Release(old map[string]reflect.Value, vars map[string]bool) {
	for name, v := range old {
		if vars[name] && v.IsValid() && v.CanSet() {
			v.Set(reflect.Zero(v.Type()))
		}
	}
}

// SourceBase is where the interpreter's next source will start in its
// FileSet (-1 if it cannot be reached).
func (m *Machine) SourceBase() int {
	if fs := fileSet(m.in); fs != nil {
		return fs.Base()
	}
	return -1
}

// ForgetSources removes from the interpreter's FileSet the sources it
// compiled from base (SourceBase) on, but the last one with keepLast: those
// of a statement that has run (its errors are written already) and that
// left nothing behind (cells/glue's leavesNothing), or the parses of a
// definition that the interpreter tried and dropped. The FileSet would
// otherwise keep them all, about a kilobyte a cell.
func (m *Machine) ForgetSources(base int, keepLast bool) {
	fs := fileSet(m.in)
	if fs == nil || base < 0 {
		return
	}
	var old []*token.File
	fs.Iterate(func(f *token.File) bool {
		if f.Base() >= base {
			old = append(old, f)
		}
		return true
	})
	if keepLast && len(old) > 0 {
		old = old[:len(old)-1]
	}
	for _, f := range old {
		fs.RemoveFile(f)
	}
}
