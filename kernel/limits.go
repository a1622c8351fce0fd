package kernel

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/go-zeromq/zmq4"
)

// MaxMessageSizeEnv names the environment variable that sets the largest
// message the kernel reads from a peer, in bytes, optionally with a suffix
// KiB, MiB or GiB ("64MiB"). A peer that announces a larger frame, or a
// message whose frames add up to more (64 bytes counted per frame), is
// disconnected before anything is allocated for it. The default is
// DefaultMaxMessageSize.
const MaxMessageSizeEnv = "BENCHBOOK_MAX_MESSAGE_SIZE"

// DefaultMaxMessageSize is the largest message read from a peer, 1 GiB,
// unless MaxMessageSizeEnv says otherwise.
const DefaultMaxMessageSize = zmq4.DefaultMaxMessageSize

// DefaultQueueMemory bounds, kernel-wide, the bytes of the messages queued
// to peers and not yet written (each peer has its own queue of at most 1000
// messages or 64 MiB): a peer that is behind when its queue, or all queues
// together, would pass their bound is disconnected, never waited on.
const DefaultQueueMemory = 256 << 20

// peerMemoryFor is the kernel-wide bound on the bytes held for messages
// read from peers and not yet verified, for a largest message of max bytes:
// room for one message of the largest size while it is read (1.125 times
// its size, zmq4's readBody), a quarter more, and 16 MiB for the small
// messages of other clients. A read that finds no room waits up to the
// socket timeout, then its peer is disconnected; so no number of peers
// without the key can make the kernel hold more.
func peerMemoryFor(max int64) int64 {
	return max + max/4 + 16<<20
}

// incomingMemory is the bound on unverified incoming bytes.
func (c config) incomingMemory() int64 {
	if c.peerMemory > 0 {
		return c.peerMemory
	}
	return peerMemoryFor(c.maxMsgSize)
}

// ErrMessageSize is wrapped by the error for an unusable MaxMessageSizeEnv.
var ErrMessageSize = errors.New("invalid " + MaxMessageSizeEnv)

// maxMessageSizeFromEnv returns the size set by MaxMessageSizeEnv, or
// DefaultMaxMessageSize when it is unset or empty.
func maxMessageSizeFromEnv() (int64, error) {
	v := os.Getenv(MaxMessageSizeEnv)
	if v == "" {
		return DefaultMaxMessageSize, nil
	}
	return ParseSize(v)
}

// ParseSize parses a positive byte count with an optional binary suffix:
// "1048576", "1024KiB", "64MiB", "1GiB".
func ParseSize(s string) (int64, error) {
	num, mult := strings.TrimSpace(s), int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}} {
		if strings.HasSuffix(num, u.suffix) {
			num, mult = strings.TrimSpace(strings.TrimSuffix(num, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("%w: %q is not a positive size in bytes (such as 1048576 or 64MiB)", ErrMessageSize, s)
	}
	return n * mult, nil
}
