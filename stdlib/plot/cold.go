package plot

import (
	"fmt"
	"image/color"
	"slices"
	"strings"

	"github.com/benchbook/benchbook/internal/result"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// coldSeries is a variant's cold passes with what they are read against.
type coldSeries struct {
	named            // the fresh processes' cold passes
	shot     float64 // the in-process single cold pass, if hasShot
	hasShot  bool
	warm     float64 // the warm median, if warmFrom != ""
	warmFrom string  // "in-process" or "interleaved"
	minflt   []int64
}

// Cold plots, per variant, the cold passes of the fresh processes (the first
// pass of each, Part 3) as dots over a box, with the in-process series' single
// cold pass marked by a diamond, and the warm median (in-process, else
// interleaved) as a dashed line across. Each variant has a panel and an axis
// of its own, so that cold against warm reads for a dead variant as for a
// live one; under each: the cold median, its ratio to the warm median, and
// the median minor page faults of the cold pass.
func Cold(r *result.Result) (*Figure, error) { return figureOf(coldChartOf(r)) }

// coldChartOf builds the chart of Cold.
func coldChartOf(r *result.Result) (*chart, error) {
	if err := checkResult(r, "Cold"); err != nil {
		return nil, err
	}
	cs := coldOf(r)
	if len(cs) == 0 {
		return nil, fmt.Errorf("plot: Cold: %w: no variant of %q has cold passes", ErrNoData, r.Kernel.Name)
	}
	names := make([]named, len(cs))
	for i, s := range cs {
		names[i] = s.named
	}
	c := newRow(heading(r, "cold passes of fresh processes, "+nameList(names)))
	var shot, warm plot.Thumbnailer
	froms := map[string]bool{}
	for _, s := range cs {
		p, err := addColdPanel(c, s, boxWidth(len(cs)))
		if err != nil {
			return nil, fmt.Errorf("plot: Cold of %q, variant %q: %w", r.Kernel.Name, s.name, err)
		}
		c.addLegend(s.label(), p.dots)
		if p.shot != nil {
			shot = p.shot
		}
		if p.warm != nil {
			warm, froms[s.warmFrom] = p.warm, true
		}
	}
	if shot != nil {
		c.addLegend("in-process cold pass", shot)
	}
	if warm != nil {
		c.addLegend("warm median ("+strings.Join(sortedKeys(froms), ", ")+")", warm)
	}
	return c, nil
}

// refs returns the shot and the warm median, those that are known.
func (s coldSeries) refs() []float64 {
	var out []float64
	if s.hasShot {
		out = append(out, s.shot)
	}
	if s.warmFrom != "" {
		out = append(out, s.warm)
	}
	return out
}

// coldOf returns the variants that have cold passes.
func coldOf(r *result.Result) []coldSeries {
	var cs []coldSeries
	for i, v := range r.Variants {
		cold := v.Series.Cold
		if cold == nil || len(cold.SamplesNS) == 0 {
			continue
		}
		s := coldSeries{named: named{name: v.Name, ns: cold.SamplesNS, color: i, dead: v.Dead}, minflt: cold.MinFlt}
		if cold.InProcessColdNS != nil {
			s.shot, s.hasShot = *cold.InProcessColdNS, true
		}
		for _, w := range []struct {
			from string
			s    *result.Samples
		}{{"in-process", v.Series.InProcess}, {"interleaved", v.Series.Interleaved}} {
			if w.s != nil && len(w.s.SamplesNS) > 0 {
				s.warm, s.warmFrom = median(w.s.SamplesNS), w.from
				break
			}
		}
		cs = append(cs, s)
	}
	return cs
}

// coldPanel is what a cold panel drew that the legend shows.
type coldPanel struct {
	dots *Jitter
	shot *plotter.Scatter // nil without an in-process cold pass
	warm *Level           // nil without a warm series
}

// addColdPanel draws a variant's cold passes with its references.
func addColdPanel(c *chart, s coldSeries, w vg.Length) (coldPanel, error) {
	var out coldPanel
	ax, err := chooseAxis(s.ns, s.refs())
	if err != nil {
		return out, err
	}
	ax.unit = UnitFor(median(s.ns))
	p := c.addPanel(s.label())
	p.Add(gridLines(false))
	if out.dots, err = addCategory(p, ax.values(s.ns), 0, s.color, draw.CircleGlyph{}, w); err != nil {
		return out, fmt.Errorf("cold passes: %w", err)
	}
	if s.warmFrom != "" {
		if out.warm, err = NewLevel(ax.value(s.warm), 0, 0.45); err != nil {
			return out, fmt.Errorf("warm median: %w", err)
		}
		p.Add(out.warm)
	}
	if s.hasShot {
		if out.shot, err = plotter.NewScatter(plotter.XYs{{X: 0, Y: ax.value(s.shot)}}); err != nil {
			return out, fmt.Errorf("in-process cold pass: %w", err)
		}
		out.shot.GlyphStyle = draw.GlyphStyle{Color: color.White, Radius: vg.Points(5), Shape: DiamondGlyph{}}
		p.Add(out.shot)
	}
	categoryAxis(p, []plot.Tick{{Value: 0, Label: coldTick(s)}}, -0.6, 0.6)
	ax.apply(&p.Y, "cold pass")
	return out, nil
}

// coldTick is a variant's tick label: the cold median and its ratio to
// the warm median, median minor page faults.
func coldTick(s coldSeries) string {
	m := median(s.ns)
	lines := []string{"cold " + FormatNS(m)}
	if s.warmFrom != "" && s.warm > 0 {
		lines = append(lines, fmt.Sprintf("%.3gx warm", m/s.warm))
	}
	if len(s.minflt) > 0 {
		f := make([]float64, len(s.minflt))
		for i, v := range s.minflt {
			f[i] = float64(v)
		}
		lines = append(lines, fmt.Sprintf("%.0f minor faults", median(f)))
	}
	return strings.Join(lines, "\n")
}

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]bool) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
