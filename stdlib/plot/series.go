package plot

import (
	"fmt"
	"image/color"

	"github.com/benchbook/benchbook/internal/result"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// pair is a variant's two Part 2 series.
type pair struct {
	named           // the variant, with its in-process samples
	fresh []float64 // its fresh-process samples
	off   []bool    // fresh samples whose process's clock was off the run's (freq.go), or nil
}

// InVsFresh plots, for each variant that has both, its in-process series (one
// process, many passes) beside its fresh-process series (one pass in each of
// many processes): box and dots each, the medians under them. Each variant
// has a panel and an axis of its own, so that a shift of a few percent
// between its two series shows even when another variant is 10^4 times
// faster; the panel's title gives the ratio of the medians.
func InVsFresh(r *result.Result) (*Figure, error) { return figureOf(inVsFreshOf(r)) }

// inVsFreshOf builds the chart of InVsFresh.
func inVsFreshOf(r *result.Result) (*chart, error) {
	if err := checkResult(r, "InVsFresh"); err != nil {
		return nil, err
	}
	ps := freshPairs(r)
	if len(ps) == 0 {
		return nil, fmt.Errorf("plot: InVsFresh: %w: no variant of %q has both an in-process and a fresh series", ErrNoData, r.Kernel.Name)
	}
	names := make([]named, len(ps))
	for i, p := range ps {
		names[i] = p.named
	}
	c := newRow(heading(r, "in-process vs fresh processes, "+nameList(names)))
	for _, p := range ps {
		dots, err := addPairPanel(c, p, boxWidth(2*len(ps)))
		if err != nil {
			return nil, fmt.Errorf("plot: InVsFresh of %q, variant %q: %w", r.Kernel.Name, p.name, err)
		}
		c.addLegend(p.label(), dots)
	}
	c.addLegend("in-process", kindThumb{draw.CircleGlyph{}})
	c.addLegend("fresh processes", kindThumb{draw.PyramidGlyph{}})
	for _, p := range ps {
		if p.off != nil {
			c.addLegend(offClockLegend(r), offClockThumb{})
			break
		}
	}
	return c, nil
}

// freshPairs returns the variants that have both Part 2 series.
func freshPairs(r *result.Result) []pair {
	var ps []pair
	for i, v := range r.Variants {
		in, fr := v.Series.InProcess, v.Series.Fresh
		if in == nil || fr == nil || len(in.SamplesNS) == 0 || len(fr.SamplesNS) == 0 {
			continue
		}
		ps = append(ps, pair{named: named{name: v.Name, ns: in.SamplesNS, color: i, dead: v.Dead, batch: v.Batch}, fresh: fr.SamplesNS,
			off: offClockMarks(r, fr)})
	}
	return ps
}

// addPairPanel draws a variant's panel: in-process at 0, fresh at 1, each
// with its median under it. It returns the in-process dots, for the legend.
func addPairPanel(c *chart, p pair, w vg.Length) (*Jitter, error) {
	ax, err := chooseAxis(p.ns, p.fresh)
	if err != nil {
		return nil, err
	}
	mi, mf := median(p.ns), median(p.fresh)
	pl := c.addPanel(fmt.Sprintf("%s\nfresh/in-process %.3gx", p.label(), mf/mi))
	pl.Add(gridLines(false))
	dots, err := addCategory(pl, ax.values(p.ns), 0, p.color, draw.CircleGlyph{}, w)
	if err != nil {
		return nil, fmt.Errorf("in-process series: %w", err)
	}
	fdots, err := addCategory(pl, ax.values(p.fresh), 1, p.color, draw.PyramidGlyph{}, w)
	if err != nil {
		return nil, fmt.Errorf("fresh series: %w", err)
	}
	addOffClockRings(pl, fdots, p.off)
	categoryAxis(pl, []plot.Tick{
		{Value: 0, Label: "in-process\n" + FormatNS(mi)},
		{Value: 1, Label: "fresh\n" + FormatNS(mf)},
	}, -0.5, 1.5)
	ax.apply(&pl.Y, "time per pass")
	return dots, nil
}

// kindThumb is a grey legend thumbnail of a glyph shape, for an entry that
// names a kind of series rather than a variant.
type kindThumb struct{ shape draw.GlyphDrawer }

// Thumbnail implements plot.Thumbnailer.
func (k kindThumb) Thumbnail(c *draw.Canvas) {
	c.DrawGlyph(draw.GlyphStyle{Color: color.Gray{Y: 90}, Radius: vg.Points(2.8), Shape: k.shape}, c.Center())
}
