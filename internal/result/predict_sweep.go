package result

import (
	"errors"
	"fmt"

	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/stdlib/stats"
)

// SweepPrediction is a scaling claim about a sweep, predict="time(64M)/time(1M)~64",
// written before the run and judged after it from the interleaved samples of
// the two points: the ratio of their medians (time per pass) with a bootstrap
// interval (stats.RatioOfMedians, unpaired, seeded by Seed).
type SweepPrediction struct {
	Text  string  `json:"text"`
	A     []int64 `json:"a"` // the point in the numerator, one value per axis
	B     []int64 `json:"b"`
	Op    string  `json:"op"`
	Value float64 `json:"value"`
	Seed  uint64  `json:"seed"`
	// Observed is the ratio of medians, CILow..CIHigh its 95% interval.
	Observed *float64 `json:"observed"`
	CILow    *float64 `json:"ci_low"`
	CIHigh   *float64 `json:"ci_high"`
	// Verdict is "inside" or "outside" (~: is the predicted value in the
	// interval), "held", "not held" or "undecided" (<, >: is the whole
	// interval on the predicted side, on the other, or across the bound).
	Verdict string `json:"verdict"`
}

// PointValues are the axis values of a sweep point, first axis first.
func PointValues(sp *SweepPoint, axes []Axis) []int64 {
	out := make([]int64, len(axes))
	for j, a := range axes {
		if j == 0 {
			out[j] = sp.Value
		} else {
			out[j] = sp.Params[a.Param]
		}
	}
	return out
}

// findPoint is the result of the sweep whose point has these values.
func findPoint(rs []*Result, axes []Axis, values []int64) *Result {
	for _, r := range rs {
		if r.Sweep != nil && fmt.Sprint(PointValues(r.Sweep, axes)) == fmt.Sprint(values) {
			return r
		}
	}
	return nil
}

// SweepSamples are the samples a sweep judges a point by: the interleaved
// series (ns per pass) of the sweep's variant, taken over at least MinRuns
// processes (BlockPlan) in the point's turn, each pass warm. The fresh
// series, whose rounds visit every point in turn, is the check of a step
// (FindSteps), not the samples: its one pass per process, after a cold
// pass and a few syscalls, read 1.38x from 64 KiB to 256 KiB where a
// hand-written loop read 1.02x.
func SweepSamples(r *Result, variant string) []float64 {
	v := r.Variant(variant)
	if v == nil {
		return nil
	}
	if v.Series.Interleaved != nil && len(v.Series.Interleaved.SamplesNS) > 0 {
		return v.Series.Interleaved.SamplesNS
	}
	if f := v.Series.Fresh; f != nil {
		return f.SamplesNS
	}
	return nil
}

// JudgeSweep computes the ratio of medians of the prediction's two points,
// the 95% interval of their typical ratio (stats.CompareUnpaired: the
// points' samples come from different processes), and the verdict; with
// too few samples to bound the interval the verdict is undecided.
func (p *SweepPrediction) JudgeSweep(rs []*Result, axes []Axis, variant string) error {
	a, b := findPoint(rs, axes, p.A), findPoint(rs, axes, p.B)
	if a == nil || b == nil {
		return fmt.Errorf("predict=%q: a point it names is not among the results", p.Text)
	}
	v, err := stats.CompareUnpaired(SweepSamples(a, variant), SweepSamples(b, variant), 0.05)
	if err != nil && !errors.Is(err, stats.ErrTooFew) {
		return fmt.Errorf("predict=%q: %w", p.Text, err)
	}
	lo, hi := Finite(v.Low), Finite(v.High)
	ratio := v.Ratio
	p.Observed, p.CILow, p.CIHigh = &ratio, &lo, &hi
	p.Verdict = "undecided"
	if numtext.Bounded(lo, hi) {
		p.Verdict = predictVerdict(p.Op, p.Value, lo, hi)
	}
	return nil
}

// Uninformative: an interval whose high end is more than this many times
// its low end cannot say a value is inside it ("inside" [10.7, 280] said
// nothing); it can still exclude one (64 outside [483, 2696]).
const Uninformative = 4

func predictVerdict(op string, v, lo, hi float64) string {
	switch op {
	case "~":
		if v >= lo && v <= hi && hi > Uninformative*lo {
			return "uninformative"
		}
		if v >= lo && v <= hi {
			return "inside"
		}
		return "outside"
	case ">", ">=":
		switch {
		case lo > v || op == ">=" && lo >= v:
			return "held"
		case hi < v || op == ">" && hi <= v:
			return "not held"
		}
	case "<", "<=":
		switch {
		case hi < v || op == "<=" && hi <= v:
			return "held"
		case lo > v || op == "<" && lo >= v:
			return "not held"
		}
	}
	return "undecided"
}
