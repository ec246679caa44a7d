//go:build amd64 && !purego

#include "textflag.h"

// func asciiBlocks(b []byte) int
//
// The high bits of 128 bytes at a time (then of 64) are ORed (POR) and
// taken at once (PMOVMSKB); at the first block with a byte of 0x80 or
// more, or when fewer than 64 bytes are left, it returns how many bytes
// it read.
TEXT ·asciiBlocks(SB), NOSPLIT, $0-32
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), DX
	XORQ AX, AX

block128:
	LEAQ 128(AX), CX
	CMPQ CX, DX
	JA   block64
	MOVOU 0(SI)(AX*1), X0
	MOVOU 16(SI)(AX*1), X1
	MOVOU 32(SI)(AX*1), X2
	MOVOU 48(SI)(AX*1), X3
	MOVOU 64(SI)(AX*1), X4
	MOVOU 80(SI)(AX*1), X5
	MOVOU 96(SI)(AX*1), X6
	MOVOU 112(SI)(AX*1), X7
	POR   X1, X0
	POR   X3, X2
	POR   X5, X4
	POR   X7, X6
	POR   X2, X0
	POR   X6, X4
	POR   X4, X0
	PMOVMSKB X0, BX
	TESTL BX, BX
	JNZ   block64
	MOVQ  CX, AX
	JMP   block128

block64:
	// The block of 128 with a wide byte, or the last bytes: its first
	// half, when it is all there.
	LEAQ 64(AX), CX
	CMPQ CX, DX
	JA   done
	MOVOU 0(SI)(AX*1), X0
	MOVOU 16(SI)(AX*1), X1
	MOVOU 32(SI)(AX*1), X2
	MOVOU 48(SI)(AX*1), X3
	POR   X1, X0
	POR   X3, X2
	POR   X2, X0
	PMOVMSKB X0, BX
	TESTL BX, BX
	JNZ   done
	MOVQ  CX, AX

done:
	MOVQ AX, ret+24(FP)
	RET

