package stats

// ECDF returns the empirical cumulative distribution of x for plotting as a
// step function: xs are the distinct values of x in increasing order and
// ps[i] is the fraction of samples <= xs[i] (so the last is 1). It does not
// modify x; no samples give nil slices.
func ECDF(x []float64) (xs, ps []float64) {
	if len(x) == 0 {
		return nil, nil
	}
	s := sortedCopy(x)
	n := float64(len(s))
	for i, v := range s {
		if i+1 < len(s) && s[i+1] == v {
			continue // not the last of a run of equal values
		}
		xs = append(xs, v)
		ps = append(ps, float64(i+1)/n)
	}
	return xs, ps
}
