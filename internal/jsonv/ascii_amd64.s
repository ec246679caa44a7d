//go:build amd64 && !purego

#include "textflag.h"

// func asciiBlocks(b []byte) int
//
// The high bits of 128 bytes at a time (then of 64) are ORed (POR) and
// taken at once (PMOVMSKB); at the first block with a byte of 0x80 or
// more, or when fewer than 64 bytes are left, it returns how many bytes
// it read.
//
// Where the CPU and the OS have AVX2 (useAVX2), 256 bytes at a time
// first, in eight 32-byte loads ORed (VPOR) and taken at once
// (VPMOVMSKB); the block with a wide byte, and the last bytes, then go
// the SSE2 way.
TEXT ·asciiBlocks(SB), NOSPLIT, $0-32
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), DX
	XORQ AX, AX
	CMPB ·useAVX2(SB), $0
	JEQ  block128

block256:
	LEAQ 256(AX), CX
	CMPQ CX, DX
	JA   avx2done
	VMOVDQU 0(SI)(AX*1), Y0
	VMOVDQU 32(SI)(AX*1), Y1
	VMOVDQU 64(SI)(AX*1), Y2
	VMOVDQU 96(SI)(AX*1), Y3
	VPOR  128(SI)(AX*1), Y0, Y0
	VPOR  160(SI)(AX*1), Y1, Y1
	VPOR  192(SI)(AX*1), Y2, Y2
	VPOR  224(SI)(AX*1), Y3, Y3
	VPOR  Y1, Y0, Y0
	VPOR  Y3, Y2, Y2
	VPOR  Y2, Y0, Y0
	VPMOVMSKB Y0, BX
	TESTL BX, BX
	JNZ   avx2done
	MOVQ  CX, AX
	JMP   block256

avx2done:
	VZEROUPPER

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


// func hasAVX2() bool
//
// CPUID says whether the CPU has AVX2 (leaf 7, EBX bit 5) and AVX with
// OSXSAVE (leaf 1, ECX bits 28 and 27), and XGETBV whether the OS saves
// the YMM registers (XCR0 bits 1 and 2).
TEXT ·hasAVX2(SB), NOSPLIT, $0-1
	XORL AX, AX
	XORL CX, CX
	CPUID
	CMPL AX, $7
	JB   no
	MOVL $1, AX
	XORL CX, CX
	CPUID
	ANDL $0x18000000, CX
	CMPL CX, $0x18000000
	JNE  no
	XORL CX, CX
	XGETBV
	ANDL $6, AX
	CMPL AX, $6
	JNE  no
	MOVL $7, AX
	XORL CX, CX
	CPUID
	BTL  $5, BX
	JCC  no
	MOVB $1, ret+0(FP)
	RET

no:
	MOVB $0, ret+0(FP)
	RET
