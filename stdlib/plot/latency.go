package plot

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/benchbook/benchbook/internal/result"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Latency draws the percentile curve of every BENCH_OPS variant in the HDR
// style: x is 1/(1-q) on a log axis labelled 50%, 90%, 99%, 99.9%, ...,
// y the time of the operation at that percentile on a log axis; the curve
// ends at the slowest operation (q = 1 - 1/n). The timer's overhead (an
// empty operation) is a dashed horizontal line in the variant's colour: it
// is inside every percentile, not subtracted.
func Latency(r *result.Result) (*Figure, error) { return figureOf(latencyChart(r)) }

// latencyChart builds the chart of Latency.
func latencyChart(r *result.Result) (*chart, error) {
	if err := checkResult(r, "Latency"); err != nil {
		return nil, err
	}
	c := newChart(heading(r, "latency of single operations (in-process series), percentile curve"))
	c.p.Add(gridLines(true))
	lo, hi, xmax := math.Inf(1), math.Inf(-1), 10.0
	n := 0
	overheads := map[string]bool{} // the timer's cost of each variant, as printed
	var overheadLine *plotter.Line
	for i, v := range r.Variants {
		l := v.Latency
		if l == nil || l.N == 0 || !(l.TicksPerUS > 0) {
			continue
		}
		n++
		floor := 1000 / l.TicksPerUS / 2 // half a tick: where a 0 is drawn
		xys := latencyCurve(l, floor)
		line, err := plotter.NewLine(xys)
		if err != nil {
			return nil, fmt.Errorf("plot: Latency of %q: %w", v.Name, err)
		}
		line.StepStyle = plotter.PostStep // the time at q holds from 1/(1-q) to the next point
		line.LineStyle = draw.LineStyle{Color: variantColor(i), Width: vg.Points(1.8)}
		c.p.Add(line)
		c.addLegend(fmt.Sprintf("%s: p50 %s, max %s", v.Name, FormatNS(l.P50NS), FormatNS(l.MaxNS)), line)
		for _, p := range xys {
			lo, hi, xmax = min(lo, p.Y), max(hi, p.Y), max(xmax, p.X)
		}
		if l.OverheadNS > 0 {
			lo = min(lo, l.OverheadNS)
			ov, err := plotter.NewLine(plotter.XYs{{X: 1, Y: l.OverheadNS}, {X: xmax, Y: l.OverheadNS}})
			if err != nil {
				return nil, err
			}
			ov.LineStyle = draw.LineStyle{Color: variantColor(i), Width: vg.Points(1), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}
			c.p.Add(ov)
			overheads[FormatNS(l.OverheadNS)] = true
			overheadLine = ov
		}
	}
	// One legend line for the timer when every variant's reads the same
	// (the usual case: one process, one counter), else the range.
	if len(overheads) > 0 {
		var costs []string
		for k := range overheads {
			costs = append(costs, k)
		}
		slices.Sort(costs)
		c.addLegend(fmt.Sprintf("dashed: timer %s (in the times)", strings.Join(costs, ", ")), overheadLine)
	}
	if n == 0 {
		return nil, fmt.Errorf("plot: Latency: %w: no variant of %q has a latency (BENCH_OPS)", ErrNoData, r.Kernel.Name)
	}
	c.p.X.Scale, c.p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	c.p.X.Min, c.p.X.Max = 1, xmax
	c.p.X.Label.Text = "percentile"
	c.p.X.Tick.Marker = percentileTicks(xmax)
	c.p.Y.Min, c.p.Y.Max = min(lo/1.5, math.Pow(10, math.Floor(math.Log10(lo)))), hi*1.5
	c.p.Y.Label.Text = "time of one operation"
	c.p.Y.Tick.Marker = decadeTicks(c.p.Y.Min, c.p.Y.Max)
	return c, nil
}

// latencyCurve is the percentile curve of l: at 1/(1-q) for q from 0 to
// 1-1/n in 40 steps per decade of 1/(1-q), the time at q (drawn at floor
// when it is 0), then the slowest operation at 1/(1-q) = n.
func latencyCurve(l *result.Latency, floor float64) plotter.XYs {
	ns := func(ticks uint64) float64 { return max(float64(ticks)*1000/l.TicksPerUS, floor) }
	var xys plotter.XYs
	last := math.Log10(float64(l.N))
	for k := 0; float64(k)/40 < last; k++ {
		x := math.Pow(10, float64(k)/40)
		xys = append(xys, plotter.XY{X: x, Y: ns(result.LatencyPercentile(l.Buckets, 1-1/x))})
	}
	return append(xys, plotter.XY{X: max(float64(l.N), 1.0001), Y: max(l.MaxNS, floor)})
}

// percentileTicks labels 1/(1-q) with q: 50%, 90%, 99%, 99.9%, ...
// (0% at x = 1 is left unlabelled: it would run into 50%). Past five
// decades (more than 10^5 operations) every other decade keeps its tick
// but not its label, so that the long labels do not run into each other.
func percentileTicks(xmax float64) plot.ConstantTicks {
	ticks := plot.ConstantTicks{{Value: 2, Label: "50%"}}
	decades := int(math.Floor(math.Log10(xmax*1.0001) + 1e-9))
	for d := 1; d <= decades; d++ {
		q := 100 - 100/math.Pow(10, float64(d))
		label := strconv.FormatFloat(q, 'f', -1, 64) + "%"
		if decades > 5 && d > 2 && d%2 == 0 {
			label = ""
		}
		ticks = append(ticks, plot.Tick{Value: math.Pow(10, float64(d)), Label: label})
	}
	return ticks
}

// decadeTicks labels every power of ten of nanoseconds between lo and hi
// (1 ns, 10 ns, 100 ns, 1 µs, ...).
func decadeTicks(lo, hi float64) plot.ConstantTicks {
	var ticks plot.ConstantTicks
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		v := math.Pow(10, e)
		if v >= lo && v <= hi {
			ticks = append(ticks, plot.Tick{Value: v, Label: FormatNS(v)})
		}
	}
	if len(ticks) < 2 {
		ticks = append(plot.ConstantTicks{{Value: lo, Label: FormatNS(lo)}}, plot.Tick{Value: hi, Label: FormatNS(hi)})
	}
	return ticks
}
