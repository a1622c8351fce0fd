// Package display is how cells show rich output: PNG, SVG, HTML, Markdown and
// JSON, updated in place by display id, and cleared. A Display publishes through
// a Publisher, which the cell engine provides for the cell that is running; the
// package knows nothing of Jupyter messages or sockets.
package display

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// MIME types used by benchbook outputs.
const (
	MIMEText     = "text/plain"
	MIMEHTML     = "text/html"
	MIMEMarkdown = "text/markdown"
	MIMEPNG      = "image/png"
	MIMESVG      = "image/svg+xml"
	MIMEJSON     = "application/json"
	MIMEResult   = "application/vnd.benchbook.result+json"
	MIMEBuild    = "application/vnd.benchbook.build+json"
)

// Bundle is one rich output: a MIME bundle, its metadata and an optional
// display id (Jupyter's transient display_id) under which it can be updated.
type Bundle struct {
	Data     map[string]any
	Metadata map[string]any
	ID       string
}

// Publisher receives the outputs of the running cell.
type Publisher interface {
	// Stream sends text to "stdout" or "stderr".
	Stream(name, text string)
	// Display shows a bundle; with update it replaces the output shown under
	// b.ID (update_display_data).
	Display(b Bundle, update bool)
	// Clear clears the cell's output; with wait, when the next output arrives.
	Clear(wait bool)
}

// Display publishes rich outputs. The zero value is not usable; use New.
type Display struct {
	pub Publisher
}

// New returns a Display that publishes through pub.
func New(pub Publisher) *Display { return &Display{pub: pub} }

// NewID returns a fresh display id.
func NewID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func (d *Display) show(mime string, content any, text string) string {
	id := NewID()
	d.pub.Display(Bundle{Data: map[string]any{mime: content, MIMEText: text}, ID: id}, false)
	return id
}

// HTML shows an HTML fragment and returns its display id.
func (d *Display) HTML(s string) string { return d.show(MIMEHTML, s, "<HTML output>") }

// Markdown shows Markdown text and returns its display id.
func (d *Display) Markdown(s string) string { return d.show(MIMEMarkdown, s, s) }

// SVG shows an SVG image and returns its display id.
func (d *Display) SVG(s string) string { return d.show(MIMESVG, s, "<SVG image>") }

// PNG shows a PNG image and returns its display id.
func (d *Display) PNG(b []byte) string {
	return d.show(MIMEPNG, base64.StdEncoding.EncodeToString(b), fmt.Sprintf("<PNG image, %d bytes>", len(b)))
}

// JSON shows any value that encodes as JSON and returns its display id.
func (d *Display) JSON(v any) (string, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("display.JSON: %w", err)
	}
	var generic any
	if err := json.Unmarshal(raw, &generic); err != nil {
		return "", fmt.Errorf("display.JSON: %w", err)
	}
	indented, _ := json.MarshalIndent(generic, "", "  ")
	return d.show(MIMEJSON, generic, string(indented)), nil
}

// Update replaces the output shown under id with new content of the given
// kind: "html", "markdown", "svg", "png", "json" or "text".
func (d *Display) Update(id, kind string, content any) error {
	data, err := bundleData(kind, content)
	if err != nil {
		return err
	}
	d.pub.Display(Bundle{Data: data, ID: id}, true)
	return nil
}

// Show publishes a prepared bundle (for values with a display method) and
// returns its display id.
func (d *Display) Show(data map[string]any) string {
	id := NewID()
	d.pub.Display(Bundle{Data: data, ID: id}, false)
	return id
}

// Clear clears the cell's output.
func (d *Display) Clear() { d.pub.Clear(false) }

func bundleData(kind string, content any) (map[string]any, error) {
	switch kind {
	case "html", "markdown", "svg", "text":
		s, ok := content.(string)
		if !ok {
			return nil, fmt.Errorf("display.Update: kind %q wants a string, got %T", kind, content)
		}
		mime := map[string]string{"html": MIMEHTML, "markdown": MIMEMarkdown, "svg": MIMESVG, "text": MIMEText}[kind]
		data := map[string]any{mime: s}
		if kind != "text" {
			data[MIMEText] = s
		}
		return data, nil
	case "png":
		b, ok := content.([]byte)
		if !ok {
			return nil, fmt.Errorf("display.Update: kind png wants []byte, got %T", content)
		}
		return map[string]any{MIMEPNG: base64.StdEncoding.EncodeToString(b), MIMEText: fmt.Sprintf("<PNG image, %d bytes>", len(b))}, nil
	case "json":
		raw, err := json.Marshal(content)
		if err != nil {
			return nil, fmt.Errorf("display.Update: %w", err)
		}
		var generic any
		_ = json.Unmarshal(raw, &generic)
		return map[string]any{MIMEJSON: generic, MIMEText: string(raw)}, nil
	}
	return nil, fmt.Errorf("display.Update: unknown kind %q (want html, markdown, svg, png, json or text)", kind)
}

// Renderer is implemented by values that know how to show themselves: a glue
// cell whose final expression has such a value shows its bundle instead of
// its Go syntax.
type Renderer interface {
	Bundle() map[string]any
}
