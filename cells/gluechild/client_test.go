package gluechild

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benchbook/benchbook/cells/glue"
	"github.com/benchbook/benchbook/stdlib/display"
)

// TestMain lets this test binary be the child: a plain glue session.
func TestMain(m *testing.M) {
	ServeIfChild(func(Caller) (glue.Options, error) { return glue.Options{}, nil })
	os.Exit(m.Run())
}

// texts is a Publisher that keeps the streamed text.
type texts struct {
	mu sync.Mutex
	b  strings.Builder
}

func (p *texts) Stream(_, text string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.b.WriteString(text)
}
func (p *texts) Display(display.Bundle, bool) {}
func (p *texts) Clear(bool)                   {}

func eval(t *testing.T, c *Client, label, code string) (string, *glue.Error) {
	t.Helper()
	res, err := c.Eval(context.Background(), label, code, &texts{})
	if err != nil {
		ge, ok := err.(*glue.Error)
		if !ok {
			t.Fatalf("%s: %v is not a *glue.Error", label, err)
		}
		return "", ge
	}
	s, _ := res[display.MIMEText].(string)
	return s, nil
}

// The Client serves a session from its child: cells, completion,
// is_complete; after the child dies the declarations are back; a closed
// Client says so.
func TestClientAcrossADeath(t *testing.T) {
	c, err := Start(Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if got, e := eval(t, c, "Cell[1]", "x := 1\nvar y = 2\nx + y"); e != nil || got != "3" {
		t.Fatalf("got %q, %v", got, e)
	}
	if m, _, _ := c.Complete("fm", 2); len(m) == 0 || m[0] != "fmt" {
		t.Errorf("completions %v", m)
	}
	if st, _ := c.IsComplete("func f() {"); st != "incomplete" {
		t.Errorf("is_complete %q", st)
	}
	_, e := eval(t, c, "Cell[2]", "m := map[int]int{}\nfor g := 0; g < 4; g++ {\n\tgo func() {\n\t\tfor i := 0; ; i++ {\n\t\t\tm[i%8] = i\n\t\t}\n\t}()\n}\ntime.Sleep(20 * time.Second)")
	if e == nil || e.Name != ErrFatal || !strings.Contains(e.Value, "concurrent map writes") {
		t.Fatalf("want a FatalError, got %+v", e)
	}
	if tb := strings.Join(e.Traceback, "\n"); !strings.Contains(tb, "Not restored (defined by statements; re-run their cells): x (Cell[1])") {
		t.Errorf("the traceback does not name what was lost:\n%s", tb)
	}
	if got, e := eval(t, c, "Cell[3]", "y * 21"); e != nil || got != "42" {
		t.Fatalf("after the death: %q, %v", got, e)
	}
	c.Close()
	if _, e := eval(t, c, "Cell[4]", "y"); e == nil || e.Name != glue.ErrSession {
		t.Errorf("a closed client ran a cell: %+v", e)
	}
}

// A cell that does not stop within the grace after an interrupt (here one
// blocked on a lock, which the child gives up after 750 ms, past a grace
// of 200 ms) kills its child: the error says so, and the session is back.
func TestInterruptKillsAChildThatDoesNotStop(t *testing.T) {
	c, err := Start(Options{Dir: t.TempDir(), InterruptGrace: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, e := eval(t, c, "Cell[1]", "func half(x int) int { return x / 2 }"); e != nil {
		t.Fatal(e)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	_, err = c.Eval(ctx, "Cell[2]", "var mu sync.Mutex\nmu.Lock()\nmu.Lock()", &texts{})
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("the interrupted cell answered after %s", took)
	}
	e, ok := err.(*glue.Error)
	if !ok || e.Name != glue.ErrInterrupted || !strings.Contains(e.Value, "was killed") {
		t.Fatalf("want an Interrupted error that says the process was killed, got %v", err)
	}
	if got, e := eval(t, c, "Cell[3]", "half(84)"); e != nil || got != "42" {
		t.Fatalf("after the kill: %q, %v", got, e)
	}
}

// What a cell declared before it killed its child is replayed too.
func TestDeclarationsOfTheDyingCellAreKept(t *testing.T) {
	c, err := Start(Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, e := eval(t, c, "Cell[1]", "func helper() int { return 7 }\nvar seven = helper()\n"+
		"time.AfterFunc(time.Millisecond, func() { panic(\"late\") })\ntime.Sleep(20 * time.Second)")
	if e == nil || e.Name != ErrFatal || !strings.Contains(e.Value, "panic: late") {
		t.Fatalf("want a FatalError, got %+v", e)
	}
	if got, e := eval(t, c, "Cell[2]", "helper() + seven"); e != nil || got != "14" {
		t.Fatalf("after the death: %q, %v", got, e)
	}
}

// An interrupt that reaches the child before its eval has started still
// stops it: the child is not killed for it.
func TestEarlyInterrupt(t *testing.T) {
	c, err := Start(Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for i := 0; i < 5; i++ {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := c.Eval(ctx, "Cell[1]", "for {\n}", &texts{})
		e, ok := err.(*glue.Error)
		if !ok || e.Name != glue.ErrInterrupted || strings.Contains(e.Value, "killed") {
			t.Fatalf("want a plain Interrupted error, got %v", err)
		}
	}
}

// A memory limit too small for the child to start is named as the cause,
// with its value and how to raise it; the client itself starts (the first
// child starts in the background) and says so at the first cell. On main
// the kernel failed to start with "the glue process died" and no cause
// (issue 23, item 13).
func TestMemoryLimitTooSmallToStart(t *testing.T) {
	c, err := Start(Options{Dir: t.TempDir(), Limits: Limits{Memory: 40 << 20}})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	defer c.Close()
	_, e := eval(t, c, "Cell[1]", "1+1")
	if e == nil {
		t.Fatal("a cell ran in a child limited to 40 MiB")
	}
	for _, want := range []string{"40 MiB", EnvMemory, "too little for it to start"} {
		if !strings.Contains(e.Value, want) {
			t.Errorf("the error does not say %q: %s", want, e.Value)
		}
	}
}
