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
	// InterruptGrace is how long an interrupted cell (or replay) may take
	// to stop before its child is killed; 0 means 1.2 s, which leaves the
	// child the time to give up a stuck interpreter itself (cells/glue
	// waits 750 ms) and, with the new child started (about 0.2 s) and the
	// session replayed, the cell an answer within 2 s.
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
	// maxReplayCrashes is how many replays that kill their child are tried
	// again (each without the initializers of the entry that killed it)
	// before the session starts empty.
	maxReplayCrashes = 3
)

// Client is the parent's side: a glue session in a child process that is
// started again, with the session's imports and declarations replayed,
// whenever it dies. The first child starts in the background (Start returns
// at once); a cell waits for it only if it comes first. Eval runs one cell
// at a time; Complete, Inspect and IsComplete may be called at any time.
type Client struct {
	opt Options
	lim Limits

	evalMu sync.Mutex // held by Eval

	first    chan struct{} // closed once the first child started or failed to
	firstErr error         // why it failed, set before first is closed

	mu     sync.Mutex // guards what follows
	p      *proc
	state  glue.State // the whole state, the child's deltas applied
	nextID int64
	closed bool
	// lastDeath is the cause of the child's previous death; noCalls, once
	// set, says why replays no longer run initializers that call code.
	lastDeath string
	noCalls   string
}

// Start starts the first child in the background; an error is a setting
// that makes no child possible (the limits in the environment).
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
	c := &Client{opt: opt, lim: lim, first: make(chan struct{})}
	go c.startFirst()
	return c, nil
}

// startFirst starts the first child.
func (c *Client) startFirst() {
	defer close(c.first)
	if _, _, err := c.startWith(context.Background(), nil, glue.RestoreOptions{}); err != nil {
		c.firstErr = err
	}
}

// waitFirst waits for the first child's start, or ctx's end.
func (c *Client) waitFirst(ctx context.Context) error {
	select {
	case <-c.first:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close ends the child (the first one too, if it is still starting).
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

// live is the current child if it runs, else nil; it waits for the first
// child at most wait.
func (c *Client) live(wait time.Duration) *proc {
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-c.first:
	case <-t.C:
		return nil
	}
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
	if err := c.waitFirst(ctx); err != nil {
		return nil, &glue.Error{Name: glue.ErrInterrupted, Value: "interrupted while the Go glue process was starting",
			Traceback: []string{label + ": interrupted while the Go glue process was starting"}}
	}
	p, err := c.ready(ctx, pub)
	if err != nil {
		return nil, &glue.Error{Name: glue.ErrSession, Value: err.Error(), Traceback: []string{label + ": " + err.Error()}}
	}
	if ctx.Err() != nil { // interrupted while the session was replayed
		return nil, &glue.Error{Name: glue.ErrInterrupted, Value: "interrupted while the session was replayed into a new Go glue process (above: what was restored)",
			Traceback: []string{label + ": interrupted while the session was replayed into a new Go glue process"}}
	}
	id := c.id()
	done := p.expect(id)
	p.setEval(id, &running{ctx: ctx, pub: pub})
	defer p.setEval(id, nil)
	if err := p.w.send(msg{T: tEval, ID: id, Label: label, Code: code}); err != nil {
		<-p.exited
		return nil, c.died(ctx, p, label, "")
	}
	select {
	case m := <-done:
		return c.finish(m, pub)
	case <-p.exited:
		return nil, c.died(ctx, p, label, "")
	case <-ctx.Done():
	}
	_ = p.w.send(msg{T: tInterrupt, ID: id})
	t := time.NewTimer(c.opt.InterruptGrace)
	defer t.Stop()
	select {
	case m := <-done:
		return c.finish(m, pub)
	case <-p.exited:
		return nil, c.died(ctx, p, label, "")
	case <-t.C:
		p.kill()
		<-p.exited
		return nil, c.died(ctx, p, label, fmt.Sprintf("the cell did not stop within %s of the interrupt, so the Go glue process was killed", c.opt.InterruptGrace))
	}
}

// applyState adds what the child sent to the whole state.
func (c *Client) applyState(st *glue.State) {
	c.mu.Lock()
	c.state.Apply(*st)
	c.mu.Unlock()
}

// finish takes the outcome of an eval (its state was applied as it came).
func (c *Client) finish(m msg, pub display.Publisher) (map[string]any, error) {
	if m.Note != "" {
		pub.Stream("stderr", m.Note+"\n")
	}
	if m.Err != nil {
		return nil, m.Err
	}
	return m.Result, nil
}

// ready returns a running child: the current one, or a new one with the
// session replayed when the current one died between cells or never
// started (which the cell is told on stderr, with what the replay did).
// A child that dies between cells again, with the same cause, after a
// replay that ran initializers which call code, is taken to have been
// killed by them: replays no longer run them.
func (c *Client) ready(ctx context.Context, pub display.Publisher) (*proc, error) {
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
	switch {
	case p == nil && c.firstErr != nil:
		why = "it could not start: " + c.firstErr.Error()
	case p != nil:
		cause := p.cause(c.lim)
		why = "it died after the previous cell: " + cause
		c.mu.Lock()
		if p.replayed && cause == c.lastDeath && c.noCalls == "" {
			c.noCalls = "the process died again between cells (" + cause + ") after a replay had run them, so replays no longer run initializers that call code; re-run their cells"
			why += ", the same cause as before the replay"
		}
		c.lastDeath = cause
		c.mu.Unlock()
	}
	np, note, err := c.restart(ctx)
	if err != nil {
		return nil, err
	}
	pub.Stream("stderr", "The Go glue process was started again: "+why+".\n"+note+"\n")
	return np, nil
}

// replayCrash is a replay that killed its child, during entry (-1: none
// had started) of the history.
type replayCrash struct {
	entry int
	cause string
}

func (e *replayCrash) Error() string {
	return "the new process died while replaying: " + e.cause
}

// errStartFailed is a child that could not be started at all.
var errStartFailed = errors.New("the Go glue process could not be started")

// restart starts a new child and replays the session's state into it. A
// replay that kills the child is tried again without the initializers (that
// call code) of the entry it was running, up to maxReplayCrashes times;
// after that, or when the replay hangs or is interrupted and killed, the
// session starts over empty in another child, and the note says so.
func (c *Client) restart(ctx context.Context) (*proc, string, error) {
	st := c.snapshot()
	c.mu.Lock()
	opt := glue.RestoreOptions{Skip: map[int]string{}, NoCalls: c.noCalls}
	c.mu.Unlock()
	var crashes []string
	for {
		p, rep, err := c.startWith(ctx, st, opt)
		var rc *replayCrash
		switch {
		case err == nil:
			note := "The session starts empty."
			if rep != nil {
				note = rep.Note()
			}
			if len(crashes) > 0 {
				note = strings.Join(crashes, "\n") + "\n" + note
			}
			return p, note, nil
		case errors.Is(err, errStartFailed):
			return nil, "", err
		case errors.As(err, &rc) && len(crashes) < maxReplayCrashes:
			crashes = append(crashes, "A replay ended its process ("+rc.cause+"); it was started again without the initializers that call code of the declarations it was running.")
			why := "an initializer in their declaration ended the replay's process (" + rc.cause + ")"
			if rc.entry >= 0 && opt.Skip[rc.entry] == "" {
				opt.Skip[rc.entry] = why
			} else {
				opt.NoCalls = why
			}
			continue
		}
		p, _, err2 := c.startWith(context.Background(), nil, glue.RestoreOptions{})
		if err2 != nil {
			return nil, "", err2
		}
		c.mu.Lock()
		c.state = glue.State{}
		c.mu.Unlock()
		return p, "The session could not be replayed (" + err.Error() + "): the new process starts empty; re-run the cells you need.", nil
	}
}

// snapshot is a copy of the whole state, nil when nothing was declared.
func (c *Client) snapshot() *glue.State {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.state.History) == 0 && len(c.state.Names) == 0 {
		return nil
	}
	st := c.state
	return &st
}

// startWith starts a child and replays st (nil for none) into it with opt,
// until the replay ends; an interrupt (ctx) that the child does not honour
// within the grace kills it.
func (c *Client) startWith(ctx context.Context, st *glue.State, opt glue.RestoreOptions) (*proc, *glue.Replay, error) {
	p, err := startProc(c.opt, c.lim, c.opt.Handle, c.applyState)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", errStartFailed, err)
	}
	c.mu.Lock()
	closed := c.closed
	if !closed {
		c.p = p
	}
	c.mu.Unlock()
	if closed {
		p.stop(time.Second)
		return nil, nil, fmt.Errorf("%w: the session is closed", errStartFailed)
	}
	if st == nil {
		return p, nil, nil
	}
	id := c.id()
	ch := p.expect(id)
	if err := p.w.send(msg{T: tInit, ID: id, State: st, Restore: &opt}); err != nil {
		<-p.exited
		return nil, nil, &replayCrash{entry: -1, cause: p.cause(c.lim)}
	}
	t := time.NewTimer(readyLimit)
	defer t.Stop()
	interrupted := ctx.Done()
	for {
		select {
		case m := <-ch:
			if m.Replay != nil && m.Replay.Stuck {
				p.kill()
				<-p.exited
				return nil, nil, errors.New("the replay was stopped inside a call the interpreter cannot interrupt")
			}
			if m.Replay != nil {
				p.replayed = len(m.Replay.RanAgain) > 0
			}
			return p, m.Replay, nil
		case <-p.exited:
			return nil, nil, &replayCrash{entry: p.replaying(), cause: p.cause(c.lim)}
		case <-interrupted:
			_ = p.w.send(msg{T: tInterrupt, ID: id})
			interrupted = nil
			t.Reset(c.opt.InterruptGrace)
			continue
		case <-t.C:
		}
		p.kill()
		<-p.exited
		if interrupted == nil {
			return nil, nil, fmt.Errorf("the replay did not stop within %s of the interrupt, so its process was killed", c.opt.InterruptGrace)
		}
		return nil, nil, &replayCrash{entry: p.replaying(), cause: fmt.Sprintf("it did not end within %s", readyLimit)}
	}
}

// died is the error of a cell whose child died (after why, if set): it
// names the cause and starts a new child with the session replayed (an
// interrupt of ctx stops the replay, unless the death was the interrupt's).
func (c *Client) died(ctx context.Context, p *proc, label, why string) *glue.Error {
	name, value := ErrFatal, p.cause(c.lim)
	c.mu.Lock()
	c.lastDeath = value
	c.mu.Unlock()
	if why != "" {
		name, value = glue.ErrInterrupted, why
		ctx = context.Background()
	}
	tb := []string{fmt.Sprintf("%s: %s: %s", label, name, value)}
	for _, l := range p.errs.lastWords() {
		tb = append(tb, "    "+l)
	}
	tb = append(tb, "The Go glue process ended, with everything the cells had computed; the kernel did not.")
	if _, note, err := c.restart(ctx); err != nil {
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

// Package is the import path of the package the session has under name
// (imported by a cell or preloaded), if any.
func (c *Client) Package(name string) (path string, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	path, ok = c.state.Pkgs[name]
	return path, ok
}

// query sends a request that the child answers at once, or returns false.
func (c *Client) query(m msg) (msg, bool) {
	p := c.live(queryLimit)
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
