package machine

import (
	"strings"

	driver "github.com/benchbook/benchbook/internal/harness/go/bench"
)

// ClockProbe is one measurement of the clock the harness reads
// (runtime.nanotime, the vDSO's clock_gettime(CLOCK_MONOTONIC)), as the Go
// driver's clock record takes it.
type ClockProbe struct {
	GridNS     float64 // granularity: ClockGrid of Spaced
	ReadCostNS float64 // median over blocks of back-to-back reads
	MeanNS     float64 // mean over all back-to-back reads (descheduled time included)
	MinStepNS  int64   // smallest non-zero back-to-back delta
	Reads      int     // back-to-back reads
	Spaced     Ranges  // the values the spaced deltas took
}

// Sizes of one probe: smaller than the driver's (a fingerprint takes five).
const (
	probeBlocks     = 100
	probeBlockReads = 100
	probePairs      = 4000
)

// ProbeClock measures the clock once with the Go driver's functions:
// probeBlocks blocks of probeBlockReads back-to-back reads (the read cost
// as the median block, the mean, the smallest step) and probePairs spaced
// pairs (the grid). About 0.5 ms.
func ProbeClock() ClockProbe {
	p := ClockProbe{Reads: probeBlocks * probeBlockReads}
	p.ReadCostNS, p.MeanNS, p.MinStepNS = driver.ClockReads(probeBlocks, probeBlockReads)
	rs, err := ParseRanges(strings.TrimPrefix(driver.FrequentRanges(driver.SpacedDeltas(probePairs)), "none"))
	if err == nil {
		p.Spaced = rs
	}
	p.GridNS = ClockGrid(p.Spaced)
	return p
}
