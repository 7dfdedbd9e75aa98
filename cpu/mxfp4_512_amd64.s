//go:build amd64 && !purego

#include "textflag.h"

// MXSCALE sets R the bits of the E8M0 byte at P halved as a float32:
// (e-1)<<23, or (e+1)<<21 for e < 2 (the subnormal halves), as
// dotMXFP4SIMD does.
#define MXSCALE(P, R) \
	MOVBLZX P, R8 \
	LEAL -1(R8), R \
	SHLL $23, R \
	LEAL 1(R8), R10 \
	SHLL $21, R10 \
	CMPL R8, $2 \
	CMOVLCS R10, R

DATA kmx_lvl<>+0(SB)/8, $0x8c88868483828180
DATA kmx_lvl<>+8(SB)/8, $0x74787a7c7d7e7f80
DATA kmx_lvl<>+16(SB)/8, $0x8c88868483828180
DATA kmx_lvl<>+24(SB)/8, $0x74787a7c7d7e7f80
DATA kmx_lvl<>+32(SB)/8, $0x8c88868483828180
DATA kmx_lvl<>+40(SB)/8, $0x74787a7c7d7e7f80
DATA kmx_lvl<>+48(SB)/8, $0x8c88868483828180
DATA kmx_lvl<>+56(SB)/8, $0x74787a7c7d7e7f80
GLOBL kmx_lvl<>(SB), RODATA|NOPTR, $64

DATA kmx_nibshift<>+0(SB)/8, $0x0000000000000000
DATA kmx_nibshift<>+8(SB)/8, $0x0000000000000000
DATA kmx_nibshift<>+16(SB)/8, $0x0004000400040004
DATA kmx_nibshift<>+24(SB)/8, $0x0004000400040004
DATA kmx_nibshift<>+32(SB)/8, $0x0000000000000000
DATA kmx_nibshift<>+40(SB)/8, $0x0000000000000000
DATA kmx_nibshift<>+48(SB)/8, $0x0004000400040004
DATA kmx_nibshift<>+56(SB)/8, $0x0004000400040004
GLOBL kmx_nibshift<>(SB), RODATA|NOPTR, $64
DATA kmx_dperm<>+0(SB)/8, $0x0000000200000000
DATA kmx_dperm<>+8(SB)/8, $0x0000000600000004
DATA kmx_dperm<>+16(SB)/8, $0x0000000300000001
DATA kmx_dperm<>+24(SB)/8, $0x0000000700000005
DATA kmx_dperm<>+32(SB)/8, $0x0000000000000000
DATA kmx_dperm<>+40(SB)/8, $0x0000000000000000
DATA kmx_dperm<>+48(SB)/8, $0x0000000000000000
DATA kmx_dperm<>+56(SB)/8, $0x0000000000000000
DATA kmx_dperm<>+64(SB)/8, $0x0000000000000000
DATA kmx_dperm<>+72(SB)/8, $0x0000000000000000
DATA kmx_dperm<>+80(SB)/8, $0x0000000000000000
DATA kmx_dperm<>+88(SB)/8, $0x0000000000000000
DATA kmx_dperm<>+96(SB)/8, $0x0000000100000001
DATA kmx_dperm<>+104(SB)/8, $0x0000000100000001
DATA kmx_dperm<>+112(SB)/8, $0x0000000100000001
DATA kmx_dperm<>+120(SB)/8, $0x0000000100000001
DATA kmx_dperm<>+128(SB)/8, $0x0000000200000002
DATA kmx_dperm<>+136(SB)/8, $0x0000000200000002
DATA kmx_dperm<>+144(SB)/8, $0x0000000200000002
DATA kmx_dperm<>+152(SB)/8, $0x0000000200000002
DATA kmx_dperm<>+160(SB)/8, $0x0000000300000003
DATA kmx_dperm<>+168(SB)/8, $0x0000000300000003
DATA kmx_dperm<>+176(SB)/8, $0x0000000300000003
DATA kmx_dperm<>+184(SB)/8, $0x0000000300000003
GLOBL kmx_dperm<>(SB), RODATA|NOPTR, $192


// func dotMXFP4AVX512(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32
// dotIQ4NLAVX512 for MXFP4: 17-byte blocks, the E2M1 levels (doubled, plus
// 128) by VPSHUFB, and the E8M0 scales halved as ggml's
// GGML_E8M0_TO_FP32_HALF, built in integer registers. A second VPDPBUSD
// of 128s takes the +128 back out of each lane exactly (neg is unused).
TEXT ·dotMXFP4AVX512(SB), NOSPLIT, $0-44
	MOVQ w+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ qd+16(FP), DX
	MOVQ nb+32(FP), CX
	VPXORD Z0, Z0, Z0
	VXORPS X1, X1, X1
	VXORPS X2, X2, X2
	MOVL $0x0f0f0f0f, AX
	VPBROADCASTD AX, Z14
	MOVL $0x80808080, AX
	VPBROADCASTD AX, Z28
	VMOVDQU64 kmx_nibshift<>(SB), Z13
	VMOVDQU64 kmx_lvl<>(SB), Z30
	VMOVDQU64 kmx_dperm<>+64(SB), Z21
	VMOVDQU64 kmx_dperm<>+128(SB), Z22
	SUBQ $4, CX
	JB mxfp4x_tail
mxfp4x_four:
	MXSCALE(0(SI), R9)
	VMOVD R9, X8
	MXSCALE(17(SI), R9)
	VPINSRD $1, R9, X8, X8
	MXSCALE(34(SI), R9)
	VPINSRD $2, R9, X8, X8
	MXSCALE(51(SI), R9)
	VPINSRD $3, R9, X8, X8
	VBROADCASTF128 (DX), Y9
	VMULPS Y9, Y8, Y8
	VPERMPS Z8, Z21, Z10
	VPERMPS Z8, Z22, Z11
	VMOVDQU 1(SI), X4
	VINSERTI128 $1, 18(SI), Y4, Y4
	VSHUFI64X2 $0x50, Z4, Z4, Z4
	VPSRLVW Z13, Z4, Z4
	VPANDD Z14, Z4, Z4
	VPSHUFB Z4, Z30, Z4
	VPXORD Z5, Z5, Z5
	VPDPBUSD 0(DI), Z4, Z5
	// Take the levels' +128 back out lane by lane, exactly: each lane
	// then holds the plain sum of its 4 products, as the AVX2 kernel's do.
	VPXORD Z6, Z6, Z6
	VPDPBUSD 0(DI), Z28, Z6
	VPSUBD Z6, Z5, Z5
	VCVTDQ2PS Z5, Z5
	VFMADD231PS Z5, Z10, Z0
	VMOVDQU 35(SI), X4
	VINSERTI128 $1, 52(SI), Y4, Y4
	VSHUFI64X2 $0x50, Z4, Z4, Z4
	VPSRLVW Z13, Z4, Z4
	VPANDD Z14, Z4, Z4
	VPSHUFB Z4, Z30, Z4
	VPXORD Z5, Z5, Z5
	VPDPBUSD 64(DI), Z4, Z5
	// Take the levels' +128 back out lane by lane, exactly: each lane
	// then holds the plain sum of its 4 products, as the AVX2 kernel's do.
	VPXORD Z6, Z6, Z6
	VPDPBUSD 64(DI), Z28, Z6
	VPSUBD Z6, Z5, Z5
	VCVTDQ2PS Z5, Z5
	VFMADD231PS Z5, Z11, Z0
	ADDQ $68, SI
	ADDQ $128, DI
	ADDQ $16, DX
	SUBQ $4, CX
	JAE mxfp4x_four
mxfp4x_tail:
	ADDQ $4, CX
	JZ mxfp4x_done
mxfp4x_one:
	VMOVDQU 1(SI), X4
	VPSRLW $4, X4, X5
	VINSERTI128 $1, X5, Y4, Y4
	VPAND Y14, Y4, Y4
	VPSHUFB Y4, Y30, Y4
	VPXORD Y5, Y5, Y5
	VPDPBUSD (DI), Y4, Y5
	VPXORD Y6, Y6, Y6
	VPDPBUSD (DI), Y28, Y6
	VPSUBD Y6, Y5, Y5
	VCVTDQ2PS Y5, Y5
	MXSCALE(0(SI), R9)
	VMOVD R9, X6
	VMULSS (DX), X6, X6
	VBROADCASTSS X6, Y7
	VFMADD231PS Y5, Y7, Y2
	ADDQ $17, SI
	ADDQ $32, DI
	ADDQ $4, DX
	DECQ CX
	JNZ mxfp4x_one
mxfp4x_done:
	VEXTRACTF64X4 $1, Z0, Y3
	VADDPS Y3, Y0, Y0
	VADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X3
	VADDPS X3, X0, X0
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VMOVSS X0, ret+40(FP)
	VZEROUPPER
	RET
