// Package cells is what a benchbook cell means: its magic line picks native
// C or Go benchmark kernels (built by internal/harness), the measurement
// protocol (%bench, internal/protocol), or plain Go glue interpreted by yaegi
// (cells/glue). A Session executes cells one after another and publishes
// their outputs through a display.Publisher; it knows nothing of sockets.
//
// The glue interpreter runs in a child process (cells/gluechild, the
// hidden command benchbook glue-child), so that a fatal error of the Go
// runtime in a glue cell (stack overflow, concurrent map writes, out of
// memory, a panic in a time.AfterFunc callback) fails that cell instead of
// the kernel; a new child gets the session's imports and declarations
// back. Kernels and results stay in this process: the child's bench.Run,
// bench.Get and bench.Kernels call back here.
package cells

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/benchbook/benchbook/cells/glue"
	"github.com/benchbook/benchbook/cells/gluechild"
	"github.com/benchbook/benchbook/internal/execerr"
	"github.com/benchbook/benchbook/internal/harness"
	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/stdlib/display"
)

// Options configure a Session.
type Options struct {
	// Dir is the working directory of the cells: the notebook's folder.
	Dir string
	// CacheDir holds built kernels; "" means harness.DefaultCacheDir().
	CacheDir string
	// ResultsDir is where %bench writes raw records and results before it
	// shows anything; "" means Dir/results.
	ResultsDir string
	// Quick makes every %bench and bench.Run a quick run (reps=runs=10,
	// settle=20ms) unless the cell sets those keys: a smoke test, as
	// BENCHBOOK_QUICK=1 asks. The result records it.
	Quick bool
}

// Session is one notebook's state: its glue interpreter, the kernels its
// cells built and the results of its %bench runs.
type Session struct {
	opt  Options
	glue *gluechild.Client // the glue interpreter, in a child process

	mu      sync.Mutex
	kernels map[string]*harness.Kernel
	results map[string]*protocol.Result
	// benched is the build each kernel name was last measured with: the
	// baseline of its next %bench when the build changed.
	benched map[string]*harness.Kernel
	// specs are what each kernel was built from, to build its layouts.
	specs map[string]harness.Spec
	// sites are the results that bench.Run and bench.Get returned in var
	// initializers, by call site, for their replay.
	sites map[string]*protocol.Result
}

// New starts a session.
func New(opt Options) (*Session, error) {
	if opt.Dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		opt.Dir = wd
	}
	if opt.ResultsDir == "" {
		opt.ResultsDir = filepath.Join(opt.Dir, "results")
	}
	s := &Session{opt: opt, kernels: map[string]*harness.Kernel{}, results: map[string]*protocol.Result{},
		benched: map[string]*harness.Kernel{}, specs: map[string]harness.Spec{}, sites: map[string]*protocol.Result{}}
	g, err := gluechild.Start(gluechild.Options{Dir: opt.Dir, Handle: s.handleGlue})
	if err != nil {
		return nil, fmt.Errorf("glue interpreter: %w", err)
	}
	s.glue = g
	return s, nil
}

// Close ends the interpreter's process.
func (s *Session) Close() {
	if s.glue != nil {
		s.glue.Close()
	}
}

// Error is a cell that failed: what failed, why, and where; the type the
// kernel sends as well (kernel.ExecError).
type Error = execerr.Error

func cellError(name, label string, line int, msg string) *Error {
	where := label
	if line > 0 {
		where = fmt.Sprintf("%s, line %d", label, line)
	}
	tb := []string{fmt.Sprintf("%s: %s", name, where)}
	tb = append(tb, strings.Split(strings.TrimRight(msg, "\n"), "\n")...)
	return &Error{Name: name, Value: fmt.Sprintf("%s (%s)", firstLine(msg), where), Traceback: tb}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}

// Execute runs one cell. label names it in messages ("Cell[3]"); outputs go
// to pub while it runs; the returned bundle is its execute_result, if any.
// A failure is an *Error; the session lives on either way.
func (s *Session) Execute(ctx context.Context, label, code string, pub display.Publisher) (map[string]any, error) {
	m, err := ParseMagic(code)
	if err != nil {
		me := err.(*MagicError)
		return nil, cellError("MagicError", label, me.Line, me.Msg)
	}
	switch m.Kind {
	case NativeC, NativeGo, NativeGoTest:
		return nil, s.native(ctx, label, m, pub)
	case Bench:
		return nil, s.bench(ctx, label, m, pub)
	case Help:
		return nil, s.help(label, m, pub)
	}
	res, err := s.glue.Eval(ctx, label, code, pub)
	if err != nil {
		if ge, ok := err.(*glue.Error); ok {
			return nil, &Error{Name: ge.Name, Value: ge.Value, Traceback: ge.Traceback}
		}
		return nil, &Error{Name: "Error", Value: err.Error(), Traceback: []string{err.Error()}}
	}
	return res, nil
}

// Complete completes code at cursor: magics, kernel names and %bench keys on
// a magic line, Go everywhere else.
func (s *Session) Complete(code string, cursor int) (matches []string, start, end int) {
	if m, st, en, ok := s.completeMagic(code, cursor); ok {
		return m, st, en
	}
	return s.glue.Complete(code, cursor)
}

// Inspect shows the signature and doc of the symbol at cursor.
func (s *Session) Inspect(code string, cursor int) (map[string]any, bool) {
	return s.glue.Inspect(code, cursor)
}

// IsComplete says whether code is ready to run: a native cell is complete
// when its braces balance, a glue cell when it parses.
func (s *Session) IsComplete(code string) (status, indent string) {
	if first, body, _ := strings.Cut(code, "\n"); isNativeMagic(first) {
		return nativeComplete(body)
	}
	m, err := ParseMagic(code)
	if err != nil {
		return "invalid", ""
	}
	switch m.Kind {
	case Bench, Help:
		return "complete", ""
	}
	return s.glue.IsComplete(code)
}

// isNativeMagic says whether a first line opens a native kernel cell.
func isNativeMagic(first string) bool {
	w := strings.Fields(first)
	return len(w) > 0 && (w[0] == "%%c" || w[0] == "%%go" || w[0] == "%%gotest")
}

// nativeComplete is is_complete for the body of a native cell, as a
// console types it line by line: incomplete while it is empty or a brace
// is open, and, as with IPython's cell magics, until an empty line ends it
// (a kernel has several BENCH blocks, each balanced on its own).
func nativeComplete(body string) (status, indent string) {
	depth := braceDepth(body)
	switch {
	case depth < 0:
		return "invalid", ""
	case strings.TrimSpace(body) == "":
		return "incomplete", ""
	case depth > 0:
		return "incomplete", strings.Repeat("    ", depth)
	}
	lines := strings.Split(body, "\n")
	if strings.TrimSpace(lines[len(lines)-1]) != "" {
		return "incomplete", ""
	}
	return "complete", ""
}

// braceDepth counts open braces, ignoring those in strings and comments.
func braceDepth(src string) int {
	depth := 0
	inStr, inChar, inLine, inBlock := false, false, false, false
	for i := 0; i < len(src); i++ {
		c := src[i]
		next := byte(0)
		if i+1 < len(src) {
			next = src[i+1]
		}
		switch {
		case inLine:
			inLine = c != '\n'
		case inBlock:
			if c == '*' && next == '/' {
				inBlock, i = false, i+1
			}
		case inStr || inChar:
			if c == '\\' {
				i++
			} else if (inStr && c == '"') || (inChar && c == '\'') {
				inStr, inChar = false, false
			}
		case c == '/' && next == '/':
			inLine = true
		case c == '/' && next == '*':
			inBlock = true
		case c == '"':
			inStr = true
		case c == '\'':
			inChar = true
		case c == '{':
			depth++
		case c == '}':
			depth--
		}
	}
	return depth
}

// kernel returns the kernel a cell built under name.
func (s *Session) kernel(name string) (*harness.Kernel, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if k, ok := s.kernels[name]; ok {
		return k, nil
	}
	if len(s.kernels) == 0 {
		return nil, fmt.Errorf("no kernel named %s: no %%%%c, %%%%go or %%%%gotest cell has been run in this session yet", name)
	}
	var names []string
	for n := range s.kernels {
		names = append(names, n)
	}
	return nil, fmt.Errorf("no kernel named %s; the kernels defined are %s", name, strings.Join(sortStrings(names), ", "))
}
