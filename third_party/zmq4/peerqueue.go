// Copyright 2018 The go-zeromq Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// This file is a benchbook patch (see PATCHES.md): PUB, REP and ROUTER
// sockets send to each peer from that peer's own goroutine through a
// bounded queue, so that a peer that stops reading never delays the others:
// it is dropped (its connection closed) once its queue is full, once a write
// to it takes longer than the socket's timeout, or once the queues of every
// peer together would pass the socket's queue budget while it is behind.

package zmq4

import (
	"log"
	"sync"
	"time"
)

const (
	// defaultPeerQueueLen bounds a peer's queue in messages when the
	// socket has no high-water mark (libzmq's default SNDHWM).
	defaultPeerQueueLen = 1000
	// peerQueueBytes bounds a peer's queue in bytes: a reply that echoes a
	// peer's large messages must not pile up without bound either.
	peerQueueBytes = 64 << 20
)

// queueLimits bound one peer's queue.
type queueLimits struct {
	maxLen   int           // messages queued (<= 0: defaultPeerQueueLen)
	maxBytes int           // bytes queued, unless the queue is empty
	budget   *MemoryBudget // shared by every queue of the sockets that have it (nil: none)
	timeout  time.Duration // longest write to the peer (<= 0: none)
	log      *log.Logger
}

// peerQueue holds the messages waiting to be written to one peer.
type peerQueue struct {
	conn *Conn
	lim  queueLimits

	mu      sync.Mutex
	cond    *sync.Cond
	msgs    []Msg
	bytes   int
	writing bool // a message is being written
	closed  bool
	dropped uint64 // messages not queued
	gone    bool   // the peer was dropped for not reading
}

// newPeerQueue starts the goroutine that writes to conn what is pushed.
func newPeerQueue(conn *Conn, lim queueLimits) *peerQueue {
	if lim.maxLen <= 0 {
		lim.maxLen = defaultPeerQueueLen
	}
	q := &peerQueue{conn: conn, lim: lim}
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

// push queues msg without blocking and reports whether it was queued. A
// peer that is behind (its queue is not empty, or a write is in progress)
// is dropped when the message does not fit its queue or the budget. A peer
// that is not behind always gets a message that fits the budget, even one
// larger than its queue's bytes; when the budget is full it misses the
// message.
func (q *peerQueue) push(msg Msg) bool {
	n := msgBytes(msg)
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		q.dropped++
		return false
	}
	behind := len(q.msgs) > 0 || q.writing
	full := len(q.msgs) >= q.lim.maxLen || (len(q.msgs) > 0 && q.bytes+n > q.lim.maxBytes)
	if behind && full {
		q.dropPeer("its queue is full")
		return false
	}
	if q.lim.budget != nil && !q.lim.budget.tryAcquire(int64(n)) {
		if behind {
			q.dropPeer("the queues of all peers are at their budget")
			return false
		}
		q.dropped++
		return false
	}
	q.msgs = append(q.msgs, msg)
	q.bytes += n
	q.cond.Signal()
	return true
}

// dropPeer closes the connection of a peer that does not read and drops
// what is queued for it; called with mu held.
func (q *peerQueue) dropPeer(why string) {
	q.dropped++
	q.gone = true
	if q.lim.log != nil {
		q.lim.log.Printf("dropping peer %q: it does not read what is sent to it (%s: %d messages, %d bytes queued)",
			q.conn.Peer.Meta[sysSockID], why, len(q.msgs), q.bytes)
	}
	q.closeLocked()
	_ = q.conn.Close()
}

// flush waits until what is queued has been written, at most until
// deadline, and reports whether it was.
func (q *peerQueue) flush(deadline time.Time) bool {
	for {
		q.mu.Lock()
		idle := q.closed || (len(q.msgs) == 0 && !q.writing)
		q.mu.Unlock()
		if idle {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(time.Millisecond)
	}
}

// queueOwner is a writer with a queue per peer (PUB, REP, ROUTER).
type queueOwner interface {
	peerQueues() []*peerQueue
}

// closeQueues flushes the queues of w (at most until deadline), then
// closes them: socket.Close calls it before closing the connections, so that
// a reply sent just before Close is still written (v0.17.0's writers wrote
// before Send returned).
func closeQueues(w wpool, deadline time.Time) {
	o, ok := w.(queueOwner)
	if !ok {
		return
	}
	qs := o.peerQueues()
	for _, q := range qs {
		q.flush(deadline)
	}
	for _, q := range qs {
		q.close()
	}
}

// close stops the writer; messages still queued are dropped.
func (q *peerQueue) close() {
	q.mu.Lock()
	q.closeLocked()
	q.mu.Unlock()
}

func (q *peerQueue) closeLocked() {
	if q.closed {
		return
	}
	q.closed = true
	q.giveBack(q.bytes)
	q.msgs, q.bytes = nil, 0
	q.cond.Signal()
}

// giveBack returns n bytes to the budget.
func (q *peerQueue) giveBack(n int) {
	if q.lim.budget != nil {
		q.lim.budget.release(int64(n))
	}
}

// run writes queued messages until the queue is closed or a write fails;
// a write that fails or passes the timeout closes the connection.
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
		n := msgBytes(msg)
		q.bytes -= n
		q.writing = true
		q.mu.Unlock()
		err := q.write(msg)
		q.mu.Lock()
		q.writing = false
		q.giveBack(n)
		q.mu.Unlock()
		if err != nil {
			q.close()
			_ = q.conn.Close()
			return
		}
	}
}

// write sends msg to the peer within the timeout.
func (q *peerQueue) write(msg Msg) error {
	if q.lim.timeout > 0 {
		_ = q.conn.rw.SetWriteDeadline(time.Now().Add(q.lim.timeout))
		defer q.conn.rw.SetWriteDeadline(time.Time{})
	}
	return q.conn.SendMsg(msg)
}
