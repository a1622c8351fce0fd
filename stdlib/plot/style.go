package plot

import (
	"fmt"
	"image/color"
	"sort"
	"strings"

	"github.com/benchbook/benchbook/internal/result"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// named is one named series of samples, in nanoseconds, with the index that
// picks its colour (the variant's place in the result, so that a variant has
// the same colour in every figure of a result).
type named struct {
	name  string
	ns    []float64
	color int
	dead  bool
	open  bool // drawn with open dots: a second series of one variant
	batch int  // its samples are means of this many passes (batch=K), when above 1
}

// variantColor is the colour of the i-th variant: the Okabe-Ito colours,
// which stay distinct under the common colour-vision deficiencies, without
// their yellow, which does not read on white.
func variantColor(i int) color.NRGBA {
	cs := [...]color.NRGBA{
		{0x00, 0x72, 0xB2, 0xff}, // blue
		{0xD5, 0x5E, 0x00, 0xff}, // vermillion
		{0x00, 0x9E, 0x73, 0xff}, // bluish green
		{0xCC, 0x79, 0xA7, 0xff}, // reddish purple
		{0xE6, 0x9F, 0x00, 0xff}, // orange
		{0x56, 0xB4, 0xE9, 0xff}, // sky blue
		{0x00, 0x00, 0x00, 0xff}, // black
	}
	return cs[((i%len(cs))+len(cs))%len(cs)]
}

// alpha returns c with opacity a.
func alpha(c color.NRGBA, a uint8) color.NRGBA {
	c.A = a
	return c
}

// variantGlyph is the dot shape of the i-th variant, so that lines and
// dots differ by shape as well as colour.
func variantGlyph(i int) draw.GlyphDrawer {
	gs := [...]draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}, DiamondGlyph{}, draw.RingGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}}
	return gs[((i%len(gs))+len(gs))%len(gs)]
}

// variantDashes is the dash pattern of the i-th variant's lines.
func variantDashes(i int) []vg.Length {
	switch i % 4 {
	case 1:
		return []vg.Length{vg.Points(5), vg.Points(2)}
	case 2:
		return []vg.Length{vg.Points(1.5), vg.Points(1.5)}
	case 3:
		return []vg.Length{vg.Points(6), vg.Points(2), vg.Points(1.5), vg.Points(2)}
	}
	return nil
}

// gridLines returns light grid lines at the major ticks; horizontal only
// unless vertical is set.
func gridLines(vertical bool) *plotter.Grid {
	g := plotter.NewGrid()
	g.Horizontal = draw.LineStyle{Color: color.Gray{Y: 225}, Width: vg.Points(0.6)}
	g.Vertical = g.Horizontal
	if !vertical {
		g.Vertical.Color = nil
	}
	return g
}

// checkResult fails when there is no result to plot.
func checkResult(r *result.Result, fn string) error {
	if r == nil {
		return fmt.Errorf("plot: %s: %w: nil result", fn, ErrNoData)
	}
	if len(r.Variants) == 0 {
		return fmt.Errorf("plot: %s: %w: result for kernel %q has no variants", fn, ErrNoData, r.Kernel.Name)
	}
	return nil
}

// heading is a figure's title: the kernel and what is shown, then how the
// kernel was built and measured.
func heading(r *result.Result, what string) []string {
	name := r.Kernel.Name
	if name == "" {
		name = "kernel"
	}
	first := name + ": " + what
	if r.Partial {
		first += " (partial run)"
	}
	return []string{first, buildLine(r)}
}

// buildLine describes the build and the protocol in one line.
func buildLine(r *result.Result) string {
	var parts []string
	k := r.Kernel
	if b := strings.TrimSpace(strings.Join(append([]string{k.Compiler}, k.Flags...), " ")); b != "" {
		parts = append(parts, b)
	}
	if k.Lang != "" {
		parts = append(parts, k.Lang)
	}
	if p := r.Protocol; p.Reps > 0 {
		parts = append(parts, fmt.Sprintf("reps=%d runs=%d", p.Reps, p.Runs))
	}
	return strings.Join(parts, " · ")
}

// nameList joins names for a title.
func nameList(ss []named) string {
	names := make([]string, len(ss))
	for i, s := range ss {
		names[i] = s.name
	}
	return strings.Join(names, ", ")
}

// label is a series' name as shown on an axis or in a legend.
func (s named) label() string {
	l := s.name
	if s.batch > 1 {
		l += fmt.Sprintf(" (means of %d)", s.batch)
	}
	if s.dead {
		l += " (dead)"
	}
	return l
}

// fromMap turns glue-cell series into named series, sorted by name (a map
// has no order), leaving out empty ones.
func fromMap(series map[string][]float64) []named {
	names := make([]string, 0, len(series))
	for n := range series {
		names = append(names, n)
	}
	sort.Strings(names)
	var ss []named
	for i, n := range names {
		if len(series[n]) > 0 {
			ss = append(ss, named{name: n, ns: series[n], color: i})
		}
	}
	return ss
}

// interleaved returns the variants' interleaved series that have samples.
func interleaved(r *result.Result) []named {
	var ss []named
	for i, v := range r.Variants {
		if s := v.Series.Interleaved; s != nil && len(s.SamplesNS) > 0 {
			ss = append(ss, named{name: v.Name, ns: s.SamplesNS, color: i, dead: v.Dead, batch: v.Batch})
		}
	}
	return ss
}

// nsOf returns the samples of each series.
func nsOf(ss []named) [][]float64 {
	out := make([][]float64, len(ss))
	for i, s := range ss {
		out[i] = s.ns
	}
	return out
}

// categoryBox returns a box plot of values at loc, in the house style: a
// light fill of the series' colour, a dark outline, a thick median, and no
// glyphs for outside points (the dots drawn over it show every sample).
func categoryBox(vals plotter.Values, loc float64, width vg.Length, col int) (*plotter.BoxPlot, error) {
	b, err := plotter.NewBoxPlot(width, loc, vals)
	if err != nil {
		return nil, err
	}
	b.FillColor = alpha(variantColor(col), 0x30)
	b.BoxStyle = draw.LineStyle{Color: color.Gray{Y: 60}, Width: vg.Points(0.8)}
	b.MedianStyle = draw.LineStyle{Color: color.Black, Width: vg.Points(2.2)}
	b.WhiskerStyle.Color = color.Gray{Y: 60}
	b.WhiskerStyle.Width = vg.Points(0.8)
	b.GlyphStyle.Radius = 0
	return b, nil
}

// categoryDots returns the jittered dots of values at loc.
func categoryDots(vals plotter.Values, loc, spread float64, col int, shape draw.GlyphDrawer) (*Jitter, error) {
	j, err := NewJitter(vals, loc, spread, 0x62656e6368626f6b) // "benchbok": any fixed seed
	if err != nil {
		return nil, err
	}
	j.GlyphStyle = draw.GlyphStyle{Color: alpha(variantColor(col), 0xb0), Radius: vg.Points(2.3), Shape: shape}
	return j, nil
}

// boxWidth is the width of a box when n categories share the x axis.
func boxWidth(n int) vg.Length {
	w := 0.45 * (DefaultWidth - 2.5*vg.Inch) / vg.Length(max(n, 1))
	return min(max(w, vg.Points(6)), vg.Points(48))
}

// categoryAxis makes the x axis categorical: ticks with labels and no tick
// marks, from lo to hi.
func categoryAxis(p *plot.Plot, ticks []plot.Tick, lo, hi float64) {
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Tick.Length = 0
	p.X.Min, p.X.Max = lo, hi
}
