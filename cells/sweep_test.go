package cells

import (
	"math"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/stdlib/bench"
	"github.com/benchbook/benchbook/stdlib/display"
)

// sweepKernel is seed 000's loop over ints: N is the sweep's unless the
// cell is built alone.
const sweepKernel = "%%c seedsweep\n#ifndef N\n#define N (1 << 20)\n#endif\nstatic int a[N];\n" +
	"BENCH_SETUP() { for (int i = 0; i < N; i++) a[i] = i & 7; }\n" +
	"BENCH(sum) { int s = 0; for (int i = 0; i < N; i++) s += a[i]; bench_sink(s); }\n"

func sweepResults(rec *recorder) []*bench.Result {
	var rs []*bench.Result
	for _, b := range rec.displays {
		if r, ok := b.Data[display.MIMEResult].(*bench.Result); ok && r.Sweep != nil {
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
	if testing.Short() {
		t.Skip("measures")
	}
	s := newSession(t)
	if _, _, e := execute(t, s, "Cell[1]", sweepKernel); e != nil {
		t.Fatal(e.Traceback)
	}
	rec, _, e := execute(t, s, "Cell[2]", `%bench seedsweep sweep=N:4K..16M*4 predict="time(16M)/time(1M)~16"`)
	if e != nil {
		t.Fatalf("%v", e.Traceback)
	}
	rs := sweepResults(rec)
	if len(rs) != 7 {
		t.Fatalf("%d results; want 7 points (4K, 16K, ..., 16M)", len(rs))
	}
	for i, r := range rs {
		sp := r.Sweep
		if sp.ID != rs[0].Sweep.ID || sp.Param != "N" || sp.Index != i || sp.Bytes == nil || *sp.Bytes != 4*sp.Value || sp.BytesRule != bench.RuleFit {
			t.Errorf("point %d: %+v; want id %s, bytes 4*N from the static data", i, sp, rs[0].Sweep.ID)
		}
		if r.Protocol.Elements == nil || *r.Protocol.Elements != sp.Value {
			t.Errorf("point %d: elements %v, want N", i, r.Protocol.Elements)
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
	per := func(r *bench.Result) float64 {
		return r.Variant("sum").Series.Interleaved.Summary.Median / float64(r.Sweep.Value)
	}
	small, large := per(rs[0]), per(rs[len(rs)-1])
	if large < 1.5*small {
		t.Errorf("time per element %.3g ns at 16K ints, %.3g ns at 16M: want the largest at least 1.5x the smallest", small, large)
	}
	// The plot, then the commentary, come after the points.
	n := len(rec.displays)
	if _, ok := rec.displays[n-2].Data[display.MIMEPNG]; !ok {
		t.Errorf("the last but one output is not the plot: %v", rec.displays[n-2].Data[display.MIMEText])
	}
	md, _ := rec.displays[n-1].Data[display.MIMEMarkdown].(string)
	if !strings.Contains(md, "a step") && !strings.Contains(md, "A step") {
		t.Errorf("the commentary names no step:\n%s", md)
	}
	if !strings.Contains(md, "predicted 16, measured") {
		t.Errorf("the commentary does not judge the prediction:\n%s", md)
	}
	if math.Abs(*sum.Prediction.Observed/(float64(rs[6].Variant("sum").Series.Interleaved.Summary.Median)/rs[4].Variant("sum").Series.Interleaved.Summary.Median)-1) > 1e-9 {
		t.Errorf("the prediction's ratio %g is not the ratio of the two points' medians", *sum.Prediction.Observed)
	}
	t.Logf("commentary:\n%s", md)
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
	execute(t, s, "Cell[6]", sweepKernel)
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
	if testing.Short() {
		t.Skip("measures")
	}
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
