package machine

import (
	"math"
	"testing"
	"unsafe"
)

// The chains compute what they claim: n x chainOps adds of x from 0, n x
// chainOps multiplies by x from x, n x chainOps loads along the cycle.
func TestChainsCompute(t *testing.T) {
	for _, n := range []uint64{0, 1, 3, 100} {
		ops := float64(n * chainOps)
		if got := addssChain(n, 1); float64(got) != ops {
			t.Errorf("addssChain(%d, 1) = %g, want %g", n, got, ops)
		}
		if got := addsdChain(n, 0.5); got != ops/2 {
			t.Errorf("addsdChain(%d, 0.5) = %g, want %g", n, got, ops/2)
		}
		if got := mulsdChain(n, 1); got != 1 {
			t.Errorf("mulsdChain(%d, 1) = %g, want 1", n, got)
		}
	}
	if got, want := mulsdChain(1, 2), math.Ldexp(1, chainOps+1); got != want {
		t.Errorf("mulsdChain(1, 2) = %g, want 2^%d", got, chainOps+1)
	}
	cleanVector() // must not fault on this CPU
}

// layout writes one cycle through every line: following it from the
// start visits each line once and returns after lines links, and
// loadChain follows it.
func TestLayoutIsOneCycle(t *testing.T) {
	const size = 64 * lineBytes * 4 // 256 lines
	b, err := newChaseBuffer(2 * size)
	if err != nil {
		t.Fatal(err)
	}
	defer b.close()
	start := b.layout(size, size) // the second half: off is honoured
	base := uintptr(unsafe.Pointer(&b.mem[size]))
	if uintptr(start) != base {
		t.Fatalf("the cycle starts at %#x, want the region's start %#x", start, base)
	}
	seen := map[uintptr]bool{}
	p := uintptr(start)
	for range size / lineBytes {
		off := p - base
		if off%lineBytes != 0 || off >= size || seen[p] {
			t.Fatalf("link to %#x (offset %d): outside the region, not a line start, or seen before", p, off)
		}
		seen[p] = true
		p = uintptr(*(*uint64)(unsafe.Pointer(&b.mem[size+int(off)])))
	}
	if p != base || len(seen) != size/lineBytes {
		t.Errorf("after %d links at %#x, %d lines seen; want back at the start having seen all", size/lineBytes, p, len(seen))
	}
	// 4 iterations of 64 loads is 256 links: once round the cycle.
	if got := loadChain(size/lineBytes/chainOps, start); got != start {
		t.Errorf("loadChain once round the cycle ended at %p, want %p", got, start)
	}
	self := b.selfLink()
	if got := loadChain(10, self); got != self {
		t.Errorf("loadChain from a self link moved to %p", got)
	}
}
