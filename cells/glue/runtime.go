package glue

import (
	"fmt"
	"reflect"
	"time"

	"github.com/traefik/yaegi/interp"

	"github.com/benchbook/benchbook/cells/glue/output"
	"github.com/benchbook/benchbook/cells/glue/source"
	"github.com/benchbook/benchbook/stdlib/display"
)

// The compiled side of a session, given to each interpreter as symbol
// tables: the hidden package __glue (Go and Result, used by the rewritten
// source), time.Sleep, and the display package (output.DisplayExports,
// publishing through the session's forwarder). Every function is a closure
// over the session: there is no package-level state.

const (
	rtPath      = "benchbook.local/glue/rt" // imports.Index hides benchbook.local/
	rtName      = source.Runtime
	displayPath = output.DisplayPath
)

// rtExports builds the __glue package. Result's arguments that have methods
// are wrapped by the interpreter into values implementing display.Renderer,
// fmt.Stringer or error (its MapTypes), so that interpreted types with a
// Bundle, String or Error method are shown as such.
func (s *Session) rtExports() interp.Exports {
	result := reflect.ValueOf(s.result)
	return interp.Exports{
		rtPath + "/" + rtName: {
			"Go":      reflect.ValueOf(func(fn any, args ...any) { s.goCall(fn, args, false) }),
			"GoSlice": reflect.ValueOf(func(fn any, args ...any) { s.goCall(fn, args, true) }),
			"GoFunc":  reflect.ValueOf(s.goHelper),
			"Result":  result,
		},
		".": {"MapTypes": reflect.ValueOf(map[reflect.Value][]reflect.Type{
			result: {
				reflect.TypeOf((*display.Renderer)(nil)).Elem(),
				reflect.TypeOf((*fmt.Stringer)(nil)).Elem(),
				reflect.TypeOf((*error)(nil)).Elem(),
			},
		})},
	}
}

// timeExports replaces time.Sleep by one that an interrupt ends: a sleep is
// the commonest call that the interpreter cannot stop, and a cancelled run
// that does not stop costs the interpreter (see cells/glue/machine).
func (s *Session) timeExports() interp.Exports {
	return interp.Exports{"time/time": {"Sleep": reflect.ValueOf(s.sleep)}}
}

// sleep is time.Sleep, ended early by wakeSleepers. A sleep that begins
// once the cell running is cancelled does not wait: a goroutine's panic
// cancels the cell, the interpreter is stopped and the sleepers woken while
// the cell's own goroutine may still be on its way into this call (more
// often on a loaded machine). That sleep would otherwise run its full
// length, outlive the stop grace and cost the session its interpreter (and
// every variable not replayed). The cancel comes before the wake (Execute),
// and both are read under s.mu, so no sleep misses both.
func (s *Session) sleep(d time.Duration) {
	s.mu.Lock()
	wake := s.wake
	stopped := s.run != nil && s.run.ctx.Err() != nil
	s.mu.Unlock()
	if stopped {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-wake:
	}
}

// wakeSleepers ends every sleep in progress: called when the interpreter is
// stopped, which ends every interpreted goroutine anyway.
func (s *Session) wakeSleepers() {
	s.mu.Lock()
	close(s.wake)
	s.wake = make(chan struct{})
	s.mu.Unlock()
}

// result records the value of the cell's final expression.
func (s *Session) result(vs ...any) {
	c := s.running()
	if c == nil {
		return
	}
	bundle := output.ResultBundle(vs, s.opt.Render)
	c.mu.Lock()
	c.result = bundle
	c.mu.Unlock()
}

// goCall is the rewritten form of go fn(args...) (with slice, go
// fn(args[0], ..., args[n-1]...)): it calls fn with args in a goroutine
// under recover. Arguments are converted to the parameter types, since
// untyped constants reach it with their default type.
func (s *Session) goCall(fn any, args []any, slice bool) {
	f := reflect.ValueOf(fn)
	if f.Kind() != reflect.Func {
		panic(fmt.Sprintf("go statement: %T is not a function", fn))
	}
	in := callArgs(f.Type(), args, slice)
	s.goHelper(func() {
		if slice {
			f.CallSlice(in)
		} else {
			f.Call(in)
		}
	})
}

// callArgs converts args for a call of a function of type t.
func callArgs(t reflect.Type, args []any, slice bool) []reflect.Value {
	in := make([]reflect.Value, len(args))
	for i, a := range args {
		pt := paramType(t, i, slice)
		v := reflect.ValueOf(a)
		switch {
		case pt == nil:
			panic(fmt.Sprintf("go statement: too many arguments in call of %s", t))
		case !v.IsValid():
			v = reflect.Zero(pt)
		case v.Type().AssignableTo(pt):
		case v.Type().ConvertibleTo(pt):
			v = v.Convert(pt)
		default:
			panic(fmt.Sprintf("go statement: cannot use %s as %s in argument %d", v.Type(), pt, i+1))
		}
		in[i] = v
	}
	return in
}

// paramType is the type of argument i of a call of t, nil if there is none.
func paramType(t reflect.Type, i int, slice bool) reflect.Type {
	n := t.NumIn()
	switch {
	case t.IsVariadic() && !slice && i >= n-1:
		return t.In(n - 1).Elem()
	case i < n:
		return t.In(i)
	}
	return nil
}

// goHelper runs fn in a goroutine under recover. A panic is reported to the
// cell that was running when the goroutine started, if it still runs;
// otherwise on stderr.
func (s *Session) goHelper(fn func()) {
	c := s.running()
	line := 0
	if c != nil {
		line = c.currentLine()
	}
	go func() {
		defer func() {
			if r := recover(); r != nil {
				s.goroutinePanic(c, line, r)
			}
		}()
		fn()
	}()
}

// goroutinePanic reports a panic recovered in a goroutine that a cell
// started at line.
func (s *Session) goroutinePanic(c *cellRun, line int, value any) {
	frames := s.takeFrames()
	if c != nil && c.fail(s.panicError(c, value, line, frames, "in a goroutine: ")) {
		return
	}
	label := "an earlier cell"
	if c != nil {
		label = c.label
	}
	msg := fmt.Sprint(value)
	if err, ok := value.(error); ok {
		msg = err.Error()
	}
	msg, _ = s.mapPositions(msg, 0)
	s.out.Stream("stderr", fmt.Sprintf("panic in a goroutine started by %s, after it finished: %s\n", label, msg))
}

// forwarder is the Publisher given to the display package and returned by
// Session.Current: before each call it delivers what the cell has written
// to stdout and stderr so far, so that outputs keep their order.
type forwarder struct {
	s *Session
}

// Stream implements display.Publisher.
func (f forwarder) Stream(name, text string) {
	f.s.syncStreams()
	f.s.out.Stream(name, text)
}

// Display implements display.Publisher.
func (f forwarder) Display(b display.Bundle, update bool) {
	f.s.syncStreams()
	f.s.out.Display(b, update)
}

// Clear implements display.Publisher.
func (f forwarder) Clear(wait bool) {
	f.s.syncStreams()
	f.s.out.Clear(wait)
}
