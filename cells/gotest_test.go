package cells

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/benchbook/benchbook/schema"
	"github.com/benchbook/benchbook/stdlib/display"
	"github.com/benchbook/benchbook/stdlib/report"

	"github.com/benchbook/benchbook/internal/measuretest"
)

// sumsCell is an ordinary Go benchmark file as a %%gotest cell.
const sumsCell = `%%gotest sums
import "testing"

var xs = make([]int, 4096)
var sink int

func Setup() {
	for i := range xs {
		xs[i] = i & 15
	}
}

func BenchmarkSumLoop(b *testing.B) {
	for i := 0; i < b.N; i++ {
		s := 0
		for _, x := range xs {
			s += x
		}
		sink = s
	}
}

func BenchmarkSumUnrolled(b *testing.B) {
	for i := 0; i < b.N; i++ {
		s0, s1, s2, s3 := 0, 0, 0, 0
		for j := 0; j+3 < len(xs); j += 4 {
			s0 += xs[j]
			s1 += xs[j+1]
			s2 += xs[j+2]
			s3 += xs[j+3]
		}
		sink = s0 + s1 + s2 + s3
	}
}
`

func buildEntry(t *testing.T, rec *recorder) report.BuildEntry {
	t.Helper()
	for _, b := range rec.displays {
		if e, ok := b.Data[display.MIMEBuild].(report.BuildEntry); ok {
			return e
		}
	}
	t.Fatal("no build entry")
	return report.BuildEntry{}
}

// A %%gotest cell builds (cached the second time), %bench runs its
// benchmarks under the protocol like a %%go kernel's variants, and export=
// writes them in the Go benchmark format under their own names.
func TestGotestCell(t *testing.T) {
	measuretest.Gate(t)
	s := newSession(t)
	if st, _ := s.IsComplete(sumsCell); st != "complete" {
		t.Errorf("IsComplete: %s", st)
	}
	rec, _, e := execute(t, s, "Cell[1]", sumsCell)
	if e != nil {
		t.Fatalf("%v %v", e.Value, e.Traceback)
	}
	entry := buildEntry(t, rec)
	if entry.Kernel.Lang != "gotest" || entry.Cached || len(entry.Variants) != 2 || entry.Variants[0].Name != "sumLoop" ||
		entry.Variants[1].Name != "sumUnrolled" {
		t.Fatalf("build entry %+v", entry)
	}
	if err := schema.ValidateBuild(entry); err != nil {
		t.Errorf("build entry: %v", err)
	}
	rec, _, e = execute(t, s, "Cell[2]", sumsCell)
	if e != nil || !buildEntry(t, rec).Cached {
		t.Fatalf("second build not cached: %v", e)
	}

	export := filepath.Join(t.TempDir(), "sums.txt")
	_, r := benchResult(t, s, "Cell[3]", "%bench sums quick export="+export)
	if err := schema.ValidateResult(r); err != nil {
		t.Errorf("result: %v", err)
	}
	if len(r.Variants) != 2 {
		t.Fatalf("%d variants", len(r.Variants))
	}
	for _, v := range r.Variants {
		se := v.Series
		if se.Interleaved == nil || se.InProcess == nil || se.Fresh == nil || se.Cold == nil {
			t.Fatalf("%s: a series is missing: %+v", v.Name, se)
		}
		if len(se.Interleaved.SamplesNS) != 10 || len(se.Fresh.SamplesNS) != 10 || len(se.Cold.SamplesNS) != 10 {
			t.Errorf("%s: %d interleaved, %d fresh, %d cold samples", v.Name, len(se.Interleaved.SamplesNS), len(se.Fresh.SamplesNS), len(se.Cold.SamplesNS))
		}
		t.Logf("%s: batch %d, medians interleaved %.0f, in-process %.0f, fresh %.0f, cold %.0f ns", v.Name, v.Batch,
			se.Interleaved.Summary.Median, se.InProcess.Summary.Median, se.Fresh.Summary.Median, se.Cold.Summary.Median)
		if v.Batch < 1 || v.Dead {
			t.Errorf("%s: batch %d dead %v", v.Name, v.Batch, v.Dead)
		}
		// 4096 adds are more than 100 ns and less than 1 ms per op.
		if m := se.Fresh.Summary.Median; m < 100 || m > 1e6 {
			t.Errorf("%s: median %v ns per op", v.Name, m)
		}
	}

	for _, f := range r.Findings {
		t.Logf("finding %s: %s", f.Kind, f.Text)
	}
	b, err := os.ReadFile(export)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	if strings.Contains(text, "BenchmarkBenchmark") {
		t.Errorf("doubled prefix:\n%s", text)
	}
	rd := benchfmt.NewReader(strings.NewReader(text), "sums.txt")
	names := map[string]int{}
	cpu := ""
	for rd.Scan() {
		res, ok := rd.Result().(*benchfmt.Result)
		if !ok {
			t.Fatalf("not a result: %v", rd.Result())
		}
		names[string(res.Name.Base())]++
		if c := res.GetConfig("cpu"); c != "" {
			cpu = c
		}
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	if names["SumLoop"] == 0 || names["SumUnrolled"] == 0 || cpu == "" {
		t.Errorf("export: names %v, cpu %q:\n%.600s", names, cpu, text)
	}
	if !strings.Contains(text, "\nBenchmarkSumLoop/series=fresh ") {
		t.Errorf("no BenchmarkSumLoop/series=fresh line:\n%.600s", text)
	}
}
