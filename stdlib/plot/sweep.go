package plot

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"github.com/benchbook/benchbook/internal/findings"
	"github.com/benchbook/benchbook/internal/numtext"
	"github.com/benchbook/benchbook/internal/result"
	"github.com/benchbook/benchbook/stdlib/stats"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Sweep plots a sweep's time per element (the interleaved series of the
// sweep's variant, per pass over elements) against the working set in
// bytes, on log-log axes: the median of each point joined by a line per
// curve (one per value of a second axis), the interquartile range as an
// error bar, and each cache level of the CPU the sweep ran on as a
// labelled vertical line. Without working sets, the x axis is the first
// parameter's value and no cache is marked.
func Sweep(rs []*result.Result) (*Figure, error) { return figureOf(sweepChart(rs)) }

// bytesTicks label a log axis of bytes at powers of two (every other
// power when the axis spans many).
type bytesTicks struct{ bytes bool }

func (t bytesTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	step := 1
	if math.Log2(hi/lo) > 14 {
		step = 2
	}
	for e := int(math.Floor(math.Log2(lo))); e <= int(math.Ceil(math.Log2(hi))); e++ {
		v := math.Ldexp(1, e)
		if v < lo || v > hi {
			continue
		}
		label := ""
		if e%step == 0 {
			label = numtext.FormatSize(int64(v))
			if t.bytes {
				label += "B"
			}
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: label})
	}
	return ticks
}

// ticks125 label a log axis at 1, 2 and 5 times powers of ten.
type ticks125 struct{}

func (ticks125) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for e := int(math.Floor(math.Log10(lo))); e <= int(math.Ceil(math.Log10(hi))); e++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, float64(e))
			if v >= lo && v <= hi {
				ticks = append(ticks, plot.Tick{Value: v, Label: tickNumber(v)})
			}
		}
	}
	return ticks
}

// tickNumber writes 0.05, 1, 20 without trailing zeros.
func tickNumber(v float64) string { return fmt.Sprintf("%g", math.Round(v*1e6)/1e6) }

func sweepChart(rs []*result.Result) (*chart, error) {
	sum := findings.SweepOf(rs)
	if sum == nil || len(rs) == 0 {
		return nil, fmt.Errorf("plot: Sweep: %w: the results are no sweep", ErrNoData)
	}
	variants := findings.SweepVariants(rs)
	last := rs[len(rs)-1]
	hasBytes := last.Sweep.Bytes != nil
	xl := "working set (bytes, " + last.Sweep.BytesRule + ")"
	if !hasBytes {
		xl = last.Sweep.Param + " (working set unknown)"
	}
	title := fmt.Sprintf("sweep of %s: time per element of %s against %s", last.Sweep.Param, strings.Join(variants, ", "), map[bool]string{true: "working set", false: last.Sweep.Param}[hasBytes])
	if last.Partial {
		title += " (partial run)"
	}
	// The build line names the swept macros once, not the last point's values.
	hdr := *last
	hdr.Kernel.Flags = nil
	for _, f := range last.Kernel.Flags {
		swept := false
		for _, a := range sum.Axes {
			swept = swept || strings.HasPrefix(f, "-D"+a.Param+"=")
		}
		if !swept {
			hdr.Kernel.Flags = append(hdr.Kernel.Flags, f)
		}
	}
	c := newChart([]string{last.Kernel.Name + ": " + title, buildLine(&hdr)})
	p := c.p
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker = bytesTicks{bytes: hasBytes}
	p.Y.Tick.Marker = ticks125{}
	p.X.Label.Text, p.Y.Label.Text = xl, "ns per element (median, IQR)"
	p.Add(gridLines(false))
	xmin, xmax, ymin, ymax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	type named struct {
		variant, name string
		points        []findings.CurvePoint
	}
	var curves []named
	for _, v := range variants {
		names, cs := findings.Curves(rs, v)
		for i := range cs {
			curves = append(curves, named{v, names[i], cs[i]})
		}
	}
	for i, nc := range curves {
		cv := nc.points
		var pts plotter.XYs
		var errs plotter.YErrors
		for _, cp := range cv {
			if len(cp.PerEl) == 0 || cp.X <= 0 {
				continue
			}
			q1, m, q3 := stats.Quartiles(cp.PerEl)
			if m <= 0 || q1 <= 0 {
				continue
			}
			pts = append(pts, plotter.XY{X: cp.X, Y: m})
			errs = append(errs, struct{ Low, High float64 }{m - q1, q3 - m})
			xmin, xmax, ymin, ymax = math.Min(xmin, cp.X), math.Max(xmax, cp.X), math.Min(ymin, q1), math.Max(ymax, q3)
		}
		if len(pts) == 0 {
			continue
		}
		line, dots, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, err
		}
		col := variantColor(i)
		line.Color, line.Width = col, vg.Points(1.2)
		dots.Color, dots.Shape, dots.Radius = col, variantGlyph(i), vg.Points(2.5)
		bars, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{pts, errs})
		if err != nil {
			return nil, err
		}
		bars.Color, bars.CapWidth = col, vg.Points(4)
		p.Add(line, dots, bars)
		label := nc.variant
		if nc.name != "" {
			label += " at " + nc.name
		}
		c.addLegend(label, line, dots)
	}
	if math.IsInf(xmin, 1) {
		return nil, fmt.Errorf("plot: Sweep: %w: no point has samples", ErrNoData)
	}
	xmin, xmax = xmin/1.5, xmax*1.5
	ymin, ymax = ymin/1.6, ymax*1.3
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = xmin, xmax, ymin, ymax
	if hasBytes {
		for i, k := range sum.Caches {
			x := float64(k.Bytes)
			if x < xmin || x > xmax {
				c.addLegend(fmt.Sprintf("%s %sB: off the axis", k.Name, numtext.FormatBytes(k.Bytes)))
				continue
			}
			l, err := plotter.NewLine(plotter.XYs{{X: x, Y: ymin}, {X: x, Y: ymax}})
			if err != nil {
				return nil, err
			}
			l.Color, l.Width, l.Dashes = color.NRGBA{R: 90, G: 90, B: 90, A: 255}, vg.Points(0.8), []vg.Length{vg.Points(4), vg.Points(3)}
			lbl := k.Name + " " + numtext.FormatBytes(k.Bytes) + "B"
			if k.Shared != "" {
				lbl += " (CPUs " + k.Shared + ")"
			}
			labels, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: x, Y: ymax / math.Pow(1.25, float64(i))}}, Labels: []string{" " + lbl}})
			if err != nil {
				return nil, err
			}
			for j := range labels.TextStyle {
				labels.TextStyle[j].Font = sans(8.5)
				labels.TextStyle[j].XAlign, labels.TextStyle[j].YAlign = draw.XLeft, draw.YTop
			}
			p.Add(l, labels)
		}
		if len(sum.Caches) == 0 {
			c.addLegend("cache sizes unknown")
		}
	}
	return c, nil
}
