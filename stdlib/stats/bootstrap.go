package stats

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
)

// Defaults of Bootstrap, used for a zero Resamples or Confidence.
const (
	DefaultResamples  = 2000
	DefaultConfidence = 0.95
)

// Bootstrap sets up the bootstrap interval of RatioOfMedians.
type Bootstrap struct {
	// Resamples is the number of bootstrap resamples; 0 means
	// DefaultResamples.
	Resamples int
	// Seed seeds the generator; the same seed and samples give the same
	// interval on any machine.
	Seed uint64
	// Paired says that a[i] and b[i] were taken in the same round of a round
	// robin, so whole rounds are resampled (needs len(a) == len(b)).
	Paired bool
	// Confidence is the coverage of the interval, in (0, 1); 0 means
	// DefaultConfidence.
	Confidence float64
}

// Interval is a ratio of medians with its bootstrap interval [Low, High].
type Interval struct {
	Ratio, Low, High float64
}

// Excludes reports whether x lies outside [Low, High].
func (iv Interval) Excludes(x float64) bool {
	return x < iv.Low || x > iv.High
}

// RatioOfMedians returns Median(a)/Median(b) with a percentile bootstrap
// interval of the given confidence.
//
// The algorithm and its order of draws are part of the result format, so that
// anyone can recompute a stored interval exactly from its samples and seed:
//
//  1. The generator is math/rand/v2's PCG (128-bit LCG, DXSM output, the same
//     as numpy's PCG64DXSM) made by rand.NewPCG(Seed, 0).
//  2. An index in [0, n) is the high 64 bits of the 128-bit product u*n,
//     where u is the generator's next Uint64 (no rejection; the bias is below
//     n/2^64). rand.Rand.IntN is not used: its algorithm differs on 32-bit
//     platforms.
//  3. For each resample r = 0 .. R-1: paired, draw len(a) indices k in turn
//     and take a[k] and b[k]; unpaired, draw len(a) indices into a, then
//     len(b) indices into b. The resample's ratio is Median(a*)/Median(b*),
//     or +Inf when Median(b*) is 0.
//  4. Sort the R ratios; discard t = round(R*(1-Confidence)/2) from each end
//     (at most (R-1)/2); Low and High are the smallest and largest left. For
//     R = 2000 at 0.95, t = 50: Low is the 51st smallest, High the 1950th.
//
// Errors: either series empty (ErrNoSamples), Paired with different lengths
// (ErrUnpaired), Resamples < 0 or Confidence outside (0, 1).
//
// A zero Median(b) (a variant faster than the clock resolves) gives Ratio,
// Low and High all +Inf together with an error wrapping ErrZeroMedian; the
// ratio is then no measurement. Callers should test errors.Is(err,
// ErrZeroMedian), report the comparison as unresolved (null in JSON, which
// cannot hold +Inf) and never as significant. Likewise a High of +Inf (some
// resamples of b had a zero median) says the upper bound is unresolved. No
// result is ever NaN.
func RatioOfMedians(a, b []float64, opt Bootstrap) (Interval, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return Interval{}, err
	}
	if err := checkSeries(a, b, opt.Paired); err != nil {
		return Interval{}, err
	}
	ma, mb := Median(a), Median(b)
	if mb == 0 {
		inf := math.Inf(1)
		return Interval{inf, inf, inf}, fmt.Errorf(
			"stats: ratio of medians %g/0 of %d and %d samples: %w", ma, len(a), len(b), ErrZeroMedian)
	}
	low, high := percentileInterval(resampleRatios(a, b, opt), opt.Confidence)
	return Interval{Ratio: ma / mb, Low: low, High: high}, nil
}

// withDefaults fills in the defaults of opt and checks it.
func (opt Bootstrap) withDefaults() (Bootstrap, error) {
	if opt.Resamples == 0 {
		opt.Resamples = DefaultResamples
	}
	if opt.Confidence == 0 {
		opt.Confidence = DefaultConfidence
	}
	if opt.Resamples < 0 {
		return opt, fmt.Errorf("stats: bootstrap: Resamples must be positive (0 for %d), got %d",
			DefaultResamples, opt.Resamples)
	}
	if !(opt.Confidence > 0 && opt.Confidence < 1) {
		return opt, fmt.Errorf("stats: bootstrap: Confidence must be in (0, 1) (0 for %g), got %v",
			DefaultConfidence, opt.Confidence)
	}
	return opt, nil
}

// checkSeries checks that both series have samples and, when paired, the
// same length.
func checkSeries(a, b []float64, paired bool) error {
	if len(a) == 0 || len(b) == 0 {
		return fmt.Errorf("stats: ratio of medians needs samples in both series, got len(a)=%d, len(b)=%d: %w",
			len(a), len(b), ErrNoSamples)
	}
	if paired && len(a) != len(b) {
		return fmt.Errorf("stats: paired bootstrap needs one sample of each series per round, got len(a)=%d, len(b)=%d: %w",
			len(a), len(b), ErrUnpaired)
	}
	return nil
}

// ratioOf is ma/mb, or +Inf when mb is 0 (never NaN for finite medians).
func ratioOf(ma, mb float64) float64 {
	if mb == 0 {
		return math.Inf(1)
	}
	return ma / mb
}

// resampleRatios returns the sorted ratios of medians of opt.Resamples
// bootstrap resamples, drawn as documented on RatioOfMedians.
func resampleRatios(a, b []float64, opt Bootstrap) []float64 {
	src := rand.NewPCG(opt.Seed, 0)
	ra, rb := make([]float64, len(a)), make([]float64, len(b))
	ratios := make([]float64, opt.Resamples)
	for r := range ratios {
		if opt.Paired {
			for i := range ra {
				k := drawIndex(src, len(a))
				ra[i], rb[i] = a[k], b[k]
			}
		} else {
			drawInto(src, a, ra)
			drawInto(src, b, rb)
		}
		ratios[r] = ratioOf(medianInPlace(ra), medianInPlace(rb))
	}
	slices.Sort(ratios)
	return ratios
}

// drawInto fills dst with samples of x drawn with replacement.
func drawInto(src *rand.PCG, x, dst []float64) {
	for i := range dst {
		dst[i] = x[drawIndex(src, len(x))]
	}
}

// drawIndex returns an index in [0, n): the high word of src.Uint64() * n.
func drawIndex(src *rand.PCG, n int) int {
	hi, _ := bits.Mul64(src.Uint64(), uint64(n))
	return int(hi)
}

// percentileInterval returns the bounds of the central confidence share of
// the sorted ratios, as documented on RatioOfMedians.
func percentileInterval(sorted []float64, confidence float64) (low, high float64) {
	r := len(sorted)
	t := min(int(math.Round(float64(r)*(1-confidence)/2)), (r-1)/2)
	return sorted[t], sorted[r-1-t]
}
