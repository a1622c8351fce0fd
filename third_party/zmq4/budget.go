// Copyright 2018 The go-zeromq Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// This file is a benchbook patch (see PATCHES.md): a bound on the memory
// that peers make a process hold, shared by every socket given the same
// budget, so that no number of peers can exhaust it.

package zmq4

import (
	"errors"
	"sync"
	"time"
)

// ErrMemoryBudget is returned when a message read from a peer would not
// fit in the socket's memory budget within the socket's timeout; the
// connection is then closed.
var ErrMemoryBudget = errors.New("zmq4: memory budget exhausted")

// MemoryBudget bounds the bytes held for peers by the sockets that share
// it: WithMemoryBudget for the messages read from peers until Msg.Release,
// WithQueueBudget for the messages queued to peers until they are written.
// It is safe for concurrent use.
type MemoryBudget struct {
	limit int64

	mu      sync.Mutex
	used    int64
	peak    int64
	changed chan struct{} // closed and replaced when bytes are released
}

// NewMemoryBudget returns a budget of limit bytes.
func NewMemoryBudget(limit int64) *MemoryBudget {
	return &MemoryBudget{limit: limit, changed: make(chan struct{})}
}

// Limit is the most the budget lets its sockets hold.
func (b *MemoryBudget) Limit() int64 { return b.limit }

// InUse is what the budget's sockets hold now.
func (b *MemoryBudget) InUse() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// Peak is the most the budget's sockets held at once.
func (b *MemoryBudget) Peak() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.peak
}

// tryAcquire takes n bytes if they fit now.
func (b *MemoryBudget) tryAcquire(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.take(n)
}

// take takes n bytes if they fit; called with mu held.
func (b *MemoryBudget) take(n int64) bool {
	if b.used+n > b.limit {
		return false
	}
	b.used += n
	b.peak = max(b.peak, b.used)
	return true
}

// acquire takes n bytes, waiting at most wait for them to be released by
// others, and less if done is closed; false when they did not fit.
func (b *MemoryBudget) acquire(n int64, wait time.Duration, done <-chan struct{}) bool {
	if n > b.limit {
		return false
	}
	var timer *time.Timer
	for {
		b.mu.Lock()
		if b.take(n) {
			b.mu.Unlock()
			if timer != nil {
				timer.Stop()
			}
			return true
		}
		changed := b.changed
		b.mu.Unlock()
		if timer == nil {
			timer = time.NewTimer(wait)
			defer timer.Stop()
		}
		select {
		case <-changed:
		case <-timer.C:
			return false
		case <-done:
			return false
		}
	}
}

// release gives n bytes back and wakes those waiting for room.
func (b *MemoryBudget) release(n int64) {
	if n == 0 {
		return
	}
	b.mu.Lock()
	b.used -= n
	close(b.changed)
	b.changed = make(chan struct{})
	b.mu.Unlock()
}

// msgHold is what a message read from a peer holds of a budget.
type msgHold struct {
	budget *MemoryBudget
	n      int64
	once   sync.Once
}

// Release gives back what a message read from a peer holds of the
// socket's memory budget (WithMemoryBudget); a socket with a budget counts
// each message it hands to Recv until the caller releases it. It is a no-op
// for other messages and after the first call.
func (msg Msg) Release() {
	if h := msg.hold; h != nil {
		h.once.Do(func() { h.budget.release(h.n) })
	}
}
