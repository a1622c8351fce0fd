#include "textflag.h"

// Each chain below is 64 dependent instructions per loop iteration: every
// one reads the register the one before wrote, so they run one after
// another and the time per instruction is its latency. The loop counter
// (DECQ/JNZ, fused) is a separate chain that runs beside them. The
// integer chain they are timed against is the driver's FreqChain
// (stdlib/harness/go/bench/freq_amd64.s): one cycle an add.

#define ADDSS8 ADDSS X1, X0; ADDSS X1, X0; ADDSS X1, X0; ADDSS X1, X0; ADDSS X1, X0; ADDSS X1, X0; ADDSS X1, X0; ADDSS X1, X0
#define ADDSD8 ADDSD X1, X0; ADDSD X1, X0; ADDSD X1, X0; ADDSD X1, X0; ADDSD X1, X0; ADDSD X1, X0; ADDSD X1, X0; ADDSD X1, X0
#define MULSD8 MULSD X1, X0; MULSD X1, X0; MULSD X1, X0; MULSD X1, X0; MULSD X1, X0; MULSD X1, X0; MULSD X1, X0; MULSD X1, X0
#define LOAD8 MOVQ (AX), AX; MOVQ (AX), AX; MOVQ (AX), AX; MOVQ (AX), AX; MOVQ (AX), AX; MOVQ (AX), AX; MOVQ (AX), AX; MOVQ (AX), AX

// func addssChain(iterations uint64, x float32) float32
//
// iterations x 64 dependent ADDSS of x, from 0.
TEXT ·addssChain(SB), NOSPLIT, $0-20
	MOVQ  iterations+0(FP), CX
	MOVSS x+8(FP), X1
	XORPS X0, X0
	TESTQ CX, CX
	JZ    addssDone

addssLoop:
	ADDSS8
	ADDSS8
	ADDSS8
	ADDSS8
	ADDSS8
	ADDSS8
	ADDSS8
	ADDSS8
	DECQ CX
	JNZ  addssLoop

addssDone:
	MOVSS X0, ret+16(FP)
	RET

// func addsdChain(iterations uint64, x float64) float64
//
// iterations x 64 dependent ADDSD of x, from 0.
TEXT ·addsdChain(SB), NOSPLIT, $0-24
	MOVQ  iterations+0(FP), CX
	MOVSD x+8(FP), X1
	XORPS X0, X0
	TESTQ CX, CX
	JZ    addsdDone

addsdLoop:
	ADDSD8
	ADDSD8
	ADDSD8
	ADDSD8
	ADDSD8
	ADDSD8
	ADDSD8
	ADDSD8
	DECQ CX
	JNZ  addsdLoop

addsdDone:
	MOVSD X0, ret+16(FP)
	RET

// func mulsdChain(iterations uint64, x float64) float64
//
// iterations x 64 dependent MULSD by x, from x: with x = 1 every product
// is 1, a normal number (no subnormal slow path).
TEXT ·mulsdChain(SB), NOSPLIT, $0-24
	MOVQ  iterations+0(FP), CX
	MOVSD x+8(FP), X1
	MOVSD X1, X0
	TESTQ CX, CX
	JZ    mulsdDone

mulsdLoop:
	MULSD8
	MULSD8
	MULSD8
	MULSD8
	MULSD8
	MULSD8
	MULSD8
	MULSD8
	DECQ CX
	JNZ  mulsdLoop

mulsdDone:
	MOVSD X0, ret+16(FP)
	RET

// func loadChain(iterations uint64, p unsafe.Pointer) unsafe.Pointer
//
// iterations x 64 dependent loads: each MOVQ (AX), AX loads the address the
// next one reads from. p must start a cycle of addresses (a word that
// holds its own address is the load-to-use latency; a random cycle
// through a buffer is a pointer chase). Returns where it ended.
TEXT ·loadChain(SB), NOSPLIT, $0-24
	MOVQ  iterations+0(FP), CX
	MOVQ  p+8(FP), AX
	TESTQ CX, CX
	JZ    loadDone

loadLoop:
	LOAD8
	LOAD8
	LOAD8
	LOAD8
	LOAD8
	LOAD8
	LOAD8
	LOAD8
	DECQ CX
	JNZ  loadLoop

loadDone:
	MOVQ AX, ret+16(FP)
	RET

// func vzeroupper()
//
// VZEROUPPER: clears the upper halves of the YMM registers. After AVX
// code (the Go runtime's memmove and memclr use it) leaves them dirty,
// every legacy SSE instruction on Intel cores since Skylake merges with
// them, a false dependency that adds cycles to a chain of ADDSS (seen
// here: 4.4 cycles against 2.0 clean). Call only where the CPU has AVX.
TEXT ·vzeroupper(SB), NOSPLIT, $0-0
	VZEROUPPER
	RET

// func streamRead(p unsafe.Pointer, lines uint64) uint64
//
// Reads lines cache lines from p, in order, every byte of each: four
// 16-byte loads a line (SSE2, which every amd64 has), each added into its
// own accumulator, so that the adds are never what bounds it: the time is
// the time the lines take to arrive. Returns the sum (a sink). lines > 0.
TEXT ·streamRead(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), SI
	MOVQ lines+8(FP), CX
	PXOR X0, X0
	PXOR X1, X1
	PXOR X2, X2
	PXOR X3, X3

streamLoop:
	MOVOU 0(SI), X4
	MOVOU 16(SI), X5
	MOVOU 32(SI), X6
	MOVOU 48(SI), X7
	PADDQ X4, X0
	PADDQ X5, X1
	PADDQ X6, X2
	PADDQ X7, X3
	ADDQ  $64, SI
	DECQ  CX
	JNZ   streamLoop

	PADDQ X1, X0
	PADDQ X3, X2
	PADDQ X2, X0
	MOVQ  X0, AX
	MOVQ  AX, ret+16(FP)
	RET
