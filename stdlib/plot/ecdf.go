package plot

import (
	"fmt"
	"slices"
	"strings"

	"github.com/benchbook/benchbook/internal/result"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ECDF overlays the empirical cumulative distributions of the variants'
// interleaved series: for each time, the fraction of samples at or below it.
// A shift is a difference of location, a slope a difference of spread, a tail
// the outliers. The time axis is logarithmic when the samples span more
// than 100x.
func ECDF(r *result.Result) (*Figure, error) { return figureOf(ecdfOf(r)) }

// ecdfOf builds the chart of ECDF.
func ecdfOf(r *result.Result) (*chart, error) {
	if err := checkResult(r, "ECDF"); err != nil {
		return nil, err
	}
	ss := interleaved(r)
	if len(ss) == 0 {
		return nil, fmt.Errorf("plot: ECDF: %w: no variant of %q has interleaved samples", ErrNoData, r.Kernel.Name)
	}
	c, err := ecdfChart(heading(r, "distribution of interleaved samples, "+nameList(ss)), ss, true)
	if err != nil {
		return nil, fmt.Errorf("plot: ECDF of %q: %w", r.Kernel.Name, err)
	}
	return c, nil
}

// ECDFSeries is ECDF for arbitrary named series of nanoseconds, from a glue
// cell, in the order of their names.
func ECDFSeries(title string, series map[string][]float64) (*Figure, error) {
	ss := fromMap(series)
	if len(ss) == 0 {
		return nil, fmt.Errorf("plot: ECDFSeries %q: %w: no series has samples", title, ErrNoData)
	}
	c, err := ecdfChart([]string{title}, ss, true)
	if err != nil {
		return nil, fmt.Errorf("plot: ECDFSeries %q: %w", title, err)
	}
	return c.figure()
}

// Overlay draws one variant's interleaved distribution in two results, before
// and after a change, as two ECDFs on one axis; the title gives both medians
// and their ratio, and the builds when they differ.
func Overlay(before, after *result.Result, variant string) (*Figure, error) {
	b, err := variantSeries(before, "before", variant)
	if err != nil {
		return nil, err
	}
	a, err := variantSeries(after, "after", variant)
	if err != nil {
		return nil, err
	}
	mb, ma := median(b.ns), median(a.ns)
	b.name = "before: " + FormatNS(mb)
	a.name = "after: " + FormatNS(ma)
	b.color, a.color = 6, 0 // black, then blue
	title := []string{
		fmt.Sprintf("%s/%s: before vs after, median %s → %s (after/before %.3gx)", before.Kernel.Name, variant, FormatNS(mb), FormatNS(ma), ma/mb),
	}
	if lb, la := buildLine(before), buildLine(after); lb == la {
		title = append(title, lb)
	} else {
		title = append(title, "before: "+lb, "after: "+la)
	}
	c, err := ecdfChart(title, []named{b, a}, false)
	if err != nil {
		return nil, fmt.Errorf("plot: Overlay of %q: %w", variant, err)
	}
	return c.figure()
}

// variantSeries returns a variant's interleaved series from r (called which).
func variantSeries(r *result.Result, which, variant string) (named, error) {
	if err := checkResult(r, "Overlay ("+which+")"); err != nil {
		return named{}, err
	}
	var names []string
	for _, v := range r.Variants {
		if v.Name != variant {
			names = append(names, v.Name)
			continue
		}
		if s := v.Series.Interleaved; s != nil && len(s.SamplesNS) > 0 {
			return named{name: v.Name, ns: s.SamplesNS, dead: v.Dead, batch: v.Batch}, nil
		}
		return named{}, fmt.Errorf("plot: Overlay: %w: variant %q of the %s result has no interleaved samples", ErrNoData, variant, which)
	}
	return named{}, fmt.Errorf("plot: Overlay: %w: the %s result (kernel %q) has no variant %q (it has %s)", ErrNoData, which, r.Kernel.Name, variant, strings.Join(names, ", "))
}

// ecdfChart draws one step line per series, with the fraction of samples on
// the y axis from 0 to 1, and grid lines at the quartiles; the legend gives
// the medians withMedians.
func ecdfChart(title []string, ss []named, withMedians bool) (*chart, error) {
	ax, err := chooseAxis(nsOf(ss)...)
	if err != nil {
		return nil, err
	}
	c := newChart(title)
	c.p.Add(gridLines(true))
	for _, s := range ss {
		l, err := newECDFLine(ax.values(s.ns))
		if err != nil {
			return nil, fmt.Errorf("series %q: %w", s.name, err)
		}
		l.LineStyle = draw.LineStyle{Color: variantColor(s.color), Width: vg.Points(1.6), Dashes: variantDashes(s.color)}
		c.p.Add(l)
		text := s.label()
		if withMedians {
			text += ": " + FormatNS(median(s.ns))
		}
		c.addLegend(text, l)
	}
	ax.apply(&c.p.X, "time per pass")
	c.p.Y.Min, c.p.Y.Max = 0, 1
	c.p.Y.Label.Text = "fraction of samples ≤ time"
	c.p.Y.Tick.Marker = plot.ConstantTicks{{Value: 0, Label: "0"}, {Value: 0.25, Label: "0.25"}, {Value: 0.5, Label: "0.5"}, {Value: 0.75, Label: "0.75"}, {Value: 1, Label: "1"}}
	return c, nil
}

// newECDFLine returns the empirical CDF of vals as a gonum step line: from
// (x₁, 0), up by 1/n at each sorted value x_i, to (x_n, 1).
func newECDFLine(vals plotter.Values) (*plotter.Line, error) {
	if len(vals) == 0 {
		return nil, fmt.Errorf("no values")
	}
	xs := slices.Clone(vals)
	slices.Sort(xs)
	n := float64(len(xs))
	xys := make(plotter.XYs, 0, len(xs)+1)
	xys = append(xys, plotter.XY{X: xs[0], Y: 0})
	for i, x := range xs {
		xys = append(xys, plotter.XY{X: x, Y: float64(i+1) / n})
	}
	l, err := plotter.NewLine(xys)
	if err != nil {
		return nil, err
	}
	l.StepStyle = plotter.PostStep
	return l, nil
}
