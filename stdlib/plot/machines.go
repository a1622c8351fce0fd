package plot

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// MachinePoint is one machine's median of a variant and the run's own
// interval around it, in ns; Low and High are 0 when the run has none,
// and Median is 0 when the machine did not measure the variant.
type MachinePoint struct {
	Median, Low, High float64
}

// MachineSeries is one variant on every machine, in the order of the
// machines.
type MachineSeries struct {
	Variant string
	Points  []MachinePoint
}

// Machines is the dot plot of an N-way comparison: one panel per variant,
// a dot per machine at its median with the run's own interval as an error
// bar, the reference machine's dot filled and its median a dashed line
// across the panel, so that a machine whose bar misses the line stands out.
// Each panel has its own time axis (log when its medians span more than
// 100x).
func Machines(title string, machines []string, ref int, series []MachineSeries) (*Figure, error) {
	if len(machines) < 2 || len(series) == 0 {
		return nil, fmt.Errorf("plot: Machines: %w: %d machines, %d variants", ErrNoData, len(machines), len(series))
	}
	if ref < 0 || ref >= len(machines) {
		return nil, fmt.Errorf("plot: Machines: the reference %d is not one of %d machines", ref, len(machines))
	}
	c := newRow([]string{title, fmt.Sprintf("median per machine, bars: the run's median times its A/A interval; reference %s: filled, dashed", machines[ref])})
	for _, s := range series {
		if err := addMachinePanel(c, machines, ref, s); err != nil {
			return nil, fmt.Errorf("plot: Machines, %s: %w", s.Variant, err)
		}
	}
	return c.figure()
}

func addMachinePanel(c *chart, machines []string, ref int, s MachineSeries) error {
	var vals []float64
	for _, p := range s.Points {
		for _, v := range []float64{p.Median, p.Low, p.High} {
			if v > 0 {
				vals = append(vals, v)
			}
		}
	}
	if len(vals) == 0 {
		return fmt.Errorf("%w: no machine measured it", ErrNoData)
	}
	ax, err := chooseAxis(vals)
	if err != nil {
		return err
	}
	p := c.addPanel(s.Variant)
	p.Y.Label.Text = "median (" + ax.unit.Name + ")"
	if ax.log {
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, ticks125{}
	}
	p.Add(gridLines(false))
	var ticks []plot.Tick
	for i, m := range machines {
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: m})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = -0.5, float64(len(machines))-0.5
	var pts plotter.XYs
	var bars plotter.YErrors
	var refPt plotter.XYs
	for i, pt := range s.Points {
		if pt.Median <= 0 {
			continue
		}
		y := pt.Median / ax.unit.NS
		if i == ref {
			refPt = append(refPt, plotter.XY{X: float64(i), Y: y})
		}
		pts = append(pts, plotter.XY{X: float64(i), Y: y})
		lo, hi := 0.0, 0.0
		if pt.Low > 0 && pt.High > 0 {
			lo, hi = y-pt.Low/ax.unit.NS, pt.High/ax.unit.NS-y
		}
		bars = append(bars, struct{ Low, High float64 }{math.Max(lo, 0), math.Max(hi, 0)})
	}
	col := variantColor(0)
	eb, err := plotter.NewYErrorBars(struct {
		plotter.XYer
		plotter.YErrorer
	}{pts, bars})
	if err != nil {
		return err
	}
	eb.LineStyle.Color, eb.LineStyle.Width, eb.CapWidth = col, vg.Points(1.2), vg.Points(8)
	dots, err := plotter.NewScatter(pts)
	if err != nil {
		return err
	}
	dots.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(3.5), Shape: draw.RingGlyph{}}
	p.Add(eb, dots)
	if len(refPt) == 1 {
		line, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: refPt[0].Y}, {X: float64(len(machines)) - 0.5, Y: refPt[0].Y}})
		if err != nil {
			return err
		}
		line.LineStyle = draw.LineStyle{Color: color.Gray{Y: 110}, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}
		filled, err := plotter.NewScatter(refPt)
		if err != nil {
			return err
		}
		filled.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(3.5), Shape: draw.CircleGlyph{}}
		p.Add(line, filled)
	}
	// Room around the bars, so that none touches the panel's edge.
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vals {
		lo, hi = math.Min(lo, v/ax.unit.NS), math.Max(hi, v/ax.unit.NS)
	}
	if ax.log {
		p.Y.Min, p.Y.Max = lo/1.3, hi*1.3
	} else {
		pad := math.Max((hi-lo)*0.15, hi*0.02)
		p.Y.Min, p.Y.Max = math.Max(0, lo-pad), hi+pad
	}
	return nil
}
