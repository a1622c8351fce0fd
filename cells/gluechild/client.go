package gluechild

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/benchbook/benchbook/cells/glue"
	"github.com/benchbook/benchbook/stdlib/display"
)

// Handler answers the child's calls (method is e.g. "bench.Get"; args the
// JSON the child sent) in the context and publisher of the cell that made
// them; pub is nil when no cell runs. The value is sent back as JSON; both
// may be set (bench.Run's partial result and its error).
type Handler func(ctx context.Context, pub display.Publisher, method string, args json.RawMessage) (any, error)

// Options configure a Client.
type Options struct {
	// Command is the child's argv; nil means this executable with the
	// argument "glue-child".
	Command []string
	// Dir is the child's working directory ("" for the parent's).
	Dir string
	// Env is added to the parent's environment for the child.
	Env []string
	// Limits of the child; zero fields are taken from LimitsFromEnv.
	Limits Limits
	// Handle answers the child's calls.
	Handle Handler
	// InterruptGrace is how long an interrupted cell may take to stop
	// before its child is killed; 0 means 1.2 s, which leaves the child
	// the time to give up a stuck interpreter itself (cells/glue waits
	// 750 ms) and, with the new child started (about 0.2 s) and the session
	// replayed, the cell an answer within 2 s.
	InterruptGrace time.Duration
}

// ErrFatal names the error of a cell during which the child died.
const ErrFatal = "FatalError"

const (
	// interruptGrace is the default of Options.InterruptGrace.
	interruptGrace = 1200 * time.Millisecond
	// readyLimit bounds the replay in a new child.
	readyLimit = 30 * time.Second
	// queryLimit bounds complete, inspect and is_complete.
	queryLimit = 2 * time.Second
)

// Client is the parent's side: a glue session in a child process that is
// started again, with the session's imports and declarations replayed,
// whenever it dies. Eval runs one cell at a time; Complete, Inspect and
// IsComplete may be called at any time.
type Client struct {
	opt Options
	lim Limits

	evalMu sync.Mutex // held by Eval

	mu     sync.Mutex // guards what follows
	p      *proc
	state  *glue.State
	nextID int64
	closed bool
}

// Start starts the first child.
func Start(opt Options) (*Client, error) {
	if opt.Command == nil {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("gluechild: %w", err)
		}
		opt.Command = []string{exe, "glue-child"}
	}
	if os.Getenv(EnvChild) == "1" {
		return nil, errors.New("gluechild: this process is a glue child that did not serve (a test binary without gluechild.ServeIfChild in TestMain?)")
	}
	lim, err := LimitsFromEnv()
	if err != nil {
		return nil, err
	}
	if opt.Limits.Memory > 0 {
		lim.Memory = opt.Limits.Memory
	}
	if opt.Limits.Stack > 0 {
		lim.Stack = opt.Limits.Stack
	}
	if opt.InterruptGrace <= 0 {
		opt.InterruptGrace = interruptGrace
	}
	c := &Client{opt: opt, lim: lim}
	p, err := startProc(opt, lim, opt.Handle, c.setState)
	if err != nil {
		return nil, err
	}
	c.p = p
	return c, nil
}

// Close ends the child.
func (c *Client) Close() {
	c.mu.Lock()
	c.closed = true
	p := c.p
	c.mu.Unlock()
	if p != nil {
		p.stop(time.Second)
	}
}

// id is a fresh request id.
func (c *Client) id() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nextID++
	return c.nextID
}

// live is the current child if it runs, else nil.
func (c *Client) live() *proc {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.p == nil || !c.p.alive() {
		return nil
	}
	return c.p
}

// Eval runs one cell in the child (see glue.Session.Eval). When the child
// dies during the cell, the error names the cause (ErrFatal) and a new
// child has the session's imports and declarations back; an interrupt that
// the child does not honour within Options.InterruptGrace kills it
// likewise.
func (c *Client) Eval(ctx context.Context, label, code string, pub display.Publisher) (map[string]any, error) {
	c.evalMu.Lock()
	defer c.evalMu.Unlock()
	pub = &serialPub{pub: pub}
	p, err := c.ready(pub)
	if err != nil {
		return nil, &glue.Error{Name: glue.ErrSession, Value: err.Error(), Traceback: []string{label + ": " + err.Error()}}
	}
	id := c.id()
	done := p.expect(id)
	p.setEval(id, &running{ctx: ctx, pub: pub})
	defer p.setEval(id, nil)
	if err := p.w.send(msg{T: tEval, ID: id, Label: label, Code: code}); err != nil {
		<-p.exited
		return nil, c.died(p, label, "")
	}
	select {
	case m := <-done:
		return c.finish(m, pub)
	case <-p.exited:
		return nil, c.died(p, label, "")
	case <-ctx.Done():
	}
	_ = p.w.send(msg{T: tInterrupt, ID: id})
	t := time.NewTimer(c.opt.InterruptGrace)
	defer t.Stop()
	select {
	case m := <-done:
		return c.finish(m, pub)
	case <-p.exited:
		return nil, c.died(p, label, "")
	case <-t.C:
		p.kill()
		<-p.exited
		return nil, c.died(p, label, fmt.Sprintf("the cell did not stop within %s of the interrupt, so the Go glue process was killed", c.opt.InterruptGrace))
	}
}

// setState keeps the child's latest state, for the next child.
func (c *Client) setState(st *glue.State) {
	c.mu.Lock()
	c.state = st
	c.mu.Unlock()
}

// finish takes the outcome of an eval.
func (c *Client) finish(m msg, pub display.Publisher) (map[string]any, error) {
	if m.State != nil {
		c.setState(m.State)
	}
	if m.Note != "" {
		pub.Stream("stderr", m.Note+"\n")
	}
	if m.Err != nil {
		return nil, m.Err
	}
	return m.Result, nil
}

// ready returns a running child: the current one, or a new one with the
// session replayed when the current one died between cells (which the cell
// is told on stderr).
func (c *Client) ready(pub display.Publisher) (*proc, error) {
	c.mu.Lock()
	p, closed := c.p, c.closed
	c.mu.Unlock()
	if closed {
		return nil, errors.New("the session is closed")
	}
	if p != nil && p.alive() {
		return p, nil
	}
	why := "it had not started"
	if p != nil {
		why = "it died after the previous cell: " + p.cause(c.lim)
	}
	np, note, err := c.restart()
	if err != nil {
		return nil, err
	}
	pub.Stream("stderr", "The Go glue process was started again: "+why+".\n"+note+"\n")
	return np, nil
}

// restart starts a new child and replays the session's state into it.
// When the replay itself kills the child or hangs, the session starts over
// empty in another one, and the note says so.
func (c *Client) restart() (*proc, string, error) {
	p, note, err := c.startWith(c.snapshot())
	if err == nil || errors.Is(err, errStartFailed) {
		return p, note, err
	}
	c.mu.Lock()
	c.state = nil
	c.mu.Unlock()
	p, _, err2 := c.startWith(nil)
	if err2 != nil {
		return nil, "", err2
	}
	return p, "The session could not be replayed (" + err.Error() + "): the new process starts empty; re-run the cells you need.", nil
}

// snapshot is the latest state the child sent.
func (c *Client) snapshot() *glue.State {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state
}

// errStartFailed is a child that could not be started at all.
var errStartFailed = errors.New("the Go glue process could not be started")

// startWith starts a child and replays st (nil for none) into it.
func (c *Client) startWith(st *glue.State) (*proc, string, error) {
	p, err := startProc(c.opt, c.lim, c.opt.Handle, c.setState)
	if err != nil {
		return nil, "", fmt.Errorf("%w: %v", errStartFailed, err)
	}
	c.mu.Lock()
	closed := c.closed
	if !closed {
		c.p = p
	}
	c.mu.Unlock()
	if closed {
		p.stop(time.Second)
		return nil, "", fmt.Errorf("%w: the session is closed", errStartFailed)
	}
	if st == nil {
		return p, glue.RestoreNote(nil, nil, nil), nil
	}
	id := c.id()
	ch := p.expect(id)
	if err := p.w.send(msg{T: tInit, ID: id, State: st}); err != nil {
		return p, "", err
	}
	t := time.NewTimer(readyLimit)
	defer t.Stop()
	select {
	case m := <-ch:
		return p, m.Note, nil
	case <-p.exited:
		return nil, "", fmt.Errorf("the new process died while replaying: %s", p.cause(c.lim))
	case <-t.C:
		p.kill()
		return nil, "", fmt.Errorf("the replay did not end within %s", readyLimit)
	}
}

// died is the error of a cell whose child died (after why, if set): it
// names the cause and starts a new child with the session replayed.
func (c *Client) died(p *proc, label, why string) *glue.Error {
	name, value := ErrFatal, p.cause(c.lim)
	if why != "" {
		name, value = glue.ErrInterrupted, why
	}
	tb := []string{fmt.Sprintf("%s: %s: %s", label, name, value)}
	for _, l := range p.errs.lastWords() {
		tb = append(tb, "    "+l)
	}
	tb = append(tb, "The Go glue process ended, with everything the cells had computed; the kernel did not.")
	if _, note, err := c.restart(); err != nil {
		tb = append(tb, "A new one could not be started: "+err.Error())
	} else {
		tb = append(tb, "A new one was started. "+note)
	}
	return &glue.Error{Name: name, Value: value, Traceback: splitLines(tb)}
}

// splitLines makes one traceback line of each line of tb.
func splitLines(tb []string) []string {
	var out []string
	for _, t := range tb {
		out = append(out, strings.Split(t, "\n")...)
	}
	return out
}

// query sends a request that the child answers at once, or returns false.
func (c *Client) query(m msg) (msg, bool) {
	p := c.live()
	if p == nil {
		return msg{}, false
	}
	m.ID = c.id()
	ch := p.expect(m.ID)
	if err := p.w.send(m); err != nil {
		return msg{}, false
	}
	r, err := p.await(ch, m.ID, queryLimit)
	return r, err == nil
}

// Complete completes code at cursor (see glue.Session.Complete).
func (c *Client) Complete(code string, cursor int) (matches []string, start, end int) {
	r, ok := c.query(msg{T: tComplete, Code: code, Cursor: cursor})
	if !ok {
		return nil, cursor, cursor
	}
	return r.Matches, r.Start, r.End
}

// Inspect shows the symbol at cursor (see glue.Session.Inspect).
func (c *Client) Inspect(code string, cursor int) (map[string]any, bool) {
	r, ok := c.query(msg{T: tInspect, Code: code, Cursor: cursor})
	return r.Result, ok && r.Found
}

// IsComplete says whether code is ready to run (see glue.Session.IsComplete).
func (c *Client) IsComplete(code string) (status, indent string) {
	r, ok := c.query(msg{T: tIsComplete, Code: code})
	if !ok {
		return "unknown", ""
	}
	return r.Status, r.Indent
}

// serialPub serializes the outputs of a cell: frames from the child and
// the outputs of the parent's handlers arrive from different goroutines.
type serialPub struct {
	mu  sync.Mutex
	pub display.Publisher
}

// Stream implements display.Publisher.
func (s *serialPub) Stream(name, text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pub.Stream(name, text)
}

// Display implements display.Publisher.
func (s *serialPub) Display(b display.Bundle, update bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pub.Display(b, update)
}

// Clear implements display.Publisher.
func (s *serialPub) Clear(wait bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pub.Clear(wait)
}
