package machine

import (
	driver "github.com/benchbook/benchbook/stdlib/harness/go/bench"
)

// ClockProbe is one measurement of the clock the harness reads
// (runtime.nanotime, the vDSO's clock_gettime(CLOCK_MONOTONIC)).
type ClockProbe struct {
	GridNS     float64 // granularity: ClockGrid of Spaced
	ReadCostNS float64 // median over blocks of back-to-back reads
	MeanNS     float64 // mean over all back-to-back reads (descheduled time included)
	MinStepNS  int64   // smallest non-zero back-to-back delta
	Reads      int     // back-to-back reads
	Spaced     Ranges  // the values the spaced deltas took
}

// Sizes of one probe: blocks of back-to-back reads, and spaced pairs.
const (
	probeBlocks     = 100
	probeBlockReads = 100
	probePairs      = 4000
	// maxSpacedNS bounds the histogram of spaced deltas; a longer one is
	// an interruption and left out.
	maxSpacedNS = 4096
)

// spinSink keeps the spacing work of spaced pairs.
var spinSink uint64

// ProbeClock measures the clock once: probeBlocks blocks of
// probeBlockReads back-to-back reads (read cost as the median block,
// min step) and probePairs spaced pairs (the grid). About 0.5 ms.
func ProbeClock() ClockProbe {
	p := ClockProbe{Reads: probeBlocks * probeBlockReads}
	blocks := make([]float64, probeBlocks)
	var minStep int64
	prev := driver.Now()
	first := prev
	for b := range blocks {
		start := prev
		for range probeBlockReads {
			t := driver.Now()
			if d := t - prev; d > 0 && (minStep == 0 || d < minStep) {
				minStep = d
			}
			prev = t
		}
		blocks[b] = float64(prev - start)
	}
	p.MeanNS = float64(prev-first) / float64(p.Reads)
	p.ReadCostNS = ReadCost(blocks, probeBlockReads)
	p.MinStepNS = minStep
	p.Spaced = spacedRanges(probePairs)
	p.GridNS = ClockGrid(p.Spaced)
	return p
}

// spacedRanges reads the clock in n pairs with 0 to 127 dependent steps
// between the two reads of a pair (drawn from an LCG) and returns the
// runs of values their deltas took.
func spacedRanges(n int) Ranges {
	count := make([]int64, maxSpacedNS)
	x, rng := uint64(1), uint64(0x9E3779B97F4A7C15)
	for range n {
		rng = rng*6364136223846793005 + 1442695040888963407
		steps := rng >> 57
		t0 := driver.Now()
		for ; steps > 0; steps-- {
			x = x*5 + 1
		}
		d := driver.Now() - t0
		if d >= 0 && d < maxSpacedNS {
			count[d]++
		}
	}
	spinSink = x
	return FrequentRanges(count)
}
