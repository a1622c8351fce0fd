package bench_test

import (
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/internal/protocol/benchtest"
	"github.com/benchbook/benchbook/stdlib/report"
	"github.com/benchbook/benchbook/stdlib/stats"
)

// cost is the time and the bytes allocated by f.
func cost(f func()) (time.Duration, uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	t0 := time.Now()
	f()
	took := time.Since(t0)
	runtime.ReadMemStats(&after)
	return took, after.TotalAlloc - before.TotalAlloc
}

// scaling reports what f(6000) costs over f(600), in time and in bytes
// allocated, measured side by side: an O(n log n) statistic is about 13x
// in time and 10x in memory; an O(n^2) one (the pair statistics as they
// were, every pair stored and sorted) over 100x in both.
func scaling(b *testing.B, f func(n int) func()) {
	small, large := f(600), f(6000)
	var ts, tl time.Duration
	var ms, ml uint64
	for i := 0; i < b.N; i++ {
		t, m := cost(small)
		ts, ms = ts+t, ms+m
		t, m = cost(large)
		tl, ml = tl+t, ml+m
	}
	b.ReportMetric(float64(tl)/float64(ts), "time-n6000/n600")
	b.ReportMetric(float64(ml)/float64(max(ms, 1)), "bytes-n6000/n600")
	b.ReportMetric(float64(ml)/float64(b.N)/(1<<20), "MB-n6000")
}

func samples(n int, seed uint64, median float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	x := make([]float64, n)
	for i := range x {
		x[i] = median * (1 + 0.05*rng.NormFloat64())
	}
	return x
}

// Issue 23 item 3: the pair statistics over samples are O(n log n) time
// and O(n) memory (the Walsh averages and differences are selected, never
// stored).
func BenchmarkComparePaired6000Over600(b *testing.B) {
	scaling(b, func(n int) func() {
		x, y := samples(n, 1, 100), samples(n, 2, 101)
		return func() { _, _ = stats.ComparePaired(x, y, 0.05) }
	})
}

func BenchmarkCompareUnpaired6000Over600(b *testing.B) {
	scaling(b, func(n int) func() {
		x, y := samples(n, 3, 100), samples(n, 4, 101)
		return func() { _, _ = stats.CompareUnpaired(x, y, 0.05) }
	})
}

func BenchmarkPairDifference6000Over600(b *testing.B) {
	scaling(b, func(n int) func() {
		x := samples(n, 5, 100)
		return func() { _ = protocol.PairDifference(x, protocol.PairQuantile) }
	})
}

// What recover's assemble and verify compute from the samples of a result
// (comparisons, the A/A control, findings, the tables and commentary the
// notebook shows), for a result of reps=runs=6000 over one of 600.
func BenchmarkResultAnalysis6000Over600(b *testing.B) {
	scaling(b, func(n int) func() {
		spec := benchtest.Spec{Seed: 7, Reps: n, Runs: n, FreqMHz: 3000, ReadNS: 20, Variants: []benchtest.VariantSpec{
			{Name: "sink", MedianNS: 700000, Spread: 0.02}, {Name: "checksum", MedianNS: 710000, Spread: 0.02}}}
		return func() {
			r := benchtest.Synthetic(spec)
			_ = report.Result(r)
			_ = report.Commentary(r)
		}
	})
}
