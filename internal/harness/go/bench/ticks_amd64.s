#include "textflag.h"

// func tickBegin() uint64
TEXT ·tickBegin(SB), NOSPLIT, $0-8
	LFENCE
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	MOVQ AX, ret+0(FP)
	RET

// func tickEnd() uint64
TEXT ·tickEnd(SB), NOSPLIT, $0-8
	RDTSCP
	LFENCE
	SHLQ $32, DX
	ORQ  DX, AX
	MOVQ AX, ret+0(FP)
	RET
