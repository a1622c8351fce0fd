// Copyright 2018 The go-zeromq Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// This file is a benchbook patch (see PATCHES.md): PUB and REP sockets send
// to each peer from that peer's own goroutine through a bounded queue, so a
// peer that stops reading only loses its own messages, as libzmq's PUB
// drops for a subscriber at its high-water mark.

package zmq4

import "sync"

const (
	// defaultPeerQueueLen bounds a peer's queue in messages when the
	// socket has no high-water mark (libzmq's default SNDHWM).
	defaultPeerQueueLen = 1000
	// peerQueueBytes bounds a peer's queue in bytes: a reply that echoes a
	// peer's large messages must not pile up without bound either.
	peerQueueBytes = 64 << 20
)

// peerQueue holds the messages waiting to be written to one peer.
type peerQueue struct {
	conn     *Conn
	maxLen   int
	maxBytes int

	mu      sync.Mutex
	cond    *sync.Cond
	msgs    []Msg
	bytes   int
	closed  bool
	dropped uint64
}

// newPeerQueue starts the goroutine that writes to conn what is pushed.
func newPeerQueue(conn *Conn, maxLen, maxBytes int) *peerQueue {
	if maxLen <= 0 {
		maxLen = defaultPeerQueueLen
	}
	q := &peerQueue{conn: conn, maxLen: maxLen, maxBytes: maxBytes}
	q.cond = sync.NewCond(&q.mu)
	go q.run()
	return q
}

func msgBytes(msg Msg) int {
	n := 0
	for _, f := range msg.Frames {
		n += len(f)
	}
	return n
}

// push queues msg and reports whether it was queued; a full or closed queue
// drops it. A message larger than maxBytes is queued when the queue is
// empty, so every message can be sent to a peer that reads.
func (q *peerQueue) push(msg Msg) bool {
	n := msgBytes(msg)
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed || len(q.msgs) >= q.maxLen || (len(q.msgs) > 0 && q.bytes+n > q.maxBytes) {
		q.dropped++
		return false
	}
	q.msgs = append(q.msgs, msg)
	q.bytes += n
	q.cond.Signal()
	return true
}

// close stops the writer; messages still queued are dropped.
func (q *peerQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.msgs = nil
	q.cond.Signal()
	q.mu.Unlock()
}

// run writes queued messages until the queue is closed or a write fails.
func (q *peerQueue) run() {
	for {
		q.mu.Lock()
		for len(q.msgs) == 0 && !q.closed {
			q.cond.Wait()
		}
		if q.closed {
			q.mu.Unlock()
			return
		}
		msg := q.msgs[0]
		q.msgs[0] = Msg{}
		q.msgs = q.msgs[1:]
		q.bytes -= msgBytes(msg)
		q.mu.Unlock()
		if err := q.conn.SendMsg(msg); err != nil {
			q.close()
			return
		}
	}
}
