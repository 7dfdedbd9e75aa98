//go:build amd64 && !purego

#include "textflag.h"

// AVX-512 kernels for the K-quant and legacy weight types (kquants.go),
// chosen over the AVX2 ones (kquants_amd64.s) where the CPU has AVX-512
// F/BW/VL and VNNI (kernels512_amd64.go). Each ZMM load takes 64 bytes of
// weight quants, twice an AVX2 step. Quants are unpacked to unsigned bytes
// and multiplied with the signed Q8 activations by VPMADDUBSW into int16
// pairs; VPDPWSSD (AVX512_VNNI) then weights the pairs by their sub-block
// scales and adds them to the int32 sums in one instruction, where AVX2
// needs VPMADDWD and VPADDD. Offsets (the mins) go through the
// activations' block sums as in the AVX2 kernels. Go's operand order is
// reversed from Intel's: the destination is last.

// k5_scidx entry p (64 bytes) is a VPERMW index of 16 words 2p and 16
// words 2p+1: it spreads the int16 scales of sub-blocks 2p and 2p+1 over
// the two 256-bit halves of a ZMM register.
DATA k5_scidx<>+0(SB)/8, $0x0000000000000000
DATA k5_scidx<>+8(SB)/8, $0x0000000000000000
DATA k5_scidx<>+16(SB)/8, $0x0000000000000000
DATA k5_scidx<>+24(SB)/8, $0x0000000000000000
DATA k5_scidx<>+32(SB)/8, $0x0001000100010001
DATA k5_scidx<>+40(SB)/8, $0x0001000100010001
DATA k5_scidx<>+48(SB)/8, $0x0001000100010001
DATA k5_scidx<>+56(SB)/8, $0x0001000100010001
DATA k5_scidx<>+64(SB)/8, $0x0002000200020002
DATA k5_scidx<>+72(SB)/8, $0x0002000200020002
DATA k5_scidx<>+80(SB)/8, $0x0002000200020002
DATA k5_scidx<>+88(SB)/8, $0x0002000200020002
DATA k5_scidx<>+96(SB)/8, $0x0003000300030003
DATA k5_scidx<>+104(SB)/8, $0x0003000300030003
DATA k5_scidx<>+112(SB)/8, $0x0003000300030003
DATA k5_scidx<>+120(SB)/8, $0x0003000300030003
DATA k5_scidx<>+128(SB)/8, $0x0004000400040004
DATA k5_scidx<>+136(SB)/8, $0x0004000400040004
DATA k5_scidx<>+144(SB)/8, $0x0004000400040004
DATA k5_scidx<>+152(SB)/8, $0x0004000400040004
DATA k5_scidx<>+160(SB)/8, $0x0005000500050005
DATA k5_scidx<>+168(SB)/8, $0x0005000500050005
DATA k5_scidx<>+176(SB)/8, $0x0005000500050005
DATA k5_scidx<>+184(SB)/8, $0x0005000500050005
DATA k5_scidx<>+192(SB)/8, $0x0006000600060006
DATA k5_scidx<>+200(SB)/8, $0x0006000600060006
DATA k5_scidx<>+208(SB)/8, $0x0006000600060006
DATA k5_scidx<>+216(SB)/8, $0x0006000600060006
DATA k5_scidx<>+224(SB)/8, $0x0007000700070007
DATA k5_scidx<>+232(SB)/8, $0x0007000700070007
DATA k5_scidx<>+240(SB)/8, $0x0007000700070007
DATA k5_scidx<>+248(SB)/8, $0x0007000700070007
GLOBL k5_scidx<>(SB), RODATA|NOPTR, $256

// K5_SCALES decodes the 12 packed 6-bit scales and mins of the Q4_K/Q5_K
// super-block at SI into X2: bytes 0-7 the scales, 8-15 the mins.
// Clobbers R8-R13.
#define K5_SCALES \
	MOVL 4(SI), R8; \
	MOVL 8(SI), R9; \
	MOVL 12(SI), R10; \
	MOVL R10, R11; \
	SHRL $4, R11; \
	ANDL $0x0f0f0f0f, R11; \
	MOVL R9, R12; \
	SHRL $6, R12; \
	ANDL $0x03030303, R12; \
	SHLL $4, R12; \
	ORL R12, R11; \
	MOVL R9, R13; \
	ANDL $0x3f3f3f3f, R13; \
	ANDL $0x0f0f0f0f, R10; \
	MOVL R8, R12; \
	SHRL $6, R12; \
	ANDL $0x03030303, R12; \
	SHLL $4, R12; \
	ORL R12, R10; \
	ANDL $0x3f3f3f3f, R8; \
	VMOVD R8, X2; \
	VPINSRD $1, R10, X2, X2; \
	VPINSRD $2, R13, X2, X2; \
	VPINSRD $3, R11, X2, X2

// K5_MINS adds dmin·dy·Σ min·bsum of the super-block at SI (bsums at BX,
// dy at DX) to X1, from the mins in words 8-15 of Y2.
#define K5_MINS \
	VEXTRACTI128 $1, Y2, X3; \
	VMOVDQU (BX), X4; \
	VPHADDW 16(BX), X4, X4; \
	VPMADDWD X3, X4, X4; \
	VCVTDQ2PS X4, X4; \
	VPBROADCASTW 2(SI), X5; \
	VCVTPH2PS X5, X5; \
	VBROADCASTSS (DX), X6; \
	VMULPS X6, X5, X5; \
	VFMADD231PS X4, X5, X1

// K5_SCALE adds d·dy times the int32 sums in Z10 to Z0.
#define K5_SCALE \
	VPBROADCASTW 0(SI), X4; \
	VCVTPH2PS X4, X4; \
	VMULSS (DX), X4, X4; \
	VBROADCASTSS X4, Z4; \
	VCVTDQ2PS Z10, Z10; \
	VFMADD231PS Z10, Z4, Z0

// func dotQ4KAVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32
TEXT ·dotQ4KAVX512(SB), NOSPLIT, $0-44
	MOVQ w+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ qd+16(FP), DX
	MOVQ bsums+24(FP), BX
	MOVQ nb+32(FP), CX
	VPXORD Z0, Z0, Z0
	VXORPS X1, X1, X1
	MOVL $0x0f0f0f0f, AX
	VPBROADCASTD AX, Z14
	VMOVDQU64 k5_scidx<>+0(SB), Z20
	VMOVDQU64 k5_scidx<>+64(SB), Z21
	VMOVDQU64 k5_scidx<>+128(SB), Z22
	VMOVDQU64 k5_scidx<>+192(SB), Z23
q4k512_loop:
	K5_SCALES
	VPMOVZXBW X2, Y2
	K5_MINS
	// Sub-blocks 0-3: qs bytes 0-63.
	VMOVDQU64 16(SI), Z4
	VPSRLW $4, Z4, Z5
	VPANDD Z14, Z4, Z4
	VPANDD Z14, Z5, Z5
	VSHUFI64X2 $0x44, Z5, Z4, Z6
	VSHUFI64X2 $0xee, Z5, Z4, Z7
	VPERMW Z2, Z20, Z8
	VPERMW Z2, Z21, Z9
	VPMADDUBSW 0(DI), Z6, Z6
	VPMADDUBSW 64(DI), Z7, Z7
	VPMADDWD Z8, Z6, Z10
	VPMADDWD Z9, Z7, Z11
	// Sub-blocks 4-7: qs bytes 64-127.
	VMOVDQU64 80(SI), Z4
	VPSRLW $4, Z4, Z5
	VPANDD Z14, Z4, Z4
	VPANDD Z14, Z5, Z5
	VSHUFI64X2 $0x44, Z5, Z4, Z6
	VSHUFI64X2 $0xee, Z5, Z4, Z7
	VPERMW Z2, Z22, Z8
	VPERMW Z2, Z23, Z9
	VPMADDUBSW 128(DI), Z6, Z6
	VPMADDUBSW 192(DI), Z7, Z7
	VPDPWSSD Z8, Z6, Z10
	VPDPWSSD Z9, Z7, Z11
	VPADDD Z11, Z10, Z10
	K5_SCALE
	ADDQ $144, SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, BX
	DECQ CX
	JNZ q4k512_loop
	VEXTRACTF64X4 $1, Z0, Y2
	VADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X2
	VADDPS X2, X0, X0
	VSUBPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VMOVSS X0, ret+40(FP)
	VZEROUPPER
	RET
