package glue

import (
	"context"
	"strings"
	"testing"
	"time"
)

// Requirement 6: cancelling the context stops a running cell within 2 s,
// and the next cell runs normally with the session's state.

// interruptAfter runs code, cancels it after delay and returns the error and
// how long Eval took after the cancel.
func interruptAfter(t *testing.T, s *Session, label, code string, delay time.Duration) (*Error, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var cancelled time.Time
	timer := time.AfterFunc(delay, func() { cancelled = time.Now(); cancel() })
	defer timer.Stop()
	_, e, _ := runCtx(t, ctx, s, label, code)
	if cancelled.IsZero() {
		t.Fatalf("%s returned before it was cancelled (err %v)", label, e)
	}
	return e, time.Since(cancelled)
}

func TestInterruptStopsLoopsAndTheNextCellRuns(t *testing.T) {
	tests := []struct{ name, code string }{
		{"top-level for", "for {\n}"},
		{"loop in a func literal", "func() {\n\tfor {\n\t}\n}()"},
		{"blocked receive", "c := make(chan int)\n<-c"},
		{"blocked receive in a func literal", "c := make(chan int)\nfunc() { <-c }()"},
		{"counting loop", "n := 0\nfor {\n\tn++\n}"},
		{"loop in a named func", "func spin() {\n\tfor {\n\t}\n}\nspin()"},
		{"sleep", "time.Sleep(time.Hour)"},
		{"goroutine that loops, cell that waits", "done := make(chan bool)\ngo func() {\n\tfor {\n\t}\n}()\n<-done"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSession(t, Options{})
			mustRun(t, s, "Cell [1]", "kept := 41\nfunc plusOne(x int) int { return x + 1 }")
			e, took := interruptAfter(t, s, "Cell [2]", tc.code, 300*time.Millisecond)
			if e == nil || e.Name != ErrInterrupted {
				t.Fatalf("got %v, want an interrupt", e)
			}
			if took > 2*time.Second {
				t.Errorf("Eval returned %v after the cancel, want under 2 s", took)
			}
			if tb := strings.Join(e.Traceback, "\n"); strings.Contains(tb, "replaced") {
				t.Errorf("the interpreter was replaced for a cell that can be stopped:\n%s", tb)
			}
			start := time.Now()
			res, _ := mustRun(t, s, "Cell [3]", "plusOne(kept)")
			if plain(res) != "42" {
				t.Errorf("next cell = %v, want 42", res)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("next cell took %v", d)
			}
		})
	}
}

// A cancelled cell blocked in a compiled call (here a lock released by a
// compiled timer 300 ms later) goes on when the call returns unless the
// interpreter's stop reaches it: the session waits for it to stop, within
// the grace period, before running anything else, and keeps the interpreter.
func TestCancelledCellDoesNotResume(t *testing.T) {
	s := newSession(t, Options{})
	mustRun(t, s, "Cell [1]", "var mu sync.Mutex")
	code := "for i := 0; i < 3; i++ {\n\tmu.Lock()\n\tfmt.Println(\"tick\", i)\n\ttime.AfterFunc(300*time.Millisecond, mu.Unlock)\n}"
	ctx, cancel := context.WithCancel(context.Background())
	timer := time.AfterFunc(100*time.Millisecond, cancel)
	defer timer.Stop()
	_, e, pub := runCtx(t, ctx, s, "Cell [2]", code)
	if e == nil || e.Name != ErrInterrupted {
		t.Fatalf("got %v, want an interrupt", e)
	}
	if tb := strings.Join(e.Traceback, "\n"); strings.Contains(tb, "replaced") {
		t.Errorf("the interpreter was replaced although the call returned within the grace period:\n%s", tb)
	}
	_, pub3 := mustRun(t, s, "Cell [3]", "x := 1")
	time.Sleep(700 * time.Millisecond)
	_, pub4 := mustRun(t, s, "Cell [4]", "x")
	if out := pub.text("stdout"); out != "tick 0\n" {
		t.Errorf("the cancelled cell printed %q, want only tick 0", out)
	}
	for _, p := range []*fakePub{pub3, pub4} {
		if out := p.text("stdout"); strings.Contains(out, "tick") {
			t.Errorf("the cancelled cell went on after the interrupt: %q", out)
		}
	}
}

// A cell stuck in a compiled call that cannot be interrupted (a lock held
// forever) costs the interpreter: the session starts a new one and restores
// the imports and declarations, and says what it could not restore.
func TestStuckCellReplacesTheInterpreter(t *testing.T) {
	s := newSession(t, Options{})
	mustRun(t, s, "Cell [1]", "import \"strings\"\nfunc shout(s string) string { return strings.ToUpper(s) }\nvar declared = 7\nbyStatement := 3\nvar mu sync.Mutex")
	e, took := interruptAfter(t, s, "Cell [2]", "mu.Lock()\nmu.Lock()", 200*time.Millisecond)
	if e == nil || e.Name != ErrInterrupted {
		t.Fatalf("got %v, want an interrupt", e)
	}
	if took > 2*time.Second {
		t.Errorf("Eval returned %v after the cancel, want under 2 s", took)
	}
	note := strings.Join(e.Traceback, "\n")
	for _, want := range []string{"replaced", "shout", "declared", "byStatement (Cell [1])"} {
		if !strings.Contains(note, want) {
			t.Errorf("the message does not mention %q:\n%s", want, note)
		}
	}
	res, _ := mustRun(t, s, "Cell [3]", "shout(\"ok\") + strconv.Itoa(declared)")
	if plain(res) != `"OK7"` {
		t.Errorf("restored state: %v, want \"OK7\"", res)
	}
	_, e, _ = run(t, s, "Cell [4]", "byStatement")
	if e == nil || !strings.Contains(e.Value, "undefined: byStatement") {
		t.Errorf("a variable defined by a statement should be gone after the replacement, got %v", e)
	}
}
