package kernel

import (
	"crypto/sha256"
	"fmt"
	"sync"
)

// DefaultReplayWindow is how many recent signatures a Receiver remembers,
// the size jupyter_client's Session uses for its digest history.
const DefaultReplayWindow = 1 << 16

// replayGuard remembers the last n signatures it accepted, first in first
// out. It keeps a 16-byte digest of each (SHA-256 of the signature,
// truncated: two signatures share one with probability 2^-128 per pair), in
// a ring and a set sized for n at the start, so that a session's memory
// does not grow with the messages it receives: a kernel holding the 64-byte
// hex strings themselves grew about 600 bytes a cell until the window was
// full (bench/soak.py, which reads the live heap), about 10 MB in all.
type replayGuard struct {
	mu   sync.Mutex
	n    int
	seen map[digest]struct{}
	ring []digest
	next int
}

type digest [16]byte

func newReplayGuard(n int) *replayGuard {
	n = max(n, 1)
	return &replayGuard{n: n, seen: make(map[digest]struct{}, n), ring: make([]digest, 0, n)}
}

// add records sig and reports false if it was already among the recent ones.
func (g *replayGuard) add(sig []byte) bool {
	sum := sha256.Sum256(sig)
	d := digest(sum[:16])
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, dup := g.seen[d]; dup {
		return false
	}
	if len(g.ring) < g.n {
		g.ring = append(g.ring, d)
	} else {
		delete(g.seen, g.ring[g.next])
		g.ring[g.next] = d
		g.next = (g.next + 1) % g.n
	}
	g.seen[d] = struct{}{}
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
