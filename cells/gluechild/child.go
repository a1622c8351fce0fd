package gluechild

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/benchbook/benchbook/cells/glue"
	"github.com/benchbook/benchbook/stdlib/display"
)

// Caller calls the parent from the child: the glue exports that need the
// parent's session (bench.Get, bench.Run) use it. Call sends args as JSON
// and decodes the answer into out; it returns the parent's error, and
// ErrInterrupted when the cell is interrupted while it waits.
type Caller interface {
	Call(method string, args, out any) error
	// Replaying reports whether a session is being replayed.
	Replaying() bool
	// Site names the call about to be made for the declaration that makes
	// it, the same in its cell and in a replay ("" outside declarations;
	// see glue.Session.CallSite).
	Site() string
}

// ErrInterrupted is the error of a Call that the cell's interrupt ended.
var ErrInterrupted = errors.New("interrupted")

// SessionOptions are the options of the child's glue session; call
// reaches the parent. Serve sets OnDeclare.
type SessionOptions func(call Caller) (glue.Options, error)

// child is the child's side of the protocol.
type child struct {
	w    *writer
	sess *glue.Session

	mu     sync.Mutex
	evalID int64
	evalCx context.Context
	cancel context.CancelFunc
	calls  map[int64]chan msg
	early  map[int64]bool // interrupts that came before their eval started
	nextID int64
	replay bool       // a restore is running
	evalMu sync.Mutex // one eval at a time
}

// Replaying reports whether the child is replaying a session (so that a
// var initializer such as bench.Run can take the result the session has
// instead of measuring again).
func (c *child) Replaying() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.replay
}

// Site implements Caller.
func (c *child) Site() string { return c.sess.CallSite() }

// Serve is the child process: it reads requests from in and writes frames
// to out until in ends.
func Serve(in io.Reader, out io.Writer, options SessionOptions) error {
	c := &child{w: newWriter(out), calls: map[int64]chan msg{}, early: map[int64]bool{}}
	opt, err := options(c)
	if err != nil {
		return err
	}
	opt.OnDeclare = c.declared
	sess, err := glue.New(opt)
	if err != nil {
		return err
	}
	c.sess = sess
	defer sess.Close()
	if err := c.w.send(msg{T: tHello}); err != nil {
		return err
	}
	r := newReader(in)
	for {
		m, err := r.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		c.dispatch(m)
	}
}

// dispatch handles one request; anything that may block runs in its own
// goroutine so that interrupts and call answers keep flowing.
func (c *child) dispatch(m msg) {
	switch m.T {
	case tInit:
		go c.restore(m)
	case tEval:
		go c.eval(m)
	case tInterrupt:
		c.interrupt(m.ID)
	case tRet:
		c.answer(m)
	case tComplete, tInspect, tIsComplete:
		go c.query(m)
	}
}

// declared sends what changed in the session's state while a cell runs,
// after each import or declaration, so that the parent has it if the cell
// kills the child.
func (c *child) declared() {
	c.mu.Lock()
	id := c.evalID
	c.mu.Unlock()
	st := c.sess.StateChanges()
	_ = c.w.send(msg{T: tState, ID: id, State: &st})
}

// restore replays a state into the fresh session, entry by entry (each
// announced by a progress frame), until it ends or an interrupt of m.ID
// stops it, and says what it did, with the session's whole state.
func (c *child) restore(m msg) {
	c.evalMu.Lock()
	defer c.evalMu.Unlock()
	out := msg{T: tReady, ID: m.ID}
	if m.State != nil {
		ctx, cancel := c.begin(m.ID)
		opt := glue.RestoreOptions{}
		if m.Restore != nil {
			opt = *m.Restore
		}
		opt.OnEntry = func(i int) { _ = c.w.send(msg{T: tProgress, ID: m.ID, Entry: i}) }
		c.setReplay(true)
		rep := c.sess.Restore(ctx, *m.State, opt)
		c.setReplay(false)
		c.finish()
		cancel()
		out.Replay = &rep
	}
	st := c.sess.StateChanges()
	out.State = &st
	_ = c.w.send(out)
}

// begin makes id the eval (or restore) running, which interrupt(id)
// cancels, also when the interrupt came first.
func (c *child) begin(id int64) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	c.mu.Lock()
	defer c.mu.Unlock()
	c.evalID, c.evalCx, c.cancel = id, ctx, cancel
	if c.early[id] {
		delete(c.early, id)
		cancel()
	}
	return ctx, cancel
}

// finish ends what begin started.
func (c *child) finish() {
	c.mu.Lock()
	c.evalID, c.evalCx, c.cancel = 0, nil, nil
	c.mu.Unlock()
}

// setReplay marks a restore as running or over.
func (c *child) setReplay(on bool) {
	c.mu.Lock()
	c.replay = on
	c.mu.Unlock()
}

// eval runs one cell and sends its outcome and the session's new state.
func (c *child) eval(m msg) {
	c.evalMu.Lock()
	defer c.evalMu.Unlock()
	ctx, cancel := c.begin(m.ID)
	res, err := c.sess.Eval(ctx, m.Label, m.Code, &pub{c: c, id: m.ID})
	c.finish()
	cancel()
	out := msg{T: tDone, ID: m.ID}
	out.Result, out.Note = jsonSafe(res)
	if err != nil {
		out.Err = asGlueError(err)
	}
	st := c.sess.StateChanges()
	out.State = &st
	_ = c.w.send(out)
}

// asGlueError is err as the cell error the parent shows.
func asGlueError(err error) *glue.Error {
	var ge *glue.Error
	if errors.As(err, &ge) {
		return ge
	}
	return &glue.Error{Name: glue.ErrSession, Value: err.Error(), Traceback: []string{err.Error()}}
}

// interrupt cancels the eval id; if it has not started yet (its goroutine
// waits), it is cancelled as it starts.
func (c *child) interrupt(id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.evalID == id && c.cancel != nil {
		c.cancel()
		return
	}
	c.early[id] = true
}

// query answers complete, inspect and is_complete.
func (c *child) query(m msg) {
	out := msg{T: tReply, ID: m.ID}
	switch m.T {
	case tComplete:
		out.Matches, out.Start, out.End = c.sess.Complete(m.Code, m.Cursor)
	case tInspect:
		out.Result, out.Found = c.sess.Inspect(m.Code, m.Cursor)
		out.Result, _ = jsonSafe(out.Result)
	case tIsComplete:
		out.Status, out.Indent = c.sess.IsComplete(m.Code)
	}
	_ = c.w.send(out)
}

// Call implements Caller.
func (c *child) Call(method string, args, out any) error {
	raw, err := json.Marshal(args)
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	ch := make(chan msg, 1)
	c.mu.Lock()
	c.nextID++
	id, eval, ctx := c.nextID, c.evalID, c.evalCx
	c.calls[id] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.calls, id)
		c.mu.Unlock()
	}()
	if err := c.w.send(msg{T: tCall, ID: id, Eval: eval, Name: method, Args: raw}); err != nil {
		return err
	}
	var done <-chan struct{}
	if ctx != nil {
		done = ctx.Done()
	}
	select {
	case r := <-ch:
		return decodeRet(method, r, out)
	case <-done:
		return fmt.Errorf("%s: %w", method, ErrInterrupted)
	}
}

// decodeRet decodes the value of a call's answer into out, and returns
// the parent's error (both may be set: bench.Run's partial result).
func decodeRet(method string, r msg, out any) error {
	if len(r.Value) > 0 && out != nil {
		if err := json.Unmarshal(r.Value, out); err != nil {
			return fmt.Errorf("%s: decoding the answer: %w", method, err)
		}
	}
	if r.Fail != "" {
		return errors.New(r.Fail)
	}
	return nil
}

// answer routes a call's answer to its waiter.
func (c *child) answer(m msg) {
	c.mu.Lock()
	ch := c.calls[m.ID]
	c.mu.Unlock()
	if ch != nil {
		ch <- m
	}
}

// pub sends a cell's outputs to the parent, tagged with its eval id.
type pub struct {
	c  *child
	id int64
}

// Stream implements display.Publisher.
func (p *pub) Stream(name, text string) {
	_ = p.c.w.send(msg{T: tStream, ID: p.id, Name: name, Text: text})
}

// Display implements display.Publisher.
func (p *pub) Display(b display.Bundle, update bool) {
	var note string
	b.Data, note = jsonSafe(b.Data)
	b.Metadata, _ = jsonSafe(b.Metadata)
	_ = p.c.w.send(msg{T: tDisplay, ID: p.id, Bundle: &b, Update: update})
	if note != "" {
		p.Stream("stderr", note+"\n")
	}
}

// Clear implements display.Publisher.
func (p *pub) Clear(wait bool) {
	_ = p.c.w.send(msg{T: tClear, ID: p.id, Wait: wait})
}

// jsonSafe drops the entries of a bundle that do not encode as JSON (NaN,
// channels) and names them in a note.
func jsonSafe(m map[string]any) (map[string]any, string) {
	note := ""
	for k, v := range m {
		if _, err := json.Marshal(v); err != nil {
			delete(m, k)
			note += fmt.Sprintf("output entry %s left out: %v. ", k, err)
		}
	}
	return m, note
}
