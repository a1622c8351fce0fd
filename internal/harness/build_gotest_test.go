package harness

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/benchbook/benchbook/internal/records"
)

// sumCell is a %%gotest cell as a Go developer writes it: two benchmarks,
// a helper, a setup and an import.
const sumCell = `import "math/rand"

var xs []int
var sink int

func Setup() {
	xs = make([]int, 1024)
	for i := range xs {
		xs[i] = rand.Intn(100)
	}
}

func sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

func BenchmarkSumLoop(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = sum(xs)
	}
}

func BenchmarkSumUnrolled(b *testing.B) {
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s0, s1 := 0, 0
		for j := 0; j+1 < len(xs); j += 2 {
			s0 += xs[j]
			s1 += xs[j+1]
		}
		sink = s0 + s1
	}
}
`

func gotestSpec(t *testing.T, code string) Spec {
	return Spec{Name: "sums", Lang: "gotest", Code: code, Line: 2, Label: "Cell[1]", CacheDir: t.TempDir()}
}

func TestGotestBuildAndRun(t *testing.T) {
	spec := gotestSpec(t, sumCell)
	k := build(t, spec)
	if got := strings.Join(k.Names(), ","); got != "sumLoop,sumUnrolled" {
		t.Fatalf("variants %s, want sumLoop,sumUnrolled", got)
	}
	if k.Lang != "gotest" || !k.Setup || k.Cached {
		t.Errorf("lang %s, setup %v, cached %v", k.Lang, k.Setup, k.Cached)
	}
	for _, v := range k.Variants {
		if v.Dead || v.Hollow || !strings.Contains(v.Finding, "the work is there") || !strings.Contains(v.Asm, "BenchmarkSum") {
			t.Errorf("%s: dead %v hollow %v finding %q asm %.200q", v.Name, v.Dead, v.Hollow, v.Finding, v.Asm)
		}
	}
	if k.Variants[0].Line != 22 { // cell line 2 is the code's first line
		t.Errorf("sumLoop at cell line %d, want 22", k.Variants[0].Line)
	}
	if again := build(t, spec); !again.Cached || again.BinarySHA256 != k.BinarySHA256 {
		t.Errorf("second build: cached %v", again.Cached)
	}

	out := filepath.Join(t.TempDir(), "records.txt")
	cmd := exec.Command(k.Binary, "run", "-out", out, "-slots", "sumLoop,sumUnrolled", "-cold", "sumLoop",
		"-settle-ms", "5", "-warmup", "1", "-rounds", "3", "-calibrate-reads", "100")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, b)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []records.Record
	for rr := records.NewReader(f); rr.Scan(); {
		recs = append(recs, rr.Record())
	}
	kinds := map[string]int{}
	for _, r := range recs {
		kinds[r.Kind]++
		if r.Kind == "batch" {
			if n, _ := r.Int("k"); n < 1 {
				t.Errorf("batch %v", r)
			}
		}
	}
	if kinds["sample"] != 6 || kinds["cold"] != 1 || kinds["batch"] != 2 || kinds["done"] != 1 || kinds["phase"] < 3 {
		t.Errorf("records %v", kinds)
	}

	// Started without run or list it is an ordinary test binary.
	b, err := exec.Command(k.Binary, "-test.bench=SumLoop", "-test.benchtime=10x", "-test.run=^$").CombinedOutput()
	if err != nil || !strings.Contains(string(b), "BenchmarkSumLoop") {
		t.Errorf("as a test binary: %v\n%s", err, b)
	}
}

func TestGotestRefuses(t *testing.T) {
	// Sink and a benchmark whose *testing.B is called bench build together.
	k := build(t, gotestSpec(t, "func BenchmarkA(bench *testing.B) {\n\tfor i := 0; i < bench.N; i++ {}\n}\n"+
		"func BenchmarkB(b *testing.B) {\n\tfor i := 0; i < b.N; i++ { bench.Sink(i) }\n}\n"))
	if len(k.Variants) != 2 {
		t.Errorf("variants %v", k.Names())
	}
	cases := []struct{ name, code, want string }{
		{"sub-benchmarks", "func BenchmarkA(b *testing.B) {\n\tb.Run(\"x\", func(b *testing.B) {})\n}\n", "sub-benchmarks are not supported"},
		{"TestMain", "func TestMain(m *testing.M) {}\nfunc BenchmarkA(b *testing.B) {}\n", "must not define TestMain"},
		{"signature", "func BenchmarkA() {}\n", "func BenchmarkA(b *testing.B)"},
		{"none", "func benchmarkA(b *testing.B) {}\n", "defines no variant"},
		{"external", "package foo_test\nfunc BenchmarkA(b *testing.B) {}\n", "external test package"},
		{"compile", "func BenchmarkA(b *testing.B) {\n\tundefinedThing()\n}\n", "Cell[1]:3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			_, err := Build(ctx, gotestSpec(t, c.code))
			var be *Error
			if !errors.As(err, &be) || !strings.Contains(be.Message, c.want) {
				t.Fatalf("want an error with %q, got %v", c.want, err)
			}
		})
	}
}

// A benchmark that fails stops its process with a message, not a sample of 0.
func TestGotestFailedBenchmark(t *testing.T) {
	k := build(t, gotestSpec(t, "func BenchmarkBad(b *testing.B) { b.Fatal(\"no\") }\n"))
	out := filepath.Join(t.TempDir(), "records.txt")
	b, err := exec.Command(k.Binary, "run", "-out", out, "-slots", "bad", "-rounds", "1", "-settle-ms", "0").CombinedOutput()
	if err == nil || !strings.Contains(string(b), "BenchmarkBad gave no result") {
		t.Fatalf("want a failure naming BenchmarkBad: %v\n%s", err, b)
	}
}

// The b.N loop is analysed as a batch's loop over k: a body whose result is
// unused loses its work (hollow: the inner loop only counts; dead: nothing
// is left), a body that stores its result or runs under b.Loop keeps it.
func TestGotestDeadBody(t *testing.T) {
	k := build(t, gotestSpec(t, `var xs = make([]int, 1000)
var sink int

func BenchmarkKept(b *testing.B) {
	for i := 0; i < b.N; i++ {
		s := 0
		for _, x := range xs {
			s += x
		}
		sink = s
	}
}

func BenchmarkUnused(b *testing.B) {
	for i := 0; i < b.N; i++ {
		s := 0
		for _, x := range xs {
			s += x
		}
		_ = s
	}
}

func BenchmarkNothing(b *testing.B) {
	for i := 0; i < b.N; i++ {
		_ = len(xs) * 3
	}
}

func BenchmarkLoop(b *testing.B) {
	for b.Loop() {
		s := 0
		for _, x := range xs {
			s += x
		}
		_ = s
	}
}
`))
	want := map[string][2]bool{"kept": {false, false}, "unused": {false, true}, "nothing": {true, false}, "loop": {false, false}}
	for _, v := range k.Variants {
		w := want[v.Name]
		if v.Dead != w[0] || v.Hollow != w[1] || !strings.Contains(v.Finding, "b.N loop") {
			t.Errorf("%s: dead %v hollow %v, want %v %v: %s\n%s", v.Name, v.Dead, v.Hollow, w[0], w[1], v.Finding, v.Asm)
		}
	}
}
