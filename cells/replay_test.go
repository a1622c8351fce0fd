package cells

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benchbook/benchbook/stdlib/display"

	"github.com/benchbook/benchbook/internal/measuretest"
)

// tiny is a kernel quick to measure.
const tiny = "%%c tiny\nstatic unsigned x = 1;\nBENCH(step) { x = x * 1103515245u + 12345u; bench_sink(x); }"

// crashBetweenCells ends the glue process after its cell, as a timer
// callback that panics does.
func crashBetweenCells(t *testing.T, s *Session, label string) {
	t.Helper()
	if _, _, e := execute(t, s, label, `time.AfterFunc(50*time.Millisecond, func() { panic("late") })`); e != nil {
		t.Fatal(e)
	}
	time.Sleep(time.Second)
}

// text is a glue value's text/plain.
func text(t *testing.T, s *Session, label, code string) string {
	t.Helper()
	_, res, e := execute(t, s, label, code)
	if e != nil {
		t.Fatalf("%s: %v\n%s", label, e, strings.Join(e.Traceback, "\n"))
	}
	v, _ := res[display.MIMEText].(string)
	return v
}

// A glue process that died between cells is started again by the next
// cell that needs it, here a %bench binding its result, and that cell says
// so, with the cause and what was lost. On main the %bench cell bound its
// result through a publisher that dropped everything: x := 7 vanished
// without a word (issue 23, item 2).
func TestRestartIsToldToTheBenchCell(t *testing.T) {
	measuretest.Gate(t)
	s := newSession(t)
	if _, _, e := execute(t, s, "Cell[1]", tiny); e != nil {
		t.Fatal(e)
	}
	if _, _, e := execute(t, s, "Cell[2]", "x := 7\nvar y = 1"); e != nil {
		t.Fatal(e)
	}
	crashBetweenCells(t, s, "Cell[3]")
	rec, _, e := execute(t, s, "Cell[4]", "%bench tiny")
	if e != nil {
		t.Fatal(e)
	}
	out := rec.streams.String()
	for _, want := range []string{"The Go glue process was started again", "panic: late", "x (Cell[2])"} {
		if !strings.Contains(out, want) {
			t.Errorf("the %%bench cell does not say %q:\n%s", want, out)
		}
	}
}

// cancelAt is a Publisher that cancels a context at the n-th update of a
// display (the progress line of %bench).
type cancelAt struct {
	recorder
	n      int
	cancel context.CancelFunc
	once   sync.Once
}

func (c *cancelAt) Display(b display.Bundle, update bool) {
	c.recorder.Display(b, update)
	c.mu.Lock()
	n := c.updates
	c.mu.Unlock()
	if update && n >= c.n {
		c.once.Do(c.cancel)
	}
}

// An interrupted %bench binds its partial result, and says so. On main the
// binding ran in the interrupted context, so it did not happen and the
// variable kept the previous run (issue 23, item 13).
func TestInterruptedBenchBindsThePartialResult(t *testing.T) {
	measuretest.Gate(t)
	s := newSession(t)
	if _, _, e := execute(t, s, "Cell[1]", tiny); e != nil {
		t.Fatal(e)
	}
	if _, _, e := execute(t, s, "Cell[2]", "%bench tiny"); e != nil {
		t.Fatal(e)
	}
	first := text(t, s, "Cell[3]", "tiny.RawFile")
	ctx, cancel := context.WithTimeout(context.Background(), measuretest.Scale(3*time.Minute))
	defer cancel()
	pub := &cancelAt{n: 3, cancel: cancel}
	_, err := s.Execute(ctx, "Cell[4]", "%bench tiny runs=30", pub)
	e, ok := err.(*Error)
	if !ok || e.Name != "Interrupted" {
		t.Fatalf("want an Interrupted error, got %v", err)
	}
	if !strings.Contains(e.Value, "bound to tiny") {
		t.Errorf("the error does not say the partial result is bound: %s", e.Value)
	}
	raw := e.Value[strings.LastIndex(e.Value, " in ")+4:]
	raw = strings.TrimSuffix(raw[:strings.LastIndex(raw, " (")], ")")
	got := text(t, s, "Cell[5]", "tiny.RawFile")
	if got == first || !strings.Contains(got, raw) {
		t.Errorf("tiny.RawFile = %s after the interrupted run; the first run's is %s, the interrupted one's %s", got, first, raw)
	}
}

// as= naming a package is refused before anything runs: the variable
// would hide the package for the session. On main as=fmt ran, and fmt was
// then a *bench.Result in every later cell (issue 23, item 13).
func TestAsRefusesAPackageName(t *testing.T) {
	s := newSession(t)
	if _, _, e := execute(t, s, "Cell[1]", tiny); e != nil {
		t.Fatal(e)
	}
	if _, _, e := execute(t, s, "Cell[2]", `import str "strings"`); e != nil {
		t.Fatal(e)
	}
	for _, as := range []string{"fmt", "bench", "str", "sort"} {
		rec, _, e := execute(t, s, "Cell[3]", "%bench tiny as="+as)
		if e == nil || !strings.Contains(e.Value, "as="+as) || !strings.Contains(e.Value, "hide") {
			t.Errorf("as=%s: want an error that says it would hide the package, got %+v", as, e)
		}
		if rec.updates > 0 || rec.has(display.MIMEResult) {
			t.Errorf("as=%s: the run started before the name was refused", as)
		}
	}
	if got := text(t, s, "Cell[4]", `fmt.Sprint(str.ToUpper("ok"), bench.FormatNS(1500))`); !strings.Contains(got, "OK") {
		t.Errorf("the packages after the refusals: %s", got)
	}
}

// A var bound to bench.Run keeps its result across a glue restart, even
// when a later %bench made another result the kernel's latest. On main the
// replay took bench.Get's answer, the latest result, silently (issue 23,
// item 8).
func TestVarBoundToBenchRunKeepsItsResult(t *testing.T) {
	measuretest.Gate(t)
	s := newSession(t)
	if _, _, e := execute(t, s, "Cell[1]", tiny); e != nil {
		t.Fatal(e)
	}
	if _, _, e := execute(t, s, "Cell[2]", `var r1, err1 = bench.Run("tiny")`); e != nil {
		t.Fatal(e)
	}
	first := text(t, s, "Cell[3]", "r1.RawFile")
	if _, _, e := execute(t, s, "Cell[4]", "%bench tiny as=later"); e != nil {
		t.Fatal(e)
	}
	crashBetweenCells(t, s, "Cell[5]")
	got := text(t, s, "Cell[6]", "r1.RawFile")
	if got != first {
		t.Errorf("r1.RawFile = %s after the replay, want %s (its own run, not the latest)", got, first)
	}
	if later := text(t, s, "Cell[7]", "later.RawFile"); later == first {
		t.Errorf("later is r1's result")
	}
}
