package glue

import (
	"fmt"
	"go/scanner"
	"regexp"
	"strconv"
	"strings"

	"github.com/benchbook/benchbook/cells/glue/source"
)

// Error names used in Error.Name.
const (
	ErrSyntax      = "SyntaxError"      // the cell does not parse
	ErrCompile     = "CompileError"     // the interpreter rejected the cell
	ErrUnsupported = "UnsupportedError" // valid Go that the interpreter cannot run
	ErrPanic       = "Panic"            // a panic in the cell or in a goroutine it started
	ErrInterrupted = "Interrupted"      // the context was cancelled
	ErrSession     = "SessionError"     // the session itself failed (closed, broken)
)

// Error is a failed cell: Name is one of the Err* names, Value the message,
// Traceback the lines to show (cell, line, source, and the functions a panic
// went through), and Line the 1-based line of the cell where it happened, 0
// when unknown.
type Error struct {
	Name      string
	Value     string
	Traceback []string
	Line      int
}

// Error implements error.
func (e *Error) Error() string {
	if len(e.Traceback) > 0 {
		return e.Traceback[0]
	}
	return e.Name + ": " + e.Value
}

// errorAt builds an Error located at a line of the cell, with the source line
// shown under the header.
func errorAt(c *cellRun, name string, line int, msg string) *Error {
	e := &Error{Name: name, Value: msg, Line: line}
	e.Traceback = []string{c.where(line) + name + ": " + msg}
	if src := c.sourceLine(line); src != "" {
		e.Traceback = append(e.Traceback, "    "+src)
	}
	return e
}

// posRe matches the positions the interpreter and go/parser report for
// sources carrying our line directives: [_.go:]LINE:COL with an encoded
// line (see source.PosBase).
var posRe = regexp.MustCompile(`(?:_\.go:)?\b(\d{6,9}):(\d+)\b`)

// mapPositions rewrites every encoded position in msg into "LABEL line
// LINE", and returns the first line that belongs to the cell seq (0 if none).
func (s *Session) mapPositions(msg string, seq int) (string, int) {
	first := 0
	out := posRe.ReplaceAllStringFunc(msg, func(m string) string {
		sub := posRe.FindStringSubmatch(m)
		encoded, _ := strconv.Atoi(sub[1])
		n, line := source.CellLine(encoded)
		if n == 0 {
			return m
		}
		if n == seq && first == 0 {
			first = line
		}
		return s.labelOf(n) + " line " + strconv.Itoa(line)
	})
	return out, first
}

// stripLeadingPosition removes a leading "LABEL line N: " (after mapping)
// from a message, since the traceback header already says where.
func stripLeadingPosition(msg, label string, line int) string {
	prefix := fmt.Sprintf("%s line %d: ", label, line)
	return strings.TrimPrefix(msg, prefix)
}

// syntaxError converts a go/parser error list into an Error.
func (s *Session) syntaxError(c *cellRun, err error) *Error {
	if list, ok := err.(scanner.ErrorList); ok && len(list) > 0 {
		first := list[0]
		line := 0
		if seq, l := source.CellLine(first.Pos.Line); seq == c.seq {
			line = l
		}
		return errorAt(c, ErrSyntax, line, first.Msg)
	}
	msg, line := s.mapPositions(err.Error(), c.seq)
	return errorAt(c, ErrSyntax, line, stripLeadingPosition(msg, c.label, line))
}

// compileError converts an interpreter compile error into an Error located
// in the cell; fallback is the line of the item being compiled.
func (s *Session) compileError(c *cellRun, err error, fallback int) *Error {
	msg, line := s.mapPositions(err.Error(), c.seq)
	if line == 0 {
		line = fallback
	}
	msg = strings.TrimPrefix(stripLeadingPosition(msg, c.label, line), "CFG post-order panic: ")
	return errorAt(c, ErrCompile, line, stripLeadingPosition(msg, c.label, line))
}

// frame is one line the interpreter writes to stderr for each interpreted
// function a panic unwinds: "LINE:COL: panic: main.f(...)", with an encoded
// line (see source.PosBase).
type frame struct {
	seq  int
	line int
	fn   string
}

var frameRe = regexp.MustCompile(`\b(\d{6,9}):(\d+): panic: ([^\n]*)\(\.\.\.\)\n`)

// parseFrames extracts the panic frames from text and returns the text
// without them.
func parseFrames(text string) (string, []frame) {
	var frames []frame
	rest := frameRe.ReplaceAllStringFunc(text, func(m string) string {
		sub := frameRe.FindStringSubmatch(m)
		encoded, _ := strconv.Atoi(sub[1])
		seq, line := source.CellLine(encoded)
		frames = append(frames, frame{seq: seq, line: line, fn: sub[3]})
		return ""
	})
	return rest, frames
}

// plainPanic says in Go's words what yaegi reports in reflect's: an index
// past the end of a slice is what compiled Go calls "index out of range".
func plainPanic(msg string) string {
	switch {
	case strings.Contains(msg, "reflect: slice index out of range"):
		return "runtime error: index out of range: the index is at or past the slice's length (len(s) says how many samples it holds)"
	case strings.Contains(msg, "reflect: array index out of range"):
		return "runtime error: index out of range: the index is at or past the array's length"
	}
	return msg
}

// panicError builds the Error of a panic raised while running the statement
// at line of the cell, with the interpreted functions it went through.
func (s *Session) panicError(c *cellRun, value any, line int, frames []frame, where string) *Error {
	msg := fmt.Sprint(value)
	if err, ok := value.(error); ok {
		msg = err.Error()
	}
	msg, _ = s.mapPositions(msg, c.seq)
	msg = plainPanic(msg)
	e := errorAt(c, ErrPanic, line, where+msg)
	last := ""
	for _, f := range frames {
		if t := s.frameText(c, f); t != "" && t != last {
			e.Traceback = append(e.Traceback, t)
			last = t
		}
	}
	return e
}

// frameText is the traceback line of a frame: the interpreted functions a
// panic went through, innermost first. The cell's top level and the
// function literals of the cell itself (and stmtFunc, the cell's statements) are left out (the header says
// where); the interpreter writes two frames per literal, hence the caller's
// de-duplication.
func (s *Session) frameText(c *cellRun, f frame) string {
	if f.fn == "main" || f.seq == 0 {
		return ""
	}
	name := strings.TrimPrefix(f.fn, "main.")
	if name == stmtFunc { // a statement of the cell (see units.go)
		return ""
	}
	if strings.HasPrefix(name, "func") || strings.HasPrefix(f.fn, "main.func") {
		if f.seq == c.seq {
			return ""
		}
		name = "a func literal"
	} else if i := strings.Index(name, ".func"); i >= 0 {
		name = "a func literal in " + name[:i]
	}
	return fmt.Sprintf("  in %s (declared in %s)", name, s.labelOf(f.seq))
}
