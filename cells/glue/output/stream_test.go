package output

import (
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/benchbook/benchbook/stdlib/display"
)

// recorder keeps what is published to it, one event a string.
type recorder struct {
	mu     sync.Mutex
	events []string
}

func (r *recorder) add(ev string) {
	r.mu.Lock()
	r.events = append(r.events, ev)
	r.mu.Unlock()
}

// text is everything streamed on name.
func (r *recorder) text(name string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	for _, ev := range r.events {
		if t, ok := strings.CutPrefix(ev, name+":"); ok {
			b.WriteString(t)
		}
	}
	return b.String()
}

func (r *recorder) Stream(name, text string)              { r.add(name + ":" + text) }
func (r *recorder) Display(b display.Bundle, update bool) { r.add("display:" + b.ID) }
func (r *recorder) Clear(wait bool)                       { r.add("clear") }

// What arrives between cells is held, in order, and delivered when the
// next cell attaches; past maxHeld it is dropped, and the next cell is told.
func TestOutletHoldsBetweenCells(t *testing.T) {
	var o Outlet
	o.Stream("stdout", "late\n")
	o.Display(display.Bundle{ID: "d1"}, false)
	o.Clear(true)
	o.Stream("stderr", "")
	first := &recorder{}
	o.Attach(first)
	o.Stream("stderr", "now\n")
	o.Detach()
	if got, want := strings.Join(first.events, "|"), "stdout:late\n|display:d1|clear|stderr:now\n"; got != want {
		t.Errorf("the first cell got %q, want %q", got, want)
	}
	for i := 0; i < 20; i++ {
		o.Stream("stdout", strings.Repeat("x", maxHeld/10))
	}
	next := &recorder{}
	o.Attach(next)
	if n := len(next.events); n < 2 || n > 11 || !strings.Contains(next.events[n-1], "too long") {
		t.Errorf("after 2 MiB between cells the next cell got %d events, the last %.60q", n, next.events[n-1])
	}
	o.Detach()
	o.Stream("stdout", "replayed\n")
	o.Drop()
	last := &recorder{}
	o.Attach(last)
	if len(last.events) != 0 {
		t.Errorf("what was dropped was delivered: %q", last.events)
	}
}

// Sync returns once everything written before it is published, through
// the filter.
func TestPipeSyncPublishesWhatWasWritten(t *testing.T) {
	pub := &recorder{}
	o := &Outlet{}
	o.Attach(pub)
	p, err := NewPipe("stderr", "tok", o, func(s string) string { return strings.ReplaceAll(s, "secret", "") })
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Writer().WriteString("a secret line\nand a partial"); err != nil {
		t.Fatal(err)
	}
	if !p.Sync(5 * time.Second) {
		t.Fatal("Sync timed out")
	}
	if got := pub.text("stderr"); got != "a  line\nand a partial" {
		t.Errorf("published %q before Sync returned", got)
	}
}

// The pipe must not publish half a marker or half a UTF-8 sequence, and
// must deliver everything before a marker when it arrives in pieces.
func TestPipeMarkerSplitAcrossReads(t *testing.T) {
	pub := &recorder{}
	out := &Outlet{}
	out.Attach(pub)
	p := &Pipe{name: "stdout", out: out, marker: []byte("\x00glue-sync:tok:"), acks: map[uint64]chan struct{}{}}
	ack := make(chan struct{})
	p.acks[7] = ack
	p.feed([]byte("partial é"[:len("partial é")-1]))
	p.feed([]byte("partial é"[len("partial é")-1:]))
	p.feed([]byte("\x00glue-sy"))
	p.feed([]byte("nc:tok:7\x00after\n"))
	select {
	case <-ack:
	default:
		t.Fatal("the marker was not acknowledged")
	}
	if got := pub.text("stdout"); got != "partial éafter\n" {
		t.Errorf("published %q, want the text without the marker", got)
	}
	for _, c := range pub.events {
		if !utf8.ValidString(c) {
			t.Errorf("chunk %q cuts a UTF-8 sequence", c)
		}
	}
	if p.timer != nil {
		p.timer.Stop()
	}
}

func TestRuneSafe(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want int
	}{
		{"ascii", "abc", 3},
		{"complete two-byte rune", "aé", 3},
		{"first byte of a two-byte rune", "a\xc3", 1},
		{"two bytes of a three-byte rune", "a\xe2\x82", 1},
		{"complete three-byte rune", "a€", 4},
	}
	for _, tc := range tests {
		if got := runeSafe([]byte(tc.in)); got != tc.want {
			t.Errorf("%s: runeSafe(%q) = %d, want %d", tc.name, tc.in, got, tc.want)
		}
	}
}
