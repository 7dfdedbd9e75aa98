//go:build amd64 && !purego

#include "textflag.h"

// func gemm6x16StridedAVX512(k int, x *float32, rs, ks int, b, c *float32, ldc int, add int)
// The 6×16 GEMM tile on ZMM registers: a packed weight row of 16 floats is
// one register, and each x value multiplies it by an FMA with an embedded
// broadcast. x value (i, k) is at x + i·rs + k·ks bytes: rs 4 and ks 24 for
// a packed x panel, rs a row's stride and ks 4 for x rows read in place
// (kernels.gemmRows), the same multiply-adds in the same order either way.
// Even and odd k steps go to separate accumulators (12 in all, for the FMA
// latency), added at the end.
TEXT ·gemm6x16StridedAVX512(SB), NOSPLIT, $0-64
	MOVQ k+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ rs+16(FP), R11
	MOVQ ks+24(FP), R13
	MOVQ b+32(FP), DI
	MOVQ c+40(FP), DX
	MOVQ ldc+48(FP), R8
	SHLQ $2, R8
	MOVQ add+56(FP), R9
	LEAQ (SI)(R11*2), R12
	ADDQ R11, R12          // rows 3-5 from R12
	LEAQ (SI)(R13*1), R14  // odd k steps from R14 and R15
	LEAQ (R12)(R13*1), R15
	SHLQ $1, R13           // two k steps
	// Fetch the C tile early: it is loaded or written only at the end.
	MOVQ DX, AX
	PREFETCHT0 (AX)
	ADDQ R8, AX
	PREFETCHT0 (AX)
	ADDQ R8, AX
	PREFETCHT0 (AX)
	ADDQ R8, AX
	PREFETCHT0 (AX)
	ADDQ R8, AX
	PREFETCHT0 (AX)
	ADDQ R8, AX
	PREFETCHT0 (AX)
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	VPXORD Z8, Z8, Z8
	VPXORD Z9, Z9, Z9
	VPXORD Z10, Z10, Z10
	VPXORD Z11, Z11, Z11
	MOVQ CX, R10
	SHRQ $1, R10
	JZ gs512_odd
gs512_loop:
	VMOVUPS (DI), Z12
	VMOVUPS 64(DI), Z13
	VFMADD231PS.BCST (SI), Z12, Z0
	VFMADD231PS.BCST (SI)(R11*1), Z12, Z1
	VFMADD231PS.BCST (SI)(R11*2), Z12, Z2
	VFMADD231PS.BCST (R12), Z12, Z3
	VFMADD231PS.BCST (R12)(R11*1), Z12, Z4
	VFMADD231PS.BCST (R12)(R11*2), Z12, Z5
	VFMADD231PS.BCST (R14), Z13, Z6
	VFMADD231PS.BCST (R14)(R11*1), Z13, Z7
	VFMADD231PS.BCST (R14)(R11*2), Z13, Z8
	VFMADD231PS.BCST (R15), Z13, Z9
	VFMADD231PS.BCST (R15)(R11*1), Z13, Z10
	VFMADD231PS.BCST (R15)(R11*2), Z13, Z11
	ADDQ R13, SI
	ADDQ R13, R12
	ADDQ R13, R14
	ADDQ R13, R15
	ADDQ $128, DI
	DECQ R10
	JNZ gs512_loop
gs512_odd:
	TESTQ $1, CX
	JZ gs512_sum
	VMOVUPS (DI), Z12
	VFMADD231PS.BCST (SI), Z12, Z0
	VFMADD231PS.BCST (SI)(R11*1), Z12, Z1
	VFMADD231PS.BCST (SI)(R11*2), Z12, Z2
	VFMADD231PS.BCST (R12), Z12, Z3
	VFMADD231PS.BCST (R12)(R11*1), Z12, Z4
	VFMADD231PS.BCST (R12)(R11*2), Z12, Z5
gs512_sum:
	VADDPS Z6, Z0, Z0
	VADDPS Z7, Z1, Z1
	VADDPS Z8, Z2, Z2
	VADDPS Z9, Z3, Z3
	VADDPS Z10, Z4, Z4
	VADDPS Z11, Z5, Z5
	TESTQ R9, R9
	JZ gs512_store
	VADDPS (DX), Z0, Z0
	VMOVUPS Z0, (DX)
	ADDQ R8, DX
	VADDPS (DX), Z1, Z1
	VMOVUPS Z1, (DX)
	ADDQ R8, DX
	VADDPS (DX), Z2, Z2
	VMOVUPS Z2, (DX)
	ADDQ R8, DX
	VADDPS (DX), Z3, Z3
	VMOVUPS Z3, (DX)
	ADDQ R8, DX
	VADDPS (DX), Z4, Z4
	VMOVUPS Z4, (DX)
	ADDQ R8, DX
	VADDPS (DX), Z5, Z5
	VMOVUPS Z5, (DX)
	VZEROUPPER
	RET
gs512_store:
	VMOVUPS Z0, (DX)
	ADDQ R8, DX
	VMOVUPS Z1, (DX)
	ADDQ R8, DX
	VMOVUPS Z2, (DX)
	ADDQ R8, DX
	VMOVUPS Z3, (DX)
	ADDQ R8, DX
	VMOVUPS Z4, (DX)
	ADDQ R8, DX
	VMOVUPS Z5, (DX)
	VZEROUPPER
	RET
