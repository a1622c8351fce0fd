package machine

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"unsafe"

	"golang.org/x/sys/unix"
)

// lineBytes is the distance between two links of a chase: one cache line
// on every x86-64 and most arm64 cores.
const lineBytes = 64

// chaseBuffer is an anonymous mapping, outside the Go heap, in 4 KiB pages
// (MADV_NOHUGEPAGE: the same pages whatever the THP setting, so the
// chase at 64 MiB meets the same TLB behaviour on every machine that sets
// THP to madvise or never; "always" is recorded in the description), in
// which a pointer chase is laid out.
type chaseBuffer struct {
	mem []byte
}

func newChaseBuffer(size int) (*chaseBuffer, error) {
	mem, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_POPULATE)
	if err != nil {
		return nil, fmt.Errorf("chase buffer of %d bytes: %w", size, err)
	}
	_ = unix.Madvise(mem, unix.MADV_NOHUGEPAGE)
	return &chaseBuffer{mem: mem}, nil
}

func (b *chaseBuffer) close() { _ = unix.Munmap(b.mem) }

// layout writes into size bytes from off one random cycle through all
// their cache lines (Sattolo's algorithm, from a fixed seed, so every run
// chases the same order): the word at the start of each line holds the
// address of the next line of the cycle. A random order defeats the
// prefetchers: each load waits for the one before and for wherever its
// line is. It returns the first link.
func (b *chaseBuffer) layout(off, size int) unsafe.Pointer {
	lines := size / lineBytes
	order := make([]uint32, lines)
	for i := range order {
		order[i] = uint32(i)
	}
	rng := rand.New(rand.NewPCG(0x6265_6e63_6862_6f6f, uint64(size)))
	for i := lines - 1; i > 0; i-- {
		j := rng.IntN(i) // Sattolo: j < i, so the permutation is one cycle
		order[i], order[j] = order[j], order[i]
	}
	next := make([]uint32, lines)
	for i, l := range order {
		next[l] = order[(i+1)%lines]
	}
	mem := b.mem[off : off+size]
	base := uintptr(unsafe.Pointer(&mem[0]))
	for l := range lines {
		binary.NativeEndian.PutUint64(mem[l*lineBytes:], uint64(base+uintptr(next[l])*lineBytes))
	}
	return unsafe.Pointer(&mem[0])
}

// selfLink makes the first word of the buffer hold its own address: a
// chain of loads from it is the load-to-use latency of a line in L1.
func (b *chaseBuffer) selfLink() unsafe.Pointer {
	p := unsafe.Pointer(&b.mem[0])
	binary.NativeEndian.PutUint64(b.mem, uint64(uintptr(p)))
	return p
}
