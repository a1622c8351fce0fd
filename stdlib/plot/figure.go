// Package plot draws the distributions of a benchbook result with gonum/plot:
// every sample of every variant as a strip plot over a box plot, in-process
// against fresh-process series, samples in run order, the cold passes, and
// empirical CDFs. Each plot returns a Figure, whose Bundle is a Jupyter MIME
// bundle carrying the picture as PNG, drawn at twice its displayed size, and
// whose Metadata gives the size to display it at.
//
// Times are drawn in the unit that suits the data (ns, µs, ms or s, chosen
// from the largest median), and on a log axis when the data span more than
// 100x, as when a dead variant (its work removed by the compiler) sits beside
// a live one. Jitter is seeded, so the same result always gives the same
// picture.
package plot

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Figure sizes: about the width of a notebook cell. A figure is shown at 96
// dpi, so a default figure displays 720 x 384 pixels wide and high; its PNG
// holds twice as many pixels each way (pngScale); the SVG has the same size
// in points.
// A figure with more than three panels (one per variant) puts them on further
// rows and is taller.
const (
	DefaultWidth  = 7.5 * vg.Inch
	DefaultHeight = 4 * vg.Inch
	DPI           = 96
)

// ErrNoData is returned (wrapped) when there is nothing to plot: a nil or
// empty result, or a result without the series a plot needs.
var ErrNoData = errors.New("no data to plot")

// Figure is one rendered plot: the same picture as PNG and SVG bytes.
type Figure struct {
	Title         string    // the heading's lines, joined by " | "
	PNG           []byte    // the picture at twice DPI, paletted, with its density
	SVG           []byte    // the picture as SVG, with text as text
	Width, Height vg.Length // the picture's size
}

// Bundle returns the figure as a Jupyter MIME bundle: image/png (base64)
// and text/plain (the title). A figure without images (a plot that failed
// inside All) has only its text.
//
// The SVG is left out on purpose: a viewer shows one entry of a bundle, and
// `jupyter nbconvert --to html` (6.5) prefers image/svg+xml, then its
// sanitiser removes it, leaving a blank where the plot was. PNG is what every
// viewer shows (the classic Notebook, JupyterLab, nbconvert, GitHub); drawn at
// twice its size with a palette it is sharp and smaller than the 1x RGBA PNG
// and the SVG were together (see TestBundleSize).
func (f *Figure) Bundle() map[string]any {
	b := map[string]any{"text/plain": f.Title}
	if len(f.PNG) > 0 {
		b["image/png"] = base64.StdEncoding.EncodeToString(f.PNG)
	}
	return b
}

// Metadata is the output metadata that goes with Bundle: the width and
// height, in CSS pixels, to show the PNG at (half its pixels), as
// IPython.display.Image(retina=True) writes them. Nil without a PNG.
func (f *Figure) Metadata() map[string]any {
	if len(f.PNG) == 0 {
		return nil
	}
	return map[string]any{"image/png": map[string]any{"width": f.displayPixels(f.Width), "height": f.displayPixels(f.Height)}}
}

// displayPixels is a length in CSS pixels at DPI.
func (f *Figure) displayPixels(l vg.Length) int { return int(math.Round(l.Dots(DPI))) }

// chart is a figure being built: a gonum plot, or a row of them (panels with
// axes of their own), and a legend drawn in a column to the right, outside
// the data area, so that it never hides data.
type chart struct {
	p       *plot.Plot   // the plot; nil when the chart is made of panels
	row     []*plot.Plot // the panels, left to right then top to bottom
	heading []string     // the title's lines, drawn across the whole figure
	style   text.Style   // the heading's text style
	legend  plot.Legend
	texts   []string // the legend's entries, to size its column
}

// sans is the typeface of every text in a figure.
func sans(size vg.Length) font.Font {
	return font.From(font.Font{Typeface: "Liberation", Variant: "Sans"}, size)
}

// newPlot returns a gonum plot with the house style: sans-serif text sized
// for a notebook.
func newPlot() *plot.Plot {
	p := plot.New()
	p.Title.TextStyle.Font = sans(10)
	p.Title.Padding = vg.Points(4)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = sans(10)
		a.Tick.Label.Font = sans(9)
		a.Label.Padding = vg.Points(2)
	}
	return p
}

// newChart returns a chart of one plot with the house style: a title of one
// or two lines, a legend column at the top right.
func newChart(title []string) *chart {
	c := newRow(title)
	c.p = newPlot()
	return c
}

// newRow returns a chart of panels, added with addPanel: up to maxCols in a
// row, each with axes of its own.
func newRow(title []string) *chart {
	sty := newPlot().Title.TextStyle
	sty.Font = sans(11)
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YTop
	leg := plot.NewLegend()
	leg.TextStyle.Font = sans(9.5)
	leg.Top, leg.Left = true, true
	leg.Padding = vg.Points(3)
	leg.ThumbnailWidth = vg.Points(16)
	return &chart{heading: title, style: sty, legend: leg}
}

// addPanel adds a panel, titled, to a row and returns it.
func (c *chart) addPanel(title string) *plot.Plot {
	p := newPlot()
	p.Title.Text = title
	c.row = append(c.row, p)
	return p
}

// addLegend adds one legend entry.
func (c *chart) addLegend(text string, thumbs ...plot.Thumbnailer) {
	c.legend.Add(text, thumbs...)
	c.texts = append(c.texts, text)
}

// legendWidth is the width of the legend column, zero without entries.
func (c *chart) legendWidth() vg.Length {
	var w vg.Length
	for _, t := range c.texts {
		w = max(w, c.legend.TextStyle.Width(" "+t))
	}
	if w == 0 {
		return 0
	}
	// A tenth more than measured, for an SVG viewer's fallback font.
	return 1.1*w + c.legend.ThumbnailWidth + vg.Points(8)
}

// legendLeft is the left edge of the legend column in a figure w wide.
func (c *chart) legendLeft(w vg.Length) vg.Length {
	return w - margin - c.legendWidth() + vg.Points(8)
}

// figureOf renders a chart that was built without error.
func figureOf(c *chart, err error) (*Figure, error) {
	if err != nil {
		return nil, err
	}
	return c.figure()
}

// maxCols is the most panels in a row; more go on further rows.
const maxCols = 3

// grid returns the columns and rows of a chart's panels.
func (c *chart) grid() (cols, rows int) {
	cols = min(max(len(c.row), 1), maxCols)
	return cols, (len(c.row) + cols - 1) / cols
}

// size is the size of the figure: the default, taller by rowHeight for each
// further row of panels.
func (c *chart) size() (w, h vg.Length) {
	const rowHeight = 2.5 * vg.Inch
	_, rows := c.grid()
	return DefaultWidth, DefaultHeight + vg.Length(max(rows-1, 0))*rowHeight
}

// figure renders the chart as PNG and SVG.
func (c *chart) figure() (*Figure, error) {
	w, h := c.size()
	png, err := c.render(w, h, "png")
	if err != nil {
		return nil, err
	}
	svg, err := c.render(w, h, "svg")
	if err != nil {
		return nil, err
	}
	svg = svgFallbackFonts(svg)
	return &Figure{Title: strings.Join(c.heading, " | "), PNG: png, SVG: svg, Width: w, Height: h}, nil
}

// svgFallbackFonts adds fonts of the same metrics (Arimo, Arial, Helvetica)
// and the generic sans-serif after Liberation Sans in an SVG, which names its
// font without embedding it: a browser without Liberation Sans would
// otherwise fall back to a serif font.
func svgFallbackFonts(svg []byte) []byte {
	return bytes.ReplaceAll(svg, []byte("font-family:Liberation Sans;"), []byte("font-family:Liberation Sans,Arimo,Arial,Helvetica,sans-serif;"))
}

// drawHeading draws the title's lines at the top left, each cut to the
// width of the figure, and returns the canvas below them.
func (c *chart) drawHeading(dc draw.Canvas) draw.Canvas {
	if len(c.heading) == 0 {
		return dc
	}
	lines := make([]string, len(c.heading))
	for i, l := range c.heading {
		lines[i] = fitWidth(c.style, l, dc.Size().X)
	}
	txt := strings.Join(lines, "\n")
	dc.FillText(c.style, vg.Point{X: dc.Min.X, Y: dc.Max.Y}, txt)
	return draw.Crop(dc, 0, 0, 0, -(c.style.Height(txt) + vg.Points(6)))
}

// fitWidth cuts s, ending it with an ellipsis, until it is at most w wide.
func fitWidth(sty text.Style, s string, w vg.Length) string {
	if sty.Width(s) <= w {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && sty.Width(string(r)+"…") > w {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}

// drawWithLabels draws the plot with its axis labels drawn here rather than
// by gonum, which places their glyph boxes at the arithmetic middle of the
// axis range: near one end of a log axis, which then pads the data area by
// half the label's length.
func drawWithLabels(orig *plot.Plot, dc draw.Canvas) {
	p := *orig
	p.X.Label.Text, p.Y.Label.Text = "", ""
	xs, ys := orig.X.Label.TextStyle, orig.Y.Label.TextStyle
	gap := vg.Points(3)
	if t := orig.Y.Label.Text; t != "" {
		dc = draw.Crop(dc, ys.Height(t)+gap, 0, 0, 0)
	}
	if t := orig.X.Label.Text; t != "" {
		dc = draw.Crop(dc, 0, 0, xs.Height(t)+gap, 0)
	}
	p.Draw(dc)
	data := p.DataCanvas(dc)
	if t := orig.Y.Label.Text; t != "" {
		ys.Rotation += math.Pi / 2
		ys.XAlign, ys.YAlign = draw.XCenter, draw.YTop
		dc.FillText(ys, vg.Point{X: dc.Min.X - ys.Height(t) - gap, Y: data.Center().Y}, t)
	}
	if t := orig.X.Label.Text; t != "" {
		xs.XAlign, xs.YAlign = draw.XCenter, draw.YTop
		dc.FillText(xs, vg.Point{X: data.Center().X, Y: dc.Min.Y - gap}, t)
	}
}

// margin is the blank border around a figure.
const margin = 6 * vg.Millimeter / 2

// render draws the chart as "png" or "svg". It does what Plot.WriterTo does
// (a canvas of the format, Plot.Draw, WriteTo into memory), with room made
// for a heading across the whole figure and a legend column at the right:
// the plot, or its panels, are drawn below the one and left of the other.
// The PNG is drawn at pngScale times DPI and stored with a palette (see
// encodePNG).
func (c *chart) render(w, h vg.Length, format string) ([]byte, error) {
	switch format {
	case "png":
		cv := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(pngScale*DPI))
		c.paint(cv, w)
		return encodePNG(cv.Image())
	case "svg":
		cv := vgsvg.New(w, h)
		c.paint(cv, w)
		return encode(cv, format)
	}
	return nil, fmt.Errorf("plot: unknown image format %q (want png or svg)", format)
}

// paint draws the chart on a canvas w wide.
func (c *chart) paint(cv vg.CanvasSizer, w vg.Length) {
	dc := draw.New(cv)
	dc.SetColor(color.White) // an opaque figure reads on dark notebook themes too
	dc.Fill(dc.Rectangle.Path())
	dc = draw.Crop(dc, margin, -margin, margin, -margin)
	dc = c.drawHeading(dc)
	if lw := c.legendWidth(); lw > 0 {
		c.legend.Draw(draw.Crop(dc, c.legendLeft(w)-dc.Min.X, 0, 0, 0))
		dc = draw.Crop(dc, 0, -lw, 0, 0)
	}
	if c.p != nil {
		drawWithLabels(c.p, dc)
		return
	}
	cols, rows := c.grid()
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(10), PadY: vg.Points(10)}
	for i, p := range c.row {
		drawWithLabels(p, tiles.At(dc, i%cols, i/cols))
	}
}

// encode returns the bytes of a drawn canvas.
func encode(cv vg.CanvasWriterTo, format string) ([]byte, error) {
	var buf bytes.Buffer
	if _, err := cv.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("plot: writing %s: %w", format, err)
	}
	return buf.Bytes(), nil
}
