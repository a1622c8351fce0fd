package cells

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/benchbook/benchbook/stdlib/display"

	"github.com/benchbook/benchbook/internal/measuretest"
)

// declare runs the cell that every fatal case starts from: a func and a
// var that the replay must bring back.
func declare(t *testing.T, s *Session) {
	t.Helper()
	if _, _, e := execute(t, s, "Cell[1]", "func twice(x int) int { return 2 * x }\nvar base = 20"); e != nil {
		t.Fatal(e)
	}
}

// Each fatal error of the Go runtime ends the glue process, not the
// kernel: the cell's error names the cause, and the next cell sees the
// func and var declared before the crash.
func TestFatalErrorsEndOnlyTheGlueProcess(t *testing.T) {
	cases := []struct {
		name, code, says string
		env              map[string]string
	}{
		{"recursion", "func down(n int) int { return down(n+1) + 1 }\ndown(0)", "stack overflow", nil},
		{"concurrent map writes", "m := map[int]int{}\nfor g := 0; g < 4; g++ {\n\tgo func() {\n\t\tfor i := 0; ; i++ {\n\t\t\tm[i%64] = i\n\t\t}\n\t}()\n}\ntime.Sleep(20 * time.Second)",
			"concurrent map writes", nil},
		{"allocation beyond the limit", "var keep [][]byte\nfor {\n\tkeep = append(keep, make([]byte, 64<<20))\n}",
			"out of memory", map[string]string{"BENCHBOOK_GLUE_MEMORY": "512MiB"}},
		{"panic in time.AfterFunc", "time.AfterFunc(10*time.Millisecond, func() { panic(\"boom in a callback\") })\ntime.Sleep(20 * time.Second)",
			"panic: boom in a callback", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			s := newSession(t)
			declare(t, s)
			start := time.Now()
			_, _, e := execute(t, s, "Cell[2]", c.code)
			if e == nil || e.Name != "FatalError" || !strings.Contains(e.Value, c.says) {
				t.Fatalf("want a FatalError naming %q, got %+v\n%s", c.says, e, strings.Join(e.Traceback, "\n"))
			}
			if took := time.Since(start); took > 20*time.Second {
				t.Errorf("the cell took %s to fail", took)
			}
			if tb := strings.Join(e.Traceback, "\n"); !strings.Contains(tb, "twice") || !strings.Contains(tb, "base") {
				t.Errorf("the traceback does not say what was restored:\n%s", tb)
			}
			_, res, e := execute(t, s, "Cell[3]", "twice(base + 1)")
			if e != nil || res[display.MIMEText] != "42" {
				t.Fatalf("after the crash: %v %+v", res, e)
			}
		})
	}
}

// A process that dies between cells (a callback fires after its cell
// ended) is replaced at the next cell, which says so on stderr and runs.
func TestDeathBetweenCellsIsToldAtTheNextCell(t *testing.T) {
	s := newSession(t)
	declare(t, s)
	if _, _, e := execute(t, s, "Cell[2]", `time.AfterFunc(50*time.Millisecond, func() { panic("late") })`); e != nil {
		t.Fatal(e)
	}
	time.Sleep(time.Second)
	rec, res, e := execute(t, s, "Cell[3]", "twice(base)")
	if e != nil || res[display.MIMEText] != "40" {
		t.Fatalf("after the crash: %v %+v", res, e)
	}
	if out := rec.streams.String(); !strings.Contains(out, "panic: late") {
		t.Errorf("the next cell was not told: %q", out)
	}
}

// An interrupted for {} answers within 2 s, and the session goes on.
func TestInterruptEndlessLoop(t *testing.T) {
	s := newSession(t)
	declare(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	_, err := s.Execute(ctx, "Cell[2]", "for {\n}", &recorder{})
	if took := time.Since(start) - 300*time.Millisecond; took > 2*time.Second {
		t.Errorf("the interrupt took %s", took)
	}
	if e, ok := err.(*Error); !ok || e.Name != "Interrupted" {
		t.Fatalf("want Interrupted, got %v", err)
	}
	_, res, e := execute(t, s, "Cell[3]", "twice(base)")
	if e != nil || res[display.MIMEText] != "40" {
		t.Fatalf("after the interrupt: %v %+v", res, e)
	}
}

// State lasts across cells, and display calls reach the cell's publisher
// with their ids: an update replaces the output shown under its id.
func TestGlueStateAndDisplayAcrossTheProcess(t *testing.T) {
	s := newSession(t)
	if _, _, e := execute(t, s, "Cell[1]", "n := 5\ntype pair struct{ a, b int }"); e != nil {
		t.Fatal(e)
	}
	rec, _, e := execute(t, s, "Cell[2]", "id := display.HTML(\"<b>one</b>\")\nfmt.Println(\"between\")\ndisplay.Update(id, \"html\", \"<b>two</b>\")")
	if e != nil {
		t.Fatal(e)
	}
	if len(rec.displays) != 1 || rec.updates != 1 || rec.displays[0].ID == "" || !strings.Contains(rec.streams.String(), "between") {
		t.Fatalf("displays %+v, %d updates, streams %q", rec.displays, rec.updates, rec.streams.String())
	}
	_, res, e := execute(t, s, "Cell[3]", "p := pair{n, 2}\np.a * p.b")
	if e != nil || res[display.MIMEText] != "10" {
		t.Fatalf("state across cells: %v %+v", res, e)
	}
}

// A %bench result is bound in glue, its methods work there (the child
// holds a copy), and the binding survives a crash of the glue process.
func TestBenchResultInGlueAcrossACrash(t *testing.T) {
	measuretest.Gate(t)
	s := newSession(t)
	_, _, e := execute(t, s, "Cell[1]", "%%c seed\n#define N (1 << 12)\nstatic float a[N];\nBENCH_SETUP() { for (int i = 0; i < N; i++) a[i] = 1; }\n"+
		"BENCH(discarded) { float s = 0; for (int i = 0; i < N; i++) s += a[i]; }\nBENCH(sink) { float s = 0; for (int i = 0; i < N; i++) s += a[i]; bench_sink(s); }")
	if e != nil {
		t.Fatal(e)
	}
	if _, _, e := execute(t, s, "Cell[2]", "%bench seed"); e != nil {
		t.Fatal(e)
	}
	_, res, e := execute(t, s, "Cell[3]", `seed.Ratio("sink", "discarded")`)
	if text, _ := res[display.MIMEText].(string); e != nil || !strings.HasSuffix(text, ", true") {
		t.Fatalf("seed.Ratio in glue: %v %+v", res, e)
	}
	if _, _, e := execute(t, s, "Cell[4]", `var again, againErr = bench.Run("seed")`); e != nil {
		t.Fatal(e)
	}
	runs := countEntries(t, s.opt.ResultsDir)
	_, _, e = execute(t, s, "Cell[5]", "time.AfterFunc(time.Millisecond, func() { panic(\"x\") })\ntime.Sleep(10 * time.Second)")
	if e == nil || e.Name != "FatalError" {
		t.Fatalf("want a FatalError, got %+v", e)
	}
	_, res, e = execute(t, s, "Cell[6]", `seed.Kernel.Name + " " + again.Kernel.Name`)
	if e != nil || res[display.MIMEText] != `"seed seed"` {
		t.Fatalf("the bound results after the crash: %v %+v", res, e)
	}
	if n := countEntries(t, s.opt.ResultsDir); n != runs {
		t.Errorf("the replay measured again: %d result entries, %d before", n, runs)
	}
}

// countEntries counts the files and folders in dir.
func countEntries(t *testing.T, dir string) int {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return len(es)
}
