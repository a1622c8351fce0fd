package glue

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benchbook/benchbook/stdlib/display"
)

// call is one call a fakePub received.
type call struct {
	kind   string // "stream", "display" or "clear"
	name   string // stream name
	text   string
	bundle display.Bundle
	update bool
	wait   bool
	at     time.Time
}

// fakePub records what a cell publishes.
type fakePub struct {
	mu    sync.Mutex
	calls []call
}

func (f *fakePub) add(c call) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c.at = time.Now()
	f.calls = append(f.calls, c)
}

func (f *fakePub) Stream(name, text string) { f.add(call{kind: "stream", name: name, text: text}) }
func (f *fakePub) Display(b display.Bundle, update bool) {
	f.add(call{kind: "display", bundle: b, update: update})
}
func (f *fakePub) Clear(wait bool) { f.add(call{kind: "clear", wait: wait}) }

func (f *fakePub) snapshot() []call {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]call(nil), f.calls...)
}

// text is everything streamed on name.
func (f *fakePub) text(name string) string {
	var b strings.Builder
	for _, c := range f.snapshot() {
		if c.kind == "stream" && c.name == name {
			b.WriteString(c.text)
		}
	}
	return b.String()
}

func (f *fakePub) kinds(kind string) []call {
	var out []call
	for _, c := range f.snapshot() {
		if c.kind == kind {
			out = append(out, c)
		}
	}
	return out
}

// newSession starts a session closed at the end of the test.
func newSession(t *testing.T, opt Options) *Session {
	t.Helper()
	s, err := New(opt)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

// evalTimeout bounds every Eval of the tests.
const evalTimeout = 20 * time.Second

// run evaluates a cell with a fresh fakePub, bounded in time.
func run(t *testing.T, s *Session, label, code string) (map[string]any, *Error, *fakePub) {
	t.Helper()
	return runCtx(t, context.Background(), s, label, code)
}

func runCtx(t *testing.T, ctx context.Context, s *Session, label, code string) (map[string]any, *Error, *fakePub) {
	t.Helper()
	pub := &fakePub{}
	type out struct {
		res map[string]any
		err error
	}
	ch := make(chan out, 1)
	go func() {
		res, err := s.Eval(ctx, label, code, pub)
		ch <- out{res, err}
	}()
	select {
	case o := <-ch:
		if o.err == nil {
			return o.res, nil, pub
		}
		var e *Error
		if !errors.As(o.err, &e) {
			t.Fatalf("%s: Eval returned %T %v, want *Error", label, o.err, o.err)
		}
		return o.res, e, pub
	case <-time.After(evalTimeout):
		t.Fatalf("%s: Eval did not return within %v", label, evalTimeout)
	}
	return nil, nil, nil
}

// mustRun evaluates a cell that must succeed.
func mustRun(t *testing.T, s *Session, label, code string) (map[string]any, *fakePub) {
	t.Helper()
	res, e, pub := run(t, s, label, code)
	if e != nil {
		t.Fatalf("%s failed: %s\n%s\nstderr: %s", label, e.Value, strings.Join(e.Traceback, "\n"), pub.text("stderr"))
	}
	return res, pub
}

// plain is the text/plain of a result ("" if none).
func plain(res map[string]any) string {
	s, _ := res[display.MIMEText].(string)
	return s
}
