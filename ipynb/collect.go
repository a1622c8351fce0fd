package ipynb

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/benchbook/benchbook/stdlib/display"
)

// runState turns the Publisher calls of the running cell into outputs, the
// way Jupyter clients keep them (nbclient 0.7, JupyterLab):
//
//   - consecutive stream texts of the same name merge into one output;
//   - a display appends display_data and remembers its display id; a display
//     under an id already shown also replaces the data of the earlier outputs
//     with that id;
//   - a display with update replaces the data and metadata of every earlier
//     output with that display id, in this cell or an earlier one (as
//     nbclient does), and adds nothing;
//   - clear empties the cell's outputs; clear with wait empties them when the
//     next output arrives (an update is not an output);
//   - the engine's returned bundle becomes execute_result, its error an error
//     output.
//
// Calls of a cell's publisher after its execution returned are dropped: they
// would race with the next cell and the file write.
type runState struct {
	mu           sync.Mutex
	nb           *Notebook
	cell         int // index of the running cell; -1 between cells
	clearPending bool
	// dir is the notebook's folder: paths under it are stored relative to
	// it (see relative); "" keeps them as they are.
	dir string
}

// cellPub is the display.Publisher handed to the engine for one cell.
type cellPub struct {
	st   *runState
	cell int
}

// begin makes cell idx the running cell and returns its publisher.
func (st *runState) begin(idx int) display.Publisher {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.cell, st.clearPending = idx, false
	return &cellPub{st: st, cell: idx}
}

// end adds the execute_result (res) or the error output of the running cell,
// whose execution count is n, and closes its publisher.
func (st *runState) end(res map[string]any, err error, n int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(res) > 0 {
		data, notes := generic(res)
		data = st.relative(data).(map[string]any)
		st.add(&Output{Type: ExecuteResult, Data: data, Metadata: ImageMetadata(data, nil), ExecutionCount: &n})
		st.notes(notes)
	}
	if err != nil {
		name, value, tb := errorParts(err)
		value = st.relative(value).(string)
		tb = st.relative(tb).([]string)
		st.add(&Output{Type: ErrorOutput, EName: name, EValue: value, Traceback: tb})
	}
	st.cell = -1
}

// Stream implements display.Publisher.
func (p *cellPub) Stream(name, text string) {
	st := p.st
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.cell != p.cell || text == "" {
		return
	}
	st.stream(name, st.relative(text).(string))
}

// Display implements display.Publisher.
func (p *cellPub) Display(b display.Bundle, update bool) {
	st := p.st
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.cell != p.cell {
		return
	}
	data, notes := generic(b.Data)
	meta, metaNotes := generic(b.Metadata)
	data = st.relative(data).(map[string]any)
	meta = ImageMetadata(data, meta)
	if update {
		st.replace(b.ID, data, meta)
		st.notes(append(notes, metaNotes...))
		return
	}
	st.replace(b.ID, data, meta)
	st.add(&Output{Type: DisplayData, Data: data, Metadata: meta, DisplayID: b.ID})
	st.notes(append(notes, metaNotes...))
}

// Clear implements display.Publisher.
func (p *cellPub) Clear(wait bool) {
	st := p.st
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.cell != p.cell {
		return
	}
	if wait {
		st.clearPending = true
		return
	}
	st.nb.Cells[st.cell].Outputs, st.clearPending = nil, false
}

// add appends an output to the running cell, clearing first if a clear
// waits for it.
func (st *runState) add(o *Output) {
	c := st.nb.Cells[st.cell]
	if st.clearPending {
		c.Outputs, st.clearPending = nil, false
	}
	c.Outputs = append(c.Outputs, o)
}

// stream appends text to the last output if it is a stream of the same
// name, else adds a stream output.
func (st *runState) stream(name, text string) {
	c := st.nb.Cells[st.cell]
	if !st.clearPending && len(c.Outputs) > 0 {
		if last := c.Outputs[len(c.Outputs)-1]; last.Type == StreamOutput && last.Name == name {
			last.Text += text
			return
		}
	}
	st.add(&Output{Type: StreamOutput, Name: name, Text: text})
}

// replace gives every output shown so far under display id id the new data
// and metadata; an empty id matches nothing.
func (st *runState) replace(id string, data, meta map[string]any) {
	if id == "" {
		return
	}
	for _, c := range st.nb.Cells {
		for _, o := range c.Outputs {
			if o.DisplayID == id {
				o.Data, o.Metadata = data, meta
			}
		}
	}
}

// notes tells, on stderr, which bundle entries could not be kept.
func (st *runState) notes(notes []string) {
	for _, n := range notes {
		st.stream("stderr", "benchbook: "+n+"\n")
	}
}

// generic turns every value of a bundle into its JSON-native form (strings
// stay; a *bench.Result becomes the object its JSON encodes; a []byte becomes
// base64 text, as image/png wants), so that what is kept is what the file
// will hold. Entries that do not encode (NaN, channels) are dropped and
// named in the notes.
func generic(m map[string]any) (map[string]any, []string) {
	out := make(map[string]any, len(m))
	var notes []string
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v, err := toGeneric(m[k])
		if err != nil {
			notes = append(notes, fmt.Sprintf("output entry %s left out: %v", k, err))
			continue
		}
		out[k] = v
	}
	return out, notes
}

// toGeneric marshals v to JSON and decodes it back with numbers as
// json.Number (a uint64 bootstrap seed must not become a float64).
func toGeneric(v any) (any, error) {
	if s, ok := v.(string); ok {
		return s, nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var g any
	if err := d.Decode(&g); err != nil {
		return nil, err
	}
	return g, nil
}

// relative rewrites every absolute path under the notebook's folder, in
// every string of v (a generic JSON value, a string or a []string), to one
// relative to that folder: "/home/me/nb/results/seed-1" becomes
// "results/seed-1" and the folder itself ".", so that a shared notebook
// does not carry the folders of the machine that ran it. The same rewrite
// applies to a result's raw_file and to the tables that show it, so verify
// renders them alike.
func (st *runState) relative(v any) any { return RelativePaths(v, st.dir) }

// RelativePaths rewrites the absolute paths under the folder dir in every
// string of v (a string, a []string or a generic JSON value) to paths
// relative to dir, as Execute stores outputs; v is returned as it is when
// dir is "", relative or the root. The kernel's outputs go through it too.
func RelativePaths(v any, dir string) any {
	clean := filepath.Clean(dir)
	if dir == "" || !filepath.IsAbs(clean) || clean == string(filepath.Separator) {
		return v
	}
	return relativeTo(v, clean)
}

// relativeTo is relative for the folder dir (clean and absolute).
func relativeTo(v any, dir string) any {
	switch x := v.(type) {
	case string:
		return relativeString(x, dir)
	case []string:
		out := make([]string, len(x))
		for i, s := range x {
			out[i] = relativeTo(s, dir).(string)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = relativeTo(e, dir)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = relativeTo(e, dir)
		}
		return out
	}
	return v
}

// relativeString rewrites the paths under dir in s: "dir/x" becomes "x" and
// dir alone (followed by the end or a character no name has: a space,
// a quote) becomes "."; "dir2/x" stays.
func relativeString(s, dir string) string {
	if !strings.Contains(s, dir) {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, dir)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		rest := s[i+len(dir):]
		switch {
		case strings.HasPrefix(rest, string(filepath.Separator)):
			rest = rest[1:]
		case rest == "" || !isNameByte(rest[0]):
			b.WriteString(".")
		default:
			b.WriteString(dir)
		}
		s = rest
	}
}

// isNameByte says whether c may continue a file name.
func isNameByte(c byte) bool {
	return c == '.' || c == '-' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// imageMetadata returns meta with the display size of the bundle's
// image/png when meta does not give one and the PNG says its density (a
// pHYs chunk) above the 96 dpi of a CSS pixel: a figure drawn at 192 dpi
// displays at half its pixels, as Jupyter shows an image whose metadata has
// width and height.
func ImageMetadata(data, meta map[string]any) map[string]any {
	if meta == nil {
		meta = map[string]any{}
	}
	b64, ok := data[display.MIMEPNG].(string)
	if _, has := meta[display.MIMEPNG]; !ok || has {
		return meta
	}
	w, h, ok := pngDisplaySize(b64)
	if !ok {
		return meta
	}
	meta[display.MIMEPNG] = map[string]any{"width": json.Number(strconv.Itoa(w)), "height": json.Number(strconv.Itoa(h))}
	return meta
}

// pngDisplaySize reads the pixel size and pHYs density of a PNG (base64)
// and returns its size in CSS pixels (96 dpi), for a density of 2, 3 or 4
// times 96 dpi.
func pngDisplaySize(b64 string) (w, h int, ok bool) {
	head := b64[:min(len(b64), 256)]
	head = head[:len(head)/4*4]
	p, err := base64.StdEncoding.DecodeString(head)
	if err != nil || len(p) < 33 || string(p[1:4]) != "PNG" || string(p[12:16]) != "IHDR" {
		return 0, 0, false
	}
	pw, ph := binary.BigEndian.Uint32(p[16:20]), binary.BigEndian.Uint32(p[20:24])
	for off := 8; off+8 <= len(p); {
		n := int(binary.BigEndian.Uint32(p[off : off+4]))
		typ := string(p[off+4 : off+8])
		if typ == "IDAT" || off+8+n > len(p) {
			break
		}
		if typ == "pHYs" && n == 9 && p[off+16] == 1 {
			scale := float64(binary.BigEndian.Uint32(p[off+8:off+12])) * 0.0254 / 96
			k := math.Round(scale)
			if k < 2 || k > 4 || math.Abs(scale-k) > 0.005*k {
				return 0, 0, false // 1x, or a print density (300 dpi): shown as Jupyter shows it
			}
			return int(math.Round(float64(pw) / k)), int(math.Round(float64(ph) / k)), true
		}
		off += 8 + n + 4
	}
	return 0, 0, false
}

// Portable returns a display bundle as benchbook run stores it, for an
// engine that sends outputs elsewhere (the kernel): values made JSON-native
// (a *bench.Result becomes the object its JSON encodes; a value that does
// not encode stays as it is, for the sender to report), paths under dir made
// relative (RelativePaths), and the display size of a dense PNG in the
// metadata (ImageMetadata). data and meta are not changed.
func Portable(data, meta map[string]any, dir string) (map[string]any, map[string]any) {
	out := make(map[string]any, len(data))
	for k, v := range data {
		if g, err := toGeneric(v); err == nil {
			v = g
		}
		out[k] = RelativePaths(v, dir)
	}
	m := make(map[string]any, len(meta))
	for k, v := range meta {
		m[k] = v
	}
	return out, ImageMetadata(out, m)
}
