package stats

import "errors"

// Sentinel errors, to be tested with errors.Is. The errors returned by this
// package wrap them with the details of what was wrong.
var (
	// ErrNoSamples reports an empty series where at least one sample is needed.
	ErrNoSamples = errors.New("no samples")

	// ErrUnpaired reports a paired bootstrap asked of series of different
	// lengths: pairing needs one sample of each series per round.
	ErrUnpaired = errors.New("paired series differ in length")

	// ErrZeroMedian reports a ratio of medians whose denominator median is 0.
	// The ratio is then +Inf (see RatioOfMedians for what callers should do).
	ErrZeroMedian = errors.New("median of the denominator series is 0")

	// ErrSamplesEqual reports a rank test on samples that are all equal: there
	// is no ranking to test.
	ErrSamplesEqual = errors.New("all samples are equal")
)
