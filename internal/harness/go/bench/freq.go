package bench

import "slices"

// The estimate of a core's clock, here in the driver that every Go
// benchmark links (-freq) and used by the kernel too (stdlib/machine imports
// this package, so there is one chain): time a chain of dependent integer
// additions, one per cycle, so adds per nanosecond is the clock in GHz. On
// amd64 the chain is assembly, 64 dependent ADDQ per iteration
// (freq_amd64.s); elsewhere compiled Go alternating XOR and ADD
// (FreqChainGo). In the driver a trial lasts about 1 ms; the record keeps
// the fastest of 3 (an interrupt only slows a trial), the median and the
// slowest (their distance from the fastest is the estimate's
// repeatability).

const (
	freqTrials  = 3
	freqTrialNS = 1_000_000
)

// freqIterations is the calibrated trial length, found once per process so
// that the before and after estimates time the same work.
var freqIterations uint64

// freqSink keeps the chain's result.
var freqSink uint64

func freqTime(n uint64) int64 {
	t0 := nanotime()
	freqSink = FreqChain(n, 3)
	return nanotime() - t0
}

func freqCalibrate() uint64 {
	n := uint64(256)
	for range 40 {
		// The faster of two runs: an interrupt in one does not shorten the trials.
		if d := min(freqTime(n), freqTime(n)); d >= freqTrialNS/4 {
			return max(1, uint64(float64(n)*freqTrialNS/float64(d)))
		}
		n *= 2
	}
	return n
}

// freqEstimate writes one freq record; when is "before" or "after".
func (d *driver) freqEstimate(when string) {
	if freqIterations == 0 {
		freqIterations = freqCalibrate()
	}
	n := freqIterations
	var t [freqTrials]int64
	for i := range t {
		t[i] = freqTime(n)
	}
	slices.Sort(t[:])
	best := max(t[0], 1)
	mhz := float64(n) * FreqAdds / float64(best) * 1000
	d.record("freq when=%s mhz=%.3f ns=%d median_ns=%d worst_ns=%d iterations=%d adds=%d", when, mhz, best, t[freqTrials/2],
		t[freqTrials-1], n, FreqAdds)
}

// FreqGoOps is the number of dependent operations in one iteration of
// FreqChainGo.
const FreqGoOps = 8

// FreqChainGo is the chain in Go: per iteration 8 dependent operations that
// alternate XOR and ADD with a value the compiler cannot see, so that it
// cannot fold them (a run of plain adds of one value, it folds into LEAQ
// with a scaled index on amd64). Each takes one cycle on common cores:
// checked in the compiled code for amd64, arm64 and riscv64, where it is 8
// one-cycle instructions, except that amd64 turns two ADDs into LEAQ
// base+index, also one cycle.
func FreqChainGo(iterations, step uint64) uint64 {
	var x uint64
	for ; iterations > 0; iterations-- {
		x ^= step
		x += step
		x ^= step
		x += step
		x ^= step
		x += step
		x ^= step
		x += step
	}
	return x
}
