package gluechild

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/benchbook/benchbook/cells/glue"
)

// kill ends the child between cells, as a crash of a goroutine would.
func kill(t *testing.T, c *Client) {
	t.Helper()
	p := c.live(helloLimit)
	if p == nil {
		t.Fatal("no child to kill")
	}
	p.kill()
	<-p.exited
}

// evalOut runs a cell and returns its result and what it streamed.
func evalOut(t *testing.T, c *Client, label, code string) (string, string, *glue.Error) {
	t.Helper()
	out := &texts{}
	res, err := c.Eval(context.Background(), label, code, out)
	if err != nil {
		ge, ok := err.(*glue.Error)
		if !ok {
			t.Fatalf("%s: %v is not a *glue.Error", label, err)
		}
		return "", out.b.String(), ge
	}
	s, _ := res["text/plain"].(string)
	return s, out.b.String(), nil
}

func newClient(t *testing.T) *Client {
	t.Helper()
	c, err := Start(Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

func mustEval(t *testing.T, c *Client, label, code string) string {
	t.Helper()
	got, _, e := evalOut(t, c, label, code)
	if e != nil {
		t.Fatalf("%s: %v\n%s", label, e, strings.Join(e.Traceback, "\n"))
	}
	return got
}

// A replay restores the declarations in the order written: a var
// initialized from g, which calls a func redefined before the var, gets the
// value it had (2). On main the replay ran every entry, then relinked the
// funcs only at the end, so the var got 1 (issue 23, item 8).
func TestReplayInTheOrderWritten(t *testing.T) {
	c := newClient(t)
	mustEval(t, c, "Cell[1]", "func f() int { return 1 }\nfunc g() int { return f() }")
	mustEval(t, c, "Cell[2]", "func f() int { return 2 }")
	mustEval(t, c, "Cell[3]", "var v = g()")
	if got := mustEval(t, c, "Cell[4]", "v"); got != "2" {
		t.Fatalf("before the replay v = %s", got)
	}
	kill(t, c)
	got, out, e := evalOut(t, c, "Cell[5]", "v*10 + g()")
	if e != nil || got != "22" {
		t.Fatalf("after the replay: %q %v\n%s", got, e, out)
	}
}

// func init runs once, with its cell, not again in a replay, and the note
// says so; an initializer that calls code runs again, and the note names
// it. Both append to a file, so a second run shows. On main init ran twice
// in the replay itself (once with its entry, once with every func) and no
// note named what ran again (issue 23, item 8).
func TestReplayRunsNoInitTwiceAndNamesWhatRanAgain(t *testing.T) {
	c := newClient(t)
	log := filepath.Join(t.TempDir(), "log")
	mustEval(t, c, "Cell[1]", fmt.Sprintf(`func mark(s string) int {
	f, err := os.OpenFile(%q, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	f.WriteString(s)
	return len(s)
}`, log))
	mustEval(t, c, "Cell[2]", `func init() { mark("i") }`)
	mustEval(t, c, "Cell[3]", `var v = mark("v")`+"\nvar w = 3")
	kill(t, c)
	got, out, e := evalOut(t, c, "Cell[4]", "v + w")
	if e != nil || got != "4" {
		t.Fatalf("after the replay: %q %v\n%s", got, e, out)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "i"); n != 1 {
		t.Errorf("func init ran %d times (log %q)", n, b)
	}
	if n := strings.Count(string(b), "v"); n != 2 {
		t.Errorf("v's initializer ran %d times, want 2 (log %q)", n, b)
	}
	for _, want := range []string{"Not run again: func init of Cell[2]", "ran again", "v (Cell[3])"} {
		if !strings.Contains(out, want) {
			t.Errorf("the note does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "w (Cell[3])") {
		t.Errorf("w's initializer calls no code but is said to run again:\n%s", out)
	}
}

// An initializer that kills the process while its cell runs loses neither
// the func declared before it in that cell nor the earlier declarations:
// the replay that it kills again is started anew without it, and the note
// says it was not restored and why. On main the func was lost with the
// cell, and a declaration that killed a replay wiped the session (issue 23,
// item 8).
func TestReplaySurvivesAnInitializerThatKillsIt(t *testing.T) {
	c := newClient(t)
	mustEval(t, c, "Cell[1]", "var base = 40")
	_, _, e := evalOut(t, c, "Cell[2]", "func keep() int { return 2 }\n"+
		`var boom = func() int { time.AfterFunc(time.Millisecond, func() { panic("boom") }); time.Sleep(5 * time.Second); return 1 }()`)
	if e == nil || e.Name != ErrFatal || !strings.Contains(e.Value, "panic: boom") {
		t.Fatalf("want a FatalError naming the panic, got %+v", e)
	}
	tb := strings.Join(e.Traceback, "\n")
	if !strings.Contains(tb, "boom (Cell[2])") || !strings.Contains(tb, "Not restored") {
		t.Errorf("the traceback does not say that boom was not restored:\n%s", tb)
	}
	got, out, e := evalOut(t, c, "Cell[3]", "keep() + base")
	if e != nil || got != "42" {
		t.Fatalf("after the crash: %q %v\n%s\n%s", got, e, out, tb)
	}
	if _, _, e := evalOut(t, c, "Cell[4]", "boom"); e == nil {
		t.Error("boom is defined after it was left out")
	}
}

// A declaration whose initializer kills only the replay (it reads a file
// that appeared after its cell ran) is left out of the next replay; the
// others are restored.
func TestReplayCrashingOnlyInTheReplay(t *testing.T) {
	c := newClient(t)
	flag := filepath.Join(t.TempDir(), "flag")
	mustEval(t, c, "Cell[1]", "func twice(x int) int { return 2 * x }")
	mustEval(t, c, "Cell[2]", fmt.Sprintf(`var trap = func() int {
	if _, err := os.Stat(%q); err == nil {
		m := map[int]int{}
		for g := 0; g < 4; g++ {
			go func() { for i := 0; ; i++ { m[i%%8] = i } }()
		}
		time.Sleep(5 * time.Second)
	}
	return 1
}()`, flag))
	mustEval(t, c, "Cell[3]", "var base = 20")
	if err := os.WriteFile(flag, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	kill(t, c)
	got, out, e := evalOut(t, c, "Cell[4]", "twice(base + 1)")
	if e != nil || got != "42" {
		t.Fatalf("after the replay: %q %v\n%s", got, e, out)
	}
	if !strings.Contains(out, "trap (Cell[2])") || !strings.Contains(out, "concurrent map writes") {
		t.Errorf("the note does not say that trap was left out, and why:\n%s", out)
	}
}

// An interrupt stops a replay: the cell answers long before the 20 s that
// the initializer sleeps, with an Interrupted error, and the note says what
// was not restored. On main the interrupt waited for the replay (about 13 s
// in the round's report; the replay's limit of 10 s here).
func TestInterruptStopsAReplay(t *testing.T) {
	c := newClient(t)
	flag := filepath.Join(t.TempDir(), "flag")
	mustEval(t, c, "Cell[1]", "var early = 1")
	mustEval(t, c, "Cell[2]", fmt.Sprintf("var slow = func() int { if _, err := os.Stat(%q); err == nil { time.Sleep(20 * time.Second) }; return 1 }()", flag))
	if err := os.WriteFile(flag, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	kill(t, c)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	out := &texts{}
	_, err := c.Eval(ctx, "Cell[3]", "early", out)
	took := time.Since(start)
	e, ok := err.(*glue.Error)
	if !ok || e.Name != glue.ErrInterrupted {
		t.Fatalf("want an Interrupted error, got %v", err)
	}
	if took > 5*time.Second {
		t.Errorf("the interrupted replay answered after %s", took)
	}
	if s := out.b.String(); !strings.Contains(s, "interrupted") || !strings.Contains(s, "slow (Cell[2])") {
		t.Errorf("the note does not say the replay was interrupted before slow:\n%s", s)
	}
	if got := mustEval(t, c, "Cell[4]", "early"); got != "1" {
		t.Errorf("early = %s after the interrupted replay", got)
	}
}

// A var initializer that starts a timer whose callback kills the process
// later makes every replayed process die the same way: after the second
// such death the replay leaves out initializers that call code, says so,
// and the process then lives. On main every later cell restarted a process
// that died again (issue 23, item 8).
func TestRepeatedCrashAfterReplayGivesUp(t *testing.T) {
	c := newClient(t)
	mustEval(t, c, "Cell[1]", "var keep = 7")
	mustEval(t, c, "Cell[2]", `var timer = time.AfterFunc(200*time.Millisecond, func() { panic("later") })`)
	var notes []string
	for i := 3; i <= 6; i++ {
		time.Sleep(time.Second)
		got, out, e := evalOut(t, c, "Cell["+strconv.Itoa(i)+"]", "keep")
		if e != nil || got != "7" {
			t.Fatalf("Cell[%d]: %q %v\n%s", i, got, e, out)
		}
		notes = append(notes, out)
	}
	if !strings.Contains(notes[0], "panic: later") || !strings.Contains(notes[0], "timer (Cell[2])") {
		t.Errorf("the first restart does not name the cause and what ran again:\n%s", notes[0])
	}
	if !strings.Contains(notes[1], "no longer run initializers that call code") || !strings.Contains(notes[1], "timer (Cell[2])") {
		t.Errorf("the second restart does not say the replay gave up on the initializers:\n%s", notes[1])
	}
	for i, n := range notes[2:] {
		if strings.Contains(n, "started again") {
			t.Errorf("Cell[%d]: the process was started again after the replay gave up:\n%s", i+5, n)
		}
	}
}

// wchar is what process pid has written so far.
func wchar(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/io", pid))
	if err != nil {
		t.Skipf("no /proc/PID/io: %v", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "wchar: "); ok {
			n, _ := strconv.Atoi(v)
			return n
		}
	}
	t.Fatal("no wchar in /proc/PID/io")
	return 0
}

// What the child sends for a cell of 1+1 does not grow with the session:
// after 300 more declarations it is about what it was after 10. On main
// the child sent the whole state after every cell (issue 23, item 12).
func TestStateIsSentIncrementally(t *testing.T) {
	c := newClient(t)
	pid := c.live(helloLimit).cmd.Process.Pid
	perCell := func() int {
		before := wchar(t, pid)
		mustEval(t, c, "Cell[x]", "1+1")
		return wchar(t, pid) - before
	}
	for i := 0; i < 10; i++ {
		mustEval(t, c, fmt.Sprintf("Cell[d%d]", i), fmt.Sprintf("func f%d() int { return %d }", i, i))
	}
	early := perCell()
	for i := 10; i < 310; i++ {
		mustEval(t, c, fmt.Sprintf("Cell[d%d]", i), fmt.Sprintf("func f%d() int { return %d }", i, i))
	}
	late := perCell()
	t.Logf("a cell of 1+1 made the child write %d bytes after 10 declarations, %d after 310", early, late)
	if late > 2*early {
		t.Errorf("a cell of 1+1 costs %d bytes after 310 declarations against %d after 10", late, early)
	}
}
