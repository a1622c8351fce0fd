#include "textflag.h"

// As stdlib/machine/chain_amd64.s: each ADDQ reads the AX the previous one
// wrote, one per cycle; BX holds a value the assembler cannot see.
#define EIGHT ADDQ BX, AX; ADDQ BX, AX; ADDQ BX, AX; ADDQ BX, AX; ADDQ BX, AX; ADDQ BX, AX; ADDQ BX, AX; ADDQ BX, AX

// func freqChain(iterations, step uint64) uint64
TEXT ·freqChain(SB), NOSPLIT, $0-24
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
