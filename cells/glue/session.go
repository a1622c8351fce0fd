package glue

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"github.com/benchbook/benchbook/cells/glue/imports"
	"github.com/benchbook/benchbook/cells/glue/machine"
	"github.com/benchbook/benchbook/cells/glue/output"
	"github.com/benchbook/benchbook/cells/glue/source"
	"github.com/benchbook/benchbook/stdlib/display"
)

// Options configures a Session.
type Options struct {
	// Exports are extra symbol tables (yaegi interp.Exports, keys
	// "importpath/name") for notebook packages such as bench, plot and stats.
	// Their functions may be closures bound to the caller's session, e.g.
	// through Session.Current.
	Exports interp.Exports
	// Preload maps a package name to its import path; each is imported into
	// every interpreter without an import line. "display" is always there.
	Preload map[string]string
	// Dir is the working directory of ! shell lines ("" for the process's).
	Dir string
	// Env is the environment of ! shell lines and of os.Getenv in cells
	// (nil for the process's).
	Env []string
	// Render, if set, shows a cell's final value richly: it returns the
	// bundle of the values it knows (compiled notebook types that do not
	// implement display.Renderer). It is tried before display.Renderer.
	Render func(v any) (bundle map[string]any, ok bool)
	// OnDeclare, if set, is called after a cell's import or declaration
	// has run and joined the history (see State): a host that keeps the
	// state elsewhere (cells/gluechild) gets it before the cell ends, so
	// that what a cell declared before it crashed is not lost.
	OnDeclare func()
	// Replayed are calls ("bench.Get") that a replay does not run again:
	// the host answers them from what they returned when their cell ran
	// (see CallSite), so a var initializer that makes only such calls is
	// not said to run again.
	Replayed []string
}

// Session is one notebook's interpreter state. Eval runs one cell at a
// time; Complete, Inspect and IsComplete may be called at any time.
type Session struct {
	opt   Options
	token string
	index *imports.Index
	out   *output.Outlet
	docs  *source.Docs

	stdout, stderr *output.Pipe
	stdin          *os.File

	evalMu sync.Mutex // held by Eval

	mu        sync.Mutex // guards what follows
	closed    bool
	m         *machine.Machine
	seq       int
	labels    map[int]string
	kept      map[int]bool           // the labels the state needs: of cells that added to the history
	names     map[string]nameInfo    // top-level names declared by cells
	pkgs      map[string]string      // package name -> import path, imported so far
	dot       bool                   // a dot import happened: names cannot be checked
	history   []histEntry            // imports and declarations, replayed into a new interpreter
	funcs     map[string]source.Func // latest source of each func, for relinking
	shapes    map[string]shapeSrc    // types and methods declared, by "type T" or "method T.M"
	chg       changes                // what changed since StateChanges last ran
	site      string                 // the declaration unit running (see CallSite)
	siteCalls int
	run       *cellRun
	frames    []frame
	globals   map[string]reflect.Value
	wake      chan struct{} // closed to end the sleeps in progress
}

// nameInfo is a name a cell declared.
type nameInfo struct {
	source.Decl
	label string
}

// New starts a session.
func New(opt Options) (*Session, error) {
	s := &Session{
		opt: opt, token: randomToken(), out: &output.Outlet{}, docs: source.NewDocs(""),
		labels: map[int]string{}, kept: map[int]bool{}, names: map[string]nameInfo{}, pkgs: map[string]string{},
		funcs: map[string]source.Func{}, shapes: map[string]shapeSrc{}, wake: make(chan struct{}), chg: newChanges(),
	}
	s.index = imports.New(stdlib.Symbols, opt.Exports, output.DisplayExports(forwarder{s}))
	var err error
	if s.stdin, err = os.Open(os.DevNull); err != nil {
		return nil, fmt.Errorf("glue: %w", err)
	}
	if s.stdout, err = output.NewPipe("stdout", s.token, s.out, nil); err != nil {
		return nil, err
	}
	if s.stderr, err = output.NewPipe("stderr", s.token, s.out, s.takeFrameLines); err != nil {
		s.stdout.Close()
		return nil, err
	}
	if s.m, err = s.newMachine(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// newMachine makes an interpreter with the session's symbols, streams and
// preloaded packages.
func (s *Session) newMachine() (*machine.Machine, error) {
	env := s.opt.Env
	if env == nil {
		env = os.Environ()
	}
	return machine.New(machine.Options{
		Stdin: s.stdin, Stdout: s.stdout.Writer(), Stderr: s.stderr.Writer(), Env: env,
		Symbols: []interp.Exports{stdlib.Symbols, s.timeExports(), s.opt.Exports, output.DisplayExports(forwarder{s}), s.rtExports()},
		Preload: s.preloads(),
	})
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

// machine is the session's interpreter.
func (s *Session) machine() *machine.Machine {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m
}

func randomToken() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Close ends the session. A cell still running is abandoned.
func (s *Session) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	if s.run != nil {
		s.run.cancel()
	}
	m := s.m
	s.mu.Unlock()
	if m != nil {
		m.Stop()
	}
	s.wakeSleepers()
	s.stdout.Close()
	s.stderr.Close()
	_ = s.stdin.Close()
}

// Current returns a Publisher that publishes to the cell running at the
// time of each call (between cells, streams and displays are held for the
// next cell). It is meant for the closures of Options.Exports.
func (s *Session) Current() display.Publisher { return forwarder{s} }

// cellRun is one Eval in progress.
type cellRun struct {
	seq    int
	label  string
	lines  []string
	ctx    context.Context
	cancel context.CancelFunc

	mu       sync.Mutex
	line     int // cell line of the unit running
	result   map[string]any
	goErr    *Error // a panic in a goroutine the cell started
	finished bool   // Eval is returning: goErr can no longer be reported
}

func (c *cellRun) setLine(line int) {
	c.mu.Lock()
	c.line = line
	c.mu.Unlock()
}

func (c *cellRun) currentLine() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.line
}

// where is the header of a message about a line of the cell.
func (c *cellRun) where(line int) string {
	if line <= 0 {
		return c.label + ": "
	}
	return fmt.Sprintf("%s, line %d: ", c.label, line)
}

// sourceLine is a line of the cell, trimmed.
func (c *cellRun) sourceLine(line int) string {
	if line <= 0 || line > len(c.lines) {
		return ""
	}
	return strings.TrimSpace(c.lines[line-1])
}

// fail records a goroutine panic and stops the cell; false when the cell
// has finished and can no longer report it.
func (c *cellRun) fail(e *Error) bool {
	c.mu.Lock()
	if c.finished {
		c.mu.Unlock()
		return false
	}
	if c.goErr == nil {
		c.goErr = e
	}
	c.mu.Unlock()
	c.cancel()
	return true
}

func (c *cellRun) failure() *Error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.goErr
}

// Eval runs one cell. label names the cell in messages ("Cell [3]"); pub
// receives its streams and displays while it runs. The result is the
// execute_result bundle, nil when the cell does not end with an expression
// that has a value. A failure is returned as *Error.
func (s *Session) Eval(ctx context.Context, label, code string, pub display.Publisher) (map[string]any, error) {
	s.evalMu.Lock()
	defer s.evalMu.Unlock()
	c, err := s.begin(ctx, label, code, pub)
	if err != nil {
		return nil, err
	}
	e := s.evalCell(c, strings.ReplaceAll(code, "\r\n", "\n"))
	if goErr := s.end(c); e == nil && goErr != nil {
		e = goErr
	}
	if e != nil {
		return nil, e
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.result, nil
}

// evalCell runs the segments of a cell in order.
func (s *Session) evalCell(c *cellRun, code string) *Error {
	segs := source.SplitCell(code)
	for i, seg := range segs {
		if c.ctx.Err() != nil {
			if e := c.failure(); e != nil {
				return e
			}
			return s.interrupted(c, seg.Line, "")
		}
		var e *Error
		if seg.Shell {
			e = s.runShell(c, seg)
		} else {
			e = s.evalGo(c, seg, i == len(segs)-1)
		}
		if e != nil {
			return e
		}
	}
	return nil
}

func (s *Session) begin(ctx context.Context, label, code string, pub display.Publisher) (*cellRun, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if label == "" {
		label = "Cell"
	}
	if s.closed {
		return nil, &Error{Name: ErrSession, Value: "the session is closed", Traceback: []string{label + ": the session is closed"}}
	}
	s.seq++
	s.labels[s.seq] = label
	c := &cellRun{seq: s.seq, label: label, lines: strings.Split(code, "\n")}
	c.ctx, c.cancel = context.WithCancel(ctx)
	s.out.Attach(pub)
	s.run = c
	return c, nil
}

// end delivers what the cell wrote, detaches its publisher, and returns the
// panic of a goroutine the cell started, if any. A goroutine panic that
// comes later is written on stderr.
func (s *Session) end(c *cellRun) *Error {
	s.syncStreams()
	c.mu.Lock()
	c.finished = true
	goErr := c.goErr
	c.mu.Unlock()
	s.mu.Lock()
	s.run = nil
	s.mu.Unlock()
	c.cancel()
	s.out.Detach()
	return goErr
}

// syncStreams delivers what was written to stdout and stderr so far.
func (s *Session) syncStreams() {
	s.stdout.Sync(time.Second)
	s.stderr.Sync(time.Second)
}

// running is the cell being run, or nil.
func (s *Session) running() *cellRun {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.run
}

// takeFrameLines is the filter of stderr: it takes the interpreter's panic
// frame lines out of what is published and keeps them until a panic is
// reported.
func (s *Session) takeFrameLines(text string) string {
	text, fs := parseFrames(text)
	if len(fs) == 0 {
		return text
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.frames = append(s.frames, fs...)
	if len(s.frames) > 64 {
		s.frames = s.frames[len(s.frames)-64:]
	}
	return text
}

// takeFrames returns the frames written so far and forgets them.
func (s *Session) takeFrames() []frame {
	s.stderr.Sync(time.Second)
	s.mu.Lock()
	defer s.mu.Unlock()
	fs := s.frames
	s.frames = nil
	return fs
}

// labelOf is the label of cell seq.
func (s *Session) labelOf(seq int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l, ok := s.labels[seq]; ok {
		return l
	}
	return fmt.Sprintf("cell #%d", seq)
}
