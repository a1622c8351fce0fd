package result

import (
	"strings"

	"github.com/benchbook/benchbook/internal/machine"
)

// ClockResolution is the clock's granularity from the runs of a clock
// record's spaced deltas (machine.ClockGrid); where they tell nothing
// ("none", or unreadable), the smallest step, which is at least as coarse.
func ClockResolution(spaced string, minStep float64) float64 {
	rs, err := machine.ParseRanges(strings.TrimPrefix(spaced, "none"))
	if g := machine.ClockGrid(rs); err == nil && g > 0 {
		return g
	}
	return minStep
}
