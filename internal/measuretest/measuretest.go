// Package measuretest gates the tests that really measure: the ones that
// build benchmark kernels, run them through the harness or the protocol and
// assert on what the timings say (a dead loop at least 100x faster, 25% more
// work reads slower, sweeps, fresh processes, latency, frequency, load).
// They run only when BENCHBOOK_MEASURE=1 (`make test-measure`, which CI runs
// after `make test`), so `make test` stays fast and does not depend on how
// quiet the machine is.
//
// Factor is a machine factor, measured once per test binary, that the
// measuring tests scale their deadlines and timeouts by instead of fixed
// wall-clock values.
package measuretest

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Env is the variable that turns the measuring tests on.
const Env = "BENCHBOOK_MEASURE"

// FactorEnv, when set to a number of at least 1, is taken as the factor
// instead of measuring one.
const FactorEnv = "BENCHBOOK_MEASURE_FACTOR"

// Enabled says whether the measuring tests run: BENCHBOOK_MEASURE=1.
func Enabled() bool { return os.Getenv(Env) == "1" }

// underCI is tests/need.py's test: CI set to 1, true or yes.
func underCI() bool {
	switch strings.ToLower(os.Getenv("CI")) {
	case "1", "true", "yes":
		return true
	}
	return false
}

// Gate skips t unless BENCHBOOK_MEASURE=1. Call it first in every test
// that really measures.
func Gate(t testing.TB) {
	t.Helper()
	if Enabled() {
		return
	}
	t.Skip(skipReason())
}

func skipReason() string {
	if underCI() {
		return "a real measurement, not part of `make test`: CI (.ci/run) runs it in `make test-measure` (" + Env + "=1) right after"
	}
	return "a real measurement: run it with `make test-measure` (" + Env + "=1)"
}

// The reference: spin's loop of spinIterations steps is a dependent chain
// that took 3.6 ms (median of 9) on this project's 2-vCPU AMD EPYC VM with
// a load average of 5 (it runs on one CPU, so it mostly got one); rounded
// up so that a quiet machine reads a factor of 1. The load average catches
// what the loop's median misses when the other CPU is the one taken.
const (
	spinIterations = 2 << 20
	spinReference  = 4 * time.Millisecond
	maxFactor      = 10
)

var (
	once   sync.Once
	factor float64
	why    string
)

// Factor is how much slower than a quiet reference machine this one is
// now, at least 1 and at most 10: the larger of a fixed CPU loop's wall
// time (the median of 9 runs) against its reference, and the load average
// over the last minute per CPU. It is measured once per process; the
// variable BENCHBOOK_MEASURE_FACTOR overrides it.
func Factor() float64 {
	once.Do(func() { factor, why = measure() })
	return factor
}

// Explain is how Factor was reached, for a test's log.
func Explain() string {
	Factor()
	return why
}

// Scale is d times Factor: a deadline or timeout of a measuring test.
func Scale(d time.Duration) time.Duration {
	return time.Duration(float64(d) * Factor())
}

func measure() (float64, string) {
	if s := os.Getenv(FactorEnv); s != "" {
		if f, err := strconv.ParseFloat(s, 64); err == nil && f >= 1 && !math.IsInf(f, 0) {
			return f, fmt.Sprintf("factor %.2f from %s", f, FactorEnv)
		}
	}
	runs := make([]time.Duration, 9)
	for i := range runs {
		start := time.Now()
		sink = spin(spinIterations)
		runs[i] = time.Since(start)
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i] < runs[j] })
	cpu := float64(runs[len(runs)/2]) / float64(spinReference)
	load, ok := loadPerCPU()
	f := math.Max(1, math.Max(cpu, load))
	if f > maxFactor {
		f = maxFactor
	}
	s := fmt.Sprintf("factor %.2f: a fixed loop took %v (reference %v, %.2fx)", f, runs[len(runs)/2], spinReference, cpu)
	if ok {
		s += fmt.Sprintf(", load average %.2f per CPU", load)
	}
	return f, s
}

var sink uint64

// spin is a dependent xorshift chain: n steps nothing can fold away.
func spin(n int) uint64 {
	x := uint64(88172645463325252)
	for i := 0; i < n; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

// loadPerCPU is /proc/loadavg's one-minute figure over the CPUs this
// process may use.
func loadPerCPU() (float64, bool) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, false
	}
	fields := strings.Fields(string(b))
	if len(fields) == 0 {
		return 0, false
	}
	l, err := strconv.ParseFloat(fields[0], 64)
	if err != nil {
		return 0, false
	}
	return l / float64(runtime.GOMAXPROCS(0)), true
}
