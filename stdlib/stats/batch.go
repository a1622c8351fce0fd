package stats

import "math"

// MaxBatch is the largest batch BatchK returns, as testing.B caps b.N.
const MaxBatch = 1_000_000_000

// BatchK returns the next batch size (passes per timed sample) when a batch of
// prev passes took passNS nanoseconds in all and a timed sample should take
// about targetNS. It follows predictN in Go's testing/benchmark.go: aim 20%
// over the target (k = floor(targetNS*prev/passNS), plus floor(k/5)), grow at
// most 100x and at least by one, and never exceed MaxBatch. Like predictN it
// always grows, so call it only while passNS < targetNS.
//
// A prev below 1 counts as 1; a passNS that is not positive (a pass faster
// than the clock) counts as 1 ns, as predictN does; a targetNS that is not a
// number gives prev+1.
func BatchK(passNS, targetNS float64, prev int) int {
	last := float64(max(prev, 1))
	if !(passNS > 0) {
		passNS = 1
	}
	k := math.Floor(targetNS * last / passNS)
	if math.IsNaN(k) {
		k = 0
	}
	k += math.Floor(k / 5)
	k = min(k, 100*last)
	k = max(k, last+1)
	k = min(k, MaxBatch)
	return int(k)
}
