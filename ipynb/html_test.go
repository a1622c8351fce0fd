package ipynb

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"regexp"
	"strings"
	"testing"

	"github.com/benchbook/benchbook/internal/protocol/benchtest"
	"github.com/benchbook/benchbook/ipynb/ipynbtest"
	"github.com/benchbook/benchbook/stdlib/display"
	"github.com/benchbook/benchbook/stdlib/report"
)

// pngBytes is a small real PNG.
func pngBytes(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 4, 3))
	img.Set(1, 1, color.RGBA{R: 200, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// htmlNotebook has every kind of cell and output HTML renders.
func htmlNotebook(t *testing.T) (*Notebook, []byte) {
	t.Helper()
	pic := pngBytes(t)
	nb := New(
		NewMarkdown("# Seed 000 again\n\n| variant | median |\n|---|---:|\n| sink | 498 µs |\n\nSome <span class=\"kept\">raw html</span>."),
		NewCode("plots"), NewCode("%bench seed quick"), NewCode("fail"),
		&Cell{Type: RawCell, Source: "raw <text>", Metadata: map[string]any{}},
	)
	eng := &ipynbtest.Engine{Steps: map[string]ipynbtest.Step{
		"plots": func(pub display.Publisher) (map[string]any, error) {
			d := display.New(pub)
			d.PNG(pic)
			pub.Display(display.Bundle{Data: map[string]any{display.MIMESVG: "<?xml version=\"1.0\"?>\n<!DOCTYPE svg>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><circle r=\"4\"/></svg>",
				display.MIMEText: "<SVG>"}}, false)
			pub.Stream("stdout", "\x1b[1;32mgreen\x1b[0m & <done>\n")
			d.Markdown("**bold** note")
			return map[string]any{display.MIMEHTML: "<b>rich</b>", display.MIMEText: "PLAIN-FALLBACK"}, nil
		},
		"%bench seed quick": func(pub display.Publisher) (map[string]any, error) {
			pub.Display(display.Bundle{Data: report.Result(benchtest.Seed000(1)), ID: "r"}, false)
			return nil, nil
		},
		"fail": func(display.Publisher) (map[string]any, error) {
			return nil, &ipynbtest.ExecErr{Name: "PanicError", Value: "index out of range", Traceback: []string{"\x1b[31mgoroutine 1\x1b[0m", "main.go:3"}}
		},
	}}
	if err := Execute(context.Background(), nb, eng, RunOptions{AllowErrors: true}); err != nil {
		t.Fatal(err)
	}
	page, err := HTML(roundTrip(t, nb))
	if err != nil {
		t.Fatal(err)
	}
	return nb, page
}

func TestHTML(t *testing.T) {
	_, page := htmlNotebook(t)
	s := string(page)
	loads := regexp.MustCompile(`(?i)\b(src|href)\s*=\s*["']?\s*(https?:)?//`)
	if m := loads.FindAllString(s, -1); len(m) > 0 {
		t.Errorf("the page references the network: %q", m)
	}
	for _, tc := range []struct{ what, want string }{
		{"one page", "<!DOCTYPE html>"},
		{"a policy that forbids loads", "default-src 'none'; img-src data:"},
		{"the title from the first heading", "<title>Seed 000 again</title>"},
		{"the PNG inline", `src="data:image/png;base64,` + base64.StdEncoding.EncodeToString(pngBytes(t)) + `"`},
		{"the markdown table", "<th>variant</th>"},
		{"the table's alignment", `<td style="text-align:right">498 µs</td>`},
		{"raw html kept in markdown", `<span class="kept">raw html</span>`},
		{"the SVG inline", `<svg xmlns="http://www.w3.org/2000/svg" width="10"`},
		{"the stream escaped, without ANSI", "green &amp; &lt;done&gt;"},
		{"a text/markdown output rendered", "<strong>bold</strong> note"},
		{"text/html preferred", "<b>rich</b>"},
		{"the execution count", "In [1]:"},
		{"the execute_result count", "Out [1]:"},
		{"the error and its traceback", "PanicError: index out of range</b>\ngoroutine 1\nmain.go:3"},
		{"the %bench output's HTML", `class="benchbook-result"`},
		{"a note for the result JSON", "result JSON: 3 variants, "},
		{"the raw cell escaped", "raw &lt;text&gt;"},
	} {
		if !strings.Contains(s, tc.want) {
			t.Errorf("%s: the page lacks %q", tc.what, tc.want)
		}
	}
	for _, tc := range []struct{ what, absent string }{
		{"no ANSI escapes", "\x1b"},
		{"no XML declaration inside the page", "<?xml"},
		{"text/plain not shown beside text/html", "PLAIN-FALLBACK"},
		{"no raw result JSON", `"samples_ns"`},
		{"no raw result JSON", `samples_ns`},
	} {
		if strings.Contains(s, tc.absent) {
			t.Errorf("%s: the page holds %q", tc.what, tc.absent)
		}
	}
	if n := strings.Count(s, "<html"); n != 1 {
		t.Errorf("%d <html> elements", n)
	}
}

func TestHTMLAttachments(t *testing.T) {
	c := NewMarkdown("![plot](attachment:p.png)")
	c.Attachments = map[string]any{"p.png": map[string]any{"image/png": "iVBORw0K\nGgo="}}
	page, err := HTML(New(c))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), `src="data:image/png;base64,iVBORw0KGgo="`) {
		t.Errorf("attachment not inlined:\n%s", page)
	}
}
