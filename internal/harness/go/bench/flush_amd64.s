#include "textflag.h"

// func flushLines(addr, n uintptr)
// CLFLUSH of each 64-byte line of [addr, addr+n), n a positive multiple of
// 64, then MFENCE (flush.go).
TEXT ·flushLines(SB), NOSPLIT, $0-16
	MOVQ addr+0(FP), AX
	MOVQ n+8(FP), CX
loop:
	CLFLUSH (AX)
	ADDQ $64, AX
	SUBQ $64, CX
	JNZ  loop
	MFENCE
	RET
