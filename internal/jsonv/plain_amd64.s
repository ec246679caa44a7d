//go:build amd64 && !purego

#include "textflag.h"

// func plainEnd(d []byte, i int) (end int, wide bool)
//
// Each block of 16 bytes is compared with a quote, a backslash and the
// control characters at once (PCMPEQB; x ≤ 0x1f as min(x, 0x1f) == x),
// and the masks' lowest bit is the stop. A block never starts past
// len(d)-16: the last one is the slice's last 16 bytes, its bytes before i
// shifted out of the masks. A slice shorter than 16 bytes is read a byte
// at a time. R9 is not zero when a byte before the stop is 0x80 or more.
TEXT ·plainEnd(SB), NOSPLIT, $0-41
	MOVQ d_base+0(FP), SI
	MOVQ d_len+8(FP), DX
	MOVQ i+24(FP), AX
	XORL R9, R9
	CMPQ DX, $16
	JB   bytes
	MOVOU quotes<>(SB), X1
	MOVOU backslashes<>(SB), X2
	MOVOU controls<>(SB), X3

block:
	LEAQ 16(AX), CX
	CMPQ CX, DX
	JA   last
	MOVOU (SI)(AX*1), X0
	MOVO X0, X4
	PCMPEQB X1, X4
	MOVO X0, X5
	PCMPEQB X2, X5
	POR   X5, X4
	MOVO X0, X5
	PMINUB X3, X5
	PCMPEQB X0, X5
	POR   X5, X4
	PMOVMSKB X4, BX
	PMOVMSKB X0, R8
	TESTL BX, BX
	JNZ   found
	ORL   R8, R9
	MOVQ  CX, AX
	JMP   block

found:
	// The high bits of the bytes before the stop: R8 & (1<<stop - 1).
	BSFL BX, CX
	MOVL $1, R10
	SHLL CX, R10
	DECL R10
	ANDL R10, R8
	ORL  R8, R9
	ADDQ CX, AX
	JMP  done

last:
	// Fewer than 16 bytes from i: the slice's last 16, of which the
	// first CX = i - (len-16) were read already.
	CMPQ AX, DX
	JAE  done
	LEAQ -16(DX), R11
	MOVQ AX, CX
	SUBQ R11, CX
	MOVOU (SI)(R11*1), X0
	MOVO X0, X4
	PCMPEQB X1, X4
	MOVO X0, X5
	PCMPEQB X2, X5
	POR   X5, X4
	MOVO X0, X5
	PMINUB X3, X5
	PCMPEQB X0, X5
	POR   X5, X4
	PMOVMSKB X4, BX
	PMOVMSKB X0, R8
	SHRL CX, BX
	SHRL CX, R8
	TESTL BX, BX
	JNZ   found
	ORL   R8, R9
	MOVQ  DX, AX
	JMP   done

bytes:
	CMPQ AX, DX
	JAE  done
	MOVBLZX (SI)(AX*1), BX
	CMPB BL, $0x22
	JEQ  done
	CMPB BL, $0x5c
	JEQ  done
	CMPB BL, $0x20
	JB   done
	SHRL $7, BX
	ORL  BX, R9
	INCQ AX
	JMP  bytes

done:
	MOVQ AX, end+32(FP)
	TESTL R9, R9
	SETNE wide+40(FP)
	RET

DATA quotes<>+0(SB)/8, $0x2222222222222222
DATA quotes<>+8(SB)/8, $0x2222222222222222
GLOBL quotes<>(SB), RODATA|NOPTR, $16
DATA backslashes<>+0(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA backslashes<>+8(SB)/8, $0x5c5c5c5c5c5c5c5c
GLOBL backslashes<>(SB), RODATA|NOPTR, $16
DATA controls<>+0(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA controls<>+8(SB)/8, $0x1f1f1f1f1f1f1f1f
GLOBL controls<>(SB), RODATA|NOPTR, $16
