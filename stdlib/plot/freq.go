package plot

import (
	"fmt"
	"image/color"
	"math"

	"github.com/benchbook/benchbook/internal/result"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// OffClockPct is how far, in percent, a process's clock must be from the
// run's median clock for its samples to be marked in InVsFresh.
const OffClockPct = 2.0

// offClock is the colour of the ring around a sample whose process ran at
// another clock: a red that no variant's palette colour is.
var offClock = color.RGBA{R: 220, G: 20, B: 60, A: 255}

// offClockMarks says, per sample of s, whether its process's clock (the
// series' freq_mhz) is more than OffClockPct from the run's median clock;
// nil when s has no clocks or none is off.
func offClockMarks(r *result.Result, s *result.Samples) []bool {
	run, ok := r.MedianClockMHz()
	if !ok || s == nil || len(s.FreqMHz) != len(s.SamplesNS) {
		return nil
	}
	marks, any := make([]bool, len(s.FreqMHz)), false
	for i, m := range s.FreqMHz {
		marks[i] = math.Abs(m-run)/run*100 > OffClockPct
		any = any || marks[i]
	}
	if !any {
		return nil
	}
	return marks
}

// addOffClockRings draws a ring around each marked dot of dots, at the
// same place, and returns the rings (nil when nothing is marked).
func addOffClockRings(p *plot.Plot, dots *Jitter, marks []bool) *Jitter {
	if dots == nil || len(marks) != len(dots.Values) {
		return nil
	}
	rings := &Jitter{Location: dots.Location,
		GlyphStyle: draw.GlyphStyle{Color: offClock, Radius: dots.GlyphStyle.Radius + vg.Points(2), Shape: draw.RingGlyph{}}}
	for i, m := range marks {
		if m {
			rings.Values = append(rings.Values, dots.Values[i])
			rings.Offsets = append(rings.Offsets, dots.Offsets[i])
		}
	}
	if len(rings.Values) == 0 {
		return nil
	}
	p.Add(rings)
	return rings
}

// offClockLegend is the legend entry of the rings: short, since the
// legend column takes its width from its longest entry.
func offClockLegend(r *result.Result) string {
	run, _ := r.MedianClockMHz()
	return fmt.Sprintf("clock >%g%% off %.0f MHz", OffClockPct, run)
}

// offClockThumb is the legend thumbnail of the rings.
type offClockThumb struct{}

// Thumbnail implements plot.Thumbnailer.
func (offClockThumb) Thumbnail(c *draw.Canvas) {
	c.DrawGlyph(draw.GlyphStyle{Color: offClock, Radius: vg.Points(4), Shape: draw.RingGlyph{}}, c.Center())
}
