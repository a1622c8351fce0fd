package bench

import "github.com/benchbook/benchbook/stdlib/stats"

// Results made before StatsMethod existed judged comparisons with a
// percentile bootstrap of the ratio of medians and an unpaired Mann-Whitney
// test on the passes. verify still recomputes them that way, so that an
// earlier notebook can be checked; nothing new is judged with it.

func legacyBootstrap(p Protocol, paired bool) stats.Bootstrap {
	return stats.Bootstrap{Resamples: p.BootstrapResamples, Seed: p.BootstrapSeed, Paired: paired, Confidence: 0.95}
}

func legacyCompare(a, b string, x, y []float64, p Protocol) Comparison {
	n := min(len(x), len(y))
	c, _ := stats.Compare(x[:n], y[:n], legacyBootstrap(p, true), p.Alpha)
	return Comparison{A: a, B: b, Series: "interleaved", Ratio: finite(c.Ratio), CILow: finite(c.Low),
		CIHigh: finite(c.High), PValue: c.P, Significant: c.Significant, Paired: true}
}

func legacyAA(variant string, orig, copySamples []float64, p Protocol) AA {
	aa := AA{Variant: variant, SamplesNS: copySamples}
	n := min(len(orig), len(copySamples))
	c, err := stats.Compare(orig[:n], copySamples[:n], legacyBootstrap(p, true), p.Alpha)
	if err == nil || c.Ratio != 0 {
		aa.Ratio, aa.CILow, aa.CIHigh, aa.PValue = finite(c.Ratio), finite(c.Low), finite(c.High), c.P
	}
	return aa
}
