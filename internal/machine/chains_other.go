//go:build !amd64

package machine

import "unsafe"

// chainOps is the number of dependent operations per iteration of each
// chain below.
const chainOps = 8

// chainsExact is false: on this arch the chains are compiled Go, whose
// instructions the compiler chooses; the fingerprint says so.
const chainsExact = false

func addssChain(iterations uint64, x float32) float32 {
	var s float32
	for ; iterations > 0; iterations-- {
		s += x
		s += x
		s += x
		s += x
		s += x
		s += x
		s += x
		s += x
	}
	return s
}

func addsdChain(iterations uint64, x float64) float64 {
	var s float64
	for ; iterations > 0; iterations-- {
		s += x
		s += x
		s += x
		s += x
		s += x
		s += x
		s += x
		s += x
	}
	return s
}

func mulsdChain(iterations uint64, x float64) float64 {
	s := x
	for ; iterations > 0; iterations-- {
		s *= x
		s *= x
		s *= x
		s *= x
		s *= x
		s *= x
		s *= x
		s *= x
	}
	return s
}

func loadChain(iterations uint64, p unsafe.Pointer) unsafe.Pointer {
	for ; iterations > 0; iterations-- {
		for range 8 {
			p = *(*unsafe.Pointer)(p)
		}
	}
	return p
}

// streamRead reads lines cache lines from p in order, every word, into
// four accumulators, and returns their sum.
func streamRead(p unsafe.Pointer, lines uint64) uint64 {
	w := unsafe.Slice((*uint64)(p), lines*lineBytes/8)
	var s0, s1, s2, s3 uint64
	for i := 0; i+4 <= len(w); i += 4 {
		s0 += w[i]
		s1 += w[i+1]
		s2 += w[i+2]
		s3 += w[i+3]
	}
	return s0 + s1 + s2 + s3
}

// cleanVector does nothing: only x86 has the SSE/AVX transition.
func cleanVector() {}
