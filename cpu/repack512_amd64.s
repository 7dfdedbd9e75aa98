//go:build amd64 && !purego

#include "textflag.h"

DATA r8NibMask<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL r8NibMask<>(SB), RODATA|NOPTR, $8

// func dotQ4R8AVX512(p *byte, qs *int8, qd *float32, neg *int32, nb int, out *float32)
// dotQ4R8SIMD on AVX-512 VNNI: a block's 8 rows are two ZMM loads, bytes
// 0-7 and 8-15 of every row; VPDPBUSD multiplies their nibbles with the
// block's activations and sums them into two dwords a row, in row order.
// nb >= 1.
TEXT ·dotQ4R8AVX512(SB), NOSPLIT, $0-48
	MOVQ p+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ qd+16(FP), DX
	MOVQ neg+24(FP), R11
	MOVQ nb+32(FP), CX
	MOVQ out+40(FP), R9
	VPBROADCASTQ r8NibMask<>(SB), Z15
	VXORPS Y0, Y0, Y0

r8z_loop:
	VPBROADCASTQ 0(DI), Z9
	VPBROADCASTQ 8(DI), Z10
	VPBROADCASTQ 16(DI), Z11
	VPBROADCASTQ 24(DI), Z12
	VMOVDQU64 16(SI), Z4
	VPSRLW $4, Z4, Z5
	VPANDQ Z15, Z4, Z4
	VPANDQ Z15, Z5, Z5
	VMOVDQU64 80(SI), Z6
	VPSRLW $4, Z6, Z7
	VPANDQ Z15, Z6, Z6
	VPANDQ Z15, Z7, Z7
	VPXORD Z8, Z8, Z8
	VPDPBUSD Z9, Z4, Z8
	VPDPBUSD Z11, Z5, Z8
	VPDPBUSD Z10, Z6, Z8
	VPDPBUSD Z12, Z7, Z8
	// Row r's two dwords are 2r and 2r+1: add them, keep one a row.
	VPSRLQ $32, Z8, Z9
	VPADDD Z9, Z8, Z8
	VPMOVQD Z8, Y8
	// Into the scales' order (r0 r1 r4 r5 r2 r3 r6 r7).
	VPERMQ $0xD8, Y8, Y8
	VPBROADCASTD (R11), Y1
	VPSLLD $3, Y1, Y1
	VPADDD Y1, Y8, Y8
	VCVTDQ2PS Y8, Y8
	VCVTPH2PS (SI), Y2
	VBROADCASTSS (DX), Y3
	VMULPS Y3, Y2, Y2
	VFMADD231PS Y8, Y2, Y0
	ADDQ $144, SI
	ADDQ $32, DI
	ADDQ $4, DX
	ADDQ $4, R11
	DECQ CX
	JNZ r8z_loop

	VPERMQ $0xD8, Y0, Y0
	VMOVUPS Y0, (R9)
	VZEROUPPER
	RET
