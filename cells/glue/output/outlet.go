package output

import (
	"sync"

	"github.com/benchbook/benchbook/stdlib/display"
)

// Outlet serializes everything published by a session (pipe readers, the
// display package, goroutines, Exports closures) into the publisher of the
// running cell. Between cells it holds what arrives (a goroutine printing
// late) and delivers it at the start of the next cell. The zero Outlet
// holds until a publisher is attached.
type Outlet struct {
	mu      sync.Mutex
	pub     display.Publisher
	held    []heldEvent
	size    int
	dropped int
}

// maxHeld bounds what is held between cells, in bytes of text.
const maxHeld = 1 << 20

type heldEvent struct {
	name, text    string
	bundle        *display.Bundle
	update, clear bool
	wait          bool
}

// Attach makes pub receive what follows, after what was held.
func (o *Outlet) Attach(pub display.Publisher) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.pub = pub
	for _, ev := range o.held {
		o.deliver(ev)
	}
	if o.dropped > 0 {
		pub.Stream("stderr", "(glue: output written between cells was too long; some of it was dropped)\n")
	}
	o.held, o.size, o.dropped = nil, 0, 0
}

// Drop forgets what is held (what a replay printed).
func (o *Outlet) Drop() {
	o.mu.Lock()
	o.held, o.size, o.dropped = nil, 0, 0
	o.mu.Unlock()
}

// Detach stops publishing to the cell's publisher: what follows is held.
func (o *Outlet) Detach() {
	o.mu.Lock()
	o.pub = nil
	o.mu.Unlock()
}

func (o *Outlet) deliver(ev heldEvent) {
	switch {
	case ev.bundle != nil:
		o.pub.Display(*ev.bundle, ev.update)
	case ev.clear:
		o.pub.Clear(ev.wait)
	default:
		o.pub.Stream(ev.name, ev.text)
	}
}

func (o *Outlet) publish(ev heldEvent) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.pub != nil {
		o.deliver(ev)
		return
	}
	n := len(ev.text) + 64
	if o.size+n > maxHeld {
		o.dropped++
		return
	}
	o.size += n
	o.held = append(o.held, ev)
}

// Stream publishes text on "stdout" or "stderr".
func (o *Outlet) Stream(name, text string) {
	if text != "" {
		o.publish(heldEvent{name: name, text: text})
	}
}

// Display publishes a bundle.
func (o *Outlet) Display(b display.Bundle, update bool) {
	o.publish(heldEvent{bundle: &b, update: update})
}

// Clear clears the cell's output.
func (o *Outlet) Clear(wait bool) {
	o.publish(heldEvent{clear: true, wait: wait})
}
