package plot

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image/color"
	"os"
	"testing"

	"github.com/benchbook/benchbook/internal/result"
	"gonum.org/v1/plot/vg/vgimg"
)

// oldBundleBytes is what a chart's bundle stored before: a PNG at 1x DPI in
// full colour (base64) and the SVG.
func oldBundleBytes(t *testing.T, c *chart) int {
	t.Helper()
	w, h := c.size()
	cv := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(DPI))}
	c.paint(cv, w)
	png, err := encode(cv, "png")
	if err != nil {
		t.Fatal(err)
	}
	svg, err := c.render(w, h, "svg")
	if err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodedLen(len(png)) + len(svg)
}

// TestBundleSize: a figure's bundle (PNG only, twice the pixels each way,
// 32 colours) takes at most half the bytes of the bundle it replaces (a 1x
// RGBA PNG beside the SVG).
//
// Measured on the 20 figures that plot.All draws from the results of
// notebooks/published/investigation.ipynb (run on 2026-11-30): before,
// 1,855 kB of PNG (base64) and 704 kB of SVG for its 26 plots, 2.56 MB of
// its 2.97 MB; the 20 that plot.All draws took 2,074 kB re-rendered the old
// way and take 795 kB now (38%; TestPublishedSizes with BENCHBOOK_PUBLISHED_SIZES set
// to that notebook). The five fixtures below: 506 kB before, 191 kB after.
func TestBundleSize(t *testing.T) {
	makers := []struct {
		name string
		of   func(*result.Result) (*chart, error)
	}{{"strip", stripOf}, {"in-vs-fresh", inVsFreshOf}, {"run-order", runOrderOf}, {"cold", coldChartOf}, {"ecdf", ecdfOf}}
	var before, after int
	for _, m := range makers {
		c, err := m.of(deadAndLive())
		if err != nil {
			t.Fatal(err)
		}
		old := oldBundleBytes(t, c)
		fig, err := c.figure()
		if err != nil {
			t.Fatal(err)
		}
		now := len(fig.Bundle()["image/png"].(string))
		t.Logf("%s: %d bytes before, %d after (%.0f%%)", m.name, old, now, 100*float64(now)/float64(old))
		before, after = before+old, after+now
	}
	t.Logf("all five: %d bytes before, %d after (%.0f%%)", before, after, 100*float64(after)/float64(before))
	if 2*after > before {
		t.Errorf("the five figures take %d bytes, more than half of the %d they took as PNG and SVG", after, before)
	}
}

// TestPaletteKeepsRareColours: a colour that covers few pixels but differs
// from every frequent one (a variant's only outlier) keeps a palette entry.
func TestPaletteKeepsRareColours(t *testing.T) {
	var byFreq []color.RGBA
	for i := range 200 {
		byFreq = append(byFreq, color.RGBA{uint8(i), uint8(i), uint8(i), 255}) // greys
	}
	rare := color.RGBA{213, 94, 0, 255}
	byFreq = append(byFreq, rare)
	pal := pickPalette(byFreq, paletteSize)
	if len(pal) != paletteSize {
		t.Fatalf("%d colours, want %d", len(pal), paletteSize)
	}
	if pal[pal.Index(rare)] != rare {
		t.Errorf("the rare orange became %v", pal[pal.Index(rare)])
	}
}

// TestPNGDensity: the pHYs chunk says 192 dpi and the PNG still decodes.
func TestPNGDensity(t *testing.T) {
	fig, err := Strip(deadAndLive())
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(fig.PNG, []byte("pHYs"))
	if i < 0 {
		t.Fatal("no pHYs chunk")
	}
	ppm := int(fig.PNG[i+4])<<24 | int(fig.PNG[i+5])<<16 | int(fig.PNG[i+6])<<8 | int(fig.PNG[i+7])
	if dpi := float64(ppm) * 0.0254; dpi < 191.9 || dpi > 192.1 || fig.PNG[i+12] != 1 {
		t.Errorf("pHYs says %d per unit %d (%.1f dpi), want 192 dpi in metres", ppm, fig.PNG[i+12], dpi)
	}
	decodePNG(t, fig.PNG)
}

// TestPublishedSizes measures the figures of a published notebook when
// BENCHBOOK_PUBLISHED_SIZES names one (the numbers quoted in TestBundleSize).
func TestPublishedSizes(t *testing.T) {
	path := os.Getenv("BENCHBOOK_PUBLISHED_SIZES")
	if path == "" {
		t.Skip("BENCHBOOK_PUBLISHED_SIZES is not set")
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Cells []struct {
			Outputs []struct{ Data map[string]json.RawMessage }
		}
	}
	if err := json.Unmarshal(raw, &nb); err != nil {
		t.Fatal(err)
	}
	var before, after, n int
	for _, c := range nb.Cells {
		for _, o := range c.Outputs {
			v, ok := o.Data["application/vnd.benchbook.result+json"]
			if !ok {
				continue
			}
			var r result.Result
			if err := json.Unmarshal(v, &r); err != nil {
				t.Fatal(err)
			}
			for _, of := range []func(*result.Result) (*chart, error){stripOf, inVsFreshOf, runOrderOf, coldChartOf, ecdfOf} {
				ch, err := of(&r)
				if err != nil {
					continue
				}
				before += oldBundleBytes(t, ch)
				fig, err := ch.figure()
				if err != nil {
					t.Fatal(err)
				}
				after += len(fig.Bundle()["image/png"].(string))
				n++
			}
		}
	}
	t.Logf("%d figures: %d bytes before, %d after (%.0f%%)", n, before, after, 100*float64(after)/float64(before))
}
