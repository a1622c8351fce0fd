package stats

import (
	"fmt"
	"strconv"
)

// Summary is the summary of one series of samples, exactly as it appears in the
// result JSON (application/vnd.benchbook.result+json). Every field is computed
// from the samples alone, so anyone can recompute it.
type Summary struct {
	N      int     `json:"n"`
	Min    float64 `json:"min"`
	Median float64 `json:"median"` // mean of the two middle samples for an even count
	Max    float64 `json:"max"`
	Mean   float64 `json:"mean"`
	// CVPct is the sample standard deviation (n-1) over the mean, in percent;
	// 0 for fewer than two samples or a zero mean.
	CVPct float64 `json:"cv_pct"`
	// MaxOverMin is nil when Min is 0 (the ratio is undefined).
	MaxOverMin *float64 `json:"max_over_min"`
	// Shares of all n(n-1)/2 pairs of single passes whose larger value exceeds
	// the smaller by more than 2, 5 and 10 percent of the smaller.
	PairsOver2Pct  float64 `json:"pairs_over_2pct"`
	PairsOver5Pct  float64 `json:"pairs_over_5pct"`
	PairsOver10Pct float64 `json:"pairs_over_10pct"`
}

// String prints the summary's numbers (fmt shows a pointer for MaxOverMin
// otherwise), as glue cells print it.
func (s Summary) String() string {
	mom := "undefined"
	if s.MaxOverMin != nil {
		mom = strconv.FormatFloat(*s.MaxOverMin, 'g', 6, 64)
	}
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	return fmt.Sprintf("{n=%d min=%s median=%s max=%s mean=%s cv=%s%% max/min=%s pairs>2%%=%s pairs>5%%=%s pairs>10%%=%s}",
		s.N, g(s.Min), g(s.Median), g(s.Max), g(s.Mean), g(s.CVPct), mom, g(s.PairsOver2Pct), g(s.PairsOver5Pct), g(s.PairsOver10Pct))
}
