package ipynb

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	ghtml "github.com/yuin/goldmark/renderer/html"

	"github.com/benchbook/benchbook/stdlib/display"
)

// preferred is the order in which HTML picks one entry of a MIME bundle.
var preferred = []string{display.MIMEHTML, display.MIMESVG, display.MIMEPNG, "image/jpeg", "image/gif",
	display.MIMEMarkdown, display.MIMEText, display.MIMEJSON}

// ansiRE matches ANSI escape sequences (CSI, OSC and two-byte ones).
var ansiRE = regexp.MustCompile("\x1b\\[[0-?]*[ -/]*[@-~]|\x1b\\][^\x07\x1b]*(?:\x07|\x1b\\\\)|\x1b[@-Z\\\\-_]")

// csp forbids the page every load from the network: images only as data
// URIs, styles and scripts only inline.
const csp = `default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; font-src data:`

// HTML renders nb as one self-contained page that loads nothing from the
// network: inline CSS, images as data URIs or inline SVG, text/html outputs
// inline, Markdown (cells and text/markdown outputs) rendered with goldmark
// (GitHub Flavored Markdown; raw HTML in Markdown is kept, as Jupyter does),
// code in <pre> with its execution count, streams in <pre>, errors with their
// traceback (ANSI escapes stripped). Each display output shows the first of
// text/html, image/svg+xml, image/png, image/jpeg, image/gif, text/markdown,
// text/plain, application/json it has; benchbook's machine-readable entries
// are never shown raw, only named in a short note. A Content-Security-Policy
// keeps a remote reference inside an output from being loaded.
func HTML(nb *Notebook) ([]byte, error) {
	md := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(ghtml.WithUnsafe()))
	var b bytes.Buffer
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"+
		"<meta http-equiv=\"Content-Security-Policy\" content=\"%s\">\n"+
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>%s</title>\n<style>%s</style>\n</head>\n<body>\n<main>\n",
		csp, html.EscapeString(Title(nb)), pageCSS)
	for i, c := range nb.Cells {
		if err := writeCell(&b, md, i, c); err != nil {
			return nil, err
		}
	}
	b.WriteString("</main>\n</body>\n</html>\n")
	return b.Bytes(), nil
}

// writeCell renders one cell.
func writeCell(b *bytes.Buffer, md goldmark.Markdown, i int, c *Cell) error {
	switch c.Type {
	case MarkdownCell:
		fmt.Fprintf(b, "<section class=\"cell markdown\" id=\"cell-%d\">\n", i)
		if err := md.Convert([]byte(withAttachments(c.Source, c.Attachments)), b); err != nil {
			return fmt.Errorf("cell %d: markdown: %w", i, err)
		}
		b.WriteString("</section>\n")
	case RawCell:
		fmt.Fprintf(b, "<section class=\"cell raw\" id=\"cell-%d\"><pre>%s</pre></section>\n", i, html.EscapeString(c.Source))
	case CodeCell:
		prompt := " "
		if c.ExecutionCount != nil {
			prompt = fmt.Sprint(*c.ExecutionCount)
		}
		fmt.Fprintf(b, "<section class=\"cell code\" id=\"cell-%d\">\n<div class=\"input\"><span class=\"prompt\">In [%s]:</span>"+
			"<pre class=\"source\"><code>%s</code></pre></div>\n", i, prompt, html.EscapeString(c.Source))
		for j, o := range c.Outputs {
			if err := writeOutput(b, md, o); err != nil {
				return fmt.Errorf("cell %d output %d: %w", i, j, err)
			}
		}
		b.WriteString("</section>\n")
	}
	return nil
}

// writeOutput renders one output of a code cell.
func writeOutput(b *bytes.Buffer, md goldmark.Markdown, o *Output) error {
	switch o.Type {
	case StreamOutput:
		fmt.Fprintf(b, "<pre class=\"output stream %s\">%s</pre>\n", html.EscapeString(o.Name), html.EscapeString(stripANSI(o.Text)))
	case ErrorOutput:
		fmt.Fprintf(b, "<pre class=\"output error\"><b>%s: %s</b>\n%s</pre>\n", html.EscapeString(o.EName),
			html.EscapeString(stripANSI(o.EValue)), html.EscapeString(stripANSI(strings.Join(o.Traceback, "\n"))))
	case DisplayData, ExecuteResult:
		b.WriteString("<div class=\"output display\">")
		if o.Type == ExecuteResult && o.ExecutionCount != nil {
			fmt.Fprintf(b, "<span class=\"prompt out\">Out [%d]:</span>", *o.ExecutionCount)
		}
		if err := writeBundle(b, md, o.Data, o.Metadata); err != nil {
			return err
		}
		writeNotes(b, o.Data)
		b.WriteString("</div>\n")
	}
	return nil
}

// writeBundle renders the preferred entry of a MIME bundle; an image is
// shown at the width and height its metadata gives (a figure drawn at twice
// its size shows at its size).
func writeBundle(b *bytes.Buffer, md goldmark.Markdown, data, meta map[string]any) error {
	for _, mime := range preferred {
		v, ok := data[mime]
		if !ok {
			continue
		}
		s := Text(v)
		switch mime {
		case display.MIMEHTML:
			b.WriteString(s)
		case display.MIMESVG:
			b.WriteString(inlineSVG(s))
		case display.MIMEPNG, "image/jpeg", "image/gif":
			fmt.Fprintf(b, "<img alt=\"%s\"%s src=\"data:%s;base64,%s\">", html.EscapeString(Text(data[display.MIMEText])),
				imageSize(meta, mime), mime, strings.Join(strings.Fields(s), ""))
		case display.MIMEMarkdown:
			if err := md.Convert([]byte(s), b); err != nil {
				return fmt.Errorf("text/markdown: %w", err)
			}
		default:
			fmt.Fprintf(b, "<pre>%s</pre>", html.EscapeString(stripANSI(s)))
		}
		return nil
	}
	return nil
}

// imageSize is the width and height attributes of an image from the output
// metadata of its MIME type, or "".
func imageSize(meta map[string]any, mime string) string {
	m, _ := meta[mime].(map[string]any)
	var out string
	for _, k := range []string{"width", "height"} {
		if n, ok := positive(m[k]); ok {
			out += fmt.Sprintf(" %s=\"%d\"", k, n)
		}
	}
	return out
}

// positive reads a JSON number as a positive whole number.
func positive(v any) (int, bool) {
	var f float64
	switch x := v.(type) {
	case json.Number:
		var err error
		if f, err = x.Float64(); err != nil {
			return 0, false
		}
	case float64:
		f = x
	case int:
		f = float64(x)
	default:
		return 0, false
	}
	if f < 1 || f > 1e5 {
		return 0, false
	}
	return int(f + 0.5), true
}

// writeNotes names benchbook's machine-readable entries of a bundle.
func writeNotes(b *bytes.Buffer, data map[string]any) {
	if v, ok := data[display.MIMEResult]; ok {
		note := "result JSON (for benchbook verify)"
		if r, err := DecodeResult(v); err == nil {
			note = fmt.Sprintf("result JSON: %s, %d samples (for benchbook verify)", Plural(len(r.Variants), "variant"), SampleCount(r))
		}
		fmt.Fprintf(b, "<p class=\"note\">%s</p>", html.EscapeString(note))
	}
	if v, ok := data[display.MIMEBuild]; ok {
		note := "build JSON"
		if m, ok := v.(map[string]any); ok {
			if vs, ok := m["variants"].([]any); ok {
				note = fmt.Sprintf("build JSON: %s", Plural(len(vs), "variant"))
			}
		}
		fmt.Fprintf(b, "<p class=\"note\">%s</p>", html.EscapeString(note))
	}
}

// Text is a bundle value as text: strings as they are, anything else as
// indented JSON.
func Text(v any) string {
	if v == nil {
		return ""
	}
	if s, ok := v.(string); ok {
		return s
	}
	raw, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(raw)
}

// inlineSVG drops what comes before the <svg> element (an XML declaration,
// a DOCTYPE), which has no place inside an HTML page.
func inlineSVG(s string) string {
	if i := strings.Index(s, "<svg"); i > 0 {
		return s[i:]
	}
	return s
}

// withAttachments points "attachment:NAME" references of a markdown cell at
// data URIs of its attachments.
func withAttachments(src string, att map[string]any) string {
	for name, v := range att {
		bundle, ok := v.(map[string]any)
		if !ok {
			continue
		}
		for mime, data := range bundle {
			if s, ok := data.(string); ok && strings.HasPrefix(mime, "image/") {
				src = strings.ReplaceAll(src, "attachment:"+name, "data:"+mime+";base64,"+strings.Join(strings.Fields(s), ""))
				break
			}
		}
	}
	return src
}

// stripANSI removes terminal escape sequences.
func stripANSI(s string) string { return ansiRE.ReplaceAllString(s, "") }

// Title is the metadata title, or the first Markdown heading, or "notebook".
func Title(nb *Notebook) string {
	if t, ok := nb.Metadata["title"].(string); ok && t != "" {
		return t
	}
	for _, c := range nb.Cells {
		if c.Type != MarkdownCell {
			continue
		}
		for _, l := range strings.Split(c.Source, "\n") {
			if strings.HasPrefix(l, "#") {
				return strings.TrimSpace(strings.TrimLeft(l, "#"))
			}
		}
	}
	return "notebook"
}

// Plural is "1 variant", "3 variants".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// pageCSS is the page's whole style: readable type, at most 1100px wide.
const pageCSS = `
body{margin:0;background:#fafafa;color:#1f2328;font:16px/1.55 -apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:1100px;margin:0 auto;padding:24px 28px 64px;background:#fff}
h1,h2,h3{line-height:1.25;margin:1.2em 0 .5em}
pre,code{font:13px/1.45 ui-monospace,"SFMono-Regular",Menlo,Consolas,"DejaVu Sans Mono",monospace}
pre{margin:.4em 0;padding:8px 10px;overflow-x:auto;white-space:pre-wrap;word-break:break-word}
.cell{margin:14px 0}
.input{display:flex;gap:8px;align-items:flex-start}
.prompt{flex:0 0 64px;color:#6e7781;font:12px ui-monospace,monospace;padding-top:10px;text-align:right}
.prompt.out{display:block;text-align:left;padding:0 0 4px}
.source{flex:1;background:#f6f8fa;border:1px solid #d0d7de;border-radius:4px}
.output{margin-left:72px}
.stream{background:none;padding:2px 10px}
.stream.stderr{background:#fff5f5}
.error{background:#ffebe9;border-left:3px solid #cf222e}
.display{overflow-x:auto}
.display img,.display svg{max-width:100%;height:auto}
table{border-collapse:collapse;margin:.6em 0;font-size:13px}
th,td{border:1px solid #d0d7de;padding:3px 8px;text-align:left}
th{background:#f6f8fa}
td{font-variant-numeric:tabular-nums}
.note{color:#6e7781;font-size:12px;margin:2px 0}
.raw pre{background:#f6f8fa}
`
