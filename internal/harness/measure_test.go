package harness

import (
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/measuretest"
	"github.com/benchbook/benchbook/internal/records"
)

// A store to a static variable of the cell stays between the two clock
// reads of the timed function and inside the loop over k of the batch
// function: benchbook.h puts a compiler barrier at each clock read, since
// glibc declares clock_gettime __leaf__ and a store to memory the call
// cannot see could otherwise move across it.
func TestClockBarrierKeepsStore(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the assembly expectations are for amd64")
	}
	code := "static int n;\nstatic long out;\nBENCH_SETUP() { n = 3; }\nBENCH(store) { out = n * 7L; }\nBENCH(read) { bench_sink(out); }\n"
	k := build(t, Spec{Name: "barrier", Lang: "c", Code: code, Line: 2, Label: "Cell[1]", CacheDir: t.TempDir()})
	v, _ := k.Variant("store")
	stores := func(insts []string) int {
		n := 0
		for _, s := range insts {
			if strings.HasPrefix(s, "mov") && strings.Contains(s, "<out>") && strings.Contains(s, ",") &&
				strings.Index(s, "(%rip)") > strings.Index(s, ",") {
				n++
			}
		}
		return n
	}
	var region []string
	for _, in := range v.Analysis.Region {
		region = append(region, in.Text)
	}
	if stores(region) != 1 {
		t.Errorf("the store to out is not between the two clock reads:\n%s", v.Asm)
	}
	var kLoop []string
	if b := v.BatchAnalysis.Batch; b != nil {
		for _, in := range v.BatchAnalysis.Region {
			if in.Addr >= b.Start && in.Addr <= b.End {
				kLoop = append(kLoop, in.Text)
			}
		}
	}
	if stores(kLoop) != 1 {
		t.Errorf("the store to out is not inside the loop over k of the batch function:\n%s", v.BatchAsm)
	}
}

// Every variant's batch function is disassembled and analysed with the
// loop over k set aside: the batch of a body the compiler removed is not
// live, the batch of a body that keeps its float adds is.
func TestBatchFunctionsAnalysed(t *testing.T) {
	for _, lang := range []string{"c", "go"} {
		t.Run(lang, func(t *testing.T) {
			k := seedKernel(t, lang)
			for _, v := range k.Variants {
				if v.BatchAsm == "" || v.BatchAnalysis.Batch == nil {
					t.Errorf("%s: batch function %q not analysed: %s", v.Name, v.BatchSymbol, v.BatchFinding)
				}
			}
			d, _ := k.Variant("discarded")
			if !d.BatchDead && !d.BatchHollow {
				t.Errorf("discarded: the batch is live: %s\n%s", d.BatchFinding, d.BatchAsm)
			}
			if lang == "c" && runtime.GOARCH == "amd64" && !d.BatchDead {
				t.Errorf("discarded at -O2: the batch should be dead: %s", d.BatchFinding)
			}
			for _, name := range []string{"sink", "checksum"} {
				v, _ := k.Variant(name)
				if v.BatchDead || v.BatchHollow || len(v.BatchAnalysis.Loops) == 0 || v.BatchAnalysis.Loops[0].FPOps() == 0 {
					t.Errorf("%s: the batch should keep its loop of float adds: %s", name, v.BatchFinding)
				}
				if v.BatchAnalysis.Hoisted != 0 {
					t.Errorf("%s: work outside the loop over k: %s", name, v.BatchFinding)
				}
			}
		})
	}
}

// recordOf returns the first record of kind (and, for phase, name) in recs.
func recordOf(t *testing.T, recs []records.Record, kind, name string) records.Record {
	t.Helper()
	for _, r := range recs {
		if r.Kind == kind && (name == "" || r.Fields["name"] == name) {
			return r
		}
	}
	t.Fatalf("no %s %s record in %+v", kind, name, recs)
	return records.Record{}
}

// With -cold-after-setup the cold pass comes after setup and an eviction:
// setup takes the page faults of the kernel's data (its first write), the
// cold pass reads data that is mapped but out of the caches and takes
// none; the default cold pass comes first and says after=start.
func TestColdAfterSetup(t *testing.T) {
	for _, lang := range []string{"c", "go"} {
		t.Run(lang, func(t *testing.T) {
			k := seedKernel(t, lang)
			recs := runKernel(t, k, "-slots", "sink", "-cold", "sink", "-cold-after-setup", "-evict-bytes", "16777216",
				"-settle-ms", "1", "-rounds", "1")
			var order []string
			for _, r := range recs {
				if r.Kind == "cold" || (r.Kind == "phase" && r.Fields["name"] != "gc") {
					order = append(order, r.Kind+" "+r.Fields["name"])
				}
			}
			if strings.Join(order, ",") != "phase setup,phase evict,cold ,phase settle,phase warmup" {
				t.Errorf("order %q, want setup, evict, cold, settle, warmup", order)
			}
			cold := recordOf(t, recs, "cold", "")
			setup := recordOf(t, recs, "phase", "setup")
			evict := recordOf(t, recs, "phase", "evict")
			if b, _ := evict.Int("bytes"); b != 16777216 {
				t.Errorf("evict bytes=%d, want -evict-bytes", b)
			}
			if h, err := evict.Int("huge"); err != nil || h != 0 && h != 1 {
				t.Errorf("evict huge=%q: %v, want 0 or 1", evict.Fields["huge"], err)
			}
			if f, _ := setup.Int("minflt"); f < 1000 {
				t.Errorf("setup writes 4 MiB and took %d page faults, want about 1024", f)
			}
			if f, _ := cold.Int("minflt"); cold.Fields["after"] != "setup" || f > 16 {
				t.Errorf("cold after setup: after=%s minflt=%d, want after=setup and no faults", cold.Fields["after"], f)
			}
			recs = runKernel(t, k, "-slots", "sink", "-cold", "sink", "-settle-ms", "1")
			if c := recordOf(t, recs, "cold", ""); c.Fields["after"] != "start" {
				t.Errorf("default cold pass: after=%s, want start", c.Fields["after"])
			}
			lines, status := rawLines(t, k, "-slots", "sink", "-cold-after-setup")
			if status != 2 || len(lines) == 0 || !strings.Contains(lines[len(lines)-1], "error msg=-cold-after-setup needs -cold") {
				t.Errorf("-cold-after-setup without -cold: status %d, %q", status, lines)
			}
		})
	}
}

// layoutOf runs k with args and returns its layout record's addresses.
func layoutOf(t *testing.T, k *Kernel, args ...string) (stack, heap, text uint64, aslr int64) {
	t.Helper()
	r := recordOf(t, runKernel(t, k, append([]string{"-slots", "discarded", "-settle-ms", "0", "-warmup", "0"}, args...)...), "layout", "")
	addr := func(key string) uint64 {
		v, err := strconv.ParseUint(strings.TrimPrefix(r.Fields[key], "0x"), 16, 64)
		if err != nil || !strings.HasPrefix(r.Fields[key], "0x") {
			t.Fatalf("%s=%q is not a hex address", key, r.Fields[key])
		}
		return v
	}
	aslr, _ = r.Int("aslr")
	return addr("stack_addr"), addr("heap_addr"), addr("text_addr"), aslr
}

// -no-aslr fixes a C kernel's layout: two runs put the stack, the heap and
// the code at the same addresses, where two runs without it (the kernel's
// randomize_va_space being 2) put all three elsewhere. -stack-pad moves
// the stack down by exactly its bytes, -heap-pad the next allocation up by
// its bytes and a malloc header.
func TestLayoutC(t *testing.T) {
	k := seedKernel(t, "c")
	// The arguments are on the initial stack: the runs compared have
	// arguments of the same lengths.
	s1, h1, t1, a1 := layoutOf(t, k, "-no-aslr", "-stack-pad", "0000", "-heap-pad", "0000")
	s2, h2, t2, _ := layoutOf(t, k, "-no-aslr", "-stack-pad", "0000", "-heap-pad", "0000")
	if a1 != 0 || s1 != s2 || h1 != h2 || t1 != t2 {
		t.Errorf("-no-aslr: aslr=%d, stack %#x %#x, heap %#x %#x, text %#x %#x: want aslr=0 and the same addresses", a1, s1, s2, h1, h2, t1, t2)
	}
	sp, hp, tp, _ := layoutOf(t, k, "-no-aslr", "-stack-pad", "4096", "-heap-pad", "4096")
	if s1-sp != 4096 || hp-h1 < 4096 || hp-h1 > 4096+64 || tp != t1 {
		t.Errorf("pads of 4096: stack moved by %d (want 4096 down), heap by %d (want 4096 and a header up), text by %d", int64(s1-sp), int64(hp-h1), int64(tp-t1))
	}
	if b, _ := os.ReadFile("/proc/sys/kernel/randomize_va_space"); strings.TrimSpace(string(b)) != "2" {
		t.Skipf("randomize_va_space is %q, not 2", b)
	}
	r1, q1, c1, a := layoutOf(t, k)
	r2, q2, c2, _ := layoutOf(t, k)
	if a != 1 || r1 == r2 || q1 == q2 || c1 == c2 {
		t.Errorf("without -no-aslr: aslr=%d, stack %#x %#x, heap %#x %#x, text %#x %#x: want aslr=1 and other addresses each run", a, r1, r2, q1, q2, c1, c2)
	}
}

// A Go kernel's code is not position-independent: the same address in
// every run. -no-aslr turns the flag off (aslr=0), and -stack-pad moves the
// stack by whole frames: by at least its bytes and less than a frame more,
// counted within a 4 KiB page (the runtime's randomised heap base, where
// goroutine stacks live, moves whole pages).
func TestLayoutGo(t *testing.T) {
	k := seedKernel(t, "go")
	s1, _, t1, a1 := layoutOf(t, k, "-no-aslr")
	_, _, t2, _ := layoutOf(t, k)
	if a1 != 0 || t1 != t2 {
		t.Errorf("aslr=%d with -no-aslr; text %#x and %#x: want aslr=0 and one address", a1, t1, t2)
	}
	sp, _, _, _ := layoutOf(t, k, "-no-aslr", "-stack-pad", "1000")
	if moved := (s1 - sp) % 4096; moved < 1000 || moved >= 1000+64 {
		t.Errorf("-stack-pad 1000 moved the stack by %d bytes within its page (%#x, %#x)", moved, s1, sp)
	}
}

// -settle-ms 0 runs no settle round in either driver (harness 8; before,
// the loop tested the bound after its first round and so always ran one),
// and a positive bound runs at least one round.
func TestSettleZero(t *testing.T) {
	for _, lang := range []string{"c", "go"} {
		t.Run(lang, func(t *testing.T) {
			k := seedKernel(t, lang)
			none := recordOf(t, runKernel(t, k, "-slots", "sink,discarded", "-settle-ms", "0", "-warmup", "1", "-rounds", "1"), "phase", "settle")
			if p, err := none.Int("passes"); err != nil || p != 0 {
				t.Errorf("-settle-ms 0: passes=%q (%v), want 0", none.Fields["passes"], err)
			}
			some := recordOf(t, runKernel(t, k, "-slots", "sink,discarded", "-settle-ms", "0.001", "-warmup", "0", "-rounds", "1"), "phase", "settle")
			if p, err := some.Int("passes"); err != nil || p < 2 {
				t.Errorf("-settle-ms 0.001: passes=%q (%v), want at least one round of 2 slots", some.Fields["passes"], err)
			}
		})
	}
}

// The eviction before a cold pass after setup flushes the process's own
// pages (harness version 10): a random pointer chase over 8 MiB that setup
// built and so left in the caches reads slower on its cold pass than warm
// (at least 1.2x; quiet, 57 ms against 35), and the flush faults nothing
// in. The flush, not the stream, scales with what the process holds: its
// bytes are at least the chase's and far below a stream of twice the
// last-level cache. The stream (-evict-bytes) is run beside it and logged,
// not compared: on a loaded machine other processes evict the cache too,
// and its cold pass read 59-283 ms against the flush's 53-330.
func TestColdAfterFlush(t *testing.T) {
	measuretest.Gate(t)
	if runtime.GOARCH != "amd64" {
		t.Skip("the flush is CLFLUSH: amd64 only; elsewhere evict writes a stream")
	}
	const setupC = "#define N (1 << 20)\nstatic unsigned long next_[N];\n" +
		"BENCH_SETUP() { for (unsigned long i = 0; i < N; i++) next_[i] = i;\n" +
		"  unsigned long x = 88172645463325252UL; for (unsigned long i = N - 1; i > 0; i--) { x ^= x << 13; x ^= x >> 7; x ^= x << 17;\n" +
		"    unsigned long j = x % i, t = next_[i]; next_[i] = next_[j]; next_[j] = t; } }\n" +
		"BENCH(chase) { unsigned long p = 0; for (long i = 0; i < N; i++) p = next_[p]; bench_sink(p); }\n"
	const setupGo = "const N = 1 << 20\n\nvar next [N]uint64\n\nfunc Setup() {\n\tfor i := range next {\n\t\tnext[i] = uint64(i)\n\t}\n" +
		"\tx := uint64(88172645463325252)\n\tfor i := uint64(N - 1); i > 0; i-- {\n\t\tx ^= x << 13\n\t\tx ^= x >> 7\n\t\tx ^= x << 17\n" +
		"\t\tj := x % i\n\t\tnext[i], next[j] = next[j], next[i]\n\t}\n}\n\n" +
		"func BenchChase() {\n\tvar p uint64\n\tfor i := 0; i < N; i++ {\n\t\tp = next[p]\n\t}\n\tbench.Sink(p)\n}\n"
	for _, tc := range []struct{ lang, code string }{{"c", setupC}, {"go", setupGo}} {
		t.Run(tc.lang, func(t *testing.T) {
			k := build(t, Spec{Name: "chase", Lang: tc.lang, Code: tc.code, Line: 2, Label: "Cell[1]", CacheDir: t.TempDir()})
			// Each side in three processes: the least cold pass, and the
			// least warm pass of all, so that a pass another process
			// preempted (a loaded machine) decides nothing.
			run := func(extra ...string) (cold, warm float64, evict records.Record) {
				cold, warm = math.Inf(1), math.Inf(1)
				for range 3 {
					recs := runKernel(t, k, append([]string{"-slots", "chase", "-cold", "chase", "-cold-after-setup", "-settle-ms", "0", "-rounds", "5"}, extra...)...)
					c := recordOf(t, recs, "cold", "")
					ns, _ := c.Float("ns")
					cold = min(cold, ns)
					if f, _ := c.Int("minflt"); f > 16 {
						t.Errorf("%v: the cold pass took %d page faults after the eviction", extra, f)
					}
					for _, r := range recs {
						if ns, err := r.Float("ns"); r.Kind == "sample" && err == nil {
							warm = min(warm, ns)
						}
					}
					evict = recordOf(t, recs, "phase", "evict")
				}
				return cold, warm, evict
			}
			cold, warm, ev := run()
			if ev.Fields["how"] != "flush" {
				t.Fatalf("evict %v, want how=flush", ev.Fields)
			}
			if b, _ := ev.Int("bytes"); b < 8<<20 || b > 512<<20 {
				t.Errorf("flushed %d bytes: want at least the chase's 8 MiB and nothing like a stream over the cache", b)
			}
			sCold, sWarm, sev := run("-evict-bytes", "268435456")
			if sev.Fields["how"] != "write" {
				t.Errorf("evict %v, want how=write with -evict-bytes", sev.Fields)
			}
			t.Logf("%s: flush: cold %.2f ms, warm %.2f ms (%s); stream: cold %.2f ms, warm %.2f ms (%s)", tc.lang, cold/1e6, warm/1e6, ev.Fields["ns"], sCold/1e6, sWarm/1e6, sev.Fields["ns"])
			if cold < 1.2*warm {
				t.Errorf("after the flush the least cold pass took %.2f ms against %.2f ms warm: the chase was still cached", cold/1e6, warm/1e6)
			}
		})
	}
}
