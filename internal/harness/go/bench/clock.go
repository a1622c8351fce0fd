package bench

import (
	"fmt"
	"slices"
	"strings"
)

// The clock measured right (records.md, `clock`; the C driver does the
// same in driver.c): the smallest delta of back-to-back reads is one
// read's cost, not the clock's step, and a mean over the reads counts the
// time the thread was descheduled. So the read cost is the median block
// of back-to-back reads, and the values the deltas of spaced pairs of
// reads take are kept as runs, from which the host reads the grid
// (stdlib/machine's ClockGrid, which the fingerprint uses too: machine
// takes its measurements from here).
const (
	ClockBlocks     = 2000
	ClockBlockReads = 100
	ClockPairs      = 4000
	// ClockMaxDelta bounds the histogram of spaced deltas: a longer one
	// is an interruption.
	ClockMaxDelta = 4096
	// ClockMaxRanges bounds the runs a record lists.
	ClockMaxRanges = 48
)

// clockSink keeps the spacing work.
var clockSink uint64

// ClockReads reads the clock in blocks blocks of reads back-to-back reads
// and returns the median block's time per read, the mean over all reads
// and the smallest non-zero delta.
func ClockReads(blocks, reads int) (median, mean float64, minStep int64) {
	times := make([]int64, blocks)
	prev := Now()
	first := prev
	for b := range times {
		start := prev
		for range reads {
			t := Now()
			if t != prev && (minStep == 0 || t-prev < minStep) {
				minStep = t - prev
			}
			prev = t
		}
		times[b] = prev - start
	}
	mean = float64(prev-first) / float64(blocks*reads)
	slices.Sort(times)
	m := float64(times[blocks/2])
	if blocks%2 == 0 {
		m = float64(times[blocks/2-1]+times[blocks/2]) / 2
	}
	return m / float64(reads), mean, minStep
}

// SpacedDeltas reads the clock in pairs pairs with 0 to 127 dependent
// steps between the two reads of a pair (drawn from an LCG, the C
// driver's) and counts their deltas: count[d] pairs were d ns apart, for
// d below ClockMaxDelta.
func SpacedDeltas(pairs int) []int64 {
	count := make([]int64, ClockMaxDelta)
	x, rng := uint64(1), uint64(0x9E3779B97F4A7C15)
	for range pairs {
		rng = rng*6364136223846793005 + 1442695040888963407
		steps := rng >> 57
		t0 := Now()
		for ; steps > 0; steps-- {
			x = x*5 + 1
		}
		if d := Now() - t0; d >= 0 && d < ClockMaxDelta {
			count[d]++
		}
	}
	clockSink = x
	return count
}

// FrequentRanges writes the runs of adjacent values v that at least one
// count in 1000 of the total (and at least 2) took, as "lo-hi,lo-hi" (a run
// of one value as "v"), at most ClockMaxRanges of them, or "none".
func FrequentRanges(count []int64) string {
	var total int64
	for _, c := range count {
		total += c
	}
	limit := max(2, total/1000)
	var runs []string
	for v := 0; v < len(count) && len(runs) < ClockMaxRanges; v++ {
		if count[v] < limit {
			continue
		}
		hi := v
		for hi+1 < len(count) && count[hi+1] >= limit {
			hi++
		}
		if hi > v {
			runs = append(runs, fmt.Sprintf("%d-%d", v, hi))
		} else {
			runs = append(runs, fmt.Sprint(v))
		}
		v = hi
	}
	if len(runs) == 0 {
		return "none"
	}
	return strings.Join(runs, ",")
}
