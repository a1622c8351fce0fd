package kernel

import (
	"log"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

// stuckSocket is a zmq4.Socket whose sends block until release is closed,
// like a zmq4 send to a client that stopped reading.
type stuckSocket struct {
	zmq4.Socket
	release chan struct{}
	sent    atomic.Int32
}

func (s *stuckSocket) SendMulti(zmq4.Msg) error {
	<-s.release
	s.sent.Add(1)
	return nil
}

// TestOutboxStuckSocket checks that a socket that never finishes a send
// costs a caller at most enqueueWait, and that close does not hang.
func TestOutboxStuckSocket(t *testing.T) {
	sock := &stuckSocket{release: make(chan struct{})}
	logs := &syncBuffer{}
	o := newOutbox("test", sock, log.New(logs, "", 0), 1, 50*time.Millisecond)
	start := time.Now()
	queued := 0
	for i := range 4 {
		if o.put([][]byte{[]byte("x")}) {
			queued++
		}
		for i == 0 && len(o.queue) > 0 { // let the sender take the first
			time.Sleep(time.Millisecond)
		}
	}
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("4 puts on a stuck socket took %v", elapsed)
	}
	// One message is stuck in SendMulti, one fills the queue, the rest drop.
	if queued != 2 {
		t.Errorf("%d messages queued, want 2", queued)
	}
	if o.close(50 * time.Millisecond) {
		t.Error("close reported a flush while the socket is stuck")
	}
	close(sock.release)
	deadline := time.Now().Add(wait)
	for sock.sent.Load() < 2 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if got := sock.sent.Load(); got != 2 {
		t.Errorf("%d messages sent once released, want the 2 queued", got)
	}
	if o.put([][]byte{[]byte("late")}) {
		t.Error("put after close reported success")
	}
}
