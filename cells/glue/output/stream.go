package output

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// Pipe carries one of the interpreter's output streams. The interpreter gets
// the write end (Writer) as Options.Stdout or Options.Stderr; being an
// *os.File, it also becomes the os.Stdout or os.Stderr that cells see, and
// shell lines write into it too. A goroutine reads the other end and
// publishes chunks to an Outlet: whole lines as soon as they arrive, a
// partial line after partialDelay.
//
// Sync writes a marker into the pipe and waits until the reader reaches it:
// everything written before is then published. A filter sees each chunk
// before it is published (the session's takes the interpreter's panic frame
// lines, "300002:9: panic: main.f(...)", out of stderr).
type Pipe struct {
	name   string
	r, w   *os.File
	out    *Outlet
	marker []byte
	filter func(string) string

	mu      sync.Mutex
	pending []byte
	timer   *time.Timer
	acks    map[uint64]chan struct{}
	next    uint64
	done    chan struct{}
}

const (
	partialDelay = 20 * time.Millisecond
	maxPending   = 64 << 10
	readSize     = 32 << 10
)

// NewPipe starts a pipe that publishes what is written into it to out as
// stream name ("stdout" or "stderr"), each chunk through filter if it is
// set. token makes its sync markers its own.
func NewPipe(name, token string, out *Outlet, filter func(string) string) (*Pipe, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("glue: %s pipe: %w", name, err)
	}
	p := &Pipe{
		name: name, r: r, w: w, out: out, filter: filter,
		marker: []byte("\x00glue-sync:" + token + ":"),
		acks:   map[uint64]chan struct{}{},
		done:   make(chan struct{}),
	}
	go p.loop()
	return p, nil
}

// Writer is the write end of the pipe.
func (p *Pipe) Writer() *os.File { return p.w }

func (p *Pipe) loop() {
	defer close(p.done)
	buf := make([]byte, readSize)
	for {
		n, err := p.r.Read(buf)
		if n > 0 {
			p.feed(buf[:n])
		}
		if err != nil {
			p.mu.Lock()
			p.publish(len(p.pending))
			p.mu.Unlock()
			return
		}
	}
}

// feed takes data read from the pipe.
func (p *Pipe) feed(data []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pending = append(p.pending, data...)
	p.takeMarkers()
	safe := p.safeLen()
	switch {
	case safe > maxPending:
		p.publish(runeSafe(p.pending[:safe]))
	default:
		if nl := bytes.LastIndexByte(p.pending[:safe], '\n'); nl >= 0 {
			p.publish(nl + 1)
		}
	}
	if len(p.pending) > 0 && p.timer == nil {
		p.timer = time.AfterFunc(partialDelay, p.flushPartial)
	}
}

// takeMarkers publishes what precedes each complete marker, removes the
// marker and wakes its waiter.
func (p *Pipe) takeMarkers() {
	for {
		i := bytes.Index(p.pending, p.marker)
		if i < 0 {
			return
		}
		rest := p.pending[i+len(p.marker):]
		j := bytes.IndexByte(rest, 0)
		if j < 0 {
			return
		}
		seq, _ := strconv.ParseUint(string(rest[:j]), 10, 64)
		p.publish(i)
		p.pending = p.pending[len(p.marker)+j+1:]
		if ch, ok := p.acks[seq]; ok {
			close(ch)
			delete(p.acks, seq)
		}
	}
}

// safeLen is how much of pending can be published without cutting a marker
// that has only partly arrived.
func (p *Pipe) safeLen() int {
	i := bytes.IndexByte(p.pending, 0)
	for i >= 0 {
		tail := p.pending[i:]
		if len(tail) < len(p.marker) && bytes.HasPrefix(p.marker, tail) {
			return i
		}
		if bytes.HasPrefix(tail, p.marker) {
			return i
		}
		next := bytes.IndexByte(p.pending[i+1:], 0)
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return len(p.pending)
}

// runeSafe is the longest prefix of b that does not end inside a UTF-8
// sequence.
func runeSafe(b []byte) int {
	i := len(b) - 1
	for i >= 0 && len(b)-i < utf8.UTFMax && !utf8.RuneStart(b[i]) {
		i--
	}
	if i >= 0 && !utf8.FullRune(b[i:]) {
		return i
	}
	return len(b)
}

// flushPartial publishes a partial line that waited partialDelay.
func (p *Pipe) flushPartial() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.timer = nil
	p.publish(runeSafe(p.pending[:p.safeLen()]))
	if len(p.pending) > 0 {
		p.timer = time.AfterFunc(partialDelay, p.flushPartial)
	}
}

// publish sends pending[:n] and keeps the rest. Called with mu held.
func (p *Pipe) publish(n int) {
	if n <= 0 {
		return
	}
	text := string(p.pending[:n])
	p.pending = append(p.pending[:0], p.pending[n:]...)
	if p.filter != nil {
		text = p.filter(text)
	}
	p.out.Stream(p.name, text)
}

// Sync returns when everything written to the pipe before the call has been
// published, or false after timeout.
func (p *Pipe) Sync(timeout time.Duration) bool {
	ch := make(chan struct{})
	p.mu.Lock()
	p.next++
	seq := p.next
	p.acks[seq] = ch
	p.mu.Unlock()
	msg := append(append([]byte{}, p.marker...), []byte(strconv.FormatUint(seq, 10)+"\x00")...)
	go func() { _, _ = p.w.Write(msg) }() // may block while the pipe is full
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-p.done:
	case <-t.C:
	}
	p.mu.Lock()
	delete(p.acks, seq)
	p.mu.Unlock()
	return false
}

// Close closes the write end, waits (bounded) for the reader to publish
// the rest, and closes the read end.
func (p *Pipe) Close() {
	_ = p.w.Close()
	select {
	case <-p.done:
	case <-time.After(time.Second):
	}
	_ = p.r.Close()
	p.mu.Lock()
	if p.timer != nil {
		p.timer.Stop()
	}
	p.mu.Unlock()
}
