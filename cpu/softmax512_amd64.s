//go:build amd64 && !purego

#include "textflag.h"

// AVX-512 exponentials: the AVX2 EXP of kernels_amd64.s (Cephes' expf:
// clamp, split off n = floor(x·log2e + 1/2), a degree-5 polynomial on the
// rest, scale by 2^n; inputs below the low clamp, -inf and NaN give 0) on
// 16 lanes. EXPCONST broadcasts its constants: Z16 the high clamp, Z17
// the low one, Z18 log2e, Z19 1/2 (also p5), Z20-Z21 ln 2 in two parts,
// Z22-Z26 p0-p4, Z27 1.0 and Z28 the exponent bias.

#define EXPCONST \
	MOVL $0x42b17218, AX; VPBROADCASTD AX, Z16 \
	MOVL $0xc2aeac50, AX; VPBROADCASTD AX, Z17 \
	MOVL $0x3fb8aa3b, AX; VPBROADCASTD AX, Z18 \
	MOVL $0x3f000000, AX; VPBROADCASTD AX, Z19 \
	MOVL $0x3f318000, AX; VPBROADCASTD AX, Z20 \
	MOVL $0xb95e8083, AX; VPBROADCASTD AX, Z21 \
	MOVL $0x39506967, AX; VPBROADCASTD AX, Z22 \
	MOVL $0x3ab743ce, AX; VPBROADCASTD AX, Z23 \
	MOVL $0x3c088908, AX; VPBROADCASTD AX, Z24 \
	MOVL $0x3d2aa9c1, AX; VPBROADCASTD AX, Z25 \
	MOVL $0x3e2aaaaa, AX; VPBROADCASTD AX, Z26 \
	MOVL $0x3f800000, AX; VPBROADCASTD AX, Z27 \
	MOVL $0x0000007f, AX; VPBROADCASTD AX, Z28

// EXP512 sets X = exp(X); T1, T2 are scratch, K is a scratch mask.
#define EXP512(X, T1, T2, K) \
	VCMPPS $0x1d, Z17, X, K \
	VMINPS Z16, X, X \
	VMAXPS Z17, X, X \
	VMOVAPS Z19, T1 \
	VFMADD231PS Z18, X, T1 \
	VRNDSCALEPS $1, T1, T1 \
	VFNMADD231PS Z20, T1, X \
	VFNMADD231PS Z21, T1, X \
	VMOVAPS Z22, T2 \
	VFMADD213PS Z23, X, T2 \
	VFMADD213PS Z24, X, T2 \
	VFMADD213PS Z25, X, T2 \
	VFMADD213PS Z26, X, T2 \
	VFMADD213PS Z19, X, T2 \
	VMULPS X, T2, T2 \
	VFMADD213PS X, X, T2 \
	VADDPS Z27, T2, T2 \
	VCVTTPS2DQ T1, T1 \
	VPADDD Z28, T1, T1 \
	VPSLLD $23, T1, T1 \
	VMULPS.Z T1, T2, K, X

// TAILMASK sets K to the low CX (< 16) lanes.
#define TAILMASK(K) \
	MOVL $1, AX \
	SHLL CX, AX \
	DECL AX \
	KMOVW AX, K

// func softMaxRowAVX512(out, x, mask *float32, n int, scale float32) float32
// out = exp(v - max v) / Σ, v = x·scale + mask (mask nil: none), over n > 0
// elements; returns Σ, 0 when every v is -inf (out is then undefined).
TEXT ·softMaxRowAVX512(SB), NOSPLIT, $0-44
	MOVQ out+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ mask+16(FP), DX
	MOVQ n+24(FP), BX
	VBROADCASTSS scale+32(FP), Z15
	MOVL $0xff800000, AX
	VPBROADCASTD AX, Z14 // running max, from -inf
	XORQ R8, R8          // element index

	// Pass 1: out = x·scale + mask; track the max.
sm_v:
	MOVQ BX, CX
	SUBQ R8, CX
	JLE sm_vdone
	KXNORW K1, K1, K1
	CMPQ CX, $16
	JGE sm_vfull
	TAILMASK(K1)
sm_vfull:
	VMOVUPS.Z (SI)(R8*4), K1, Z0
	VMULPS Z15, Z0, Z0
	TESTQ DX, DX
	JZ sm_vnomask
	VMOVUPS.Z (DX)(R8*4), K1, Z1
	VADDPS Z1, Z0, Z0
sm_vnomask:
	VMOVUPS Z0, K1, (DI)(R8*4)
	VMAXPS Z0, Z14, K1, Z14
	ADDQ $16, R8
	JMP sm_v
sm_vdone:
	// Horizontal max into every lane of Z14.
	VSHUFF32X4 $0x4e, Z14, Z14, Z0
	VMAXPS Z0, Z14, Z14
	VSHUFF32X4 $0xb1, Z14, Z14, Z0
	VMAXPS Z0, Z14, Z14
	VSHUFPS $0x4e, Z14, Z14, Z0
	VMAXPS Z0, Z14, Z14
	VSHUFPS $0xb1, Z14, Z14, Z0
	VMAXPS Z0, Z14, Z14
	VXORPS X13, X13, X13
	// A max of -inf: every element is masked.
	VMOVD X14, AX
	CMPL AX, $0xff800000
	JEQ sm_zero

	EXPCONST
	VPXORD Z13, Z13, Z13 // sum
	XORQ R8, R8
	// Pass 2: out = exp(out - max); sum.
sm_e:
	MOVQ BX, CX
	SUBQ R8, CX
	JLE sm_edone
	KXNORW K1, K1, K1
	CMPQ CX, $16
	JGE sm_efull
	TAILMASK(K1)
sm_efull:
	VMOVUPS.Z (DI)(R8*4), K1, Z0
	VSUBPS Z14, Z0, Z0
	EXP512(Z0, Z1, Z2, K2)
	VMOVUPS Z0, K1, (DI)(R8*4)
	VADDPS Z0, Z13, K1, Z13
	ADDQ $16, R8
	JMP sm_e
sm_edone:
	VEXTRACTF32X8 $1, Z13, Y0
	VADDPS Y0, Y13, Y13
	VEXTRACTF128 $1, Y13, X0
	VADDPS X0, X13, X13
	VHADDPS X13, X13, X13
	VHADDPS X13, X13, X13
	// Pass 3: out /= sum.
	VDIVSS X13, X27, X1
	VBROADCASTSS X1, Z1
	XORQ R8, R8
sm_s:
	MOVQ BX, CX
	SUBQ R8, CX
	JLE sm_zero
	KXNORW K1, K1, K1
	CMPQ CX, $16
	JGE sm_sfull
	TAILMASK(K1)
sm_sfull:
	VMOVUPS.Z (DI)(R8*4), K1, Z0
	VMULPS Z1, Z0, Z0
	VMOVUPS Z0, K1, (DI)(R8*4)
	ADDQ $16, R8
	JMP sm_s
sm_zero:
	VMOVSS X13, ret+40(FP)
	VZEROUPPER
	RET

// func expSubAVX512(dst, x *float32, n int, m float32) float32
// dst = exp(x - m) over n elements; returns the sum of dst.
TEXT ·expSubAVX512(SB), NOSPLIT, $0-36
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), BX
	VBROADCASTSS m+24(FP), Z15
	EXPCONST
	VPXORD Z13, Z13, Z13
	XORQ R8, R8
es_loop:
	MOVQ BX, CX
	SUBQ R8, CX
	JLE es_done
	KXNORW K1, K1, K1
	CMPQ CX, $16
	JGE es_full
	TAILMASK(K1)
es_full:
	VMOVUPS.Z (SI)(R8*4), K1, Z0
	VSUBPS Z15, Z0, Z0
	EXP512(Z0, Z1, Z2, K2)
	VMOVUPS Z0, K1, (DI)(R8*4)
	VADDPS Z0, Z13, K1, Z13
	ADDQ $16, R8
	JMP es_loop
es_done:
	VEXTRACTF32X8 $1, Z13, Y0
	VADDPS Y0, Y13, Y13
	VEXTRACTF128 $1, Y13, X0
	VADDPS X0, X13, X13
	VHADDPS X13, X13, X13
	VHADDPS X13, X13, X13
	VMOVSS X13, ret+32(FP)
	VZEROUPPER
	RET

// func softMaxRows2AVX512(out0, x0, m0, out1, x1, m1 *float32, n int, scale float32) (sum0, sum1 float32)
// softMaxRowAVX512 on two rows of n > 0 elements at once, the same
// operations on each (so the same bits): their dependency chains (the
// max, the exponentials, the sum, the division) overlap. A row whose
// every v is -inf gets a sum of 0 (its exponentials of NaN are 0) and an
// undefined out, as softMaxRowAVX512 returns it.
TEXT ·softMaxRows2AVX512(SB), NOSPLIT, $0-72
	MOVQ out0+0(FP), DI
	MOVQ x0+8(FP), SI
	MOVQ m0+16(FP), DX
	MOVQ out1+24(FP), R9
	MOVQ x1+32(FP), R10
	MOVQ m1+40(FP), R11
	MOVQ n+48(FP), BX
	VBROADCASTSS scale+56(FP), Z15
	MOVL $0xff800000, AX
	VPBROADCASTD AX, Z14 // row 0's running max, from -inf
	VPBROADCASTD AX, Z12 // row 1's
	XORQ R8, R8

	// Pass 1: out = x·scale + mask; track the max.
sm2_v:
	MOVQ BX, CX
	SUBQ R8, CX
	JLE sm2_vdone
	KXNORW K1, K1, K1
	CMPQ CX, $16
	JGE sm2_vfull
	TAILMASK(K1)
sm2_vfull:
	VMOVUPS.Z (SI)(R8*4), K1, Z0
	VMOVUPS.Z (R10)(R8*4), K1, Z3
	VMULPS Z15, Z0, Z0
	VMULPS Z15, Z3, Z3
	TESTQ DX, DX
	JZ sm2_vnomask0
	VMOVUPS.Z (DX)(R8*4), K1, Z1
	VADDPS Z1, Z0, Z0
sm2_vnomask0:
	TESTQ R11, R11
	JZ sm2_vnomask1
	VMOVUPS.Z (R11)(R8*4), K1, Z4
	VADDPS Z4, Z3, Z3
sm2_vnomask1:
	VMOVUPS Z0, K1, (DI)(R8*4)
	VMOVUPS Z3, K1, (R9)(R8*4)
	VMAXPS Z0, Z14, K1, Z14
	VMAXPS Z3, Z12, K1, Z12
	ADDQ $16, R8
	JMP sm2_v
sm2_vdone:
	// Horizontal maxima into every lane of Z14 and Z12.
	VSHUFF32X4 $0x4e, Z14, Z14, Z0
	VSHUFF32X4 $0x4e, Z12, Z12, Z3
	VMAXPS Z0, Z14, Z14
	VMAXPS Z3, Z12, Z12
	VSHUFF32X4 $0xb1, Z14, Z14, Z0
	VSHUFF32X4 $0xb1, Z12, Z12, Z3
	VMAXPS Z0, Z14, Z14
	VMAXPS Z3, Z12, Z12
	VSHUFPS $0x4e, Z14, Z14, Z0
	VSHUFPS $0x4e, Z12, Z12, Z3
	VMAXPS Z0, Z14, Z14
	VMAXPS Z3, Z12, Z12
	VSHUFPS $0xb1, Z14, Z14, Z0
	VSHUFPS $0xb1, Z12, Z12, Z3
	VMAXPS Z0, Z14, Z14
	VMAXPS Z3, Z12, Z12

	EXPCONST
	VPXORD Z13, Z13, Z13 // row 0's sum
	VPXORD Z11, Z11, Z11 // row 1's
	XORQ R8, R8
	// Pass 2: out = exp(out - max); sum.
sm2_e:
	MOVQ BX, CX
	SUBQ R8, CX
	JLE sm2_edone
	KXNORW K1, K1, K1
	CMPQ CX, $16
	JGE sm2_efull
	TAILMASK(K1)
sm2_efull:
	VMOVUPS.Z (DI)(R8*4), K1, Z0
	VMOVUPS.Z (R9)(R8*4), K1, Z3
	VSUBPS Z14, Z0, Z0
	VSUBPS Z12, Z3, Z3
	EXP512(Z0, Z1, Z2, K2)
	EXP512(Z3, Z4, Z5, K3)
	VMOVUPS Z0, K1, (DI)(R8*4)
	VMOVUPS Z3, K1, (R9)(R8*4)
	VADDPS Z0, Z13, K1, Z13
	VADDPS Z3, Z11, K1, Z11
	ADDQ $16, R8
	JMP sm2_e
sm2_edone:
	VEXTRACTF32X8 $1, Z13, Y0
	VEXTRACTF32X8 $1, Z11, Y3
	VADDPS Y0, Y13, Y13
	VADDPS Y3, Y11, Y11
	VEXTRACTF128 $1, Y13, X0
	VEXTRACTF128 $1, Y11, X3
	VADDPS X0, X13, X13
	VADDPS X3, X11, X11
	VHADDPS X13, X13, X13
	VHADDPS X11, X11, X11
	VHADDPS X13, X13, X13
	VHADDPS X11, X11, X11
	// Pass 3: out /= sum.
	VDIVSS X13, X27, X1
	VDIVSS X11, X27, X4
	VBROADCASTSS X1, Z1
	VBROADCASTSS X4, Z4
	XORQ R8, R8
sm2_s:
	MOVQ BX, CX
	SUBQ R8, CX
	JLE sm2_done
	KXNORW K1, K1, K1
	CMPQ CX, $16
	JGE sm2_sfull
	TAILMASK(K1)
sm2_sfull:
	VMOVUPS.Z (DI)(R8*4), K1, Z0
	VMOVUPS.Z (R9)(R8*4), K1, Z3
	VMULPS Z1, Z0, Z0
	VMULPS Z4, Z3, Z3
	VMOVUPS Z0, K1, (DI)(R8*4)
	VMOVUPS Z3, K1, (R9)(R8*4)
	ADDQ $16, R8
	JMP sm2_s
sm2_done:
	VMOVSS X13, sum0+64(FP)
	VMOVSS X11, sum1+68(FP)
	VZEROUPPER
	RET
