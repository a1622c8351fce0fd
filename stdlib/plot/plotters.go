package plot

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Jitter is a plot.Plotter that draws values as dots over one position of a
// categorical x axis, each moved sideways by a seeded pseudo-random offset so
// that equal values do not hide one another. The same seed gives the same
// picture.
type Jitter struct {
	// Values are the y values, one dot each.
	plotter.Values
	// Location is the dots' position on the x axis.
	Location float64
	// Offsets are the dots' sideways offsets, in x data units.
	Offsets []float64
	// GlyphStyle is the style of the dots.
	draw.GlyphStyle
}

// NewJitter returns a Jitter of the values at loc, spread uniformly over a
// band of the given width (in x data units) centred on loc, with offsets drawn
// from a generator seeded with seed. Values must be finite and non-empty.
func NewJitter(values plotter.Valuer, loc, width float64, seed uint64) (*Jitter, error) {
	if values == nil || values.Len() == 0 {
		return nil, errors.New("plot: NewJitter: no values")
	}
	if math.IsNaN(loc) || math.IsInf(loc, 0) || !(width >= 0) || math.IsInf(width, 0) {
		return nil, fmt.Errorf("plot: NewJitter: location %v and width %v must be finite, width >= 0", loc, width)
	}
	vs, err := plotter.CopyValues(values)
	if err != nil {
		return nil, fmt.Errorf("plot: NewJitter: %w", err)
	}
	rng := rand.New(rand.NewPCG(seed, math.Float64bits(loc)))
	off := make([]float64, len(vs))
	for i := range off {
		off[i] = (rng.Float64() - 0.5) * width
	}
	return &Jitter{
		Values:     vs,
		Location:   loc,
		Offsets:    off,
		GlyphStyle: draw.GlyphStyle{Color: color.Black, Radius: vg.Points(2), Shape: draw.CircleGlyph{}},
	}, nil
}

// Plot implements plot.Plotter.
func (j *Jitter) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	for i, v := range j.Values {
		c.DrawGlyph(j.GlyphStyle, vg.Point{X: trX(j.Location + j.Offsets[i]), Y: trY(v)})
	}
}

// DataRange implements plot.DataRanger.
func (j *Jitter) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = j.Location, j.Location
	for _, o := range j.Offsets {
		xmin, xmax = min(xmin, j.Location+o), max(xmax, j.Location+o)
	}
	ymin, ymax = plotter.Range(j.Values)
	return xmin, xmax, ymin, ymax
}

// GlyphBoxes implements plot.GlyphBoxer, so that no dot is clipped.
func (j *Jitter) GlyphBoxes(plt *plot.Plot) []plot.GlyphBox {
	bs := make([]plot.GlyphBox, len(j.Values))
	for i, v := range j.Values {
		bs[i] = plot.GlyphBox{X: plt.X.Norm(j.Location + j.Offsets[i]), Y: plt.Y.Norm(v), Rectangle: j.GlyphStyle.Rectangle()}
	}
	return bs
}

// Thumbnail implements plot.Thumbnailer: one dot.
func (j *Jitter) Thumbnail(c *draw.Canvas) {
	c.DrawGlyph(j.GlyphStyle, c.Center())
}

// Level is a plot.Plotter that draws a horizontal reference segment at one
// y value across a band of the x axis, such as a median across a category.
type Level struct {
	// Value is the y value of the segment.
	Value float64
	// Location and HalfWidth place the segment from Location-HalfWidth to
	// Location+HalfWidth, in x data units.
	Location, HalfWidth float64
	// LineStyle is the style of the segment.
	draw.LineStyle
}

// NewLevel returns a Level at value across loc±halfWidth, drawn as a dashed
// black line. Every number must be finite and halfWidth >= 0.
func NewLevel(value, loc, halfWidth float64) (*Level, error) {
	for _, v := range []float64{value, loc, halfWidth} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("plot: NewLevel: value %v, location %v, half width %v: all must be finite", value, loc, halfWidth)
		}
	}
	if halfWidth < 0 {
		return nil, fmt.Errorf("plot: NewLevel: negative half width %v", halfWidth)
	}
	return &Level{
		Value: value, Location: loc, HalfWidth: halfWidth,
		LineStyle: draw.LineStyle{Color: color.Black, Width: vg.Points(1.2), Dashes: []vg.Length{vg.Points(4), vg.Points(2)}},
	}, nil
}

// Plot implements plot.Plotter.
func (l *Level) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	y := trY(l.Value)
	pts := []vg.Point{{X: trX(l.Location - l.HalfWidth), Y: y}, {X: trX(l.Location + l.HalfWidth), Y: y}}
	c.StrokeLines(l.LineStyle, c.ClipLinesXY(pts)...)
}

// DataRange implements plot.DataRanger.
func (l *Level) DataRange() (xmin, xmax, ymin, ymax float64) {
	return l.Location - l.HalfWidth, l.Location + l.HalfWidth, l.Value, l.Value
}

// Thumbnail implements plot.Thumbnailer: a horizontal stroke.
func (l *Level) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(l.LineStyle, c.Min.X, y, c.Max.X, y)
}

// DiamondGlyph is a glyph that draws a diamond filled with the glyph's colour
// and outlined in black, so that it stands out over dots of any colour.
type DiamondGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (DiamondGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	var p vg.Path
	p.Move(vg.Point{X: pt.X, Y: pt.Y + r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y})
	p.Line(vg.Point{X: pt.X, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X - r, Y: pt.Y})
	p.Close()
	c.Fill(p)
	c.SetLineStyle(draw.LineStyle{Color: color.Black, Width: vg.Points(1)})
	c.Stroke(p)
}

// divider is a plot.Plotter that draws a dashed vertical line at X across
// the whole data area, between two parts of a run, with a label at the top
// on each side.
type divider struct {
	X           float64
	Left, Right string
	draw.LineStyle
	Text text.Style
}

// newDivider returns a divider in grey, labelled in small sans-serif.
func newDivider(x float64, left, right string) divider {
	return divider{
		X: x, Left: left, Right: right,
		LineStyle: draw.LineStyle{Color: color.Gray{Y: 110}, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(3), vg.Points(3)}},
		Text:      text.Style{Color: color.Gray{Y: 70}, Font: sans(9), YAlign: draw.YTop, Handler: plot.DefaultTextHandler},
	}
}

// Plot implements plot.Plotter.
func (d divider) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, _ := plt.Transforms(&c)
	x := trX(d.X)
	if !c.ContainsX(x) {
		return
	}
	c.StrokeLine2(d.LineStyle, x, c.Min.Y, x, c.Max.Y)
	// Each label beside the line on its side; moved in to stay inside the
	// data area, and one line down when that takes it across the line.
	pad, sty, y := vg.Points(4), d.Text, c.Max.Y
	sty.XAlign = draw.XLeft
	if w := sty.Width(d.Left); x-pad-w >= c.Min.X {
		c.FillText(sty, vg.Point{X: x - pad - w, Y: y}, d.Left)
	} else {
		c.FillText(sty, vg.Point{X: c.Min.X, Y: y}, d.Left)
		y -= sty.Height(d.Left)
	}
	if w := sty.Width(d.Right); x+pad+w <= c.Max.X {
		c.FillText(sty, vg.Point{X: x + pad, Y: y}, d.Right)
	} else {
		if y == c.Max.Y {
			y -= sty.Height(d.Right)
		}
		c.FillText(sty, vg.Point{X: max(c.Max.X-w, c.Min.X), Y: y}, d.Right)
	}
}
