#include "textflag.h"

// func tickBegin() uint64
TEXT ·tickBegin(SB), NOSPLIT, $0-8
	ISB  $15
	MRS  CNTVCT_EL0, R0
	MOVD R0, ret+0(FP)
	RET

// func tickFreq() uint64
TEXT ·tickFreq(SB), NOSPLIT, $0-8
	MRS  CNTFRQ_EL0, R0
	MOVD R0, ret+0(FP)
	RET
