package glue

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// machine is one interpreter. A session replaces its machine when a
// cancelled cell does not stop (it is inside a compiled call, such as
// time.Sleep or a lock): running anything else on that interpreter would
// resume the cancelled code, since each run resets the interpreter's run id.
type machine struct {
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
	// replayLimit bounds the replay of the history into a new interpreter.
	replayLimit = 10 * time.Second
	// labelKey is the pprof label that marks the goroutines running cells.
	labelKey = "benchbook-glue-run"
)

// newMachine makes an interpreter with the session's symbols, streams and
// preloaded packages.
func (s *Session) newMachine() (*machine, error) {
	env := s.opt.Env
	if env == nil {
		env = os.Environ()
	}
	in := interp.New(interp.Options{Stdin: s.stdin, Stdout: s.stdout.Writer(), Stderr: s.stderr.Writer(), Env: env})
	for _, t := range []interp.Exports{stdlib.Symbols, s.timeExports(), s.opt.Exports, s.displayExports(), s.rtExports()} {
		if err := in.Use(t); err != nil {
			return nil, fmt.Errorf("glue: loading symbols: %w", err)
		}
	}
	m := &machine{in: in}
	for name, p := range s.preloads() {
		src := "package main; import " + name + " " + strconv.Quote(p)
		if err := m.runPlain(context.Background(), src); err != nil {
			return nil, fmt.Errorf("glue: preloading %s %q: %w", name, p, err)
		}
	}
	return m, nil
}

// preloads are the packages every interpreter imports: the runtime helper,
// display, and Options.Preload.
func (s *Session) preloads() map[string]string {
	out := map[string]string{rtName: rtPath, "display": displayPath}
	for name, p := range s.opt.Preload {
		out[name] = p
	}
	s.mu.Lock()
	for name, p := range out {
		if name != rtName {
			s.pkgs[name] = p
			s.chg.pkgs[name] = true
		}
	}
	s.mu.Unlock()
	return out
}

// runPlain compiles and runs a source outside any cell, until it ends or
// ctx does (and at most replayLimit).
func (m *machine) runPlain(ctx context.Context, src string) error {
	err, _ := m.runReplayed(ctx, src, "", func() {})
	return err
}

// runReplayed is runPlain for a replay: a run that ctx stops is woken
// (wake) and waited for as a cell's is (execute); stuck says it did not
// stop, which leaves the interpreter unusable.
func (m *machine) runReplayed(ctx context.Context, src, token string, wake func()) (err error, stuck bool) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	ctx, cancel := context.WithTimeout(ctx, replayLimit)
	defer cancel()
	p, err := m.in.Compile(src)
	dropCompiled(m.in)
	if err != nil {
		return err, false
	}
	return m.execute(ctx, p, token, wake)
}

// stop stops every interpreted goroutine of the machine (they check the
// interpreter's run id as they go): the interpreter's stop is only reachable
// by cancelling a run, so run a program that blocks with a cancelled context.
func (m *machine) stop() {
	p, err := m.in.Compile(";select {}")
	if err != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _ = m.in.ExecuteWithContext(ctx, p)
}

func (s *Session) machine() *machine {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m
}

// errStuck is a compilation that did not end.
type errStuck struct{ note string }

func (e errStuck) Error() string { return "the interpreter is stuck: " + e.note }

// compile compiles src on the session's interpreter, recovering the
// interpreter's panics and bounding the time it takes.
func (s *Session) compile(c *cellRun, src string) (*interp.Program, error) {
	m := s.machine()
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
	case <-c.ctx.Done():
		t.Reset(stopGrace) // a compilation is short: let it end
		select {
		case r := <-ch:
			return r.p, r.err
		case <-t.C:
		}
	case <-t.C:
	}
	return nil, errStuck{note: s.replace(c)}
}

// execute runs p until it ends or ctx is cancelled. After a cancel it calls
// wake (to end blocking calls it can end) and waits up to stopGrace for the
// run to stop; stuck says it did not.
func (m *machine) execute(ctx context.Context, p *interp.Program, token string, wake func()) (err error, stuck bool) {
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

// replace gives up the session's interpreter for a new one and replays the
// imports and declarations of the cells into it. It returns the note shown
// to the user: what was restored and what was not.
func (s *Session) replace(c *cellRun) string {
	m, err := s.newMachine()
	if err != nil {
		return "The interpreter was stuck and could not be replaced: " + err.Error() + ". Restart the kernel."
	}
	s.mu.Lock()
	s.m = m
	history := append([]histEntry(nil), s.history...)
	s.mu.Unlock()
	r := s.replay(context.Background(), m, history, RestoreOptions{})
	r.rep.Lost = s.adopt(r)
	return "The cell did not stop: it is inside a call the interpreter cannot interrupt. " +
		"The interpreter was replaced by a new one (the old one is left to finish in the background).\n" + r.rep.Note()
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "nothing"
	}
	return strings.Join(names, ", ")
}
