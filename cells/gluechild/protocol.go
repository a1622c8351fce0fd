// Package gluechild runs a glue interpreter (cells/glue) in a child process,
// so that what the Go runtime cannot recover from (a stack overflow,
// concurrent map writes, running out of memory, a panic in a callback of
// compiled code such as time.AfterFunc) ends the child, not the kernel.
//
// The parent holds a Client; the child runs Serve over two pipes. The
// protocol is one JSON object per line (a msg), both ways:
//
//	parent -> child: init{id,state,restore}  eval{id,label,code}  interrupt{id}
//	                 complete|inspect|is_complete{id,code,cursor}
//	                 ret{id,value,fail}           (answer to a call)
//	child -> parent: hello  progress{id,entry}  ready{id,replay,state}
//	                 stream{id,name,text}  display{id,bundle,update}  clear{id,wait}
//	                 state{id,state}              (after each declaration)
//	                 done{id,result,err,state}    (the end of an eval)
//	                 call{id,eval,name,args}      (bench.Get and friends)
//	                 reply{id,...}                (answer to complete etc.)
//
// After each declaration and each cell the child sends what changed in the
// session's State (sources of imports and declarations, never values: a
// delta, so that a cell costs the same at the 3000th as at the first); the
// Client keeps the whole. When a child dies, the Client starts a new one
// and sends it the whole State to replay, entry by entry (progress names
// the entry running, so that one that kills the replay is left out of the
// next), and the new child answers with what it restored and its State.
package gluechild

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/benchbook/benchbook/cells/glue"
	"github.com/benchbook/benchbook/stdlib/display"
)

// msg is one frame of the protocol; T says which fields mean something.
type msg struct {
	T      string          `json:"t"`
	ID     int64           `json:"id,omitempty"`
	Eval   int64           `json:"eval,omitempty"`
	Label  string          `json:"label,omitempty"`
	Code   string          `json:"code,omitempty"`
	Cursor int             `json:"cursor,omitempty"`
	Name   string          `json:"name,omitempty"`
	Text   string          `json:"text,omitempty"`
	Bundle *display.Bundle `json:"bundle,omitempty"`
	Update bool            `json:"update,omitempty"`
	Wait   bool            `json:"wait,omitempty"`
	Result map[string]any  `json:"result,omitempty"`
	Err    *glue.Error     `json:"err,omitempty"`
	State  *glue.State     `json:"state,omitempty"`
	Args   json.RawMessage `json:"args,omitempty"`
	Value  json.RawMessage `json:"value,omitempty"`
	Fail   string          `json:"fail,omitempty"`
	Note   string          `json:"note,omitempty"`
	Entry  int             `json:"entry,omitempty"`

	Restore *glue.RestoreOptions `json:"restore,omitempty"`
	Replay  *glue.Replay         `json:"replay,omitempty"`

	Matches []string `json:"matches,omitempty"`
	Start   int      `json:"start,omitempty"`
	End     int      `json:"end,omitempty"`
	Found   bool     `json:"found,omitempty"`
	Status  string   `json:"status,omitempty"`
	Indent  string   `json:"indent,omitempty"`
}

// Message types.
const (
	tInit       = "init"
	tEval       = "eval"
	tInterrupt  = "interrupt"
	tComplete   = "complete"
	tInspect    = "inspect"
	tIsComplete = "is_complete"
	tRet        = "ret"
	tHello      = "hello"
	tReady      = "ready"
	tProgress   = "progress"
	tStream     = "stream"
	tDisplay    = "display"
	tClear      = "clear"
	tDone       = "done"
	tState      = "state"
	tCall       = "call"
	tReply      = "reply"
)

// maxLine bounds one frame (a display of a large image, a long state).
const maxLine = 256 << 20

// writer sends frames; safe for concurrent use.
type writer struct {
	mu  sync.Mutex
	enc *json.Encoder
}

// newWriter sends frames on w.
func newWriter(w io.Writer) *writer { return &writer{enc: json.NewEncoder(w)} }

// send writes one frame.
func (w *writer) send(m msg) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.enc.Encode(m); err != nil {
		return fmt.Errorf("gluechild: send %s: %w", m.T, err)
	}
	return nil
}

// reader reads frames, with numbers kept as json.Number (a seed above 2^53
// must not become a float64).
type reader struct {
	sc *bufio.Scanner
}

// newReader reads frames from r.
func newReader(r io.Reader) *reader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	return &reader{sc: sc}
}

// next returns the next frame, or io.EOF when the other side is gone.
func (r *reader) next() (msg, error) {
	for r.sc.Scan() {
		line := r.sc.Bytes()
		if len(line) == 0 {
			continue
		}
		var m msg
		d := json.NewDecoder(bytes.NewReader(line))
		d.UseNumber()
		if err := d.Decode(&m); err != nil {
			return msg{}, fmt.Errorf("gluechild: bad frame: %w", err)
		}
		return m, nil
	}
	if err := r.sc.Err(); err != nil {
		return msg{}, err
	}
	return msg{}, io.EOF
}
