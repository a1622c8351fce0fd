package bench

import "slices"

// The driver's estimate of its own core clock (-freq), the method of
// stdlib/machine/freq.go: time a chain of dependent integer additions, one
// per cycle, so adds per nanosecond is the clock in GHz. On amd64 the chain
// is assembly, 64 dependent ADDQ per iteration (freq_amd64.s); elsewhere
// compiled Go alternating XOR and ADD (freqChainGo). A trial lasts about
// 1 ms; the record keeps the fastest of 3 (an interrupt only slows a
// trial), the median and the slowest (their distance from the fastest is
// the estimate's repeatability).

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
	freqSink = freqChain(n, 3)
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
	mhz := float64(n) * freqAdds / float64(best) * 1000
	d.record("freq when=%s mhz=%.3f ns=%d median_ns=%d worst_ns=%d iterations=%d adds=%d", when, mhz, best, t[freqTrials/2],
		t[freqTrials-1], n, freqAdds)
}

// freqChainGo is the portable chain: 8 dependent operations per iteration
// that alternate XOR and ADD with a value the compiler cannot see.
func freqChainGo(iterations, step uint64) uint64 {
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
