package ipynb

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
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
		st.add(&Output{Type: ExecuteResult, Data: data, Metadata: map[string]any{}, ExecutionCount: &n})
		st.notes(notes)
	}
	if err != nil {
		name, value, tb := errorParts(err)
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
	st.stream(name, text)
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
