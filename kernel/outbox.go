package kernel

import (
	"log"
	"time"

	"github.com/go-zeromq/zmq4"
)

// outbox owns the sending side of one socket. Callers enqueue frames and
// never touch the socket: a zmq4 send writes to the connection without a
// deadline, so a client that stops reading can block it; only the outbox's
// goroutine is then stuck, and callers give up after enqueueWait.
type outbox struct {
	name        string
	sock        zmq4.Socket
	log         *log.Logger
	queue       chan [][]byte
	quit        chan struct{}
	done        chan struct{}
	enqueueWait time.Duration
}

// newOutbox starts the goroutine that sends what is queued on sock.
func newOutbox(name string, sock zmq4.Socket, logger *log.Logger, size int, enqueueWait time.Duration) *outbox {
	o := &outbox{
		name: name, sock: sock, log: logger,
		queue:       make(chan [][]byte, size),
		quit:        make(chan struct{}),
		done:        make(chan struct{}),
		enqueueWait: enqueueWait,
	}
	go o.run()
	return o
}

// put queues frames for sending; it waits at most enqueueWait for room and
// reports whether the frames were queued.
func (o *outbox) put(frames [][]byte) bool {
	select {
	case <-o.quit:
		o.log.Printf("%s: closed, dropping a message", o.name)
		return false
	default:
	}
	select {
	case o.queue <- frames:
		return true
	default:
	}
	t := time.NewTimer(o.enqueueWait)
	defer t.Stop()
	select {
	case o.queue <- frames:
		return true
	case <-o.quit:
		o.log.Printf("%s: closed, dropping a message", o.name)
	case <-t.C:
		o.log.Printf("%s: send queue full for %v, dropping a message", o.name, o.enqueueWait)
	}
	return false
}

// run sends queued frames until quit, then sends what is left.
func (o *outbox) run() {
	defer close(o.done)
	for {
		select {
		case frames := <-o.queue:
			o.send(frames)
		case <-o.quit:
			o.drain()
			return
		}
	}
}

// drain sends the frames still queued without waiting for more.
func (o *outbox) drain() {
	for {
		select {
		case frames := <-o.queue:
			o.send(frames)
		default:
			return
		}
	}
}

func (o *outbox) send(frames [][]byte) {
	if err := o.sock.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
		o.log.Printf("%s: send failed: %v", o.name, err)
	}
}

// close stops accepting messages and waits at most wait for the queued ones
// to be sent; it reports whether they were.
func (o *outbox) close(wait time.Duration) bool {
	close(o.quit)
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-o.done:
		return true
	case <-t.C:
		o.log.Printf("%s: messages still unsent after %v", o.name, wait)
		return false
	}
}
