// Package bench is the harness linked into every %%go benchmark kernel. The
// kernel's variants are funcs BenchXxx(); benchbook generates for each a timed
// function that calls it between exactly two reads of the monotonic clock, so
// the compiler is free to inline the body and delete work whose result is
// unused. Sink and Checksum consume a result; Main is the driver that the
// benchbook protocol runs.
package bench

import (
	"runtime"
	_ "unsafe" // for go:linkname
)

// Version is the harness version; it is part of every build's cache key.
const Version = 10

//go:linkname nanotime runtime.nanotime
func nanotime() int64

// Now reads the runtime's monotonic clock (clock_gettime(CLOCK_MONOTONIC) on
// Linux, through the vDSO), in nanoseconds.
func Now() int64 { return nanotime() }

// Number is any integer or floating-point type.
type Number interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr |
		~float32 | ~float64
}

// sinkF is written by Sink. The compiler does not remove stores to package
// variables, so the value stored must be computed.
var sinkF float64

// Sink consumes x: it stores it where the compiler cannot prove nobody reads it.
func Sink[T Number](x T) { sinkF = float64(x) }

// checksum is written by Checksum and read by the driver around each pass.
var checksum struct {
	sum, want float64
	used      bool
}

// Checksum adds x to the variant's checksum; the driver compares the total
// over the measured passes with want times their count.
func Checksum[T, W Number](x T, want W) {
	checksum.sum += float64(x)
	checksum.want = float64(want)
	checksum.used = true
}

// Variant is one BenchXxx func as the generated main hands it to Main.
type Variant struct {
	Name  string
	Line  int
	Once  func() int64        // one pass between two clock reads, in ns
	Batch func(k int64) int64 // k passes between two clock reads, in ns
	Ops   int64               // operations per pass of func BenchXxx(op *Op) (//bench:ops N), else 0
}

// barrierByte is the memory Barrier names.
var barrierByte byte

// Barrier is a compiler barrier that costs no instruction, the Go twin of
// the C harness's asm volatile("" ::: "memory"). The generated batch loop
// calls it after each pass. runtime.KeepAlive is an intrinsic that the
// compiler turns into an SSA value of the memory chain (OpKeepAlive takes
// the memory state and yields a new one; ssagen/intrinsics.go): every load
// and store of the pass is ordered before it, every load of the next pass
// after it, and a store before it is not dead, so no pass can be merged
// into the next or computed once for all k. Barrier is inlined; what is
// left in the loop is the inlining mark, a one-byte NOP (go tool objdump
// of main.bbBatch_F shows it at the line of the Barrier call).
//
// The timed functions need no barrier at their clock reads: runtime.nanotime
// is a call the compiler does not inline, and a Go call takes and yields
// the whole memory state (there is no __leaf__), so no access to memory
// crosses it; the body returns nothing, so all of its work that survives
// reaches memory before the second read.
func Barrier() { runtime.KeepAlive(&barrierByte) }
