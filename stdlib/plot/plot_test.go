package plot

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"errors"
	"image"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/result"
	"github.com/benchbook/benchbook/stdlib/display"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// A Figure is shown by the cell engine as any value with a Bundle method.
var _ display.Renderer = (*Figure)(nil)

// builders are the five plots of a result, by name.
var builders = []struct {
	name  string
	build func(*result.Result) (*chart, error)
	fig   func(*result.Result) (*Figure, error)
}{
	{"Strip", stripOf, Strip},
	{"InVsFresh", inVsFreshOf, InVsFresh},
	{"RunOrder", runOrderOf, RunOrder},
	{"Cold", coldChartOf, Cold},
	{"ECDF", ecdfOf, ECDF},
}

func TestUnitFor(t *testing.T) {
	for _, tc := range []struct {
		ns   float64
		want string
		why  string
	}{
		{20, "ns", "a dead variant: one clock read"},
		{498_000, "µs", "seed 000's live loop"},
		{3e9, "s", "a three-second pass"},
		{999, "ns", "just under a microsecond"},
		{1000, "µs", "exactly one microsecond"},
		{2.5e6, "ms", "milliseconds"},
		{0, "ns", "zero stays in ns"},
	} {
		if got := UnitFor(tc.ns).Name; got != tc.want {
			t.Errorf("UnitFor(%v) = %s, want %s (%s)", tc.ns, got, tc.want, tc.why)
		}
	}
	if got := FormatNS(498_123); got != "498 µs" {
		t.Errorf("FormatNS(498123) = %q, want 498 µs", got)
	}
	if got := FormatNS(20); got != "20 ns" {
		t.Errorf("FormatNS(20) = %q, want 20 ns", got)
	}
}

func TestChooseAxis(t *testing.T) {
	g := newGen(7)
	for _, tc := range []struct {
		name   string
		series [][]float64
		log    bool
		unit   string
	}{
		{"dead beside live spans 25000x: log", [][]float64{g.clock(30, 20), g.normal(30, 498_000, 0.01)}, true, "µs"},
		{"5x apart: linear", [][]float64{g.normal(30, 100_000, 0.01), g.normal(30, 500_000, 0.01)}, false, "µs"},
		{"exactly 100x: linear (the rule is more than 100x)", [][]float64{{10, 10}, {1000, 1000}}, false, "µs"},
		{"101x: log", [][]float64{{10}, {1010}}, true, "µs"},
		{"one series with a 200x outlier: log", [][]float64{{1e6, 1e6, 2e8}}, true, "ms"},
		{"3 s passes", [][]float64{{3e9, 3.1e9}}, false, "s"},
		{"unit from the largest median, not the smallest", [][]float64{{20, 21}, {3e9}}, true, "s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := chooseAxis(tc.series...)
			if err != nil {
				t.Fatal(err)
			}
			if a.log != tc.log || a.unit.Name != tc.unit {
				t.Errorf("log=%v unit=%s, want log=%v unit=%s", a.log, a.unit.Name, tc.log, tc.unit)
			}
		})
	}
	if _, err := chooseAxis(nil, []float64{}); !errors.Is(err, ErrNoData) {
		t.Errorf("chooseAxis of no values: err = %v, want ErrNoData", err)
	}
}

// TestScaleInFigures checks the axis the plots themselves get: log with a
// dead variant, linear without.
func TestScaleInFigures(t *testing.T) {
	dl, lo := deadAndLive(), liveOnly()
	for _, tc := range []struct {
		name  string
		build func() (*chart, error)
		x     bool // the time axis is x (ECDF)
		log   bool
	}{
		{"strip, dead and live", func() (*chart, error) { return stripOf(dl) }, false, true},
		{"strip, live only", func() (*chart, error) { return stripOf(lo) }, false, false},
		{"ecdf, dead and live", func() (*chart, error) { return ecdfOf(dl) }, true, true},
		{"ecdf, live only", func() (*chart, error) { return ecdfOf(lo) }, true, false},
	} {
		c, err := tc.build()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		ax := c.p.Y
		if tc.x {
			ax = c.p.X
		}
		_, isLog := ax.Scale.(plot.LogScale)
		if isLog != tc.log {
			t.Errorf("%s: log scale = %v, want %v", tc.name, isLog, tc.log)
		}
		if !tc.log && !strings.Contains(ax.Label.Text, "(µs)") {
			t.Errorf("%s: linear axis label %q does not give the unit µs", tc.name, ax.Label.Text)
		}
	}
}

func TestLogTicksReadable(t *testing.T) {
	// An axis in µs from 15 ns to 650 µs: every power of ten labelled in
	// the unit that suits it.
	var labels []string
	for _, tk := range (logTicks{Unit{"µs", 1e3}}).Ticks(0.015, 650) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	want := []string{"100 ns", "1 µs", "10 µs", "100 µs"}
	if !slices.Equal(labels, want) {
		t.Errorf("labels %q, want %q", labels, want)
	}
	// Under three decades, 2x and 5x are labelled too.
	labels = labels[:0]
	for _, tk := range (logTicks{Unit{"ns", 1}}).Ticks(15, 900) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if want := []string{"20 ns", "50 ns", "100 ns", "200 ns", "500 ns"}; !slices.Equal(labels, want) {
		t.Errorf("short axis labels %q, want %q", labels, want)
	}
}

func TestLinearTicksDistinct(t *testing.T) {
	for _, r := range [][2]float64{{0.976, 1.034}, {128, 505}, {0.9, 1.3}, {2.0, 2.9}} {
		seen := map[string]bool{}
		for _, tk := range (linearTicks{}).Ticks(r[0], r[1]) {
			if tk.Label == "" {
				continue
			}
			if seen[tk.Label] {
				t.Errorf("range %v: label %q twice", r, tk.Label)
			}
			seen[tk.Label] = true
			if v, err := strconv.ParseFloat(tk.Label, 64); err != nil || math.Abs(v-tk.Value) > 1e-9 {
				t.Errorf("range %v: label %q does not read as the tick's value %v", r, tk.Label, tk.Value)
			}
		}
		if len(seen) < 3 {
			t.Errorf("range %v: %d labelled ticks, want at least 3", r, len(seen))
		}
	}
	// A ratio axis around 1 labels 1.
	var labels []string
	for _, tk := range (linearTicks{}).Ticks(0.9, 1.35) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if want := []string{"0.9", "1.0", "1.1", "1.2", "1.3"}; !slices.Equal(labels, want) {
		t.Errorf("ratio axis labels %q, want %q", labels, want)
	}
}

// svgTexts returns the text elements of an SVG with their x positions, and
// fails if it is not well-formed XML.
func svgTexts(t *testing.T, svg []byte) map[string][]float64 {
	t.Helper()
	texts := map[string][]float64{}
	dec := xml.NewDecoder(bytes.NewReader(svg))
	var x float64
	inText := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if inText = e.Name.Local == "text"; inText {
				for _, a := range e.Attr {
					if a.Name.Local == "x" {
						x, _ = strconv.ParseFloat(a.Value, 64)
					}
				}
			}
		case xml.CharData:
			if inText {
				texts[string(e)] = append(texts[string(e)], x)
			}
		case xml.EndElement:
			inText = false
		}
	}
	return texts
}

func TestEveryVariantInLegend(t *testing.T) {
	r := deadAndLive()
	for _, b := range builders {
		c, err := b.build(r)
		if err != nil {
			t.Fatalf("%s: %v", b.name, err)
		}
		svg, err := c.render(DefaultWidth, DefaultHeight, "svg")
		if err != nil {
			t.Fatal(err)
		}
		texts := svgTexts(t, svg)
		left := c.legendLeft(DefaultWidth).Points()
		for _, v := range r.Variants {
			found := false
			for text, xs := range texts {
				if strings.HasPrefix(text, v.Name) && slices.ContainsFunc(xs, func(x float64) bool { return x >= left }) {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: variant %q is not in the legend (texts right of x=%.1f)", b.name, v.Name, left)
			}
		}
	}
}

func TestFigureFormats(t *testing.T) {
	fig, err := Strip(deadAndLive())
	if err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, fig.PNG)
	// 7.5 x 4 inches at 96 dpi, drawn at twice that.
	if b := img.Bounds(); b.Dx() != 1440 || b.Dy() != 768 {
		t.Errorf("PNG is %dx%d, want 1440x768", b.Dx(), b.Dy())
	}
	if _, ok := img.(*image.Paletted); !ok {
		t.Errorf("PNG is a %T, want a paletted image", img)
	}
	if !bytes.Contains(fig.PNG[:64], []byte("pHYs")) {
		t.Error("PNG has no pHYs chunk saying its density")
	}
	svgTexts(t, fig.SVG)
	if !bytes.Contains(fig.SVG, []byte(`width="540pt" height="288pt"`)) {
		t.Errorf("SVG is not 540x288 pt (7.5x4 in): %.200s", fig.SVG)
	}
	if !bytes.Contains(fig.SVG, []byte("sans-serif")) {
		t.Error("SVG names no fallback font family")
	}
	if fig.Width != DefaultWidth || fig.Height != DefaultHeight {
		t.Errorf("size %v x %v, want %v x %v", fig.Width, fig.Height, DefaultWidth, DefaultHeight)
	}

	bundle := fig.Bundle()
	raw, err := base64.StdEncoding.DecodeString(bundle["image/png"].(string))
	if err != nil || !bytes.Equal(raw, fig.PNG) {
		t.Errorf("image/png is not the PNG in base64 (err %v)", err)
	}
	if _, ok := bundle["image/svg+xml"]; ok {
		t.Error("the bundle has image/svg+xml: nbconvert prefers it and its sanitiser blanks it")
	}
	meta, _ := fig.Metadata()["image/png"].(map[string]any)
	if meta["width"] != 720 || meta["height"] != 384 {
		t.Errorf("metadata image/png = %v, want width 720 and height 384 (half the pixels)", meta)
	}
	if s, _ := bundle["text/plain"].(string); s != fig.Title || !strings.Contains(s, "sum") {
		t.Errorf("text/plain = %q, want the title %q", s, fig.Title)
	}
}

func TestTitlesNameKernelVariantsFlags(t *testing.T) {
	r := deadAndLive()
	for _, b := range builders {
		fig, err := b.fig(r)
		if err != nil {
			t.Fatalf("%s: %v", b.name, err)
		}
		for _, want := range []string{"sum", "-std=c11 -O2", "discarded", "sink", "checksum"} {
			if !strings.Contains(fig.Title, want) {
				t.Errorf("%s: title %q does not name %q", b.name, fig.Title, want)
			}
		}
	}
}

func TestPartialRunInTitle(t *testing.T) {
	r := deadAndLive()
	r.Partial = true
	fig, err := Strip(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(fig.Title, "partial run") {
		t.Errorf("title %q of a partial result does not say so", fig.Title)
	}
}

func TestReproducible(t *testing.T) {
	a, err := Strip(deadAndLive())
	if err != nil {
		t.Fatal(err)
	}
	b, err := Strip(deadAndLive())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.PNG, b.PNG) || !bytes.Equal(a.SVG, b.SVG) {
		t.Error("two renders of one result differ: jitter is not seeded")
	}
}

func TestNoDataIsAnError(t *testing.T) {
	noSamples := &result.Result{Kernel: result.Kernel{Name: "k"}, Variants: []result.Variant{{Name: "v", Series: result.Series{Interleaved: &result.Samples{}}}}}
	for _, r := range []*result.Result{nil, {}, noSamples} {
		for _, b := range builders {
			if _, err := b.fig(r); !errors.Is(err, ErrNoData) {
				t.Errorf("%s(%v): err = %v, want ErrNoData", b.name, r, err)
			}
		}
		if figs := All(r); len(figs) != 0 {
			t.Errorf("All(%v) = %d figures, want none", r, len(figs))
		}
	}
	if _, err := Samples("t", nil); !errors.Is(err, ErrNoData) {
		t.Errorf("Samples(nil): err = %v, want ErrNoData", err)
	}
	if _, err := ECDFSeries("t", map[string][]float64{"a": {}}); !errors.Is(err, ErrNoData) {
		t.Errorf("ECDFSeries of an empty series: err = %v, want ErrNoData", err)
	}
	_, err := Overlay(liveOnly(), liveOnly(), "nosuch")
	if !errors.Is(err, ErrNoData) || !strings.Contains(err.Error(), `"nosuch"`) || !strings.Contains(err.Error(), "scalar") {
		t.Errorf("Overlay of a missing variant: err = %v, want ErrNoData naming it and the variants there are", err)
	}
}

func TestBadSamplesAreErrors(t *testing.T) {
	_, err := Samples("nan", map[string][]float64{"a": {1, math.NaN(), 3}})
	if !errors.Is(err, plotter.ErrNaN) || !strings.Contains(err.Error(), `"a"`) {
		t.Errorf("a NaN sample: err = %v, want ErrNaN naming the series", err)
	}
	r := deadAndLive()
	r.Variants[1].Series.Interleaved.SamplesNS[3] = math.Inf(1)
	if _, err := Strip(r); !errors.Is(err, plotter.ErrInfinity) {
		t.Errorf("an infinite sample: err = %v, want ErrInfinity", err)
	}
	figs := All(r)
	var failed int
	for _, f := range figs {
		if len(f.PNG) == 0 {
			failed++
			if b := f.Bundle(); len(b) != 1 || !strings.Contains(b["text/plain"].(string), "sink") {
				t.Errorf("failed figure's bundle %v: want only text naming the variant", b)
			}
		}
	}
	if failed == 0 {
		t.Error("All hid the failure of the plots with an infinite sample")
	}
}

// TestZeroSamplesOnLogAxis: a clock too coarse for a dead variant reads 0 ns;
// a log axis cannot draw 0, and gonum panics on it.
func TestZeroSamplesOnLogAxis(t *testing.T) {
	r := deadAndLive()
	r.Variants[0].Series.Interleaved.SamplesNS[0] = 0
	r.Variants[0].Series.Interleaved.SamplesNS[1] = 0
	c, err := stripOf(r)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.p.Y.Scale.(plot.LogScale); !ok {
		t.Fatal("axis is not log")
	}
	if !strings.Contains(c.p.Y.Label.Text, "2 values <= 0") {
		t.Errorf("axis label %q does not say that 2 samples are drawn at the floor", c.p.Y.Label.Text)
	}
	if _, err := c.figure(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []func(*result.Result) (*Figure, error){ECDF, RunOrder} {
		if _, err := f(r); err != nil {
			t.Error(err)
		}
	}
}

func TestAllSkipsPlotsWithoutData(t *testing.T) {
	if n := len(All(deadAndLive())); n != 5 {
		t.Errorf("All of a full result: %d figures, want 5", n)
	}
	figs := All(liveOnly()) // no fresh series, no cold passes
	var titles []string
	for _, f := range figs {
		titles = append(titles, f.Title)
	}
	if len(figs) != 3 {
		t.Fatalf("All without fresh and cold series: %d figures (%q), want 3", len(figs), titles)
	}
	for _, f := range figs {
		if strings.Contains(f.Title, "fresh") || strings.Contains(f.Title, "cold") {
			t.Errorf("a plot without data was not skipped: %q", f.Title)
		}
	}
}

func TestOverlayTitle(t *testing.T) {
	before := liveOnly()
	fig, err := Overlay(before, halved(before), "scalar")
	if err != nil {
		t.Fatal(err)
	}
	mb := median(before.Variants[0].Series.Interleaved.SamplesNS)
	if !strings.Contains(fig.Title, FormatNS(mb)) || !strings.Contains(fig.Title, "-tags=unroll") {
		t.Errorf("title %q lacks the before median %s or the after flags", fig.Title, FormatNS(mb))
	}
}

func TestECDFLine(t *testing.T) {
	l, err := newECDFLine(plotter.Values{3, 1, 2, 2})
	if err != nil {
		t.Fatal(err)
	}
	if first, last := l.XYs[0], l.XYs[len(l.XYs)-1]; first.X != 1 || first.Y != 0 || last.X != 3 || last.Y != 1 {
		t.Errorf("ECDF runs from %v to %v, want (1,0) to (3,1)", first, last)
	}
	for i := 1; i < len(l.XYs); i++ {
		if l.XYs[i].X < l.XYs[i-1].X || l.XYs[i].Y < l.XYs[i-1].Y {
			t.Errorf("ECDF not monotone at %d: %v", i, l.XYs)
		}
	}
	// F(2) = 3/4: two of four values are 2.
	if p := l.XYs[3]; p.X != 2 || p.Y != 0.75 {
		t.Errorf("ECDF point 3 = %v, want (2, 0.75)", p)
	}
}

func TestJitter(t *testing.T) {
	vals := plotter.Values{1, 2, 3, 4, 5, 6, 7, 8}
	a, err := NewJitter(vals, 2, 0.4, 9)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewJitter(vals, 2, 0.4, 9)
	if !slices.Equal(a.Offsets, b.Offsets) {
		t.Error("same seed, different offsets")
	}
	spread := false
	for _, o := range a.Offsets {
		if math.Abs(o) > 0.2 {
			t.Errorf("offset %v outside the band of width 0.4", o)
		}
		spread = spread || o != a.Offsets[0]
	}
	if !spread {
		t.Error("every dot has the same offset")
	}
	for _, bad := range []struct {
		vals  plotter.Valuer
		width float64
	}{{plotter.Values{}, 0.4}, {nil, 0.4}, {vals, -1}, {vals, math.NaN()}, {plotter.Values{math.NaN()}, 0.4}} {
		if _, err := NewJitter(bad.vals, 0, bad.width, 1); err == nil {
			t.Errorf("NewJitter(%v, width %v) accepted", bad.vals, bad.width)
		}
	}
	if _, err := NewLevel(math.Inf(1), 0, 1); err == nil {
		t.Error("NewLevel accepted an infinite value")
	}
	if _, err := NewLevel(1, 0, -1); err == nil {
		t.Error("NewLevel accepted a negative half width")
	}
}

func TestRunOrderReferences(t *testing.T) {
	refs := references(
		[]named{{name: "a", ns: []float64{10, 20, 30}, color: 0}, {name: "zero", ns: []float64{0, 0, 1}, color: 2}},
		[]named{{name: "a", ns: []float64{100}, color: 0}, {name: "b", ns: []float64{5, 7}, color: 1}},
	)
	want := map[int]float64{0: 20, 1: 6, 2: 1}
	for k, v := range want {
		if refs[k] != v {
			t.Errorf("reference of %d = %v, want %v (interleaved median first, in-process otherwise, 1 ns for 0)", k, refs[k], v)
		}
	}
}

// A batched variant's samples are means of K passes: every plot of them
// says so in its legend, and the cold plot, whose pass is single, does not.
func TestBatchMeansInLegend(t *testing.T) {
	r := deadAndLive()
	v := &r.Variants[len(r.Variants)-1]
	v.Batch = 8
	for _, b := range builders {
		c, err := b.build(r)
		if err != nil {
			t.Fatalf("%s: %v", b.name, err)
		}
		svg, err := c.render(DefaultWidth, DefaultHeight, "svg")
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for text := range svgTexts(t, svg) {
			if strings.Contains(text, v.Name+" (means of 8)") {
				found = true
			}
		}
		if want := b.name != "Cold"; found != want {
			t.Errorf("%s: a legend entry %q (means of 8): %v, want %v", b.name, v.Name, found, want)
		}
	}
}
