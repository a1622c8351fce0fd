package bench

import (
	"errors"
	"fmt"

	"github.com/benchbook/benchbook/stdlib/stats"
)

// Results made before StatsMethod existed judged comparisons with a
// percentile bootstrap of the ratio of medians and an unpaired Mann-Whitney
// test on the passes. verify still recomputes them that way, so that an
// earlier notebook can be checked; nothing new is judged with it.

// Bounds of bootstrap_resamples, as the result schema gives them: the
// bootstrap allocates the resamples, so a result that asks for more is
// refused instead of recomputed.
const (
	MinBootstrapResamples = 100
	MaxBootstrapResamples = 100000
)

// ErrBootstrapResamples is a legacy result whose bootstrap_resamples is
// outside [MinBootstrapResamples, MaxBootstrapResamples].
var ErrBootstrapResamples = errors.New("bootstrap_resamples out of bounds")

// CheckLegacyBootstrap refuses a protocol whose bootstrap would allocate
// more than the schema allows; 0 means stats.DefaultResamples.
func CheckLegacyBootstrap(p Protocol) error {
	n := p.BootstrapResamples
	if n != 0 && (n < MinBootstrapResamples || n > MaxBootstrapResamples) {
		return fmt.Errorf("%w: %d, want %d to %d", ErrBootstrapResamples, n, MinBootstrapResamples, MaxBootstrapResamples)
	}
	return nil
}

func legacyBootstrap(p Protocol, paired bool) stats.Bootstrap {
	return stats.Bootstrap{Resamples: p.BootstrapResamples, Seed: p.BootstrapSeed, Paired: paired, Confidence: 0.95}
}

func legacyCompare(a, b string, x, y []float64, p Protocol) Comparison {
	if err := CheckLegacyBootstrap(p); err != nil {
		return Comparison{A: a, B: b, Series: "interleaved", Paired: true, Stat: Stat{Undefined: err.Error()}}
	}
	n := min(len(x), len(y))
	c, _ := stats.Compare(x[:n], y[:n], legacyBootstrap(p, true), p.Alpha)
	return Comparison{A: a, B: b, Series: "interleaved", Ratio: finite(c.Ratio), CILow: finite(c.Low),
		CIHigh: finite(c.High), PValue: c.P, Significant: c.Significant, Paired: true}
}

func legacyAA(variant string, orig, copySamples []float64, p Protocol) AA {
	aa := AA{Variant: variant, SamplesNS: copySamples}
	if err := CheckLegacyBootstrap(p); err != nil {
		aa.Undefined = err.Error()
		return aa
	}
	n := min(len(orig), len(copySamples))
	c, err := stats.Compare(orig[:n], copySamples[:n], legacyBootstrap(p, true), p.Alpha)
	if err == nil || c.Ratio != 0 {
		aa.Ratio, aa.CILow, aa.CIHigh, aa.PValue = finite(c.Ratio), finite(c.Low), finite(c.High), c.P
	}
	return aa
}
