package evidence

import (
	"fmt"
	"math"

	"github.com/benchbook/benchbook/internal/machine"
	"github.com/benchbook/benchbook/internal/protocol"
)

// checkFingerprint recomputes the fingerprint (conditions.fingerprint)
// from its trials: each entry's value is the median of its trials and its
// noise what machine.NoiseOf states from them, and the zero page is
// "mapped" exactly when the writes faulted again for half the pages. A
// fingerprint edited to read as other hardware without its trials fails.
func checkFingerprint(r *protocol.Result) []string {
	problems := checkClock(r.Conditions.Clock)
	f := r.Conditions.Fingerprint
	if f == nil {
		return problems
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9+relTol*math.Abs(b) }
	for _, e := range f.Entries {
		where := "conditions.fingerprint entry " + e.Name
		if len(e.Trials) == 0 {
			problems = append(problems, where+": no trials")
			continue
		}
		if m := machine.Median(e.Trials); !near(e.Value, m) {
			problems = append(problems, fmt.Sprintf("%s: value %g, but the median of its trials is %g", where, e.Value, m))
		}
		if n := machine.NoiseOf(e); !near(e.Noise, n) {
			problems = append(problems, fmt.Sprintf("%s: noise %g, but its trials give %g", where, e.Noise, n))
		}
	}
	if z := f.ZeroPage; z != nil && z.Mapped != (z.WriteFaults >= int64(z.Pages)/2) {
		problems = append(problems, fmt.Sprintf("conditions.fingerprint zero_page: mapped %t, but the writes faulted %d times of %d pages", z.Mapped, z.WriteFaults, z.Pages))
	}
	return problems
}

// checkClock recomputes the clock's granularity from the runs of values
// its spaced deltas took (results of harness version 6 and later carry
// them): a resolution edited without them fails.
func checkClock(c protocol.Clock) []string {
	if c.Spaced == "" {
		return nil
	}
	if got := protocol.ClockResolution(c.Spaced, c.MinStepNS); got != c.ResolutionNS {
		return []string{fmt.Sprintf("conditions.clock: resolution_ns %g, but the grid of its spaced deltas (%s) is %g", c.ResolutionNS, c.Spaced, got)}
	}
	return nil
}
