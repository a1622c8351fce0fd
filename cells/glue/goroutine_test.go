package glue

import (
	"context"
	"strings"
	"testing"
	"time"
)

// Requirement 5: a panic in a goroutine a cell started is an error of that
// cell (or a message on stderr once the cell has finished), never a dead
// process.

func TestPanicInAGoroutineFailsTheCell(t *testing.T) {
	s := newSession(t, Options{})
	mustRun(t, s, "Cell [1]", "kept := 3")
	start := time.Now()
	_, e, _ := run(t, s, "Cell [2]", "go func() {\n\tpanic(\"in goroutine\")\n}()\ntime.Sleep(5 * time.Second)")
	if e == nil || e.Name != ErrPanic || !strings.Contains(e.Value, "in goroutine") {
		t.Fatalf("got %v, want the goroutine's panic", e)
	}
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("the cell ran %v: the panic should stop it", d)
	}
	if tb := strings.Join(e.Traceback, "\n"); strings.Contains(tb, "replaced") {
		t.Errorf("the panic cost the session its interpreter (the sleep did not end in the stop grace):\n%s", tb)
	}
	res, _ := mustRun(t, s, "Cell [3]", "kept + 1")
	if plain(res) != "4" {
		t.Errorf("state after the goroutine panic: %v", res)
	}
}

// The race behind a lost session under load: the goroutine's panic cancels
// the cell and the sleepers are woken before the cell's own goroutine has
// reached time.Sleep. That sleep must not wait its full length, or the run
// outlives the stop grace and the session replaces its interpreter, losing
// every variable (TestPanicInAGoroutineFailsTheCell failed so under two busy
// loops, 2026-12-04). Here the order is forced: cancel, wake, then sleep.
func TestASleepBegunAfterTheCancelDoesNotWait(t *testing.T) {
	s := newSession(t, Options{})
	c, err := s.begin(context.Background(), "Cell [1]", "time.Sleep(time.Hour)", nil)
	if err != nil {
		t.Fatal(err)
	}
	c.cancel()
	s.wakeSleepers()
	done := make(chan struct{})
	go func() {
		s.sleep(time.Hour)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("a sleep begun after its cell was cancelled and the sleepers woken is still sleeping a minute later")
	}
	// A sleep of a goroutine left running after its cell ended is not ended
	// by that cell's end.
	s.end(c)
	begun := make(chan struct{})
	slept := make(chan struct{})
	go func() {
		close(begun)
		s.sleep(time.Hour)
		close(slept)
	}()
	<-begun
	select {
	case <-slept:
		t.Fatal("with no cell running and no wake, a sleep of an hour returned")
	case <-time.After(50 * time.Millisecond):
	}
	s.wakeSleepers()
	<-slept
}

func TestPanicInANamedFuncStartedWithGo(t *testing.T) {
	s := newSession(t, Options{})
	mustRun(t, s, "Cell [1]", "func worker(done chan bool) {\n\tvar m map[string]int\n\tm[\"x\"] = 1\n\tdone <- true\n}")
	_, e, _ := run(t, s, "Cell [2]", "done := make(chan bool)\ngo worker(done)\n<-done")
	if e == nil || !strings.Contains(e.Value, "nil map") {
		t.Fatalf("got %v, want the nil map panic of worker", e)
	}
}

func TestGoroutinePanicAfterTheCellFinished(t *testing.T) {
	s := newSession(t, Options{})
	mustRun(t, s, "Cell [1]", "go func() {\n\ttime.Sleep(100 * time.Millisecond)\n\tpanic(\"late boom\")\n}()")
	time.Sleep(500 * time.Millisecond)
	res, pub := mustRun(t, s, "Cell [2]", "2")
	if plain(res) != "2" {
		t.Errorf("next cell result = %v", res)
	}
	if errText := pub.text("stderr"); !strings.Contains(errText, "late boom") || !strings.Contains(errText, "Cell [1]") {
		t.Errorf("stderr of the next cell = %q, want the late panic attributed to Cell [1]", errText)
	}
}

func TestGoStatementEvaluatesItsArgumentsAtOnce(t *testing.T) {
	s := newSession(t, Options{})
	mustRun(t, s, "Cell [1]", "func half(v float64, out chan float64) { out <- v / 2 }")
	tests := []struct{ name, code, want string }{
		{"argument copied at the go statement", "ch := make(chan int, 1)\nx := 1\ngo func(v int) { ch <- v }(x)\nx = 2\n<-ch", "1"},
		{"untyped constant keeps the parameter type", "out := make(chan float64, 1)\ngo half(3, out)\n<-out", "1.5"},
		{"function value evaluated at the go statement", "f := func() int { return 1 }\nres := make(chan int, 1)\ngo func(g func() int) { res <- g() }(f)\nf = nil\n<-res", "1"},
		{"builtin", "c := make(chan int)\ngo close(c)\nn := 0\nfor range c {\n\tn++\n}\nn", "0"},
		{"variadic with ellipsis", "sum := make(chan int, 1)\nadd := func(xs ...int) { t := 0; for _, x := range xs { t += x }; sum <- t }\nxs := []int{1, 2, 3}\ngo add(xs...)\n<-sum", "6"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := mustRun(t, s, "Cell [2]", tc.code)
			if got := plain(res); got != tc.want {
				t.Errorf("result = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestRangeVariablesArePerIteration(t *testing.T) {
	s := newSession(t, Options{})
	code := "var fs []func() int\nfor _, v := range []int{7, 8} {\n\tfs = append(fs, func() int { return v })\n}\nout := []int{}\nfor _, f := range fs {\n\tout = append(out, f())\n}\nout"
	res, _ := mustRun(t, s, "Cell [1]", code)
	if got := plain(res); got != "[7 8]" {
		t.Errorf("closures over a range variable = %s, want [7 8] (Go 1.22 semantics)", got)
	}
}

// Close stops the goroutines the cells left running.
func TestCloseStopsBackgroundGoroutines(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	var counter func() int64
	mustRun(t, s, "Cell [1]", "var n int64\ngo func() {\n\tfor {\n\t\tatomic.AddInt64(&n, 1)\n\t\ttime.Sleep(time.Millisecond)\n\t}\n}()")
	counter = func() int64 {
		v, ok := s.idleGlobal("n")
		if !ok {
			t.Fatal("no global n")
		}
		return v.Int()
	}
	time.Sleep(50 * time.Millisecond)
	if counter() == 0 {
		t.Fatal("the background goroutine did not run")
	}
	s.Close()
	time.Sleep(50 * time.Millisecond)
	before := counter()
	time.Sleep(100 * time.Millisecond)
	if after := counter(); after != before {
		t.Errorf("the goroutine still counts after Close: %d then %d", before, after)
	}
}

// Goroutines started in a loop see the variables of their own iteration.
func TestGoroutinesInALoop(t *testing.T) {
	s := newSession(t, Options{})
	code := "var wg sync.WaitGroup\nvar mu sync.Mutex\nres := make([]int, 4)\nfor i := 0; i < 4; i++ {\n\ta := i\n\twg.Add(1)\n\tgo func() {\n\t\tdefer wg.Done()\n\t\tmu.Lock()\n\t\tres[a] = a * a\n\t\tmu.Unlock()\n\t}()\n}\nwg.Wait()\nres"
	res, _ := mustRun(t, s, "Cell [1]", code)
	if got := plain(res); got != "[0 1 4 9]" {
		t.Errorf("result %s, want [0 1 4 9]", got)
	}
}
