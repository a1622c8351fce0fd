package result

// Verdict is the one rule every verdict word comes from, given whether the
// test rejected "no difference" and its interval [lo, hi] of ratios, and
// resolve, the smallest difference that counts (the band 1 -+ resolve/2):
//
//   - no difference when the whole interval lies inside the band
//     (resolve=2%: inside (0.99, 1.01)): whatever the difference is, it is
//     smaller than the run was asked to resolve; said so also when the
//     interval excludes 1 (six blocks of one sign by 0.05% are a
//     difference no one can act on);
//   - slower or faster when the whole interval lies beyond the band, above
//     1 + resolve/2 or below 1 - resolve/2 (so the test rejected too): a
//     difference of at least resolve/2 is shown;
//   - undefined otherwise: the interval reaches across an edge of the band
//     (it may exclude 1, when a difference exists but whether it exceeds
//     resolve/2 is not known); more blocks (or a quieter machine) would
//     narrow it.
//
// The interval is valid however the run stopped (a repeated confidence
// interval), so each claim keeps its 95%: that the true ratio is beyond the
// band, or inside it. Against unchanged code the first is rarer than a
// plain test at 5%, which is why the margin: 20 rebuilds of unchanged code
// here read "slower" or "faster" twice with intervals that barely excluded
// 1 ([1.000, 1.040]).
func Verdict(rejected bool, lo, hi, resolve float64) string {
	half := resolve / 2
	switch {
	case lo > 1-half && hi < 1+half && lo > 0:
		return VerdictNoDifference
	case lo >= 1+half:
		return VerdictSlower
	case hi <= 1-half && hi > 0:
		return VerdictFaster
	}
	return VerdictUndefined
}
