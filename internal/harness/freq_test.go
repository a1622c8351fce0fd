package harness

import (
	"slices"
	"testing"

	"github.com/benchbook/benchbook/internal/records"
)

// With -freq both drivers write one freq record before the measured
// rounds and one after, and each is consistent: mhz is iterations × adds
// over the fastest trial, the slowest trial is not faster, a trial lasts
// about the 1 ms it was calibrated to (between 0.2 and 50 ms on a shared
// machine), and the clock read is one a CPU can have (100 MHz to 10 GHz).
func TestFreqRecords(t *testing.T) {
	for _, lang := range []string{"c", "go"} {
		k := seedKernel(t, lang)
		lines, status := rawLines(t, k, "-slots", "sink", "-settle-ms", "1", "-rounds", "3", "-freq")
		if status != 0 {
			t.Fatalf("%s: exit status %d: %q", lang, status, lines)
		}
		var whens []string
		var iters []int64
		sawSample := false
		for _, line := range lines {
			rec, ok := records.Parse(line)
			if !ok {
				t.Fatalf("%s: %q is no record", lang, line)
			}
			if rec.Kind == "sample" {
				sawSample = true
				if len(whens) != 1 {
					t.Errorf("%s: a sample before the before estimate, or after the after: %v", lang, whens)
				}
			}
			if rec.Kind != "freq" {
				continue
			}
			whens = append(whens, rec.Fields["when"])
			mhz, e1 := rec.Float("mhz")
			ns, e2 := rec.Int("ns")
			worst, e3 := rec.Int("worst_ns")
			mid, e6 := rec.Int("median_ns")
			n, e4 := rec.Int("iterations")
			adds, e5 := rec.Int("adds")
			for _, err := range []error{e1, e2, e3, e4, e5, e6} {
				if err != nil {
					t.Fatalf("%s: %v", lang, err)
				}
			}
			iters = append(iters, n)
			if want := float64(n) * float64(adds) / float64(ns) * 1000; mhz < want*0.999 || mhz > want*1.001 {
				t.Errorf("%s: %q: mhz %g, iterations x adds / ns says %g", lang, line, mhz, want)
			}
			if mid < ns || worst < mid {
				t.Errorf("%s: %q: the trials are not in order fastest, median, slowest", lang, line)
			}
			if ns < 200_000 || ns > 50_000_000 {
				t.Errorf("%s: %q: a trial took %d ns, calibrated to about 1 ms", lang, line, ns)
			}
			if mhz < 100 || mhz > 10_000 {
				t.Errorf("%s: %q: %g MHz is no CPU's clock", lang, line, mhz)
			}
			t.Logf("%s: %s", lang, line)
		}
		if len(whens) != 2 || whens[0] != "before" || whens[1] != "after" || !sawSample {
			t.Errorf("%s: freq records %v, want before then after around the samples", lang, whens)
		}
		if len(iters) == 2 && iters[0] != iters[1] {
			t.Errorf("%s: before and after timed %d and %d iterations; the calibration is once per process", lang, iters[0], iters[1])
		}
	}
}

// Without -freq no freq record is written (the option is what asks).
func TestFreqRecordsOnlyWhenAsked(t *testing.T) {
	for _, lang := range []string{"c", "go"} {
		lines, _ := rawLines(t, seedKernel(t, lang), "-slots", "sink", "-settle-ms", "1", "-rounds", "1")
		for _, line := range lines {
			if rec, ok := records.Parse(line); ok && rec.Kind == "freq" {
				t.Errorf("%s: %q without -freq", lang, line)
			}
		}
	}
}

// The warmup is the last thing a process does before its first measured
// pass: the clock estimate and the batch calibration come before it, so
// nothing that leaves the data alone for milliseconds (on a shared VM long
// enough for other work on the core to evict it) sits between the warmup
// and the measurement (harness version 4; in version 3 the estimate did).
// And no system call does (harness version 10): the warmup's record comes
// after the first sample, that sample's faults are not counted (-1), and
// the syscalls record says none came between the warmup and it, and at
// most three between two measured passes (the fault count and the record,
// and after the first sample the warmup's record).
func TestWarmupLastBeforeSamples(t *testing.T) {
	for _, lang := range []string{"c", "go"} {
		k := seedKernel(t, lang)
		lines, status := rawLines(t, k, "-slots", "sink", "-settle-ms", "1", "-rounds", "3", "-freq", "-calibrate-reads", "100")
		if status != 0 {
			t.Fatalf("%s: exit status %d: %q", lang, status, lines)
		}
		var order []string
		var flts []int64
		var sys *records.Record
		for _, line := range lines {
			rec, ok := records.Parse(line)
			if !ok {
				t.Fatalf("%s: %q is no record", lang, line)
			}
			name := rec.Kind
			if rec.Kind == "phase" || rec.Kind == "freq" {
				name += " " + rec.Fields["name"] + rec.Fields["when"]
			}
			switch rec.Kind {
			case "sample":
				f, _ := rec.Int("minflt")
				flts = append(flts, f)
			case "syscalls":
				sys = &rec
			}
			order = append(order, name)
		}
		first := slices.Index(order, "sample")
		if first < 2 || order[first-1] != "freq before" || order[first+1] != "phase warmup" {
			t.Errorf("%s: around the first sample %q, want the clock estimate, the sample, then the warmup's record", lang, order[max(0, first-3):min(len(order), first+3)])
		}
		if len(flts) != 3 || flts[0] != -1 || flts[1] < 0 || flts[2] < 0 {
			t.Errorf("%s: the samples' faults %v, want -1 (not counted after the warmup) and then counts", lang, flts)
		}
		if sys == nil {
			t.Fatalf("%s: no syscalls record", lang)
		}
		after, _ := sys.Int("after_discarded")
		between, _ := sys.Int("between")
		samples, _ := sys.Int("samples")
		if after != 0 || between != 3 || samples != 3 {
			t.Errorf("%s: %+v, want no system call after the warmup and 3 between measured passes, over 3 samples", lang, sys.Fields)
		}
	}
}
