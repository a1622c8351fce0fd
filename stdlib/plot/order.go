package plot

import (
	"fmt"
	"image/color"
	"strconv"

	"github.com/benchbook/benchbook/internal/result"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// RunOrder plots each sample against its index, one colour and dot shape per
// variant: the interleaved series (Part 1) on the left, the in-process series
// (Part 2) on the right, numbered from 0 again past a dashed divider. Each
// sample is drawn relative to the median of its variant's interleaved series
// (in-process if it has none), so that variants 10^4 apart share one linear
// axis on which drift, warm-up, a shift between the parts and outliers show
// as slopes, first points apart, a step and lone points; the legend gives
// each variant's median.
func RunOrder(r *result.Result) (*Figure, error) { return figureOf(runOrderOf(r)) }

// runOrderOf builds the chart of RunOrder.
func runOrderOf(r *result.Result) (*chart, error) {
	if err := checkResult(r, "RunOrder"); err != nil {
		return nil, err
	}
	inter, inproc := interleaved(r), inProcess(r)
	if len(inter)+len(inproc) == 0 {
		return nil, fmt.Errorf("plot: RunOrder: %w: no variant of %q has interleaved or in-process samples", ErrNoData, r.Kernel.Name)
	}
	refs := references(inter, inproc)
	c := newChart(heading(r, "samples in the order taken, "+nameList(union(inter, inproc))))
	off := partOffset(inter, inproc)
	end := max(off+float64(longest(inproc)-1), float64(longest(inter)-1))
	one, err := NewLevel(1, end/2, end/2)
	if err != nil {
		return nil, err
	}
	one.LineStyle = draw.LineStyle{Color: color.Gray{Y: 120}, Width: vg.Points(0.8)}
	c.p.Add(gridLines(false), one)
	if err := c.addRuns(inter, inproc, refs, off); err != nil {
		return nil, fmt.Errorf("plot: RunOrder of %q: %w", r.Kernel.Name, err)
	}
	step := indexStep(end)
	c.p.X.Tick.Marker = plot.ConstantTicks(append(indexTicks(longest(inter), 0, step), indexTicks(longest(inproc), off, step)...))
	c.p.X.Label.Text = "sample index within its series"
	c.p.Y.Label.Text = "time / variant's median (ratio)"
	c.p.Y.Tick.Marker = linearTicks{}
	c.p.Y.Max += 0.12 * (c.p.Y.Max - c.p.Y.Min) // room for the divider's labels
	return c, nil
}

// references returns, per variant (by colour index), the median that its
// samples are drawn relative to: of its interleaved series, else of its
// in-process series; 1 ns when that median is not positive (a clock too
// coarse for a dead variant), so that the ratio stays finite.
func references(inter, inproc []named) map[int]float64 {
	refs := map[int]float64{}
	for _, s := range append(append([]named{}, inproc...), inter...) {
		refs[s.color] = median(s.ns) // interleaved last: it wins
	}
	for k, m := range refs {
		if !(m > 0) {
			refs[k] = 1
		}
	}
	return refs
}

// inProcess returns the variants' in-process series that have samples.
func inProcess(r *result.Result) []named {
	var ss []named
	for i, v := range r.Variants {
		if s := v.Series.InProcess; s != nil && len(s.SamplesNS) > 0 {
			ss = append(ss, named{name: v.Name, ns: s.SamplesNS, color: i, dead: v.Dead, batch: v.Batch})
		}
	}
	return ss
}

// union returns the series of a, then those of b whose variant is not in a.
func union(a, b []named) []named {
	seen := map[int]bool{}
	var out []named
	for _, s := range append(append([]named{}, a...), b...) {
		if !seen[s.color] {
			seen[s.color] = true
			out = append(out, s)
		}
	}
	return out
}

// longest is the length of the longest series.
func longest(ss []named) int {
	n := 0
	for _, s := range ss {
		n = max(n, len(s.ns))
	}
	return n
}

// partOffset is where the in-process runs start on the x axis: past the
// interleaved runs and a gap.
func partOffset(inter, inproc []named) float64 {
	n := longest(inter)
	if n == 0 || len(inproc) == 0 {
		return 0
	}
	return float64(n-1) + max(3, float64(n)/8)
}

// addRuns draws the interleaved runs from x=0 and the in-process runs from
// off, with a divider between them when there are both.
func (c *chart) addRuns(inter, inproc []named, refs map[int]float64, off float64) error {
	if n := longest(inter); off > 0 {
		c.p.Add(newDivider((float64(n-1)+off)/2, "← interleaved (Part 1)", "in-process (Part 2) →"))
	}
	legend := map[int]bool{}
	for _, part := range []struct {
		ss  []named
		off float64
	}{{inter, 0}, {inproc, off}} {
		for _, s := range part.ss {
			line, dots, err := c.addRun(relative(s.ns, refs[s.color]), part.off, s.color)
			if err != nil {
				return fmt.Errorf("series of %q: %w", s.name, err)
			}
			if !legend[s.color] {
				legend[s.color] = true
				c.addLegend(s.label()+": "+FormatNS(refs[s.color]), line, dots)
			}
		}
	}
	return nil
}

// addRun draws one series against its index, from x=off: thin line, dots.
func (c *chart) addRun(vals plotter.Values, off float64, col int) (*plotter.Line, *plotter.Scatter, error) {
	xys := make(plotter.XYs, len(vals))
	for i, v := range vals {
		xys[i] = plotter.XY{X: off + float64(i), Y: v}
	}
	line, dots, err := plotter.NewLinePoints(xys)
	if err != nil {
		return nil, nil, err
	}
	line.LineStyle = draw.LineStyle{Color: alpha(variantColor(col), 0x70), Width: vg.Points(0.8)}
	dots.GlyphStyle = draw.GlyphStyle{Color: alpha(variantColor(col), 0xd0), Radius: vg.Points(2.2), Shape: variantGlyph(col)}
	c.p.Add(line, dots)
	return line, dots, nil
}

// relative returns ns divided by ref.
func relative(ns []float64, ref float64) plotter.Values {
	out := make(plotter.Values, len(ns))
	for i, v := range ns {
		out[i] = v / ref
	}
	return out
}

// indexTicks marks sample indexes 0 to n-1 drawn from x=off, labelled from 0
// every step, with a minor tick at every index when step is small.
func indexTicks(n int, off float64, step int) []plot.Tick {
	var ticks []plot.Tick
	for i := 0; i < n; i++ {
		switch {
		case i%step == 0:
			ticks = append(ticks, plot.Tick{Value: off + float64(i), Label: strconv.Itoa(i)})
		case step <= 10:
			ticks = append(ticks, plot.Tick{Value: off + float64(i)})
		}
	}
	return ticks
}

// indexStep is a round step (1, 2 or 5 times a power of ten) that puts at
// most about seven labels on an axis span indexes long.
func indexStep(span float64) int {
	for step := 1; ; step *= 10 {
		for _, m := range []int{1, 2, 5} {
			if span/float64(m*step) <= 7 {
				return m * step
			}
		}
	}
}
