package ipynb

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/protocol/benchtest"
	"github.com/benchbook/benchbook/ipynb/ipynbtest"
	"github.com/benchbook/benchbook/stdlib/display"
	"github.com/benchbook/benchbook/stdlib/plot"
	"github.com/benchbook/benchbook/stdlib/report"
)

// TestFiguresDisplayAtTheirSize: a figure's PNG (twice the pixels, with its
// density) is stored with width and height metadata at half its pixels, and
// the HTML page shows it at that size.
func TestFiguresDisplayAtTheirSize(t *testing.T) {
	fig, err := plot.Strip(benchtest.Seed000(9))
	if err != nil {
		t.Fatal(err)
	}
	nb := New(NewCode("plot"))
	eng := &ipynbtest.Engine{Steps: map[string]ipynbtest.Step{"plot": func(pub display.Publisher) (map[string]any, error) {
		pub.Display(display.Bundle{Data: fig.Bundle(), ID: display.NewID()}, false)
		return nil, nil
	}}}
	if err := Execute(context.Background(), nb, eng, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	back := roundTrip(t, nb)
	meta, _ := back.Cells[0].Outputs[0].Metadata[display.MIMEPNG].(map[string]any)
	if meta["width"] != json.Number("720") || meta["height"] != json.Number("384") {
		t.Errorf("metadata %v, want width 720 and height 384", back.Cells[0].Outputs[0].Metadata)
	}
	page, err := HTML(back)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(page, []byte(`width="720" height="384" src="data:image/png;base64,`)) {
		t.Error("the HTML page does not show the figure at 720x384")
	}
	if w, h, ok := pngDisplaySize("iVBORw0KGgo="); ok {
		t.Errorf("a truncated PNG gives %dx%d", w, h)
	}
}

// TestPortable: what the kernel sends is what run stores: the result as
// JSON with raw_file relative, the table text relative, a dense PNG's size
// in the metadata; the caller's maps are left as they were.
func TestPortable(t *testing.T) {
	dir := t.TempDir()
	r := benchtest.Seed000(10)
	r.RawFile = filepath.Join(dir, "results", "x")
	data := report.Result(r)
	meta := map[string]any{"isolated": true}
	out, m := Portable(data, meta, dir)
	res, ok := out[display.MIMEResult].(map[string]any)
	if !ok || res["raw_file"] != "results/x" || !strings.Contains(out[display.MIMEText].(string), "raw records: results/x\n") {
		t.Errorf("raw_file %v, text %q", res["raw_file"], out[display.MIMEText])
	}
	if r.RawFile != filepath.Join(dir, "results", "x") || len(meta) != 1 || m["isolated"] != true {
		t.Error("Portable changed its arguments or lost metadata")
	}
	fig, err := plot.Strip(r)
	if err != nil {
		t.Fatal(err)
	}
	_, m = Portable(fig.Bundle(), nil, dir)
	if png, _ := m[display.MIMEPNG].(map[string]any); png["width"] != json.Number("720") {
		t.Errorf("metadata %v, want image/png width 720", m)
	}
	if got := RelativePaths("in "+dir+"2/x and "+dir+"/y", dir); got != "in "+dir+"2/x and y" {
		t.Errorf("RelativePaths = %q", got)
	}
}

// TestPNGDensities: only a PNG drawn at 2-4 times 96 dpi gets a display
// size; a 100 or 300 dpi export (matplotlib's pHYs) shows at its pixels.
func TestPNGDensities(t *testing.T) {
	for _, tc := range []struct {
		dpi  float64
		w    int
		want bool
	}{{96, 0, false}, {100, 0, false}, {192, 360, true}, {288, 240, true}, {300, 0, false}} {
		b64 := base64.StdEncoding.EncodeToString(pngHeader(720, 384, tc.dpi))
		w, _, ok := pngDisplaySize(b64)
		if ok != tc.want || ok && w != tc.w {
			t.Errorf("%v dpi: width %d ok %v, want %d %v", tc.dpi, w, ok, tc.w, tc.want)
		}
	}
}

// pngHeader is the signature, IHDR and pHYs chunks of a PNG (CRCs zero:
// pngDisplaySize does not check them).
func pngHeader(w, h uint32, dpi float64) []byte {
	p := []byte("\x89PNG\r\n\x1a\n")
	p = binary.BigEndian.AppendUint32(p, 13)
	p = append(p, "IHDR"...)
	p = binary.BigEndian.AppendUint32(p, w)
	p = binary.BigEndian.AppendUint32(p, h)
	p = append(p, 8, 3, 0, 0, 0, 0, 0, 0, 0)
	p = binary.BigEndian.AppendUint32(p, 9)
	p = append(p, "pHYs"...)
	ppm := uint32(math.Round(dpi / 0.0254))
	p = binary.BigEndian.AppendUint32(p, ppm)
	p = binary.BigEndian.AppendUint32(p, ppm)
	return append(p, 1, 0, 0, 0, 0)
}
