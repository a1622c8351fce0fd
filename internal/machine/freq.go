package machine

import (
	"fmt"
	"time"

	driver "github.com/benchbook/benchbook/internal/harness/go/bench"
)

// Trials of EstimateFrequency: the best of estimateTrials runs of about
// estimateTrialTime each. A trial that the scheduler interrupts only gets
// slower, so the fastest is the closest to the clock.
const (
	estimateTrials    = 5
	estimateTrialTime = 2 * time.Millisecond
)

// EstimateFrequency estimates the clock of the CPU it runs on, in MHz, by
// timing a long chain of dependent integer additions: each add needs the
// result of the one before, so a core completes one per cycle, and adds per
// nanosecond is the clock in GHz. The chain is the one every Go
// benchmark's driver times for its -freq records (driver.FreqChain): on
// amd64 assembly, 64 dependent ADDQ per loop iteration; on other arches
// compiled Go alternating XOR and ADD, less exact because the compiler
// picks the instructions.
//
// It is an estimate of the effective clock while it runs: with turbo it
// gives the boosted clock of that moment; in a VM it gives the clock the
// vCPU really gets, which may differ from the nominal "cpu MHz" of
// /proc/cpuinfo; a thread sharing the core (SMT) may lower it. It takes the
// best of several trials of a few milliseconds each, about 15 ms in all.
func EstimateFrequency() (mhz float64, err error) {
	return estimateFrequency(driver.FreqChain, driver.FreqAdds)
}

// estimateFrequency sizes a trial of chain to about estimateTrialTime and
// returns the operations per microsecond of the fastest of estimateTrials.
func estimateFrequency(chain func(iterations, step uint64) uint64, opsPerIteration int) (float64, error) {
	n, err := calibrateChain(chain)
	if err != nil {
		return 0, err
	}
	best := time.Duration(1<<63 - 1)
	for range estimateTrials {
		best = min(best, timeChain(chain, n))
	}
	if best <= 0 {
		return 0, fmt.Errorf("frequency estimate: %d iterations took no time on the monotonic clock", n)
	}
	return float64(n) * float64(opsPerIteration) / float64(best.Nanoseconds()) * 1000, nil
}

// calibrateChain returns the number of iterations of chain that takes
// about estimateTrialTime: it doubles a short run until it takes at least a
// quarter of that, then scales. The first runs also wake an idle core.
func calibrateChain(chain func(iterations, step uint64) uint64) (uint64, error) {
	n := uint64(256)
	for range 40 {
		d := timeChain(chain, n)
		if d >= estimateTrialTime/4 {
			return max(1, uint64(float64(n)*float64(estimateTrialTime)/float64(d))), nil
		}
		n *= 2
	}
	return 0, fmt.Errorf("frequency estimate: %d iterations of the add chain still took under %v", n, estimateTrialTime/4)
}

// timeChain times one run of n iterations of chain. The call goes through
// a func value, which the compiler can neither inline nor drop.
func timeChain(chain func(iterations, step uint64) uint64, n uint64) time.Duration {
	start := time.Now()
	chain(n, 3)
	return time.Since(start)
}
