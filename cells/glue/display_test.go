package glue

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"

	"github.com/benchbook/benchbook/stdlib/display"
)

// Requirement 8: the display package is there without an import.

func TestDisplayFunctionsPublishOneOutputEach(t *testing.T) {
	tests := []struct{ call, mime string }{
		{"display.HTML(\"<b>x</b>\")", display.MIMEHTML},
		{"display.Markdown(\"*x*\")", display.MIMEMarkdown},
		{"display.SVG(\"<svg></svg>\")", display.MIMESVG},
		{"display.PNG([]byte{1, 2, 3})", display.MIMEPNG},
		{"display.JSON(map[string]int{\"a\": 1})", display.MIMEJSON},
	}
	s := newSession(t, Options{})
	for _, tc := range tests {
		t.Run(tc.mime, func(t *testing.T) {
			res, pub := mustRun(t, s, "Cell [1]", "id := "+tc.call+"\nid")
			ds := pub.kinds("display")
			if len(ds) != 1 {
				t.Fatalf("%d displays, want 1", len(ds))
			}
			if _, ok := ds[0].bundle.Data[tc.mime]; !ok || ds[0].update {
				t.Errorf("display %+v lacks %s or is an update", ds[0].bundle.Data, tc.mime)
			}
			if want := `"` + ds[0].bundle.ID + `"`; plain(res) != want || ds[0].bundle.ID == "" {
				t.Errorf("returned id %v, want the display id %s", plain(res), want)
			}
		})
	}
}

func TestDisplayUpdateClearAndOrder(t *testing.T) {
	s := newSession(t, Options{})
	code := "fmt.Println(\"before\")\nid := display.Markdown(\"one\")\nfmt.Println(\"between\")\ndisplay.Update(id, \"markdown\", \"two\")\ndisplay.Clear()"
	res, pub := mustRun(t, s, "Cell [1]", code)
	if res != nil {
		t.Errorf("a display call as the final expression showed %v", res)
	}
	var kinds []string
	for _, c := range pub.snapshot() {
		kinds = append(kinds, c.kind+":"+strings.TrimSpace(c.text))
	}
	want := []string{"stream:before", "display:", "stream:between", "display:", "clear:"}
	if !reflect.DeepEqual(kinds, want) {
		t.Fatalf("calls %v, want %v", kinds, want)
	}
	ds := pub.kinds("display")
	if !ds[1].update || ds[1].bundle.ID != ds[0].bundle.ID || ds[1].bundle.Data[display.MIMEMarkdown] != "two" {
		t.Errorf("update %+v does not replace display %s", ds[1], ds[0].bundle.ID)
	}
	_, e, _ := run(t, s, "Cell [2]", "display.Update(\"x\", \"bogus\", 1)")
	if e == nil || !strings.Contains(e.Value, "unknown kind") {
		t.Errorf("a bad update kind: %v", e)
	}
}

func TestRendererResultShowsItsBundle(t *testing.T) {
	s := newSession(t, Options{})
	code := "type R struct{ n int }\nfunc (r R) Bundle() map[string]any { return map[string]any{\"text/html\": fmt.Sprintf(\"<i>%d</i>\", r.n)} }\nR{7}"
	res, _ := mustRun(t, s, "Cell [1]", code)
	if res[display.MIMEHTML] != "<i>7</i>" {
		t.Errorf("result %v, want the Bundle of R", res)
	}
	if _, ok := res[display.MIMEText]; !ok {
		t.Errorf("result %v has no text/plain", res)
	}
}

// Exports closures publish through Session.Current, in order with the
// cell's own output; Preload makes their package usable without an import.
func TestExportsPublishThroughCurrent(t *testing.T) {
	var s *Session
	say := func(msg string) { s.Current().Stream("stdout", msg) }
	var err error
	s, err = New(Options{
		Exports: interp.Exports{"example.com/nb/nb": {"Say": reflect.ValueOf(say)}},
		Preload: map[string]string{"nb": "example.com/nb"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, pub := mustRun(t, s, "Cell [1]", "fmt.Print(\"1 \")\nnb.Say(\"2 \")\nfmt.Print(\"3\")")
	if got := pub.text("stdout"); got != "1 2 3" {
		t.Errorf("stdout = %q, want 1 2 3 in order", got)
	}
}

// Options.Render shows compiled values that are not display.Renderers.
func TestRenderOption(t *testing.T) {
	type point struct{ X, Y int }
	render := func(v any) (map[string]any, bool) {
		if p, ok := v.(point); ok {
			return map[string]any{display.MIMEHTML: fmt.Sprintf("<b>%d,%d</b>", p.X, p.Y)}, true
		}
		return nil, false
	}
	s, err := New(Options{
		Exports: interp.Exports{"example.com/geo/geo": {"Pt": reflect.ValueOf(func(x, y int) point { return point{x, y} })}},
		Preload: map[string]string{"geo": "example.com/geo"},
		Render:  render,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, _ := mustRun(t, s, "Cell [1]", "geo.Pt(1, 2)")
	if res[display.MIMEHTML] != "<b>1,2</b>" || res[display.MIMEText] == nil {
		t.Errorf("result %v, want Render's bundle with a text/plain", res)
	}
	res, _ = mustRun(t, s, "Cell [2]", "7")
	if plain(res) != "7" {
		t.Errorf("a value Render does not know: %v", res)
	}
}

// A (value, error) result with a nil error shows the value richly, as
// plot.Cold(r) shows its figure; with an error it shows both as text.
func TestValueAndNilErrorShowsTheValue(t *testing.T) {
	type fig struct{ name string }
	render := func(v any) (map[string]any, bool) {
		if f, ok := v.(*fig); ok {
			return map[string]any{display.MIMEHTML: "<img alt=" + f.name + ">"}, true
		}
		return nil, false
	}
	mk := func(name string, fail bool) (*fig, error) {
		if fail {
			return nil, errors.New("no data")
		}
		return &fig{name}, nil
	}
	s, err := New(Options{
		Exports: interp.Exports{"example.com/pl/pl": {"Make": reflect.ValueOf(mk)}},
		Preload: map[string]string{"pl": "example.com/pl"},
		Render:  render,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, _ := mustRun(t, s, "Cell [1]", `pl.Make("a", false)`)
	if res[display.MIMEHTML] != "<img alt=a>" {
		t.Errorf("(figure, nil) shows %v, want the figure", res)
	}
	res, _ = mustRun(t, s, "Cell [2]", `pl.Make("b", true)`)
	if plain(res) != "nil, no data" {
		t.Errorf("(nil, error) shows %v", res)
	}
}
