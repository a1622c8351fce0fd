package cells

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benchbook/benchbook/stdlib/display"

	"github.com/benchbook/benchbook/internal/measuretest"
)

// recorder is a Publisher that keeps everything a cell publishes.
type recorder struct {
	mu       sync.Mutex
	streams  strings.Builder
	displays []display.Bundle
	updates  int
}

func (r *recorder) Stream(name, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.streams.WriteString(text)
}

func (r *recorder) Display(b display.Bundle, update bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if update { // replace the output of that display id, as a front end does
		r.updates++
		for i := range r.displays {
			if r.displays[i].ID == b.ID {
				r.displays[i] = b
			}
		}
		return
	}
	r.displays = append(r.displays, b)
}

func (r *recorder) Clear(bool) {}

func (r *recorder) has(mime string) bool {
	for _, b := range r.displays {
		if _, ok := b.Data[mime]; ok {
			return true
		}
	}
	return false
}

func newSession(t *testing.T) *Session {
	t.Helper()
	dir := t.TempDir()
	s, err := New(Options{Dir: dir, CacheDir: filepath.Join(dir, "cache"), Quick: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func execute(t *testing.T, s *Session, label, code string) (*recorder, map[string]any, *Error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), measuretest.Scale(3*time.Minute))
	defer cancel()
	rec := &recorder{}
	res, err := s.Execute(ctx, label, code, rec)
	var ce *Error
	if err != nil && !errors.As(err, &ce) {
		t.Fatalf("%s: an error that is not a cell error: %v", label, err)
	}
	return rec, res, ce
}

// A kernel that segfaults fails its %bench cell with the signal, and the
// session goes on: glue state and other kernels survive.
func TestCrashingKernelLeavesTheSessionAlive(t *testing.T) {
	s := newSession(t)
	if _, _, e := execute(t, s, "Cell[1]", "kept := 41"); e != nil {
		t.Fatal(e)
	}
	if _, _, e := execute(t, s, "Cell[2]", "%%c crash\n#include <stdint.h>\nstatic volatile uintptr_t zero;\nBENCH(boom) { *(volatile int *)zero = 1; }"); e != nil {
		t.Fatal(e)
	}
	rec, _, e := execute(t, s, "Cell[3]", "%bench crash")
	if e == nil || !strings.Contains(strings.Join(e.Traceback, "\n"), "SIGSEGV") {
		t.Fatalf("want an error naming SIGSEGV, got %+v", e)
	}
	if !rec.has(display.MIMEResult) {
		t.Error("the partial result was not shown")
	}
	_, res, e := execute(t, s, "Cell[4]", "kept + 1")
	if e != nil || res[display.MIMEText] != "42" {
		t.Fatalf("glue state after the crash: %v %v", res, e)
	}
}

// %bench on the seed kernel: the result, five plots, the commentary, a
// progress line updated in place, and the result bound in glue.
func TestBenchCellOutputs(t *testing.T) {
	measuretest.Gate(t)
	s := newSession(t)
	_, _, e := execute(t, s, "Cell[1]", "%%c seed\n#define N (1 << 16)\nstatic float a[N];\nBENCH_SETUP() { for (int i = 0; i < N; i++) a[i] = 1; }\n"+
		"BENCH(discarded) { float s = 0; for (int i = 0; i < N; i++) s += a[i]; }\nBENCH(sink) { float s = 0; for (int i = 0; i < N; i++) s += a[i]; bench_sink(s); }")
	if e != nil {
		t.Fatal(e)
	}
	rec, _, e := execute(t, s, "Cell[2]", `%bench seed predict="sink/discarded>10"`)
	if e != nil {
		t.Fatal(e)
	}
	pngs := 0
	for _, b := range rec.displays {
		if _, ok := b.Data[display.MIMEPNG]; ok {
			pngs++
		}
	}
	if pngs != 5 || !rec.has(display.MIMEResult) || !rec.has(display.MIMEMarkdown) || rec.updates == 0 {
		t.Errorf("%d plots, result %v, commentary %v, %d progress updates", pngs, rec.has(display.MIMEResult), rec.has(display.MIMEMarkdown), rec.updates)
	}
	if h := headlineOf(t, rec); !strings.Contains(h, "prediction sink/discarded>10, written before the run: held") {
		t.Errorf("the headline does not judge the prediction: %q", h)
	}
	_, res, e := execute(t, s, "Cell[3]", `seed.Protocol.Quick`)
	if e != nil || res[display.MIMEText] != "true" {
		t.Errorf("the result is not bound to seed: %v %v", res, e)
	}
	rec, _, e = execute(t, s, "Cell[4]", "%bench seed")
	if e != nil || !rec.has(display.MIMEHTML) {
		t.Fatal(e)
	}
	before := false
	for _, b := range rec.displays {
		if h, ok := b.Data[display.MIMEHTML].(string); ok && strings.Contains(h, "Before / after") {
			before = true
		}
	}
	if !before {
		t.Error("a second bench of the same kernel shows no before/after")
	}
}

func TestBenchCellErrors(t *testing.T) {
	s := newSession(t)
	cases := []struct{ code, says string }{
		{"%bench nothing", "no %%c, %%go or %%gotest cell has been run"},
		{"%bench seed reps=3", "the minimum is 10"},
		{"%bench seed colour=blue", "valid keys are"},
	}
	for _, c := range cases {
		if _, _, e := execute(t, s, "Cell[1]", c.code); e == nil || !strings.Contains(e.Value+strings.Join(e.Traceback, " "), c.says) {
			t.Errorf("%s: got %+v, want %q", c.code, e, c.says)
		}
	}
	execute(t, s, "Cell[2]", "%%c one\nBENCH(a) { }")
	if _, _, e := execute(t, s, "Cell[3]", "%bench two"); e == nil || !strings.Contains(strings.Join(e.Traceback, " "), "the kernels defined are one") {
		t.Errorf("unknown kernel: %+v", e)
	}
}
