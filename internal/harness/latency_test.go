package harness

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/benchbook/benchbook/internal/measuretest"
	"github.com/benchbook/benchbook/internal/records"
)

// spikyKernel builds testdata/spiky.c or spiky_go.txt: BENCH_OPS variant
// spiky (10000 operations per pass, every 1000th spins 20 us) and BENCH
// variant plain.
func spikyKernel(t *testing.T, lang string) *Kernel {
	t.Helper()
	spikyKernels.Lock()
	defer spikyKernels.Unlock()
	if k := spikyKernels.k[lang]; k != nil {
		return k
	}
	file := map[string]string{"c": "testdata/spiky.c", "go": "testdata/spiky_go.txt"}[lang]
	code, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	k := build(t, Spec{Name: "spiky", Lang: lang, Code: string(code), Line: 2, Label: "Cell[1]", CacheDir: sharedCacheDir})
	if spikyKernels.k == nil {
		spikyKernels.k = map[string]*Kernel{}
	}
	spikyKernels.k[lang] = k
	return k
}

var spikyKernels struct {
	sync.Mutex
	k map[string]*Kernel
}

// latencySpecRuns runs the spiky kernels of both languages for
// TestRecordsSpec: every line is a record of records.md.
func latencySpecRuns(t *testing.T, used map[string]bool) {
	for _, lang := range []string{"c", "go"} {
		k := spikyKernel(t, lang)
		lines, status := rawLines(t, k, "-slots", "spiky,plain,spiky", "-settle-ms", "1", "-rounds", "2", "-cold", "spiky")
		if status != 0 {
			t.Errorf("%s spiky: exit status %d", lang, status)
		}
		for _, line := range lines {
			if err := records.CheckLine(line); err != nil {
				t.Errorf("%s spiky: %q: %v", lang, line, err)
				continue
			}
			used[formLine(line)] = true
		}
	}
}

// Both drivers: the latency record counts exactly ops times the measured
// passes (not the cold pass, settle or warmup), the buckets add up to it,
// nonempty is the number of buckets listed, the longest operation is at
// least the 20 us spin, the tick rate was measured twice, and a plain
// BENCH slot has no latency record.
func TestLatencyRecords(t *testing.T) {
	for _, lang := range []string{"c", "go"} {
		t.Run(lang, func(t *testing.T) {
			k := spikyKernel(t, lang)
			for _, v := range k.Variants {
				if want := map[string]string{"spiky": "10000", "plain": ""}[v.Name]; v.Ops != want {
					t.Errorf("variant %s: Ops %q, want %q", v.Name, v.Ops, want)
				}
				if na := strings.Contains(v.Finding, "the dead-code check does not apply"); na != (v.Ops != "") {
					t.Errorf("variant %s: finding %q", v.Name, v.Finding)
				}
			}
			var ts unix.Timespec
			_ = unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts)
			before := ts.Nano()
			recs := runKernel(t, k, "-slots", "plain,spiky", "-cold", "spiky", "-settle-ms", "5", "-warmup", "2", "-rounds", "3")
			_ = unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts)
			after := ts.Nano()
			var lat []records.Record
			var ticks, buckets []string
			for _, r := range recs {
				switch r.Kind {
				case "latency":
					lat = append(lat, r)
				case "latency_buckets":
					if r.Fields["slot"] != "1" {
						t.Errorf("latency_buckets of slot %s", r.Fields["slot"])
					}
					buckets = append(buckets, strings.Split(r.Fields["buckets"], ",")...)
				case "ticks":
					ticks = append(ticks, r.Fields["when"])
				}
			}
			if !slices.Equal(ticks, []string{"start", "end"}) {
				t.Errorf("ticks records %v, want start and end", ticks)
			}
			if len(lat) != 1 || lat[0].Fields["slot"] != "1" || lat[0].Fields["variant"] != "spiky" {
				t.Fatalf("latency records %+v, want one for slot 1 (spiky)", lat)
			}
			l := lat[0]
			n, _ := l.Int("n")
			ops, _ := l.Int("ops")
			passes, _ := l.Int("passes")
			if ops != 10000 || passes != 3 || n != 30000 {
				t.Errorf("ops %d passes %d n %d, want 10000, 3 and 30000", ops, passes, n)
			}
			var sum int64
			for _, b := range buckets {
				_, c, _ := strings.Cut(b, ":")
				v, err := strconv.ParseInt(c, 10, 64)
				if err != nil {
					t.Fatalf("bucket %q: %v", b, err)
				}
				sum += v
			}
			if nonempty, _ := l.Int("nonempty"); sum != n || nonempty != int64(len(buckets)) {
				t.Errorf("buckets add up to %d (want n %d), %d listed (nonempty says %d)", sum, n, len(buckets), nonempty)
			}
			rate, _ := l.Float("ticks_per_us")
			maxTicks, _ := l.Float("max_ticks")
			if rate <= 0 || maxTicks/rate < 20 {
				t.Errorf("max %.0f ticks at %.1f per us: below the 20 us spin", maxTicks, rate)
			}
			// Where the worst was: a pass and an operation of those
			// measured, begun while the process ran; the empty
			// operations' worst is at least their median.
			maxPass, _ := l.Int("max_pass")
			maxOp, _ := l.Int("max_op")
			at, _ := l.Int("max_at_ns")
			emptyMax, _ := l.Int("empty_max_ticks")
			overhead, _ := l.Int("overhead_ticks")
			if maxPass < 0 || maxPass >= passes || maxOp < 0 || maxOp >= ops || at < before || at > after || emptyMax < overhead {
				t.Errorf("worst at pass %d op %d, %d ns (run %d..%d); empty worst %d ticks, median %d", maxPass, maxOp, at, before, after, emptyMax, overhead)
			}
			// What the thread waited during the worst's pass: read (not
			// -1) where the kernel has schedstat, never negative.
			delay, e1 := l.Int("max_run_delay_ns")
			nivcsw, e2 := l.Int("max_nivcsw")
			if e1 != nil || e2 != nil || delay < -1 || nivcsw < 0 || (delay == -1) != !haveSchedstat() {
				t.Errorf("max_run_delay_ns %d, max_nivcsw %d (%v, %v); schedstat readable: %v", delay, nivcsw, e1, e2, haveSchedstat())
			}
		})
	}
}

func haveSchedstat() bool {
	_, err := os.Stat("/proc/thread-self/schedstat")
	return err == nil
}

// Both drivers measure a preemption: with a busy loop pinned to CPU 0
// beside a kernel pinned there too, the scheduler shares the CPU between
// them, and once a turn of the spinner falls inside an operation, that
// operation is the longest and the latency record says that the thread
// waited (run delay > 0) during its pass. A turn can also fall between
// passes, so a run whose worst pass did not wait is tried again, up to
// five runs of 300 rounds (one run of 60 rounds had a worst of 56 us, one
// of the kernel's own spins; of 12 runs of 300 rounds, 3 needed a second). On a quiet CPU nothing can be
// asserted: a run delay of 0 is likely, not certain.
func TestLatencyPreempted(t *testing.T) {
	measuretest.Gate(t)
	if !haveSchedstat() {
		t.Skip("no /proc/thread-self/schedstat")
	}
	if _, err := exec.LookPath("taskset"); err != nil {
		t.Skip("no taskset")
	}
	for _, lang := range []string{"c", "go"} {
		t.Run(lang, func(t *testing.T) {
			k := spikyKernel(t, lang)
			spin := exec.Command("taskset", "-c", "0", "sh", "-c", "while :; do :; done")
			if err := spin.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { _ = spin.Process.Kill(); _ = spin.Wait() }()
			time.Sleep(20 * time.Millisecond)
			for try := 1; try <= 5; try++ {
				recs := runKernel(t, k, "-slots", "spiky", "-pin", "0", "-settle-ms", "20", "-warmup", "1", "-rounds", "300")
				r := recordOf(t, recs, "latency", "")
				delay, e1 := r.Int("max_run_delay_ns")
				nivcsw, e2 := r.Int("max_nivcsw")
				maxTicks, _ := r.Float("max_ticks")
				rate, _ := r.Float("ticks_per_us")
				if e1 != nil || e2 != nil {
					t.Fatalf("latency record without the waits: %v %v", e1, e2)
				}
				t.Logf("run %d: worst %.0f us; its pass waited %d ns, %d involuntary switches", try, maxTicks/rate, delay, nivcsw)
				if delay > 0 {
					return
				}
			}
			t.Errorf("a spinner shared the CPU for five runs, and in none did the worst operation's pass record a run delay")
		})
	}
}

// Misused operations fail the run with the cell's line; an n below 1 is
// refused before compiling.
func TestLatencyBadInput(t *testing.T) {
	cases := []struct {
		lang, name, code, want string
	}{
		{"c", "nested", "static volatile int x;\nBENCH_OPS(v, 2) {\n  for (int i = 0; i < 2; i++) {\n    BENCH_OP_BEGIN;\n    BENCH_OP_BEGIN;\n    x++;\n    BENCH_OP_END;\n  }\n}",
			"BENCH_OP_BEGIN again before BENCH_OP_END (line 7"},
		{"c", "no end", "static volatile int x;\nBENCH_OPS(v, 1) {\n  BENCH_OP_BEGIN;\n  x++;\n}", "BENCH_OP_BEGIN at line 5 has no BENCH_OP_END"},
		{"c", "fewer", "static volatile int x;\nBENCH_OPS(v, 100) {\n  for (int i = 0; i < 99; i++) { BENCH_OP_BEGIN; x++; BENCH_OP_END; }\n}",
			"BENCH_OPS(v, 100) at line 4: a pass did 99 operations"},
		{"c", "plain", "static volatile int x;\nBENCH(v) {\n  BENCH_OP_BEGIN; x++; BENCH_OP_END;\n}", "BENCH_OP_BEGIN at line 5 is in BENCH(v)"},
		{"go", "nested", "var x int\n\n//bench:ops 2\nfunc BenchV(op *bench.Op) {\n\tfor i := 0; i < 2; i++ {\n\t\top.Begin()\n\t\top.Begin()\n\t\tx++\n\t\top.End()\n\t}\n}",
			"op.Begin called again before op.End (line 9)"},
		{"go", "no end", "var x int\n\n//bench:ops 1\nfunc BenchV(op *bench.Op) {\n\top.Begin()\n\tx++\n}", "op.Begin without op.End in the same pass of v (line 6)"},
		{"go", "fewer", "var x int\n\n//bench:ops 100\nfunc BenchV(op *bench.Op) {\n\tfor i := 0; i < 99; i++ {\n\t\top.Begin()\n\t\tx++\n\t\top.End()\n\t}\n}",
			"v (line 6, //bench:ops 100): a pass did 99 operations"},
	}
	// Cell line 3 is the first line of the code.
	for _, tc := range cases {
		t.Run(tc.lang+" "+tc.name, func(t *testing.T) {
			k := build(t, Spec{Name: "bad", Lang: tc.lang, Code: tc.code, Line: 3, Label: "Cell[1]", CacheDir: sharedCacheDir})
			lines, status := rawLines(t, k, "-slots", "v", "-settle-ms", "1", "-rounds", "1")
			if status != 2 {
				t.Errorf("exit status %d, want 2", status)
			}
			if last := lines[len(lines)-1]; !strings.HasPrefix(last, "error msg=") || !strings.Contains(last, tc.want) {
				t.Errorf("last record %q, want an error with %q", last, tc.want)
			}
		})
	}
	refused := []struct{ lang, code, want string }{
		{"c", "BENCH_OPS(v, 0) { }", "BENCH_OPS(v, 0): the number of operations per pass must be at least 1"},
		{"go", "//bench:ops -3\nfunc BenchV(op *bench.Op) {}", "//bench:ops -3 of BenchV: the number of operations per pass must be at least 1"},
		{"go", "func BenchV(op *bench.Op) {}", "needs the number of operations per pass on the line above it: //bench:ops N"},
	}
	for _, tc := range refused {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		_, err := Build(ctx, Spec{Name: "bad", Lang: tc.lang, Code: tc.code, Line: 7, Label: "Cell[1]", CacheDir: t.TempDir()})
		cancel()
		e, ok := err.(*Error)
		if !ok || !strings.Contains(e.Message, tc.want) || e.Line < 6 || e.Line > 8 {
			t.Errorf("%s %q: error %v, want %q at line 7 (or the directive's)", tc.lang, tc.code, err, tc.want)
		}
	}
}

// A histogram of hundreds of buckets goes out in several latency_buckets
// records, each one line under the C driver's 1024-byte buffer, and none
// is lost: they add up to n, nonempty of them.
func TestLatencyManyBuckets(t *testing.T) {
	codes := map[string]string{
		"c": "static volatile unsigned long x;\nBENCH_OPS(spread, 3000) {\n  for (int i = 0; i < 3000; i++) {\n    BENCH_OP_BEGIN;\n" +
			"    for (int j = 0; j < (i * 7919) % 3000 * 8; j++) x++;\n    BENCH_OP_END;\n  }\n}",
		"go": "var x uint64\n\n//bench:ops 3000\nfunc BenchSpread(op *bench.Op) {\n\tfor i := 0; i < 3000; i++ {\n\t\top.Begin()\n" +
			"\t\tfor j := 0; j < (i*7919)%3000; j++ {\n\t\t\tx++\n\t\t}\n\t\top.End()\n\t}\n}",
	}
	for lang, code := range codes {
		t.Run(lang, func(t *testing.T) {
			k := build(t, Spec{Name: "spread", Lang: lang, Code: code, Line: 2, Label: "Cell[1]", CacheDir: sharedCacheDir})
			lines, status := rawLines(t, k, "-slots", "spread", "-settle-ms", "1", "-rounds", "2")
			if status != 0 {
				t.Fatalf("exit status %d", status)
			}
			var parts, buckets int
			var sum, n, nonempty int64
			for _, line := range lines {
				if len(line) >= 1023 {
					t.Errorf("a record of %d bytes", len(line))
				}
				r, ok := records.Parse(line)
				switch {
				case !ok:
				case r.Kind == "latency_buckets":
					parts++
					for _, b := range strings.Split(r.Fields["buckets"], ",") {
						_, c, _ := strings.Cut(b, ":")
						v, _ := strconv.ParseInt(c, 10, 64)
						sum += v
						buckets++
					}
				case r.Kind == "latency":
					n, _ = r.Int("n")
					nonempty, _ = r.Int("nonempty")
				}
			}
			if parts < 2 || sum != n || n != 6000 || int64(buckets) != nonempty {
				t.Errorf("%d latency_buckets records of %d buckets adding up to %d; latency n %d, nonempty %d", parts, buckets, sum, n, nonempty)
			}
		})
	}
}
