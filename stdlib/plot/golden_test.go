package plot

import (
	"bytes"
	"flag"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/benchbook/benchbook/internal/result"
	"gonum.org/v1/plot/cmpimg"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata")

// goldenDelta is the tolerance of the raster comparison (cmpimg's normalised
// YIQ distance per pixel): loose enough for anti-aliasing that differs across
// platforms, tight enough that a moved dot, line or label fails.
const goldenDelta = 0.1

// goldenCases are the figures compared with testdata/<name>.golden.png.
func goldenCases() []struct {
	name string
	why  string
	fig  func() (*Figure, error)
} {
	dl, lo := deadAndLive(), liveOnly()
	return []struct {
		name string
		why  string
		fig  func() (*Figure, error)
	}{
		{"strip_dead", "log axis: a dead variant at 20 ns beside live ones at 500 µs, and an A/A copy", func() (*Figure, error) { return Strip(dl) }},
		{"strip_linear", "linear axis in µs: two live variants 3.8x apart", func() (*Figure, error) { return Strip(lo) }},
		{"invsfresh_dead", "three pairs, one of them dead, on a log axis", func() (*Figure, error) { return InVsFresh(dl) }},
		{"runorder_dead", "both parts, divider, outliers, log axis", func() (*Figure, error) { return RunOrder(dl) }},
		{"runorder_linear", "both parts on a linear axis", func() (*Figure, error) { return RunOrder(lo) }},
		{"cold_dead", "cold passes, diamonds, warm medians, page faults", func() (*Figure, error) { return Cold(dl) }},
		{"ecdf_dead", "log x axis", func() (*Figure, error) { return ECDF(dl) }},
		{"ecdf_linear", "linear x axis", func() (*Figure, error) { return ECDF(lo) }},
		{"overlay", "one variant before and after a change of flags", func() (*Figure, error) { return Overlay(lo, halved(lo), "scalar") }},
		{"samples", "glue-cell strip of plain series in ms", func() (*Figure, error) {
			g := newGen(3)
			return Samples("two plain series", map[string][]float64{"a": g.normal(40, 2.1e6, 0.03), "b": g.normal(25, 2.6e6, 0.05)})
		}},
	}
}

// halved is r rebuilt with other flags, its variants twice as fast.
func halved(r *result.Result) *result.Result {
	out := *r
	out.Kernel.Flags = []string{"-gcflags=-B", "-tags=unroll"}
	out.Variants = nil
	for _, v := range r.Variants {
		s := make([]float64, len(v.Series.Interleaved.SamplesNS))
		for i, x := range v.Series.Interleaved.SamplesNS {
			s[i] = x / 2 * (1 + 0.01*float64(i%3))
		}
		v.Series = result.Series{Interleaved: samples(s)}
		out.Variants = append(out.Variants, v)
	}
	return &out
}

func TestGolden(t *testing.T) {
	for _, tc := range goldenCases() {
		t.Run(tc.name, func(t *testing.T) {
			fig, err := tc.fig()
			if err != nil {
				t.Fatalf("%s (%s): %v", tc.name, tc.why, err)
			}
			checkGolden(t, tc.name, fig.PNG)
		})
	}
}

// checkGolden compares got with testdata/<name>.golden.png (or rewrites it
// with -update) and writes testdata/<name>.got.png on a mismatch.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden := filepath.Join("testdata", name+".golden.png")
	gotPath := filepath.Join("testdata", name+".got.png")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		_ = os.Remove(gotPath)
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("reading golden image (run go test -update to create it): %v", err)
	}
	ok, err := cmpimg.EqualApprox("png", got, want, goldenDelta)
	if err != nil {
		t.Fatalf("comparing with %s: %v", golden, err)
	}
	if !ok {
		if err := os.WriteFile(gotPath, got, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Errorf("%s differs from %s beyond tolerance %v: see %s", name, golden, goldenDelta, gotPath)
		return
	}
	_ = os.Remove(gotPath)
}

// decodePNG decodes a figure's PNG.
func decodePNG(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("PNG does not decode: %v", err)
	}
	return img
}
