// Package bench_test holds benchbook's speed targets as Go benchmarks that
// measure two things side by side in one run and report their ratio, since
// an absolute time on a shared machine means nothing from one run to the
// next. Run with `make bench`.
package bench_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/benchbook/benchbook/cells"
	"github.com/benchbook/benchbook/internal/harness"
	"github.com/benchbook/benchbook/stdlib/display"
	"github.com/benchbook/benchbook/stdlib/stats"
)

func seedC(b *testing.B) string {
	code, err := os.ReadFile("../internal/harness/testdata/seed000.c")
	if err != nil {
		b.Fatal(err)
	}
	return string(code)
}

// A rerun of an unchanged native cell must not compile: the cached build
// should be at least an order of magnitude faster than a fresh one.
func BenchmarkBuildFreshOverCached(b *testing.B) {
	code := seedC(b)
	var fresh, cached time.Duration
	for i := 0; i < b.N; i++ {
		spec := harness.Spec{Name: "seed", Lang: "c", Code: code, Line: 2, Label: "Cell[1]", CacheDir: filepath.Join(b.TempDir(), "c")}
		t0 := time.Now()
		if _, err := harness.Build(context.Background(), spec); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		k, err := harness.Build(context.Background(), spec)
		if err != nil || !k.Cached {
			b.Fatalf("second build not cached: %v", err)
		}
		fresh, cached = fresh+t1.Sub(t0), cached+time.Since(t1)
	}
	b.ReportMetric(float64(fresh)/float64(cached), "fresh/cached")
}

type nopPub struct{}

func (nopPub) Stream(string, string)        {}
func (nopPub) Display(display.Bundle, bool) {}
func (nopPub) Clear(bool)                   {}

// Glue cells are interpreted: the same loop in a glue cell and compiled,
// side by side. The ratio is why nothing is ever measured in glue.
func BenchmarkGlueOverCompiled(b *testing.B) {
	s, err := cells.New(cells.Options{Dir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	const loop = "acc := 0\nfor i := 0; i < 200000; i++ { acc += i & 7 }"
	var glue, compiled time.Duration
	sink := 0
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if _, err := s.Execute(context.Background(), "Cell[1]", loop, nopPub{}); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		acc := 0
		for j := 0; j < 200000; j++ {
			acc += j & 7
		}
		sink += acc
		compiled, glue = compiled+time.Since(t1), glue+t1.Sub(t0)
	}
	b.ReportMetric(float64(glue)/float64(compiled), "glue/compiled")
	_ = sink
}

// Summaries are recomputed by verify for every series: a series of 10^4
// samples should cost about as much as n log n says against one of 30.
func BenchmarkSummarizeLargeOverSmall(b *testing.B) {
	small, large := make([]float64, 30), make([]float64, 10000)
	for i := range large {
		large[i] = float64(500000 + (i*7919)%10007)
	}
	copy(small, large)
	var ts, tl time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		stats.Summarize(small)
		t1 := time.Now()
		stats.Summarize(large)
		ts, tl = ts+t1.Sub(t0), tl+time.Since(t1)
	}
	b.ReportMetric(float64(tl)/float64(ts), "n10000/n30")
}
