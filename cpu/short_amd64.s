//go:build amd64 && !purego

#include "textflag.h"

// AVX2 kernels for short attention heads (kernels_amd64.go): the AVX2
// forms of dotF16x16AVX512, for CPUs without AVX-512.

// F16T8 transposes the 8 f16 elements at byte offset OFF of 8 rows (rows
// 0-3 at SI, SI+BX, SI+2·BX, SI+R10; rows 4-7 the same from R14) and
// converts them: afterwards element d of the 8 rows is Y(d) as floats.
// Three rounds of unpacks (words, dwords, qwords) within XMM registers;
// clobbers X0-X15.
#define F16T8(OFF) \
	VMOVDQU OFF(SI), X0 \
	VMOVDQU OFF(SI)(BX*1), X1 \
	VMOVDQU OFF(SI)(BX*2), X2 \
	VMOVDQU OFF(SI)(R10*1), X3 \
	VMOVDQU OFF(R14), X4 \
	VMOVDQU OFF(R14)(BX*1), X5 \
	VMOVDQU OFF(R14)(BX*2), X6 \
	VMOVDQU OFF(R14)(R10*1), X7 \
	VPUNPCKLWD X1, X0, X8 \
	VPUNPCKHWD X1, X0, X9 \
	VPUNPCKLWD X3, X2, X10 \
	VPUNPCKHWD X3, X2, X11 \
	VPUNPCKLWD X5, X4, X12 \
	VPUNPCKHWD X5, X4, X13 \
	VPUNPCKLWD X7, X6, X14 \
	VPUNPCKHWD X7, X6, X15 \
	VPUNPCKLDQ X10, X8, X0 \
	VPUNPCKHDQ X10, X8, X1 \
	VPUNPCKLDQ X14, X12, X2 \
	VPUNPCKHDQ X14, X12, X3 \
	VPUNPCKLDQ X11, X9, X4 \
	VPUNPCKHDQ X11, X9, X5 \
	VPUNPCKLDQ X15, X13, X6 \
	VPUNPCKHDQ X15, X13, X7 \
	VPUNPCKLQDQ X2, X0, X8 \
	VPUNPCKHQDQ X2, X0, X9 \
	VPUNPCKLQDQ X3, X1, X10 \
	VPUNPCKHQDQ X3, X1, X11 \
	VPUNPCKLQDQ X6, X4, X12 \
	VPUNPCKHQDQ X6, X4, X13 \
	VPUNPCKLQDQ X7, X5, X14 \
	VPUNPCKHQDQ X7, X5, X15 \
	VCVTPH2PS X8, Y0 \
	VCVTPH2PS X9, Y1 \
	VCVTPH2PS X10, Y2 \
	VCVTPH2PS X11, Y3 \
	VCVTPH2PS X12, Y4 \
	VCVTPH2PS X13, Y5 \
	VCVTPH2PS X14, Y6 \
	VCVTPH2PS X15, Y7

// SHORT_FMA2 adds the elements at byte offsets E and O of the column at
// AX times the transposed weights WE and WO into the even and odd sums Y8
// and Y9.
#define SHORT_FMA2(E, O, WE, WO) \
	VBROADCASTSS E(AX), Y12 \
	VBROADCASTSS O(AX), Y13 \
	VFMADD231PS WE, Y12, Y8 \
	VFMADD231PS WO, Y13, Y9

// func dotF16x16AVX2(w *byte, ldw int, xs **float32, n, k int, out *float32, ldo int, groups int)
// groups >= 1 groups of 8 f16 rows of k = 8 or 16 elements (w, ldw bytes
// apart) times the n >= 1 columns xs[c]: out[c*ldo+r] = Σ_d row r[d]·xs[c][d].
// A group's rows are transposed once (element d of the 8 rows in one
// register, or for k = 16 elements 8-15 in the frame), so a column costs k
// broadcast multiply-adds and one store. The even and the odd elements
// are summed apart, then added, as dotF16x16AVX512 sums them.
TEXT ·dotF16x16AVX2(SB), NOSPLIT, $256-64
	MOVQ w+0(FP), SI
	MOVQ ldw+8(FP), BX
	MOVQ k+32(FP), DX
	MOVQ out+40(FP), DI
	MOVQ ldo+48(FP), R9
	SHLQ $2, R9
	MOVQ groups+56(FP), R12
	LEAQ (BX)(BX*2), R10
short_group:
	LEAQ (SI)(BX*4), R14
	CMPQ DX, $16
	JNE short_low
	// Elements 8-15 first, parked in the frame.
	F16T8(16)
	VMOVUPS Y0, 0(SP)
	VMOVUPS Y1, 32(SP)
	VMOVUPS Y2, 64(SP)
	VMOVUPS Y3, 96(SP)
	VMOVUPS Y4, 128(SP)
	VMOVUPS Y5, 160(SP)
	VMOVUPS Y6, 192(SP)
	VMOVUPS Y7, 224(SP)
short_low:
	F16T8(0)
	MOVQ xs+16(FP), R13
	MOVQ n+24(FP), CX
	MOVQ DI, R11
short_col:
	MOVQ (R13), AX
	VBROADCASTSS 0(AX), Y12
	VBROADCASTSS 4(AX), Y13
	VMULPS Y12, Y0, Y8
	VMULPS Y13, Y1, Y9
	SHORT_FMA2(8, 12, Y2, Y3)
	SHORT_FMA2(16, 20, Y4, Y5)
	SHORT_FMA2(24, 28, Y6, Y7)
	CMPQ DX, $16
	JNE short_store
	SHORT_FMA2(32, 36, 0(SP), 32(SP))
	SHORT_FMA2(40, 44, 64(SP), 96(SP))
	SHORT_FMA2(48, 52, 128(SP), 160(SP))
	SHORT_FMA2(56, 60, 192(SP), 224(SP))
short_store:
	VADDPS Y9, Y8, Y8
	VMOVUPS Y8, (R11)
	ADDQ R9, R11
	ADDQ $8, R13
	DECQ CX
	JNZ short_col
	ADDQ $32, DI
	LEAQ (SI)(BX*8), SI
	DECQ R12
	JNZ short_group
	VZEROUPPER
	RET
