package protocol

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/benchbook/benchbook/internal/harness"

	"github.com/benchbook/benchbook/internal/measuretest"
)

// syntheticTicks: a fast mode near 40 ticks, a slower one near 5000, a
// tail up to 10^7 and a few huge values, from a fixed seed.
func syntheticTicks(n int) []uint64 {
	rng := rand.New(rand.NewPCG(14, 2))
	out := make([]uint64, n)
	for i := range out {
		switch u := rng.Float64(); {
		case u < 0.9:
			out[i] = uint64(math.Exp(rng.NormFloat64()*0.3 + math.Log(40)))
		case u < 0.995:
			out[i] = uint64(math.Exp(rng.NormFloat64()*0.5 + math.Log(5000)))
		case u < 0.9999:
			out[i] = uint64(math.Exp(rng.Float64() * math.Log(1e7)))
		default:
			out[i] = uint64(1e9 + rng.Int64N(1e9))
		}
	}
	return out
}

func histogram(ticks []uint64) [][2]int64 {
	m := map[int]int64{}
	for _, t := range ticks {
		m[LatencyIndex(t)]++
	}
	var out [][2]int64
	for i := 0; i < 34*LatencyHalf; i++ {
		if m[i] > 0 {
			out = append(out, [2]int64{int64(i), m[i]})
		}
	}
	return out
}

// The histogram's percentiles are those of the data to 3 significant
// digits: the value at rank ceil(qn) lies in [reported, reported*(1+1/1024)).
func TestLatencyPercentilesMatchExact(t *testing.T) {
	ticks := syntheticTicks(200000)
	h := histogram(ticks)
	sorted := slices.Clone(ticks)
	slices.Sort(sorted)
	for _, q := range []float64{0.5, 0.9, 0.99, 0.999, 0.9999, 1} {
		exact := sorted[int(q*float64(len(sorted))+0.999999)-1] // rank ceil(qn), qn to 1e-6 (LatencyPercentile)
		got := LatencyPercentile(h, q)
		if got > exact || float64(exact-got) >= float64(got)/1024+1 {
			t.Errorf("q %g: histogram %d, exact %d: more than one bucket (1/1024) apart", q, got, exact)
		}
	}
	for _, v := range []uint64{0, 1, 2047, 2048, 2049, 4095, 4096, 1 << 20, 1<<43 - 1} {
		lo := LatencyLowest(LatencyIndex(v))
		if lo > v || float64(v-lo) >= float64(lo)/1024+1 {
			t.Errorf("value %d: bucket %d starts at %d", v, LatencyIndex(v), lo)
		}
	}
	if LatencyIndex(1<<50) != LatencyIndex(1<<43-1) || LatencyIndex(1<<43-1) >= 34*LatencyHalf {
		t.Errorf("values above 2^43 are not clamped into the last bucket")
	}
}

// cHistogram runs the C driver's histogram (harness/c/latency.c, through
// harness/testdata/latency_hist.c) on ticks: per value its index and the
// bucket's lowest value, and the percentiles by quantile.
func cHistogram(t *testing.T, ticks []uint64) (idx []int, lowest []uint64, pct map[string]uint64) {
	t.Helper()
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler")
	}
	bin := filepath.Join(t.TempDir(), "hist")
	if out, err := exec.Command("cc", "-std=c11", "-O2", "-I", "../../internal/harness/c", "-o", bin, "../../internal/harness/testdata/latency_hist.c").CombinedOutput(); err != nil {
		t.Fatalf("cc: %v: %s", err, out)
	}
	var in bytes.Buffer
	for _, v := range ticks {
		fmt.Fprintln(&in, v)
	}
	cmd := exec.Command(bin)
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	pct = map[string]uint64{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if f[0] == "p" {
			pct[f[1]], _ = strconv.ParseUint(f[2], 10, 64)
			continue
		}
		i, _ := strconv.Atoi(f[0])
		lo, _ := strconv.ParseUint(f[1], 10, 64)
		idx, lowest = append(idx, i), append(lowest, lo)
	}
	return idx, lowest, pct
}

// The C driver buckets every value as this package does and finds the
// same percentiles (the Go driver's own copy is checked against the C one
// in go/bench).
func TestLatencyHistogramSameInC(t *testing.T) {
	ticks := append(syntheticTicks(50000), 0, 1, 2047, 2048, 4095, 1<<43-1, 1<<50)
	idx, lowest, pct := cHistogram(t, ticks)
	if len(idx) != len(ticks) {
		t.Fatalf("C answered %d values of %d", len(idx), len(ticks))
	}
	for i, v := range ticks {
		if idx[i] != LatencyIndex(v) || lowest[i] != LatencyLowest(idx[i]) {
			t.Fatalf("value %d: C bucket %d from %d, Go %d from %d", v, idx[i], lowest[i], LatencyIndex(v), LatencyLowest(LatencyIndex(v)))
		}
	}
	h := histogram(ticks)
	for q, want := range pct {
		qf, _ := strconv.ParseFloat(q, 64)
		if got := LatencyPercentile(h, qf); got != want {
			t.Errorf("q %s: C %d, Go %d", q, want, got)
		}
	}
}

// The sentences say what the numbers of a simulated latency say: the ratio
// of the worst to the median, the timer as most of the median only when
// its overhead is over half of it, a worst operation standing alone only
// above 10x the p99.99, and a tick rate that moved.
func TestLatencySentences(t *testing.T) {
	mk := func(fast, slow uint64, nslow int, overhead int64, rate0, rate1 float64) *Result {
		ticks := make([]uint64, 100000)
		for i := range ticks {
			ticks[i] = fast
		}
		for i := 0; i < nslow; i++ {
			ticks[i] = slow
		}
		l := &Latency{Buckets: histogram(ticks), MaxTicks: int64(slow), OverheadTicks: overhead, TicksPerUS: (rate0 + rate1) / 2,
			TicksPerUSStart: rate0, TicksPerUSEnd: rate1, OpsPerPass: 10000, Passes: 10, Clock: "rdtsc", CPUFlags: "constant_tsc,nonstop_tsc"}
		l.Summarize()
		return &Result{Variants: []Variant{{Name: "insert", Latency: l}}}
	}
	text := func(r *Result) string {
		var s []string
		for _, x := range Sentences(r) {
			if x.Topic == TopicLatency {
				s = append(s, x.Text)
			}
		}
		return strings.Join(s, " | ")
	}
	// 1000 ticks per us: 20 ns median, one op of 315 us; overhead 8 ns.
	alone := text(mk(20, 315000, 1, 8, 1000, 1000))
	for _, want := range []string{"the slowest of 100,000 operations of insert took 315 µs, 15,800 times the median 20 ns", "p99 20 ns",
		"stands alone: 315 µs is 15,800 times the p99.99 20 ns", "is 8 ns, included in every percentile"} {
		if !strings.Contains(alone, want) {
			t.Errorf("missing %q in: %s", want, alone)
		}
	}
	if strings.Contains(alone, "mostly the timer") || strings.Contains(alone, "doubtful") {
		t.Errorf("overhead 8 ns of a 20 ns median, steady rate: %s", alone)
	}
	// 20 slow ops of 100k: p99.99 is slow, the worst does not stand alone;
	// overhead 12 of 20 ns; the rate moved 2%.
	tail := text(mk(20, 5000, 20, 12, 990, 1010))
	if strings.Contains(tail, "stands alone") || !strings.Contains(tail, "the median is mostly the timer") ||
		!strings.Contains(tail, "rate moved by 2%") {
		t.Errorf("tail of 20, overhead 12 of 20 ns, rate 990 then 1010: %s", tail)
	}
}

// spikyKernel builds harness/testdata/spiky.c or spiky_go.txt: BENCH_OPS
// variant spiky, 10000 operations per pass, every 1000th spins 20 us.
func spikyKernel(t *testing.T, lang string) *harness.Kernel {
	t.Helper()
	src := map[string]string{"c": "../../internal/harness/testdata/spiky.c", "go": "../../internal/harness/testdata/spiky_go.txt"}[lang]
	code, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	k, err := harness.Build(ctx, harness.Spec{Name: "spiky", Lang: lang, Code: string(code), Line: 2, Label: "Cell[1]",
		CacheDir: filepath.Join(os.TempDir(), "benchbook-test-cache")})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// End to end, both languages: the in-process series' operations are all
// there (reps times 10000), the worst is at least 100 times the median,
// the p99.99 is a 20 us spin while the p99 is not, and the commentary
// reports the worst operation.
func TestLatencySpiky(t *testing.T) {
	measuretest.Gate(t)
	for _, lang := range []string{"c", "go"} {
		t.Run(lang, func(t *testing.T) {
			r := quickRun(t, spikyKernel(t, lang), "fresh=spiky")
			l := r.Variant("spiky").Latency
			if l == nil {
				t.Fatalf("no latency for spiky: %+v", r.Variant("spiky"))
			}
			if r.Variant("plain").Latency != nil {
				t.Errorf("plain, a BENCH variant, has a latency")
			}
			if l.N != int64(r.Protocol.Reps)*10000 || l.Passes != int64(r.Protocol.Reps) || l.OpsPerPass != 10000 {
				t.Errorf("n %d over %d passes of %d, want %d passes of 10000", l.N, l.Passes, l.OpsPerPass, r.Protocol.Reps)
			}
			if l.P50NS <= 0 || l.MaxNS/l.P50NS < 100 {
				t.Errorf("max %v ns, p50 %v ns: want at least 100x", l.MaxNS, l.P50NS)
			}
			// One op in 1000 spins: the p99.9 (rank 99.9% of n) is the
			// slowest of the fast ones, the p99.99 a spin.
			if l.P9999NS < 15000 || l.P99NS > 5000 {
				t.Errorf("p99 %v ns, p99.99 %v ns: want the 20 us spins in the top 0.1%% only", l.P99NS, l.P9999NS)
			}
			if l.OverheadNS <= 0 || l.TicksPerUSStart <= 0 || l.TicksPerUSEnd <= 0 {
				t.Errorf("overhead %v ns, rates %v and %v", l.OverheadNS, l.TicksPerUSStart, l.TicksPerUSEnd)
			}
			if !hasFinding(r, KindLatency, "spiky") {
				t.Errorf("no latency finding: %+v", r.Findings)
			}
			t.Logf("%s: %s; rates %.3f %.3f", lang, latencyLine(l), l.TicksPerUSStart, l.TicksPerUSEnd)
		})
	}
}
