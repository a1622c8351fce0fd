package cells

import (
	"fmt"
	"github.com/benchbook/benchbook/stdlib/stats"
	"math"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/stdlib/display"

	"github.com/benchbook/benchbook/internal/measuretest"
)

// sweepKernel walks L cache lines in a random cyclic order: each load's
// address comes from the previous load, so a step costs the latency of
// the level the lines sit in, and the levels are far apart (a loop that
// streams through the array, as seed 000's does, is held by its adds or
// the prefetchers long before the caches show). Every pass ends where it
// began: the checksum. The walk goes on from where the last pass ended: a
// pass that started afresh from the first line would not depend on the one
// before, and in a batch of short passes the core would run several at
// once (4 KiB read 0.67 ns a load, less than one L1 hit).
const sweepKernel = "%%c seedsweep\n#include <stdlib.h>\n#ifndef L\n#define L 4096\n#endif\n" +
	"struct line { struct line *next; char pad[56]; };\nstatic struct line lines[L];\n" +
	"BENCH_SETUP() {\n\tunsigned long *p = malloc(L * sizeof *p), x = 88172645463325252ul;\n" +
	"\tfor (unsigned long i = 0; i < L; i++) p[i] = i;\n" +
	"\tfor (unsigned long i = L - 1; i > 0; i--) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; unsigned long j = x % (i + 1), t = p[i]; p[i] = p[j]; p[j] = t; }\n" +
	"\tfor (unsigned long i = 0; i < L; i++) lines[p[i]].next = &lines[p[(i + 1) % L]];\n\tfree(p);\n}\n" +
	"static struct line *q = lines;\n" +
	"BENCH(chase) { for (long i = 0; i < L; i++) q = q->next; bench_checksum(q == lines, 1); }\n"

func sweepResults(rec *recorder) []*protocol.Result {
	var rs []*protocol.Result
	for _, b := range rec.displays {
		if r, ok := b.Data[display.MIMEResult].(*protocol.Result); ok && r.Sweep != nil {
			rs = append(rs, r)
		}
	}
	return rs
}

// Seed 000's loop over 4K to 16M ints (16KB to 64MB, far beyond any
// L2 and beyond this machine's per-CCD L3) in quick mode: one result per
// point with the sweep recorded, the working set read from the static
// data exactly (4 bytes per N), the largest point at least 1.5x the
// smallest in time per element, a step named, the prediction judged, and
// the plot and commentary after the points.
func TestSweepSeedLoop(t *testing.T) {
	measuretest.Gate(t)
	s := newSession(t)
	if _, _, e := execute(t, s, "Cell[1]", sweepKernel); e != nil {
		t.Fatal(e.Traceback)
	}
	// What the machine answers (a step, the largest point slower) is
	// asked of up to three runs: a load that comes and goes on a shared
	// machine can hide a step from one run's samples. The structure of
	// every run is checked.
	var misses []string
	for attempt := 1; attempt <= 3; attempt++ {
		miss := sweepSeedLoopOnce(t, s, fmt.Sprintf("Cell[%d]", attempt+1))
		if miss == "" {
			return
		}
		misses = append(misses, fmt.Sprintf("run %d: %s", attempt, miss))
	}
	t.Errorf("in three runs:\n%s", strings.Join(misses, "\n"))
}

// sweepSeedLoopOnce runs the sweep once, fails t on what every run must
// hold, and returns what the measurement did not show ("" when it did).
func sweepSeedLoopOnce(t *testing.T, s *Session, label string) string {
	t.Helper()
	rec, _, e := execute(t, s, label, `%bench seedsweep sweep=L:64..256K*4 cold=after-setup predict="time(256K)/time(16K)~16"`)
	if e != nil {
		t.Fatalf("%v", e.Traceback)
	}
	rs := sweepResults(rec)
	if len(rs) != 7 {
		t.Fatalf("%d results; want 7 points (64, 256, ..., 256K lines)", len(rs))
	}
	for i, r := range rs {
		sp := r.Sweep
		if sp.ID != rs[0].Sweep.ID || sp.Param != "L" || sp.Index != i || sp.Bytes == nil || *sp.Bytes != 64*sp.Value || sp.BytesRule != protocol.RuleFit {
			t.Errorf("point %d: %+v; want id %s, bytes 64*L from the static data", i, sp, rs[0].Sweep.ID)
		}
		if r.Protocol.Elements == nil || *r.Protocol.Elements != sp.Value {
			t.Errorf("point %d: elements %v, want L", i, r.Protocol.Elements)
		}
		if r.RawFile == "" || r.RawFile == rs[0].RawFile && i > 0 {
			t.Errorf("point %d: raw folder %q", i, r.RawFile)
		}
	}
	sum := rs[len(rs)-1].Sweep.Summary
	if sum == nil || len(sum.Order) != 4+10 || sum.Prediction == nil || sum.Prediction.Observed == nil {
		t.Fatalf("summary %+v", sum)
	}
	for _, turn := range sum.Order {
		if len(turn) != 7 {
			t.Fatalf("a turn visits %v; want every point once", turn)
		}
	}
	// The plot, then the commentary, come after the points.
	n := len(rec.displays)
	if _, ok := rec.displays[n-2].Data[display.MIMEPNG]; !ok {
		t.Errorf("the last but one output is not the plot: %v", rec.displays[n-2].Data[display.MIMEText])
	}
	md, _ := rec.displays[n-1].Data[display.MIMEMarkdown].(string)
	if !strings.Contains(md, "predicted 16, measured") {
		t.Errorf("the commentary does not judge the prediction:\n%s", md)
	}
	// The prediction's ratio is the ratio of the medians of the samples the
	// sweep judges by.
	med := func(r *protocol.Result) float64 { return stats.Median(protocol.SweepSamples(r, "chase")) }
	if math.Abs(*sum.Prediction.Observed/(med(rs[6])/med(rs[4]))-1) > 1e-9 { // 256K lines over 16K
		t.Errorf("the prediction's ratio %g is not the ratio of the two points' medians", *sum.Prediction.Observed)
	}
	t.Logf("commentary:\n%s", md)
	small, large := med(rs[0])/float64(rs[0].Sweep.Value), med(rs[len(rs)-1])/float64(rs[len(rs)-1].Sweep.Value)
	switch {
	case large < 1.5*small:
		return fmt.Sprintf("time per line %.3g ns at 64 lines (4KiB), %.3g ns at 256K (16MiB): want the largest at least 1.5x the smallest", small, large)
	case !strings.Contains(md, "a step") && !strings.Contains(md, "A step"):
		return "the commentary names no step"
	}
	return ""
}

// A cell that #defines N unconditionally is refused with its line; a value
// that does not compile names the value and the compiler's line; a sweep
// beyond the memory available is refused before building.
func TestSweepBadInput(t *testing.T) {
	s := newSession(t)
	execute(t, s, "Cell[1]", "%%c fixed\n#define N 1024\nstatic int a[N];\nBENCH(sum) { int s = 0; for (int i = 0; i < N; i++) s += a[i]; bench_sink(s); }\n")
	_, _, e := execute(t, s, "Cell[2]", "%bench fixed sweep=N:1K,2K")
	if e == nil || !strings.Contains(e.Value, "line 2") || !strings.Contains(strings.Join(e.Traceback, "\n"), "#ifndef N") {
		t.Errorf("an unconditional #define N: %+v", e)
	}
	execute(t, s, "Cell[3]", "%%c picky\n#ifndef N\n#define N 1024\n#endif\n#if N > 4096\n#error N is too large for this kernel\n#endif\n"+
		"static int a[N];\nBENCH(sum) { int s = 0; for (int i = 0; i < N; i++) s += a[i]; bench_sink(s); }\n")
	_, _, e = execute(t, s, "Cell[4]", "%bench picky sweep=N:1K..16K")
	if e == nil || !strings.Contains(e.Value, "N=8K") || !strings.Contains(e.Value, "line 6") {
		t.Errorf("a value that does not compile: %+v", e)
	}
	_, _, e = execute(t, s, "Cell[5]", "%bench picky sweep=N:1G..64G bytes=4*N")
	if e == nil || !strings.Contains(e.Value, "MemAvailable") || !strings.Contains(e.Value, "before building") {
		t.Errorf("bytes= beyond memory: %+v", e)
	}
	execute(t, s, "Cell[6]", "%%c seedsweep\n#ifndef N\n#define N (1 << 20)\n#endif\nstatic int a[N];\n"+
		"BENCH_SETUP() { for (int i = 0; i < N; i++) a[i] = i & 7; }\n"+
		"BENCH(sum) { int s = 0; for (int i = 0; i < N; i++) s += a[i]; bench_sink(s); }\n")
	_, _, e = execute(t, s, "Cell[7]", "%bench seedsweep sweep=N:1K,2K,64G")
	if e == nil || !strings.Contains(e.Value, "N=64G") || !strings.Contains(e.Value, "before building") {
		t.Errorf("static data beyond memory: %+v", e)
	}
	_, _, e = execute(t, s, "Cell[8]", `%bench seedsweep sweep=N:1K,2K predict="time(4K)/time(1K)~4"`)
	if e == nil || !strings.Contains(e.Value, "not a point") {
		t.Errorf("a prediction about a point not swept: %+v", e)
	}
}

// A Go kernel's const N line gets each point's value; its static array's
// bytes come from the Go binary's sections.
func TestSweepGo(t *testing.T) {
	measuretest.Gate(t)
	s := newSession(t)
	code := "%%go gosweep\nconst N = 1 << 20\n\nvar a [N]int32\n\nfunc BenchSum() {\n\tvar s int32\n\tfor i := range a {\n\t\ts += a[i]\n\t}\n\tbench.Sink(s)\n}\n"
	if _, _, e := execute(t, s, "Cell[1]", code); e != nil {
		t.Fatal(e.Traceback)
	}
	rec, _, e := execute(t, s, "Cell[2]", "%bench gosweep sweep=N:4K,64K")
	if e != nil {
		t.Fatal(e.Traceback)
	}
	rs := sweepResults(rec)
	if len(rs) != 2 {
		t.Fatalf("%d results", len(rs))
	}
	for _, r := range rs {
		if r.Sweep.Bytes == nil || *r.Sweep.Bytes != 4*r.Sweep.Value {
			t.Errorf("N=%d: bytes %v (%s), want 4*N", r.Sweep.Value, r.Sweep.Bytes, r.Sweep.BytesRule)
		}
	}
}

func TestGoWithConsts(t *testing.T) {
	got := goWithConsts("package main\nconst N int = 1 << 20\nvar a [N]int\n", []string{"N", "M"}, []int64{4096, 8})
	if got != "package main\nconst N int = 4096\nvar a [N]int\n\nconst M = 8\n" {
		t.Errorf("got %q", got)
	}
}
