#include "textflag.h"

// EIGHT is eight additions in one dependency chain: each ADDQ reads the AX
// that the previous one wrote, so they run one after another, one per
// cycle (the latency of a register add on every x86-64 core). BX holds a
// value the assembler cannot see, so no add can be folded into another.
#define EIGHT ADDQ BX, AX; ADDQ BX, AX; ADDQ BX, AX; ADDQ BX, AX; ADDQ BX, AX; ADDQ BX, AX; ADDQ BX, AX; ADDQ BX, AX

// func FreqChain(iterations, step uint64) uint64
//
// Runs iterations x 64 dependent additions of step and returns the sum,
// iterations*64*step (mod 2^64). The loop counter (DECQ/JNZ, fused) is a
// separate chain that runs in parallel with the adds.
TEXT ·FreqChain(SB), NOSPLIT, $0-24
	MOVQ iterations+0(FP), CX
	MOVQ step+8(FP), BX
	XORQ AX, AX
	TESTQ CX, CX
	JZ   done

loop:
	EIGHT
	EIGHT
	EIGHT
	EIGHT
	EIGHT
	EIGHT
	EIGHT
	EIGHT
	DECQ CX
	JNZ  loop

done:
	MOVQ AX, ret+16(FP)
	RET
