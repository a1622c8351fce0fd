package stats

import "errors"

// Sentinel errors, to be tested with errors.Is. The errors returned by this
// package wrap them with the details of what was wrong.
var (
	// ErrNoSamples reports an empty series where at least one sample is needed.
	ErrNoSamples = errors.New("no samples")

	// ErrUnpaired reports a paired bootstrap or comparison asked of series
	// of different lengths: pairing needs one sample of each series per round.
	ErrUnpaired = errors.New("paired series differ in length")

	// ErrZeroMedian reports a ratio of medians whose denominator median is 0.
	// The ratio is then +Inf (see RatioOfMedians for what callers should do).
	ErrZeroMedian = errors.New("median of the denominator series is 0")

	// ErrSamplesEqual reports a rank test on samples that are all equal: there
	// is no ranking to test.
	ErrSamplesEqual = errors.New("all samples are equal")
)

// Sentinel errors of ComparePaired and CompareUnpaired.
var (
	// ErrNonPositive reports a sample that is not a positive finite number
	// (0 for a loop the compiler deleted, or a negative or NaN reading): its
	// logarithm, and so every rank statistic of the comparison, is undefined.
	ErrNonPositive = errors.New("sample is not a positive finite number")

	// ErrTooFew reports a comparison with too few (effective) samples for the
	// rank test to reach the asked alpha whatever the data: the interval is
	// then unbounded.
	ErrTooFew = errors.New("too few effective samples for any interval at this alpha")
)
