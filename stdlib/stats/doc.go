// Package stats computes the statistics of a benchbook result from raw samples:
// per-series summaries, the share of pairs of single passes that differ by more
// than a threshold, ratios of medians with bootstrap intervals, the
// Mann-Whitney U test, and the verdicts of ComparePaired and CompareUnpaired.
// It computes and returns plain values; it renders nothing.
//
// # Comparing two variants
//
// A verdict says whether two series of timings differ, by how much, and how
// sure that is. Its test and its interval are one procedure (the interval
// is the set of ratios the test would not reject), so "significant" and
// "the interval excludes 1" agree (but for an edge of exact ties, documented
// on ComparePaired). Which procedure depends on how the
// samples were taken:
//
// Paired rounds (ComparePaired). Both variants run in one process, in
// rounds: each round times a once and b once, in random order. Slow drift of
// the machine (frequency, temperature, a neighbour) then hits a and b of a
// round alike and cancels in the round's log-ratio d = ln(a/b). The test is
// the Wilcoxon signed-rank test of d: it needs no normality (timings are
// skewed, with outliers), only a d symmetric about 0 when nothing differs,
// which the random order within a round provides. Its interval is Tukey's,
// from the Walsh averages of d, around the Hodges-Lehmann estimate.
//
// Unpaired processes (CompareUnpaired). Each sample comes from a fresh
// process (first-touch costs, layout, the state a process starts in), so
// nothing pairs a sample of a with one of b. The test is the Mann-Whitney U
// test of the log-samples, with Moses' interval from the pairwise
// differences around the Hodges-Lehmann estimate.
//
// In both designs consecutive samples are not independent: measured
// benchmark series have lag-1 autocorrelation of +0.28 to +0.47, and a
// comparison that ignores it claims too much: simulated at 30 rounds with
// autocorrelation 0.5 and no true difference, Compare called 15% of the
// trials significant instead of 5%. The variance of the
// statistic is therefore multiplied by the factor (1+rho)/(1-rho) that AR(1)
// autocorrelation rho puts on a sum, with rho estimated from the ranks the
// statistic sums, corrected for its small-sample bias and clipped to
// [RhoMin, RhoMax]; and because that estimate is itself noisy, the
// reference distribution is Student's t with the degrees of freedom of the
// estimate. The doc comments of ComparePaired and CompareUnpaired give every
// step; calibration_test.go measures the false-positive rate, the coverage
// of the intervals and the power on simulated data whose answer is known.
//
// Blocks (SeqSignTest, SeqHolm). The verdicts benchbook prints now come
// from blocks: independent processes (with a baseline, pairs of processes,
// one of each build, taking their rounds in lock step), each reduced to one
// value, the median of its rounds' log-ratios. Under no difference each
// block's sign is a fair coin whatever happens inside it (the order of the
// two sides within each round and of the two processes is random), so the
// sign test across blocks needs no model of autocorrelation, outliers or
// placement: the process pair is the unit that replicates, and rounds in
// one process, which share its placement in memory and its drift, are
// never counted as independent. The test is group-sequential: after every
// block it may stop, and the boundaries (SeqBoundaries: exact, by dynamic
// programming over the sign counts) spend alpha over an unbounded number of
// looks (0.64 of it at the first look, six blocks, so that six blocks of one
// sign are a verdict; the rest as 0.36(1/sqrt(j) - 1/sqrt(j+1)) at look
// 6+j), so stopping when the answer is known keeps every verdict at its
// level. Its interval is the repeated confidence interval of the median
// block value (order statistics of the blocks at the deciding look), which
// excludes 0 exactly when the test rejects; its p-value is the smallest
// level of a grid (holding every alpha/k Holm uses) at which the nested
// boundaries reject. SeqHolm is Holm's method on those p-values, each
// verdict at the level of its step. Calibrated in sequential_test.go (the
// exact level by enumeration of every sign sequence up to 18 blocks;
// family-wise false positives with a budget drawn per trial) and, with
// benchbook's stopping rule and noise models of a quiet and a busy machine,
// in internal/protocol/calibration_test.go.
//
// A verdict's Significant is for one comparison. For several at once, adjust
// their p-values with Holm before comparing them with alpha.
//
// Ratio is always Median(a)/Median(b), the figure every result reports;
// Shift is the estimate that goes with the test. The older Compare (a
// percentile bootstrap of the ratio of medians and an unpaired Mann-Whitney
// test, even for paired data, with no correction for autocorrelation) is
// kept for its callers.
package stats
