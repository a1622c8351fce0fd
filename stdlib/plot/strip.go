package plot

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/benchbook/benchbook/internal/result"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Strip plots every sample of every variant's interleaved series (Part 1) as
// jittered dots over a box plot per variant, the median marked by a thick
// line and written under the variant's name. The A/A control's second copy,
// when there is one, is drawn beside the variants, in its variant's colour
// with open dots. The time axis is logarithmic when the samples span more
// than 100x, as when a dead variant is measured beside a live one.
func Strip(r *result.Result) (*Figure, error) { return figureOf(stripOf(r)) }

// stripOf builds the chart of Strip.
func stripOf(r *result.Result) (*chart, error) {
	if err := checkResult(r, "Strip"); err != nil {
		return nil, err
	}
	ss := interleaved(r)
	if len(ss) == 0 {
		return nil, fmt.Errorf("plot: Strip: %w: no variant of %q has interleaved samples", ErrNoData, r.Kernel.Name)
	}
	what := "every interleaved sample of " + nameList(ss)
	if aa := aaCopy(r); aa != nil {
		ss = append(ss, *aa)
	}
	c, err := stripChart(heading(r, what), ss, "variant, with its median")
	if err != nil {
		return nil, fmt.Errorf("plot: Strip of %q: %w", r.Kernel.Name, err)
	}
	return c, nil
}

// Samples is Strip for arbitrary named series of nanoseconds, from a glue
// cell: one category per series, in the order of their names.
func Samples(title string, series map[string][]float64) (*Figure, error) {
	ss := fromMap(series)
	if len(ss) == 0 {
		return nil, fmt.Errorf("plot: Samples %q: %w: no series has samples", title, ErrNoData)
	}
	c, err := stripChart([]string{title}, ss, "series, with its median")
	if err != nil {
		return nil, fmt.Errorf("plot: Samples %q: %w", title, err)
	}
	return c.figure()
}

// aaCopy returns the A/A control's second copy as a series, or nil.
func aaCopy(r *result.Result) *named {
	if r.AA.Variant == "" || len(r.AA.SamplesNS) == 0 {
		return nil
	}
	for i, v := range r.Variants {
		if v.Name == r.AA.Variant {
			return &named{name: v.Name + " A/A copy", ns: r.AA.SamplesNS, color: i, dead: v.Dead, open: true}
		}
	}
	return nil
}

// stripChart draws each series as a category: a box, jittered dots over it,
// and a tick label with the name and the median; or, when those labels would
// not fit side by side, a number, with name and median in the legend.
func stripChart(title []string, ss []named, xlabel string) (*chart, error) {
	ax, err := chooseAxis(nsOf(ss)...)
	if err != nil {
		return nil, err
	}
	c := newChart(title)
	c.p.Add(gridLines(false))
	full := make([]string, len(ss))
	for i, s := range ss {
		full[i] = s.label() + "\n" + FormatNS(median(s.ns))
	}
	numbered := !c.fitsCategories(full)
	ticks := make([]plot.Tick, len(ss))
	for i, s := range ss {
		loc := float64(i)
		shape := draw.GlyphDrawer(draw.CircleGlyph{})
		if s.open {
			shape = draw.RingGlyph{}
		}
		dots, err := addCategory(c.p, ax.values(s.ns), loc, s.color, shape, boxWidth(len(ss)))
		if err != nil {
			return nil, fmt.Errorf("series %q: %w", s.name, err)
		}
		if numbered {
			ticks[i] = plot.Tick{Value: loc, Label: strconv.Itoa(i + 1)}
			c.addLegend(fmt.Sprintf("%d %s: %s", i+1, s.label(), FormatNS(median(s.ns))), dots)
			continue
		}
		ticks[i] = plot.Tick{Value: loc, Label: full[i]}
		c.addLegend(s.label(), dots)
	}
	categoryAxis(c.p, ticks, -0.6, float64(len(ss))-0.4)
	ax.apply(&c.p.Y, "time per pass")
	c.p.X.Label.Text = xlabel
	if numbered {
		c.p.X.Label.Text += " (numbered in the legend)"
	}
	return c, nil
}

// fitsCategories reports whether the tick labels of categories fit side by
// side on the x axis of a default-sized chart whose legend holds their
// first lines.
func (c *chart) fitsCategories(labels []string) bool {
	var legend, widest vg.Length
	for _, l := range labels {
		lines := strings.Split(l, "\n")
		legend = max(legend, c.legend.TextStyle.Width(" "+lines[0]))
		for _, line := range lines {
			widest = max(widest, c.p.X.Tick.Label.Width(line))
		}
	}
	const yAxis = 80 // points: tick labels, ticks and label of the y axis
	data := DefaultWidth - 2*margin - 1.1*legend - c.legend.ThumbnailWidth - vg.Points(8+yAxis)
	return widest <= 0.9*data/vg.Length(float64(len(labels))+0.2)
}

// addCategory draws one category at loc on p: a box plot of vals with
// jittered dots over it. It returns the dots, whose thumbnail suits a legend.
func addCategory(p *plot.Plot, vals plotter.Values, loc float64, col int, shape draw.GlyphDrawer, width vg.Length) (*Jitter, error) {
	box, err := categoryBox(vals, loc, width, col)
	if err != nil {
		return nil, err
	}
	dots, err := categoryDots(vals, loc, 0.4, col, shape)
	if err != nil {
		return nil, err
	}
	p.Add(box, dots)
	return dots, nil
}
