package stats

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
