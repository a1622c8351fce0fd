package kernel

import (
	"fmt"
	"sync"
)

// DefaultReplayWindow is how many recent signatures a Receiver remembers,
// the size jupyter_client's Session uses for its digest history.
const DefaultReplayWindow = 1 << 16

// replayGuard remembers the last n signatures it accepted, first in first out.
type replayGuard struct {
	mu   sync.Mutex
	n    int
	seen map[string]struct{}
	ring []string
	next int
}

func newReplayGuard(n int) *replayGuard {
	return &replayGuard{n: max(n, 1), seen: make(map[string]struct{})}
}

// add records sig and reports false if it was already among the recent ones.
func (g *replayGuard) add(sig []byte) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := string(sig)
	if _, dup := g.seen[s]; dup {
		return false
	}
	if len(g.ring) < g.n {
		g.ring = append(g.ring, s)
	} else {
		delete(g.seen, g.ring[g.next])
		g.ring[g.next] = s
		g.next = (g.next + 1) % g.n
	}
	g.seen[s] = struct{}{}
	return true
}

// Receiver decodes incoming frames and rejects replays of recently seen
// signed messages. It is safe for concurrent use.
type Receiver struct {
	codec Codec
	guard *replayGuard
}

// NewReceiver returns a Receiver that remembers the last window signatures.
func NewReceiver(codec Codec, window int) *Receiver {
	return &Receiver{codec: codec, guard: newReplayGuard(window)}
}

// Receive decodes frames (see Codec.Decode); a signed message whose
// signature was already accepted fails with ErrReplayed.
func (r *Receiver) Receive(frames [][]byte) (Message, error) {
	m, err := r.codec.Decode(frames)
	if err != nil {
		return Message{}, err
	}
	if r.codec.Signed() && !r.guard.add(m.Signature) {
		return Message{}, fmt.Errorf("%w %.16q (msg_id %q)", ErrReplayed, m.Signature, m.Header.MsgID)
	}
	return m, nil
}
