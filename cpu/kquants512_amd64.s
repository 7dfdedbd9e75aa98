//go:build amd64 && !purego

#include "textflag.h"
#include "zsum_amd64.h"

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
// the two 256-bit halves of a ZMM register. Entries 4-7 do the same for
// the second super-block of a pair, whose scales are words 16-23.
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
DATA k5_scidx<>+256(SB)/8, $0x0010001000100010
DATA k5_scidx<>+264(SB)/8, $0x0010001000100010
DATA k5_scidx<>+272(SB)/8, $0x0010001000100010
DATA k5_scidx<>+280(SB)/8, $0x0010001000100010
DATA k5_scidx<>+288(SB)/8, $0x0011001100110011
DATA k5_scidx<>+296(SB)/8, $0x0011001100110011
DATA k5_scidx<>+304(SB)/8, $0x0011001100110011
DATA k5_scidx<>+312(SB)/8, $0x0011001100110011
DATA k5_scidx<>+320(SB)/8, $0x0012001200120012
DATA k5_scidx<>+328(SB)/8, $0x0012001200120012
DATA k5_scidx<>+336(SB)/8, $0x0012001200120012
DATA k5_scidx<>+344(SB)/8, $0x0012001200120012
DATA k5_scidx<>+352(SB)/8, $0x0013001300130013
DATA k5_scidx<>+360(SB)/8, $0x0013001300130013
DATA k5_scidx<>+368(SB)/8, $0x0013001300130013
DATA k5_scidx<>+376(SB)/8, $0x0013001300130013
DATA k5_scidx<>+384(SB)/8, $0x0014001400140014
DATA k5_scidx<>+392(SB)/8, $0x0014001400140014
DATA k5_scidx<>+400(SB)/8, $0x0014001400140014
DATA k5_scidx<>+408(SB)/8, $0x0014001400140014
DATA k5_scidx<>+416(SB)/8, $0x0015001500150015
DATA k5_scidx<>+424(SB)/8, $0x0015001500150015
DATA k5_scidx<>+432(SB)/8, $0x0015001500150015
DATA k5_scidx<>+440(SB)/8, $0x0015001500150015
DATA k5_scidx<>+448(SB)/8, $0x0016001600160016
DATA k5_scidx<>+456(SB)/8, $0x0016001600160016
DATA k5_scidx<>+464(SB)/8, $0x0016001600160016
DATA k5_scidx<>+472(SB)/8, $0x0016001600160016
DATA k5_scidx<>+480(SB)/8, $0x0017001700170017
DATA k5_scidx<>+488(SB)/8, $0x0017001700170017
DATA k5_scidx<>+496(SB)/8, $0x0017001700170017
DATA k5_scidx<>+504(SB)/8, $0x0017001700170017
GLOBL k5_scidx<>(SB), RODATA|NOPTR, $512

// k5_minidx is a VPERMW index that doubles each min of a pair of
// super-blocks (words 8-15 and 24-31), one per 16-value bsum.
DATA k5_minidx<>+0(SB)/8, $0x0009000900080008
DATA k5_minidx<>+8(SB)/8, $0x000b000b000a000a
DATA k5_minidx<>+16(SB)/8, $0x000d000d000c000c
DATA k5_minidx<>+24(SB)/8, $0x000f000f000e000e
DATA k5_minidx<>+32(SB)/8, $0x0019001900180018
DATA k5_minidx<>+40(SB)/8, $0x001b001b001a001a
DATA k5_minidx<>+48(SB)/8, $0x001d001d001c001c
DATA k5_minidx<>+56(SB)/8, $0x001f001f001e001e
GLOBL k5_minidx<>(SB), RODATA|NOPTR, $64

// k5_dperm: VPERMPS indices that spread [d·dy, dmin·dy] of a pair of
// super-blocks (floats 0-1 and 2-3) over the two halves of a ZMM
// register: d's first, then dmin's.
DATA k5_dperm<>+0(SB)/8, $0x0000000000000000
DATA k5_dperm<>+8(SB)/8, $0x0000000000000000
DATA k5_dperm<>+16(SB)/8, $0x0000000000000000
DATA k5_dperm<>+24(SB)/8, $0x0000000000000000
DATA k5_dperm<>+32(SB)/8, $0x0000000200000002
DATA k5_dperm<>+40(SB)/8, $0x0000000200000002
DATA k5_dperm<>+48(SB)/8, $0x0000000200000002
DATA k5_dperm<>+56(SB)/8, $0x0000000200000002
DATA k5_dperm<>+64(SB)/8, $0x0000000100000001
DATA k5_dperm<>+72(SB)/8, $0x0000000100000001
DATA k5_dperm<>+80(SB)/8, $0x0000000100000001
DATA k5_dperm<>+88(SB)/8, $0x0000000100000001
DATA k5_dperm<>+96(SB)/8, $0x0000000300000003
DATA k5_dperm<>+104(SB)/8, $0x0000000300000003
DATA k5_dperm<>+112(SB)/8, $0x0000000300000003
DATA k5_dperm<>+120(SB)/8, $0x0000000300000003
GLOBL k5_dperm<>(SB), RODATA|NOPTR, $128

// k5_nibshift: VPSRLW counts 0 (low half) and 4 (high half), which turn a
// 32-byte run of Q4_K quants broadcast to both halves into the two
// sub-blocks it holds.
DATA k5_nibshift<>+0(SB)/8, $0x0000000000000000
DATA k5_nibshift<>+8(SB)/8, $0x0000000000000000
DATA k5_nibshift<>+16(SB)/8, $0x0000000000000000
DATA k5_nibshift<>+24(SB)/8, $0x0000000000000000
DATA k5_nibshift<>+32(SB)/8, $0x0004000400040004
DATA k5_nibshift<>+40(SB)/8, $0x0004000400040004
DATA k5_nibshift<>+48(SB)/8, $0x0004000400040004
DATA k5_nibshift<>+56(SB)/8, $0x0004000400040004
GLOBL k5_nibshift<>(SB), RODATA|NOPTR, $64

// k5_scsh etc. decode the Q4_K/Q5_K scales of two super-blocks at once, one
// per 128-bit lane, as the AVX2 x4 kernels do: from dwords [u0, u1, u2]
// of the 12 scale bytes, scales = [u0 & 0x3f.., (u2 & 0x0f..) | ((u0 >> 6)
// & 0x03..) << 4] and mins = [u1 & 0x3f.., ((u2 >> 4) & 0x0f..) | ((u1 >>
// 6) & 0x03..) << 4].
DATA k5_scsh<>+0(SB)/8, $0x0000000000000000
DATA k5_scsh<>+8(SB)/8, $0x0000000400000000
DATA k5_scsh<>+16(SB)/8, $0x0000000000000000
DATA k5_scsh<>+24(SB)/8, $0x0000000400000000
GLOBL k5_scsh<>(SB), RODATA|NOPTR, $32
DATA k5_scmaskA<>+0(SB)/8, $0x0f0f0f0f3f3f3f3f
DATA k5_scmaskA<>+8(SB)/8, $0x0f0f0f0f3f3f3f3f
DATA k5_scmaskA<>+16(SB)/8, $0x0f0f0f0f3f3f3f3f
DATA k5_scmaskA<>+24(SB)/8, $0x0f0f0f0f3f3f3f3f
GLOBL k5_scmaskA<>(SB), RODATA|NOPTR, $32
DATA k5_scmaskB<>+0(SB)/8, $0x0303030300000000
DATA k5_scmaskB<>+8(SB)/8, $0x0303030300000000
DATA k5_scmaskB<>+16(SB)/8, $0x0303030300000000
DATA k5_scmaskB<>+24(SB)/8, $0x0303030300000000
GLOBL k5_scmaskB<>(SB), RODATA|NOPTR, $32

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

// K5_SCALES2 decodes the scales and mins of the super-blocks at SI and
// SI+stride into words 0-15 and 16-31 of Z9 (each: 8 scales, 8 mins).
#define K5_SCALES2(stride) \
	VMOVDQU 4(SI), X8; \
	VINSERTI128 $1, (stride+4)(SI), Y8, Y8; \
	VPSHUFD $0x98, Y8, Y9; \
	VPSRLVD k5_scsh<>(SB), Y9, Y9; \
	VPAND k5_scmaskA<>(SB), Y9, Y9; \
	VPSHUFD $0x40, Y8, Y8; \
	VPSRLD $6, Y8, Y8; \
	VPAND k5_scmaskB<>(SB), Y8, Y8; \
	VPSLLD $4, Y8, Y8; \
	VPOR Y8, Y9, Y9; \
	VPMOVZXBW Y9, Z9

// K_DM2 leaves [d·dy, dmin·dy] of the super-blocks at SI and SI+stride
// (their f16 d and dmin at doff, dy at DX) in floats 0-1 and 2-3 of X12.
#define K_DM2(doff, stride) \
	VMOVD doff(SI), X12; \
	VPINSRD $1, (stride+doff)(SI), X12, X12; \
	VCVTPH2PS X12, X12; \
	VMOVQ (DX), X15; \
	VUNPCKLPS X15, X15, X15; \
	VMULPS X15, X12, X12

// K_MINS2 subtracts the int32 min sums in Z10 (first super-block's in the
// low half), scaled by their dmin·dy, from Z0, and spreads the d·dy of
// X12 over Z12 the same way.
#define K_MINS2 \
	VCVTDQ2PS Z10, Z10; \
	VPERMPS Z12, Z26, Z15; \
	VFNMADD231PS Z10, Z15, Z0; \
	VPERMPS Z12, Z25, Z12

// K5_DMIN2 subtracts the mins' part of a pair of super-blocks (at SI and
// SI+stride, their 32 bsums at BX, dy at DX) from Z0 and leaves their
// d·dy in Z12 (first super-block's in the low half); the mins are Z9's.
#define K5_DMIN2(stride) \
	K_DM2(0, stride); \
	VMOVDQU64 (BX), Z10; \
	VPERMW Z9, Z24, Z11; \
	VPMADDWD Z11, Z10, Z10; \
	K_MINS2

// K_DM1 leaves d·dy of the one super-block at SI (f16 d and dmin at
// doff) in every float of Z12 and dmin·dy in every float of X15.
#define K_DM1(doff) \
	VMOVD doff(SI), X12; \
	VCVTPH2PS X12, X12; \
	VBROADCASTSS (DX), X15; \
	VMULPS X15, X12, X12; \
	VPERMILPS $0x55, X12, X15; \
	VBROADCASTSS X12, Z12

// K5_SUM2 adds the int32 sums of a pair of super-blocks (Z6 and Z27),
// scaled by Z12's d·dy, to Z0.
#define K5_SUM2 \
	VSHUFI64X2 $0x44, Z27, Z6, Z7; \
	VSHUFI64X2 $0xee, Z27, Z6, Z6; \
	VPADDD Z7, Z6, Z6; \
	VCVTDQ2PS Z6, Z6; \
	VFMADD231PS Z6, Z12, Z0

// K_LOADIDX loads the 8 VPERMW scale indices of table tab into Z16-Z23
// and the VPERMPS ones of k5_dperm into Z25-Z26.
#define K_LOADIDX(tab) \
	VMOVDQU64 tab+0(SB), Z16; \
	VMOVDQU64 tab+64(SB), Z17; \
	VMOVDQU64 tab+128(SB), Z18; \
	VMOVDQU64 tab+192(SB), Z19; \
	VMOVDQU64 tab+256(SB), Z20; \
	VMOVDQU64 tab+320(SB), Z21; \
	VMOVDQU64 tab+384(SB), Z22; \
	VMOVDQU64 tab+448(SB), Z23; \
	VMOVDQU64 k5_dperm<>+0(SB), Z25; \
	VMOVDQU64 k5_dperm<>+64(SB), Z26

// K5_LOADIDX loads the Q4_K/Q5_K indices into Z16-Z26.
#define K5_LOADIDX \
	K_LOADIDX(k5_scidx<>); \
	VMOVDQU64 k5_minidx<>(SB), Z24

// Q4K_RUN multiplies the 32 quant bytes at woff(SI) (two sub-blocks) with
// their 64 activations at aoff(DI), weighted by the scales VPERMW spreads
// with index idx, into acc: VPMADDWD starts acc, VPDPWSSD adds to it.
#define Q4K_RUN(woff, aoff, idx, op, acc) \
	VBROADCASTI64X4 woff(SI), Z4; \
	VPSRLVW Z13, Z4, Z4; \
	VPANDD Z14, Z4, Z4; \
	VPMADDUBSW aoff(DI), Z4, Z4; \
	VPERMW Z9, idx, Z5; \
	op Z5, Z4, acc

// KROWS_ROW starts a row of a Rows dot kernel (func(w *byte, ldw int,
// qs *int8, qd *float32, bsums *int16, nb int, out *float32, rows int)):
// the row at w, the activations from their start, nb super-blocks left,
// the sum cleared. KROWS_NEXT stores the row's sum (X0), steps w, out and
// rows in place, and loops to label while rows are left: the kernels
// need every general register for the super-block loop.
#define KROWS_ROW \
	MOVQ w+0(FP), SI; \
	MOVQ qs+16(FP), DI; \
	MOVQ qd+24(FP), DX; \
	MOVQ bsums+32(FP), BX; \
	MOVQ nb+40(FP), CX; \
	VPXORD Z0, Z0, Z0

#define KROWS_NEXT(label) \
	MOVQ out+48(FP), AX; \
	VMOVSS X0, (AX); \
	ADDQ $4, out+48(FP); \
	MOVQ ldw+8(FP), AX; \
	ADDQ AX, w+0(FP); \
	DECQ rows+56(FP); \
	JNZ label

// func dotQ4KRowsAVX512(w *byte, ldw int, qs *int8, qd *float32, bsums *int16, nb int, out *float32, rows int)
// rows Q4_K weight rows (rows > 0), ldw bytes apart, times one row of Q8_K
// activations, into out[0:rows]: the tables are loaded once for all the
// rows. Two super-blocks an iteration, so that their scales, mins and
// float factors are decoded in one set of vector instructions. Every
// general register serves the super-block loop, so the row, out and rows
// arguments are stepped in place.
TEXT ·dotQ4KRowsAVX512(SB), NOSPLIT, $0-64
	MOVL $0x0f0f0f0f, AX
	VPBROADCASTD AX, Z14
	VMOVDQU64 k5_nibshift<>(SB), Z13
	K5_LOADIDX
q4k512_row:
	KROWS_ROW
	VXORPS X1, X1, X1
	SUBQ $2, CX
	JB q4k512_one
q4k512_pair:
	K5_SCALES2(144)
	K5_DMIN2(144)
	Q4K_RUN(16, 0, Z16, VPMADDWD, Z6)
	Q4K_RUN(48, 64, Z17, VPMADDWD, Z7)
	Q4K_RUN(80, 128, Z18, VPDPWSSD, Z6)
	Q4K_RUN(112, 192, Z19, VPDPWSSD, Z7)
	Q4K_RUN(160, 256, Z20, VPMADDWD, Z27)
	Q4K_RUN(192, 320, Z21, VPMADDWD, Z28)
	Q4K_RUN(224, 384, Z22, VPDPWSSD, Z27)
	Q4K_RUN(256, 448, Z23, VPDPWSSD, Z28)
	VPADDD Z7, Z6, Z6
	VPADDD Z28, Z27, Z27
	K5_SUM2
	ADDQ $288, SI
	ADDQ $512, DI
	ADDQ $8, DX
	ADDQ $64, BX
	SUBQ $2, CX
	JAE q4k512_pair
q4k512_one:
	ADDQ $2, CX
	JZ q4k512_done
	// The odd last super-block.
	K5_SCALES
	VPMOVZXBW X2, Y9
	VMOVDQA Y9, Y2
	K5_MINS
	Q4K_RUN(16, 0, Z16, VPMADDWD, Z10)
	Q4K_RUN(48, 64, Z17, VPMADDWD, Z11)
	Q4K_RUN(80, 128, Z18, VPDPWSSD, Z10)
	Q4K_RUN(112, 192, Z19, VPDPWSSD, Z11)
	VPADDD Z11, Z10, Z10
	K5_SCALE
q4k512_done:
	VEXTRACTF64X4 $1, Z0, Y2
	VADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X2
	VADDPS X2, X0, X0
	VSUBPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	KROWS_NEXT(q4k512_row)
	VZEROUPPER
	RET

// k5_qhrot entry j (64 bytes): VPROLVD counts that bring bits 2j (low
// half) and 2j+1 (high half) of each byte of Q5_K's qh, broadcast to both
// halves, to bit 4, where run j's fifth bits go.
DATA k5_qhrot<>+0(SB)/8, $0x0000000400000004
DATA k5_qhrot<>+8(SB)/8, $0x0000000400000004
DATA k5_qhrot<>+16(SB)/8, $0x0000000400000004
DATA k5_qhrot<>+24(SB)/8, $0x0000000400000004
DATA k5_qhrot<>+32(SB)/8, $0x0000000300000003
DATA k5_qhrot<>+40(SB)/8, $0x0000000300000003
DATA k5_qhrot<>+48(SB)/8, $0x0000000300000003
DATA k5_qhrot<>+56(SB)/8, $0x0000000300000003
DATA k5_qhrot<>+64(SB)/8, $0x0000000200000002
DATA k5_qhrot<>+72(SB)/8, $0x0000000200000002
DATA k5_qhrot<>+80(SB)/8, $0x0000000200000002
DATA k5_qhrot<>+88(SB)/8, $0x0000000200000002
DATA k5_qhrot<>+96(SB)/8, $0x0000000100000001
DATA k5_qhrot<>+104(SB)/8, $0x0000000100000001
DATA k5_qhrot<>+112(SB)/8, $0x0000000100000001
DATA k5_qhrot<>+120(SB)/8, $0x0000000100000001
DATA k5_qhrot<>+128(SB)/8, $0x0000000000000000
DATA k5_qhrot<>+136(SB)/8, $0x0000000000000000
DATA k5_qhrot<>+144(SB)/8, $0x0000000000000000
DATA k5_qhrot<>+152(SB)/8, $0x0000000000000000
DATA k5_qhrot<>+160(SB)/8, $0x0000001f0000001f
DATA k5_qhrot<>+168(SB)/8, $0x0000001f0000001f
DATA k5_qhrot<>+176(SB)/8, $0x0000001f0000001f
DATA k5_qhrot<>+184(SB)/8, $0x0000001f0000001f
DATA k5_qhrot<>+192(SB)/8, $0x0000001e0000001e
DATA k5_qhrot<>+200(SB)/8, $0x0000001e0000001e
DATA k5_qhrot<>+208(SB)/8, $0x0000001e0000001e
DATA k5_qhrot<>+216(SB)/8, $0x0000001e0000001e
DATA k5_qhrot<>+224(SB)/8, $0x0000001d0000001d
DATA k5_qhrot<>+232(SB)/8, $0x0000001d0000001d
DATA k5_qhrot<>+240(SB)/8, $0x0000001d0000001d
DATA k5_qhrot<>+248(SB)/8, $0x0000001d0000001d
GLOBL k5_qhrot<>(SB), RODATA|NOPTR, $256

// Q5K_RUN is Q4K_RUN for Q5_K run j: each quant gains its fifth bit from
// qh (qhreg, broadcast to both halves) by VPROLVD and VPTERNLOGD (A | B&C
// with Z29's 0x10 bytes).
#define Q5K_RUN(woff, aoff, j, qhreg, idx, op, acc) \
	VBROADCASTI64X4 woff(SI), Z4; \
	VPSRLVW Z13, Z4, Z4; \
	VPANDD Z14, Z4, Z4; \
	VPROLVD k5_qhrot<>+(64*j)(SB), qhreg, Z5; \
	VPTERNLOGD $0xf8, Z29, Z5, Z4; \
	VPMADDUBSW aoff(DI), Z4, Z4; \
	VPERMW Z9, idx, Z5; \
	op Z5, Z4, acc

// func dotQ5KRowsAVX512(w *byte, ldw int, qs *int8, qd *float32, bsums *int16, nb int, out *float32, rows int)
// rows weight rows (rows > 0), ldw bytes apart, times one row of Q8_K
// activations, into out[0:rows], the tables loaded once for all the rows;
// the row, out and rows arguments are stepped in place.
// Two super-blocks an iteration, as dotQ4KAVX512.
TEXT ·dotQ5KRowsAVX512(SB), NOSPLIT, $0-64
	MOVL $0x0f0f0f0f, AX
	VPBROADCASTD AX, Z14
	MOVL $0x10101010, AX
	VPBROADCASTD AX, Z29
	VMOVDQU64 k5_nibshift<>(SB), Z13
	K5_LOADIDX
q5k512_row:
	KROWS_ROW
	VXORPS X1, X1, X1
	SUBQ $2, CX
	JB q5k512_one
q5k512_pair:
	K5_SCALES2(176)
	K5_DMIN2(176)
	VBROADCASTI64X4 16(SI), Z30
	VBROADCASTI64X4 192(SI), Z31
	Q5K_RUN(48, 0, 0, Z30, Z16, VPMADDWD, Z6)
	Q5K_RUN(80, 64, 1, Z30, Z17, VPMADDWD, Z7)
	Q5K_RUN(112, 128, 2, Z30, Z18, VPDPWSSD, Z6)
	Q5K_RUN(144, 192, 3, Z30, Z19, VPDPWSSD, Z7)
	Q5K_RUN(224, 256, 0, Z31, Z20, VPMADDWD, Z27)
	Q5K_RUN(256, 320, 1, Z31, Z21, VPMADDWD, Z28)
	Q5K_RUN(288, 384, 2, Z31, Z22, VPDPWSSD, Z27)
	Q5K_RUN(320, 448, 3, Z31, Z23, VPDPWSSD, Z28)
	VPADDD Z7, Z6, Z6
	VPADDD Z28, Z27, Z27
	K5_SUM2
	ADDQ $352, SI
	ADDQ $512, DI
	ADDQ $8, DX
	ADDQ $64, BX
	SUBQ $2, CX
	JAE q5k512_pair
q5k512_one:
	ADDQ $2, CX
	JZ q5k512_done
	// The odd last super-block.
	K5_SCALES
	VPMOVZXBW X2, Y9
	VMOVDQA Y9, Y2
	K5_MINS
	VBROADCASTI64X4 16(SI), Z30
	Q5K_RUN(48, 0, 0, Z30, Z16, VPMADDWD, Z10)
	Q5K_RUN(80, 64, 1, Z30, Z17, VPMADDWD, Z11)
	Q5K_RUN(112, 128, 2, Z30, Z18, VPDPWSSD, Z10)
	Q5K_RUN(144, 192, 3, Z30, Z19, VPDPWSSD, Z11)
	VPADDD Z11, Z10, Z10
	K5_SCALE
q5k512_done:
	VEXTRACTF64X4 $1, Z0, Y2
	VADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X2
	VADDPS X2, X0, X0
	VSUBPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	KROWS_NEXT(q5k512_row)
	VZEROUPPER
	RET

// k2_scidx entry r (64 bytes) is a VPERMW index that gives word w the
// scale of 16-value group 4r + w/8: the scales of run r of the first
// super-block of a pair; entries 4-7 those of the second (words 16-31).
DATA k2_scidx<>+0(SB)/8, $0x0000000000000000
DATA k2_scidx<>+8(SB)/8, $0x0000000000000000
DATA k2_scidx<>+16(SB)/8, $0x0001000100010001
DATA k2_scidx<>+24(SB)/8, $0x0001000100010001
DATA k2_scidx<>+32(SB)/8, $0x0002000200020002
DATA k2_scidx<>+40(SB)/8, $0x0002000200020002
DATA k2_scidx<>+48(SB)/8, $0x0003000300030003
DATA k2_scidx<>+56(SB)/8, $0x0003000300030003
DATA k2_scidx<>+64(SB)/8, $0x0004000400040004
DATA k2_scidx<>+72(SB)/8, $0x0004000400040004
DATA k2_scidx<>+80(SB)/8, $0x0005000500050005
DATA k2_scidx<>+88(SB)/8, $0x0005000500050005
DATA k2_scidx<>+96(SB)/8, $0x0006000600060006
DATA k2_scidx<>+104(SB)/8, $0x0006000600060006
DATA k2_scidx<>+112(SB)/8, $0x0007000700070007
DATA k2_scidx<>+120(SB)/8, $0x0007000700070007
DATA k2_scidx<>+128(SB)/8, $0x0008000800080008
DATA k2_scidx<>+136(SB)/8, $0x0008000800080008
DATA k2_scidx<>+144(SB)/8, $0x0009000900090009
DATA k2_scidx<>+152(SB)/8, $0x0009000900090009
DATA k2_scidx<>+160(SB)/8, $0x000a000a000a000a
DATA k2_scidx<>+168(SB)/8, $0x000a000a000a000a
DATA k2_scidx<>+176(SB)/8, $0x000b000b000b000b
DATA k2_scidx<>+184(SB)/8, $0x000b000b000b000b
DATA k2_scidx<>+192(SB)/8, $0x000c000c000c000c
DATA k2_scidx<>+200(SB)/8, $0x000c000c000c000c
DATA k2_scidx<>+208(SB)/8, $0x000d000d000d000d
DATA k2_scidx<>+216(SB)/8, $0x000d000d000d000d
DATA k2_scidx<>+224(SB)/8, $0x000e000e000e000e
DATA k2_scidx<>+232(SB)/8, $0x000e000e000e000e
DATA k2_scidx<>+240(SB)/8, $0x000f000f000f000f
DATA k2_scidx<>+248(SB)/8, $0x000f000f000f000f
DATA k2_scidx<>+256(SB)/8, $0x0010001000100010
DATA k2_scidx<>+264(SB)/8, $0x0010001000100010
DATA k2_scidx<>+272(SB)/8, $0x0011001100110011
DATA k2_scidx<>+280(SB)/8, $0x0011001100110011
DATA k2_scidx<>+288(SB)/8, $0x0012001200120012
DATA k2_scidx<>+296(SB)/8, $0x0012001200120012
DATA k2_scidx<>+304(SB)/8, $0x0013001300130013
DATA k2_scidx<>+312(SB)/8, $0x0013001300130013
DATA k2_scidx<>+320(SB)/8, $0x0014001400140014
DATA k2_scidx<>+328(SB)/8, $0x0014001400140014
DATA k2_scidx<>+336(SB)/8, $0x0015001500150015
DATA k2_scidx<>+344(SB)/8, $0x0015001500150015
DATA k2_scidx<>+352(SB)/8, $0x0016001600160016
DATA k2_scidx<>+360(SB)/8, $0x0016001600160016
DATA k2_scidx<>+368(SB)/8, $0x0017001700170017
DATA k2_scidx<>+376(SB)/8, $0x0017001700170017
DATA k2_scidx<>+384(SB)/8, $0x0018001800180018
DATA k2_scidx<>+392(SB)/8, $0x0018001800180018
DATA k2_scidx<>+400(SB)/8, $0x0019001900190019
DATA k2_scidx<>+408(SB)/8, $0x0019001900190019
DATA k2_scidx<>+416(SB)/8, $0x001a001a001a001a
DATA k2_scidx<>+424(SB)/8, $0x001a001a001a001a
DATA k2_scidx<>+432(SB)/8, $0x001b001b001b001b
DATA k2_scidx<>+440(SB)/8, $0x001b001b001b001b
DATA k2_scidx<>+448(SB)/8, $0x001c001c001c001c
DATA k2_scidx<>+456(SB)/8, $0x001c001c001c001c
DATA k2_scidx<>+464(SB)/8, $0x001d001d001d001d
DATA k2_scidx<>+472(SB)/8, $0x001d001d001d001d
DATA k2_scidx<>+480(SB)/8, $0x001e001e001e001e
DATA k2_scidx<>+488(SB)/8, $0x001e001e001e001e
DATA k2_scidx<>+496(SB)/8, $0x001f001f001f001f
DATA k2_scidx<>+504(SB)/8, $0x001f001f001f001f
GLOBL k2_scidx<>(SB), RODATA|NOPTR, $512

// k2_shift: VPSRLVW counts [0|2] and [4|6], which turn a 32-byte run of
// 2-bit quants broadcast to both halves into two of its four planes.
DATA k2_shift<>+0(SB)/8, $0x0000000000000000
DATA k2_shift<>+8(SB)/8, $0x0000000000000000
DATA k2_shift<>+16(SB)/8, $0x0000000000000000
DATA k2_shift<>+24(SB)/8, $0x0000000000000000
DATA k2_shift<>+32(SB)/8, $0x0002000200020002
DATA k2_shift<>+40(SB)/8, $0x0002000200020002
DATA k2_shift<>+48(SB)/8, $0x0002000200020002
DATA k2_shift<>+56(SB)/8, $0x0002000200020002
DATA k2_shift<>+64(SB)/8, $0x0004000400040004
DATA k2_shift<>+72(SB)/8, $0x0004000400040004
DATA k2_shift<>+80(SB)/8, $0x0004000400040004
DATA k2_shift<>+88(SB)/8, $0x0004000400040004
DATA k2_shift<>+96(SB)/8, $0x0006000600060006
DATA k2_shift<>+104(SB)/8, $0x0006000600060006
DATA k2_shift<>+112(SB)/8, $0x0006000600060006
DATA k2_shift<>+120(SB)/8, $0x0006000600060006
GLOBL k2_shift<>(SB), RODATA|NOPTR, $128

// Q2K_RUN multiplies the 2-bit planes that VPSRLVW by shift selects from
// the 32 bytes in Z3 with their 64 activations at aoff(DI), weighted by
// the scales VPERMW spreads with index idx, into acc.
#define Q2K_RUN(shift, aoff, idx, op, acc) \
	VPSRLVW shift, Z3, Z4; \
	VPANDD Z29, Z4, Z4; \
	VPMADDUBSW aoff(DI), Z4, Z4; \
	VPERMW Z9, idx, Z5; \
	op Z5, Z4, acc

// k2_mask01: the bytes that hold the first two 2-bit planes (low half,
// high half) of 32 Q2_K quant bytes broadcast to both halves. Masked in
// place, the second plane weighs 4 in its dword sums, which a VPSRAVD by
// k2_dsh's counts (0, 2) takes back out exactly.
DATA k2_mask01<>+0(SB)/8, $0x0303030303030303
DATA k2_mask01<>+8(SB)/8, $0x0303030303030303
DATA k2_mask01<>+16(SB)/8, $0x0303030303030303
DATA k2_mask01<>+24(SB)/8, $0x0303030303030303
DATA k2_mask01<>+32(SB)/8, $0x0c0c0c0c0c0c0c0c
DATA k2_mask01<>+40(SB)/8, $0x0c0c0c0c0c0c0c0c
DATA k2_mask01<>+48(SB)/8, $0x0c0c0c0c0c0c0c0c
DATA k2_mask01<>+56(SB)/8, $0x0c0c0c0c0c0c0c0c
GLOBL k2_mask01<>(SB), RODATA|NOPTR, $64
DATA k2_dsh<>+0(SB)/8, $0x0000000000000000
DATA k2_dsh<>+8(SB)/8, $0x0000000000000000
DATA k2_dsh<>+16(SB)/8, $0x0000000000000000
DATA k2_dsh<>+24(SB)/8, $0x0000000000000000
DATA k2_dsh<>+32(SB)/8, $0x0000000200000002
DATA k2_dsh<>+40(SB)/8, $0x0000000200000002
DATA k2_dsh<>+48(SB)/8, $0x0000000200000002
DATA k2_dsh<>+56(SB)/8, $0x0000000200000002
GLOBL k2_dsh<>(SB), RODATA|NOPTR, $64

// Q2K_RUN01 is Q2K_RUN for the first two planes, masked in place by Z24
// (the second weighing 4).
#define Q2K_RUN01(aoff, idx, op, acc) \
	VPANDD Z24, Z3, Z4; \
	VPMADDUBSW aoff(DI), Z4, Z4; \
	VPERMW Z9, idx, Z5; \
	op Z5, Z4, acc

// func dotQ2KRowsAVX512(w *byte, ldw int, qs *int8, qd *float32, bsums *int16, nb int, out *float32, rows int)
// rows weight rows (rows > 0), ldw bytes apart, times one row of Q8_K
// activations, into out[0:rows], the tables loaded once for all the rows;
// the row, out and rows arguments are stepped in place.
// Two super-blocks an iteration, as dotQ4KAVX512; Q2_K has a 4-bit scale
// and min per 16 values, the min applied through the 16-value bsums.
TEXT ·dotQ2KRowsAVX512(SB), NOSPLIT, $0-64
	MOVL $0x0f0f0f0f, AX
	VPBROADCASTD AX, Z14
	MOVL $0x03030303, AX
	VPBROADCASTD AX, Z29
	VMOVDQU64 k2_mask01<>(SB), Z24
	VMOVDQU64 k2_dsh<>(SB), Z31
	VMOVDQU64 k2_shift<>+64(SB), Z30
	K_LOADIDX(k2_scidx<>)
q2k512_row:
	KROWS_ROW
	VXORPS X1, X1, X1
	SUBQ $2, CX
	JB q2k512_one
q2k512_pair:
	VMOVDQU 0(SI), X11
	VINSERTI128 $1, 84(SI), Y11, Y11
	VPSRLW $4, Y11, Y10
	VPAND Y14, Y10, Y10
	VPAND Y14, Y11, Y11
	VPMOVZXBW Y10, Z10
	VPMOVZXBW Y11, Z9
	VPMADDWD (BX), Z10, Z10
	K_DM2(80, 84)
	K_MINS2
	VBROADCASTI64X4 16(SI), Z3
	Q2K_RUN01(0, Z16, VPMADDWD, Z6)
	Q2K_RUN(Z30, 64, Z17, VPMADDWD, Z7)
	VBROADCASTI64X4 48(SI), Z3
	Q2K_RUN01(128, Z18, VPDPWSSD, Z6)
	Q2K_RUN(Z30, 192, Z19, VPDPWSSD, Z7)
	VBROADCASTI64X4 100(SI), Z3
	Q2K_RUN01(256, Z20, VPMADDWD, Z27)
	Q2K_RUN(Z30, 320, Z21, VPMADDWD, Z28)
	VBROADCASTI64X4 132(SI), Z3
	Q2K_RUN01(384, Z22, VPDPWSSD, Z27)
	Q2K_RUN(Z30, 448, Z23, VPDPWSSD, Z28)
	VPSRAVD Z31, Z6, Z6
	VPSRAVD Z31, Z27, Z27
	VPADDD Z7, Z6, Z6
	VPADDD Z28, Z27, Z27
	K5_SUM2
	ADDQ $168, SI
	ADDQ $512, DI
	ADDQ $8, DX
	ADDQ $64, BX
	SUBQ $2, CX
	JAE q2k512_pair
q2k512_one:
	ADDQ $2, CX
	JZ q2k512_done
	// The odd last super-block.
	VMOVDQU 0(SI), X11
	VPSRLW $4, X11, X10
	VPAND X14, X10, X10
	VPAND X14, X11, X11
	VPMOVZXBW X10, Y10
	VPMOVZXBW X11, Y9
	VPMADDWD (BX), Y10, Y10
	VCVTDQ2PS Y10, Y10
	VEXTRACTF128 $1, Y10, X11
	VADDPS X11, X10, X10
	K_DM1(80)
	VFMADD231PS X10, X15, X1
	VBROADCASTI64X4 16(SI), Z3
	Q2K_RUN01(0, Z16, VPMADDWD, Z10)
	Q2K_RUN(Z30, 64, Z17, VPMADDWD, Z11)
	VBROADCASTI64X4 48(SI), Z3
	Q2K_RUN01(128, Z18, VPDPWSSD, Z10)
	Q2K_RUN(Z30, 192, Z19, VPDPWSSD, Z11)
	VPSRAVD Z31, Z10, Z10
	VPADDD Z11, Z10, Z10
	VCVTDQ2PS Z10, Z10
	VFMADD231PS Z10, Z12, Z0
q2k512_done:
	VEXTRACTF64X4 $1, Z0, Y2
	VADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X2
	VADDPS X2, X0, X0
	VSUBPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	KROWS_NEXT(q2k512_row)
	VZEROUPPER
	RET

// Q3_SCALES decodes the sixteen 6-bit scales of the Q3_K super-block at
// off(SI) (the 12 bytes at off+96) into the bytes of xreg, still offset
// by 32. Clobbers R8-R13.
#define Q3_SCALES(off, xreg) \
	MOVL (off+96)(SI), R8; \
	MOVL (off+100)(SI), R9; \
	MOVL (off+104)(SI), R10; \
	MOVL R8, R11; \
	SHRL $4, R11; \
	ANDL $0x0f0f0f0f, R11; \
	MOVL R10, R12; \
	SHRL $4, R12; \
	ANDL $0x03030303, R12; \
	SHLL $4, R12; \
	ORL R12, R11; \
	MOVL R9, R13; \
	SHRL $4, R13; \
	ANDL $0x0f0f0f0f, R13; \
	MOVL R10, R12; \
	SHRL $6, R12; \
	ANDL $0x03030303, R12; \
	SHLL $4, R12; \
	ORL R12, R13; \
	ANDL $0x0f0f0f0f, R8; \
	MOVL R10, R12; \
	ANDL $0x03030303, R12; \
	SHLL $4, R12; \
	ORL R12, R8; \
	ANDL $0x0f0f0f0f, R9; \
	MOVL R10, R12; \
	SHRL $2, R12; \
	ANDL $0x03030303, R12; \
	SHLL $4, R12; \
	ORL R12, R9; \
	VMOVD R8, xreg; \
	VPINSRD $1, R9, xreg, xreg; \
	VPINSRD $2, R11, xreg, xreg; \
	VPINSRD $3, R13, xreg, xreg

// k3_scv: the tables of Q3_SCALES2. Entries 0 and 1 are VPERMD indices
// that take dwords [u0, u1, u0, u1] and [u2, u2, u2, u2] of each 128-bit
// lane's 12 scale bytes (at dword 0 in the low lane, 1 in the high one);
// entry 2 holds the VPSRLVD counts of the low nibbles' dwords, entry 3
// the VPROLVD counts that bring each dword's 2-bit highs to bits 4-5 of
// its bytes, entries 4 and 5 the masks 0x0f and 0x30.
DATA k3_scv<>+0(SB)/8, $0x0000000100000000
DATA k3_scv<>+8(SB)/8, $0x0000000100000000
DATA k3_scv<>+16(SB)/8, $0x0000000600000005
DATA k3_scv<>+24(SB)/8, $0x0000000600000005
DATA k3_scv<>+32(SB)/8, $0x0000000200000002
DATA k3_scv<>+40(SB)/8, $0x0000000200000002
DATA k3_scv<>+48(SB)/8, $0x0000000700000007
DATA k3_scv<>+56(SB)/8, $0x0000000700000007
DATA k3_scv<>+64(SB)/8, $0x0000000000000000
DATA k3_scv<>+72(SB)/8, $0x0000000400000004
DATA k3_scv<>+80(SB)/8, $0x0000000000000000
DATA k3_scv<>+88(SB)/8, $0x0000000400000004
DATA k3_scv<>+96(SB)/8, $0x0000000200000004
DATA k3_scv<>+104(SB)/8, $0x0000001e00000000
DATA k3_scv<>+112(SB)/8, $0x0000000200000004
DATA k3_scv<>+120(SB)/8, $0x0000001e00000000
DATA k3_scv<>+128(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA k3_scv<>+136(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA k3_scv<>+144(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA k3_scv<>+152(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA k3_scv<>+160(SB)/8, $0x3030303030303030
DATA k3_scv<>+168(SB)/8, $0x3030303030303030
DATA k3_scv<>+176(SB)/8, $0x3030303030303030
DATA k3_scv<>+184(SB)/8, $0x3030303030303030
GLOBL k3_scv<>(SB), RODATA|NOPTR, $192

// Q3_SCALES2 decodes the sixteen 6-bit scales of the Q3_K super-blocks at
// SI and SI+110 into the bytes of X11 and the high lane of Y11, still
// offset by 32, as Q3_SCALES does with vector instructions. Clobbers Y8;
// the indices of k3_scv are in Y1 and Y14.
#define Q3_SCALES2 \
	VMOVDQU 96(SI), X11; \
	VINSERTI128 $1, 202(SI), Y11, Y11; \
	VPERMD Y11, Y1, Y8; \
	VPERMD Y11, Y14, Y11; \
	VPSRLVD k3_scv<>+64(SB), Y8, Y8; \
	VPROLVD k3_scv<>+96(SB), Y11, Y11; \
	VPANDD k3_scv<>+128(SB), Y8, Y8; \
	VPANDD k3_scv<>+160(SB), Y11, Y11; \
	VPORD Y8, Y11, Y11

// k3_hbit entry r (64 bytes): the bit of Q3_K's hmask bytes, broadcast
// to both halves, that holds run r's third bits: 2r (low half), 2r+1
// (high half), for VPTESTMB.
DATA k3_hbit<>+0(SB)/8, $0x0101010101010101
DATA k3_hbit<>+8(SB)/8, $0x0101010101010101
DATA k3_hbit<>+16(SB)/8, $0x0101010101010101
DATA k3_hbit<>+24(SB)/8, $0x0101010101010101
DATA k3_hbit<>+32(SB)/8, $0x0202020202020202
DATA k3_hbit<>+40(SB)/8, $0x0202020202020202
DATA k3_hbit<>+48(SB)/8, $0x0202020202020202
DATA k3_hbit<>+56(SB)/8, $0x0202020202020202
DATA k3_hbit<>+64(SB)/8, $0x0404040404040404
DATA k3_hbit<>+72(SB)/8, $0x0404040404040404
DATA k3_hbit<>+80(SB)/8, $0x0404040404040404
DATA k3_hbit<>+88(SB)/8, $0x0404040404040404
DATA k3_hbit<>+96(SB)/8, $0x0808080808080808
DATA k3_hbit<>+104(SB)/8, $0x0808080808080808
DATA k3_hbit<>+112(SB)/8, $0x0808080808080808
DATA k3_hbit<>+120(SB)/8, $0x0808080808080808
DATA k3_hbit<>+128(SB)/8, $0x1010101010101010
DATA k3_hbit<>+136(SB)/8, $0x1010101010101010
DATA k3_hbit<>+144(SB)/8, $0x1010101010101010
DATA k3_hbit<>+152(SB)/8, $0x1010101010101010
DATA k3_hbit<>+160(SB)/8, $0x2020202020202020
DATA k3_hbit<>+168(SB)/8, $0x2020202020202020
DATA k3_hbit<>+176(SB)/8, $0x2020202020202020
DATA k3_hbit<>+184(SB)/8, $0x2020202020202020
DATA k3_hbit<>+192(SB)/8, $0x4040404040404040
DATA k3_hbit<>+200(SB)/8, $0x4040404040404040
DATA k3_hbit<>+208(SB)/8, $0x4040404040404040
DATA k3_hbit<>+216(SB)/8, $0x4040404040404040
DATA k3_hbit<>+224(SB)/8, $0x8080808080808080
DATA k3_hbit<>+232(SB)/8, $0x8080808080808080
DATA k3_hbit<>+240(SB)/8, $0x8080808080808080
DATA k3_hbit<>+248(SB)/8, $0x8080808080808080
GLOBL k3_hbit<>(SB), RODATA|NOPTR, $256

// Q3K_RUN is Q2K_RUN for Q3_K run r: each quant gains its third bit from
// hmask (hmreg, broadcast to both halves): VPTESTMB picks the bytes whose
// bit is set and a masked VPADDB adds Z31's 0x04 to them; the -4 of a
// clear bit goes through bsums.
#define Q3K_RUN(shift, r, hmreg, aoff, idx, op, acc) \
	VPSRLVW shift, Z3, Z4; \
	VPANDD Z29, Z4, Z4; \
	VPTESTMB k3_hbit<>+(64*r)(SB), hmreg, K1; \
	VPADDB Z31, Z4, K1, Z4; \
	VPMADDUBSW aoff(DI), Z4, Z4; \
	VPERMW Z9, idx, Z5; \
	op Z5, Z4, acc

// k3_add01: Q3_K's third bit (4) for the first two planes masked in place
// by k2_mask01 (low half, high half), the second weighing 4.
DATA k3_add01<>+0(SB)/8, $0x0404040404040404
DATA k3_add01<>+8(SB)/8, $0x0404040404040404
DATA k3_add01<>+16(SB)/8, $0x0404040404040404
DATA k3_add01<>+24(SB)/8, $0x0404040404040404
DATA k3_add01<>+32(SB)/8, $0x1010101010101010
DATA k3_add01<>+40(SB)/8, $0x1010101010101010
DATA k3_add01<>+48(SB)/8, $0x1010101010101010
DATA k3_add01<>+56(SB)/8, $0x1010101010101010
GLOBL k3_add01<>(SB), RODATA|NOPTR, $64

// Q3K_RUN01 is Q3K_RUN for runs 0 and 2 (r), whose two planes are masked
// in place by Z13 (k2_mask01): the second weighs 4, its third bit too
// (k3_add01), and a VPSRAVD by k2_dsh takes the 4 back out of acc.
#define Q3K_RUN01(r, hmreg, aoff, idx, op, acc) \
	VPANDD Z13, Z3, Z4; \
	VPTESTMB k3_hbit<>+(64*r)(SB), hmreg, K1; \
	VPADDB k3_add01<>(SB), Z4, K1, Z4; \
	VPMADDUBSW aoff(DI), Z4, Z4; \
	VPERMW Z9, idx, Z5; \
	op Z5, Z4, acc

// func dotQ3KRowsAVX512(w *byte, ldw int, qs *int8, qd *float32, bsums *int16, nb int, out *float32, rows int)
// rows weight rows (rows > 0), ldw bytes apart, times one row of Q8_K
// activations, into out[0:rows], the tables loaded once for all the rows;
// the row, out and rows arguments are stepped in place.
// Two super-blocks an iteration, as dotQ2KAVX512, with signed 6-bit scales
// and no mins.
TEXT ·dotQ3KRowsAVX512(SB), NOSPLIT, $0-64
	MOVL $0x03030303, AX
	VPBROADCASTD AX, Z29
	MOVL $0x04040404, AX
	VPBROADCASTD AX, Z31
	MOVL $0x20202020, AX
	VPBROADCASTD AX, Z2
	VMOVDQU64 k2_mask01<>(SB), Z13
	VMOVDQU64 k2_shift<>+64(SB), Z24
	K_LOADIDX(k2_scidx<>)
	VMOVDQU k3_scv<>+0(SB), Y1
	VMOVDQU k3_scv<>+32(SB), Y14
q3k512_row:
	KROWS_ROW
	SUBQ $2, CX
	JB q3k512_one
q3k512_pair:
	Q3_SCALES2
	VPSUBB Y2, Y11, Y11
	VPMOVSXBW Y11, Z9
	VPMADDWD (BX), Z9, Z10
	VPSLLD $2, Z10, Z10
	MOVWLZX 108(SI), AX
	VMOVD AX, X12
	VPINSRW $2, 218(SI), X12, X12
	VCVTPH2PS X12, X12
	VMOVQ (DX), X15
	VUNPCKLPS X15, X15, X15
	VMULPS X15, X12, X12
	VPERMPS Z12, Z25, Z12
	VBROADCASTI64X4 32(SI), Z3
	VBROADCASTI64X4 0(SI), Z30
	Q3K_RUN01(0, Z30, 0, Z16, VPMADDWD, Z6)
	Q3K_RUN(Z24, 1, Z30, 64, Z17, VPMADDWD, Z7)
	VBROADCASTI64X4 64(SI), Z3
	Q3K_RUN01(2, Z30, 128, Z18, VPDPWSSD, Z6)
	Q3K_RUN(Z24, 3, Z30, 192, Z19, VPDPWSSD, Z7)
	VBROADCASTI64X4 142(SI), Z3
	VBROADCASTI64X4 110(SI), Z30
	Q3K_RUN01(0, Z30, 256, Z20, VPMADDWD, Z27)
	Q3K_RUN(Z24, 1, Z30, 320, Z21, VPMADDWD, Z28)
	VBROADCASTI64X4 174(SI), Z3
	Q3K_RUN01(2, Z30, 384, Z22, VPDPWSSD, Z27)
	Q3K_RUN(Z24, 3, Z30, 448, Z23, VPDPWSSD, Z28)
	VPSRAVD k2_dsh<>(SB), Z6, Z6
	VPSRAVD k2_dsh<>(SB), Z27, Z27
	VPADDD Z7, Z6, Z6
	VPADDD Z28, Z27, Z27
	VSHUFI64X2 $0x44, Z27, Z6, Z7
	VSHUFI64X2 $0xee, Z27, Z6, Z6
	VPADDD Z7, Z6, Z6
	VPSUBD Z10, Z6, Z6
	VCVTDQ2PS Z6, Z6
	VFMADD231PS Z6, Z12, Z0
	ADDQ $220, SI
	ADDQ $512, DI
	ADDQ $8, DX
	ADDQ $64, BX
	SUBQ $2, CX
	JAE q3k512_pair
q3k512_one:
	ADDQ $2, CX
	JZ q3k512_done
	// The odd last super-block: its 16 offsets in Y10, its sums in Z6.
	Q3_SCALES(0, X11)
	VPSUBB X2, X11, X11
	VPMOVSXBW X11, Y9
	VPMADDWD (BX), Y9, Y10
	VPSLLD $2, Y10, Y10
	VBROADCASTI64X4 32(SI), Z3
	VBROADCASTI64X4 0(SI), Z30
	Q3K_RUN01(0, Z30, 0, Z16, VPMADDWD, Z6)
	Q3K_RUN(Z24, 1, Z30, 64, Z17, VPMADDWD, Z7)
	VBROADCASTI64X4 64(SI), Z3
	Q3K_RUN01(2, Z30, 128, Z18, VPDPWSSD, Z6)
	Q3K_RUN(Z24, 3, Z30, 192, Z19, VPDPWSSD, Z7)
	VPSRAVD k2_dsh<>(SB), Z6, Z6
	VPADDD Z7, Z6, Z6
	VPSUBD Z10, Z6, Z6
	MOVWLZX 108(SI), AX
	VMOVD AX, X12
	VCVTPH2PS X12, X12
	VMULSS (DX), X12, X12
	VBROADCASTSS X12, Z12
	VCVTDQ2PS Z6, Z6
	VFMADD231PS Z6, Z12, Z0
q3k512_done:
	// Y3 as the temporary: Z2 holds the constant 0x20 bytes for the rows.
	VEXTRACTF64X4 $1, Z0, Y3
	VADDPS Y3, Y0, Y0
	VEXTRACTF128 $1, Y0, X3
	VADDPS X3, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	KROWS_NEXT(q3k512_row)
	VZEROUPPER
	RET

// kx_lvl: the IQ4_NL/IQ4_XS levels plus 128 (unsigned, for VPDPBUSD) as a
// VPSHUFB table in each 128-bit lane; the 128·Σy the offset adds is taken
// back through the activations' block sums.
DATA kx_lvl<>+0(SB)/8, $0x766a5d4f3f2d1801
DATA kx_lvl<>+8(SB)/8, $0xf1d9c5b5a6998d81
DATA kx_lvl<>+16(SB)/8, $0x766a5d4f3f2d1801
DATA kx_lvl<>+24(SB)/8, $0xf1d9c5b5a6998d81
DATA kx_lvl<>+32(SB)/8, $0x766a5d4f3f2d1801
DATA kx_lvl<>+40(SB)/8, $0xf1d9c5b5a6998d81
DATA kx_lvl<>+48(SB)/8, $0x766a5d4f3f2d1801
DATA kx_lvl<>+56(SB)/8, $0xf1d9c5b5a6998d81
GLOBL kx_lvl<>(SB), RODATA|NOPTR, $64

// kx_nibshift: VPSRLVW counts 0, 4, 0, 4 for the 128-bit lanes of two
// 16-byte IQ4 sub-blocks, each held twice: low nibbles, then high ones.
DATA kx_nibshift<>+0(SB)/8, $0x0000000000000000
DATA kx_nibshift<>+8(SB)/8, $0x0000000000000000
DATA kx_nibshift<>+16(SB)/8, $0x0004000400040004
DATA kx_nibshift<>+24(SB)/8, $0x0004000400040004
DATA kx_nibshift<>+32(SB)/8, $0x0000000000000000
DATA kx_nibshift<>+40(SB)/8, $0x0000000000000000
DATA kx_nibshift<>+48(SB)/8, $0x0004000400040004
DATA kx_nibshift<>+56(SB)/8, $0x0004000400040004
GLOBL kx_nibshift<>(SB), RODATA|NOPTR, $64

// kx_scidx entry r (64 bytes) is a VPERMD index of 8 dwords 2r and 8
// dwords 2r+1: the scales of run r's sub-blocks; entries 4-7 those of
// the second super-block of a pair (dwords 8-15).
DATA kx_scidx<>+0(SB)/8, $0x0000000000000000
DATA kx_scidx<>+8(SB)/8, $0x0000000000000000
DATA kx_scidx<>+16(SB)/8, $0x0000000000000000
DATA kx_scidx<>+24(SB)/8, $0x0000000000000000
DATA kx_scidx<>+32(SB)/8, $0x0000000100000001
DATA kx_scidx<>+40(SB)/8, $0x0000000100000001
DATA kx_scidx<>+48(SB)/8, $0x0000000100000001
DATA kx_scidx<>+56(SB)/8, $0x0000000100000001
DATA kx_scidx<>+64(SB)/8, $0x0000000200000002
DATA kx_scidx<>+72(SB)/8, $0x0000000200000002
DATA kx_scidx<>+80(SB)/8, $0x0000000200000002
DATA kx_scidx<>+88(SB)/8, $0x0000000200000002
DATA kx_scidx<>+96(SB)/8, $0x0000000300000003
DATA kx_scidx<>+104(SB)/8, $0x0000000300000003
DATA kx_scidx<>+112(SB)/8, $0x0000000300000003
DATA kx_scidx<>+120(SB)/8, $0x0000000300000003
DATA kx_scidx<>+128(SB)/8, $0x0000000400000004
DATA kx_scidx<>+136(SB)/8, $0x0000000400000004
DATA kx_scidx<>+144(SB)/8, $0x0000000400000004
DATA kx_scidx<>+152(SB)/8, $0x0000000400000004
DATA kx_scidx<>+160(SB)/8, $0x0000000500000005
DATA kx_scidx<>+168(SB)/8, $0x0000000500000005
DATA kx_scidx<>+176(SB)/8, $0x0000000500000005
DATA kx_scidx<>+184(SB)/8, $0x0000000500000005
DATA kx_scidx<>+192(SB)/8, $0x0000000600000006
DATA kx_scidx<>+200(SB)/8, $0x0000000600000006
DATA kx_scidx<>+208(SB)/8, $0x0000000600000006
DATA kx_scidx<>+216(SB)/8, $0x0000000600000006
DATA kx_scidx<>+224(SB)/8, $0x0000000700000007
DATA kx_scidx<>+232(SB)/8, $0x0000000700000007
DATA kx_scidx<>+240(SB)/8, $0x0000000700000007
DATA kx_scidx<>+248(SB)/8, $0x0000000700000007
DATA kx_scidx<>+256(SB)/8, $0x0000000800000008
DATA kx_scidx<>+264(SB)/8, $0x0000000800000008
DATA kx_scidx<>+272(SB)/8, $0x0000000800000008
DATA kx_scidx<>+280(SB)/8, $0x0000000800000008
DATA kx_scidx<>+288(SB)/8, $0x0000000900000009
DATA kx_scidx<>+296(SB)/8, $0x0000000900000009
DATA kx_scidx<>+304(SB)/8, $0x0000000900000009
DATA kx_scidx<>+312(SB)/8, $0x0000000900000009
DATA kx_scidx<>+320(SB)/8, $0x0000000a0000000a
DATA kx_scidx<>+328(SB)/8, $0x0000000a0000000a
DATA kx_scidx<>+336(SB)/8, $0x0000000a0000000a
DATA kx_scidx<>+344(SB)/8, $0x0000000a0000000a
DATA kx_scidx<>+352(SB)/8, $0x0000000b0000000b
DATA kx_scidx<>+360(SB)/8, $0x0000000b0000000b
DATA kx_scidx<>+368(SB)/8, $0x0000000b0000000b
DATA kx_scidx<>+376(SB)/8, $0x0000000b0000000b
DATA kx_scidx<>+384(SB)/8, $0x0000000c0000000c
DATA kx_scidx<>+392(SB)/8, $0x0000000c0000000c
DATA kx_scidx<>+400(SB)/8, $0x0000000c0000000c
DATA kx_scidx<>+408(SB)/8, $0x0000000c0000000c
DATA kx_scidx<>+416(SB)/8, $0x0000000d0000000d
DATA kx_scidx<>+424(SB)/8, $0x0000000d0000000d
DATA kx_scidx<>+432(SB)/8, $0x0000000d0000000d
DATA kx_scidx<>+440(SB)/8, $0x0000000d0000000d
DATA kx_scidx<>+448(SB)/8, $0x0000000e0000000e
DATA kx_scidx<>+456(SB)/8, $0x0000000e0000000e
DATA kx_scidx<>+464(SB)/8, $0x0000000e0000000e
DATA kx_scidx<>+472(SB)/8, $0x0000000e0000000e
DATA kx_scidx<>+480(SB)/8, $0x0000000f0000000f
DATA kx_scidx<>+488(SB)/8, $0x0000000f0000000f
DATA kx_scidx<>+496(SB)/8, $0x0000000f0000000f
DATA kx_scidx<>+504(SB)/8, $0x0000000f0000000f
GLOBL kx_scidx<>(SB), RODATA|NOPTR, $512

// kx_scsh: VPSRLVD counts that take sub-block s's 4 low scale bits from
// scales_l (dword 4, counts 4s) and its 2 high ones from scales_h (the
// high word of dword 0, counts 16+2s), for both super-blocks of a pair.
DATA kx_scsh<>+0(SB)/8, $0x0000000400000000
DATA kx_scsh<>+8(SB)/8, $0x0000000c00000008
DATA kx_scsh<>+16(SB)/8, $0x0000001400000010
DATA kx_scsh<>+24(SB)/8, $0x0000001c00000018
DATA kx_scsh<>+32(SB)/8, $0x0000000400000000
DATA kx_scsh<>+40(SB)/8, $0x0000000c00000008
DATA kx_scsh<>+48(SB)/8, $0x0000001400000010
DATA kx_scsh<>+56(SB)/8, $0x0000001c00000018
DATA kx_scsh<>+64(SB)/8, $0x0000001200000010
DATA kx_scsh<>+72(SB)/8, $0x0000001600000014
DATA kx_scsh<>+80(SB)/8, $0x0000001a00000018
DATA kx_scsh<>+88(SB)/8, $0x0000001e0000001c
DATA kx_scsh<>+96(SB)/8, $0x0000001200000010
DATA kx_scsh<>+104(SB)/8, $0x0000001600000014
DATA kx_scsh<>+112(SB)/8, $0x0000001a00000018
DATA kx_scsh<>+120(SB)/8, $0x0000001e0000001c
GLOBL kx_scsh<>(SB), RODATA|NOPTR, $128

// IQ4XS_RUN multiplies two IQ4_XS sub-blocks (their 32 quant bytes at
// woff(SI)) with their 64 activations at aoff(DI): two broadcast loads,
// the second merged under K3 (dwords 8-15), put each 16-byte sub-block in
// two lanes, VPSRLVW and VPANDD take the low nibbles
// in the first and the high ones in the second, VPSHUFB looks up the
// levels, VPDPBUSD sums their products in fours, and VPMULLD weights the
// sums by the sub-block scales (VPERMD with index idx from Z9) into acc.
#define IQ4XS_RUN(woff, aoff, idx, acc) \
	VBROADCASTI32X4 woff(SI), Z4; \
	VBROADCASTI32X4 (woff+16)(SI), K3, Z4; \
	VPSRLVW Z13, Z4, Z4; \
	VPANDD Z14, Z4, Z4; \
	VPSHUFB Z4, Z30, Z4; \
	VPXORD Z5, Z5, Z5; \
	VPDPBUSD aoff(DI), Z4, Z5; \
	VPERMD Z9, idx, Z11; \
	VPMULLD Z11, Z5, Z5; \
	VPADDD Z5, acc, acc

// IQ4XS_SCALES turns the dwords [scales_l ×8 | ...] of Z8 and [d,
// scales_h ×8 | ...] of Z10 into the signed 6-bit scales, one a dword, in
// Z9 (Z24: dwords 15, Z29: 3, Z31: 32).
#define IQ4XS_SCALES \
	VPSRLVD kx_scsh<>+0(SB), Z8, Z8; \
	VPANDD Z24, Z8, Z8; \
	VPSRLVD kx_scsh<>+64(SB), Z10, Z10; \
	VPANDD Z29, Z10, Z10; \
	VPSLLD $4, Z10, Z10; \
	VPORD Z10, Z8, Z9; \
	VPSUBD Z31, Z9, Z9

// func dotIQ4XSAVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32
// Two super-blocks an iteration.
TEXT ·dotIQ4XSAVX512(SB), NOSPLIT, $0-44
	MOVQ w+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ qd+16(FP), DX
	MOVQ bsums+24(FP), BX
	MOVQ nb+32(FP), CX
	MOVL $0xff00, AX
	KMOVW AX, K3
	VPXORD Z0, Z0, Z0
	MOVL $0x0f0f0f0f, AX
	VPBROADCASTD AX, Z14
	MOVL $3, AX
	VPBROADCASTD AX, Z29
	MOVL $15, AX
	VPBROADCASTD AX, Z24
	MOVL $32, AX
	VPBROADCASTD AX, Z31
	MOVL $0x00010001, AX
	VPBROADCASTD AX, Z28
	VMOVDQU64 kx_lvl<>(SB), Z30
	VMOVDQU64 kx_nibshift<>(SB), Z13
	VMOVDQU64 kx_scidx<>+0(SB), Z16
	VMOVDQU64 kx_scidx<>+64(SB), Z17
	VMOVDQU64 kx_scidx<>+128(SB), Z18
	VMOVDQU64 kx_scidx<>+192(SB), Z19
	VMOVDQU64 kx_scidx<>+256(SB), Z20
	VMOVDQU64 kx_scidx<>+320(SB), Z21
	VMOVDQU64 kx_scidx<>+384(SB), Z22
	VMOVDQU64 kx_scidx<>+448(SB), Z23
	VMOVDQU64 k5_dperm<>+0(SB), Z25
	SUBQ $2, CX
	JB iq4xs512_one
iq4xs512_pair:
	VPBROADCASTD 4(SI), Y8
	VPBROADCASTD 140(SI), Y9
	VINSERTI64X4 $1, Y9, Z8, Z8
	VPBROADCASTD 0(SI), Y10
	VPBROADCASTD 136(SI), Y9
	VINSERTI64X4 $1, Y9, Z10, Z10
	IQ4XS_SCALES
	// The levels' +128: 128·Σ scale·(32-value sum of y).
	VPMADDWD (BX), Z28, Z10
	VPMULLD Z9, Z10, Z10
	VPSLLD $7, Z10, Z10
	VMOVD 0(SI), X12
	VPINSRD $1, 136(SI), X12, X12
	VCVTPH2PS X12, X12
	VMOVQ (DX), X15
	VUNPCKLPS X15, X15, X15
	VMULPS X15, X12, X12
	VPERMPS Z12, Z25, Z12
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	VPXORD Z26, Z26, Z26
	VPXORD Z27, Z27, Z27
	IQ4XS_RUN(8, 0, Z16, Z6)
	IQ4XS_RUN(40, 64, Z17, Z7)
	IQ4XS_RUN(72, 128, Z18, Z6)
	IQ4XS_RUN(104, 192, Z19, Z7)
	IQ4XS_RUN(144, 256, Z20, Z26)
	IQ4XS_RUN(176, 320, Z21, Z27)
	IQ4XS_RUN(208, 384, Z22, Z26)
	IQ4XS_RUN(240, 448, Z23, Z27)
	VPADDD Z7, Z6, Z6
	VPADDD Z27, Z26, Z27
	VSHUFI64X2 $0x44, Z27, Z6, Z7
	VSHUFI64X2 $0xee, Z27, Z6, Z6
	VPADDD Z7, Z6, Z6
	VPSUBD Z10, Z6, Z6
	VCVTDQ2PS Z6, Z6
	VFMADD231PS Z6, Z12, Z0
	ADDQ $272, SI
	ADDQ $512, DI
	ADDQ $8, DX
	ADDQ $64, BX
	SUBQ $2, CX
	JAE iq4xs512_pair
iq4xs512_one:
	ADDQ $2, CX
	JZ iq4xs512_done
	// The odd last super-block, in the low halves.
	VPBROADCASTD 4(SI), Y8
	VPBROADCASTD 0(SI), Y10
	IQ4XS_SCALES
	VPMADDWD (BX), Y28, Y10
	VPMULLD Y9, Y10, Y10
	VPSLLD $7, Y10, Y10
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	IQ4XS_RUN(8, 0, Z16, Z6)
	IQ4XS_RUN(40, 64, Z17, Z7)
	IQ4XS_RUN(72, 128, Z18, Z6)
	IQ4XS_RUN(104, 192, Z19, Z7)
	VPADDD Z7, Z6, Z6
	VEXTRACTI64X4 $1, Z6, Y7
	VPADDD Y7, Y6, Y6
	VPSUBD Y10, Y6, Y6
	MOVWLZX 0(SI), AX
	VMOVD AX, X12
	VCVTPH2PS X12, X12
	VMULSS (DX), X12, X12
	VBROADCASTSS X12, Z12
	VCVTDQ2PS Z6, Z6
	VFMADD231PS Z6, Z12, Z0
iq4xs512_done:
	ZSUM
	VMOVSS X0, ret+40(FP)
	VZEROUPPER
	RET

// kl_dperm: VPERMPS indices for the 32-value block kernels: [0 2 4 6 1 3 5
// 7] splits the converted [d, m] pairs of four blocks into d's and m's;
// the next two entries spread d·dy of blocks 0|1 and 2|3 over the two
// halves of a ZMM register.
DATA kl_dperm<>+0(SB)/8, $0x0000000200000000
DATA kl_dperm<>+8(SB)/8, $0x0000000600000004
DATA kl_dperm<>+16(SB)/8, $0x0000000300000001
DATA kl_dperm<>+24(SB)/8, $0x0000000700000005
DATA kl_dperm<>+32(SB)/8, $0x0000000000000000
DATA kl_dperm<>+40(SB)/8, $0x0000000000000000
DATA kl_dperm<>+48(SB)/8, $0x0000000000000000
DATA kl_dperm<>+56(SB)/8, $0x0000000000000000
DATA kl_dperm<>+64(SB)/8, $0x0000000000000000
DATA kl_dperm<>+72(SB)/8, $0x0000000000000000
DATA kl_dperm<>+80(SB)/8, $0x0000000000000000
DATA kl_dperm<>+88(SB)/8, $0x0000000000000000
DATA kl_dperm<>+96(SB)/8, $0x0000000100000001
DATA kl_dperm<>+104(SB)/8, $0x0000000100000001
DATA kl_dperm<>+112(SB)/8, $0x0000000100000001
DATA kl_dperm<>+120(SB)/8, $0x0000000100000001
DATA kl_dperm<>+128(SB)/8, $0x0000000200000002
DATA kl_dperm<>+136(SB)/8, $0x0000000200000002
DATA kl_dperm<>+144(SB)/8, $0x0000000200000002
DATA kl_dperm<>+152(SB)/8, $0x0000000200000002
DATA kl_dperm<>+160(SB)/8, $0x0000000300000003
DATA kl_dperm<>+168(SB)/8, $0x0000000300000003
DATA kl_dperm<>+176(SB)/8, $0x0000000300000003
DATA kl_dperm<>+184(SB)/8, $0x0000000300000003
GLOBL kl_dperm<>(SB), RODATA|NOPTR, $192

// The 32-value block kernels (Q4_1, Q5_1, Q5_0, IQ4_NL against Q8_0/Q8_1
// activations) run four blocks an iteration, two to a ZMM register: each
// block's 16 quant bytes go to two 128-bit lanes, VPSRLVW (Z13) and
// VPANDD take the low nibbles in the first and the high ones in the
// second, VPDPBUSD sums their products with the activations in fours.
// Each block's offset (Q4_1/Q5_1's m, Q5_0's -16, the +128 of IQ4_NL's
// unsigned levels) is applied through the activations' negated block sums
// into X1; the last nb mod 4 blocks run one at a time on YMM registers
// into Y2.
// func dotQ4_1AVX512(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32
TEXT ·dotQ4_1AVX512(SB), NOSPLIT, $0-44
	MOVQ w+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ qd+16(FP), DX
	MOVQ neg+24(FP), BX
	MOVQ nb+32(FP), CX
	VPXORD Z0, Z0, Z0
	VXORPS X1, X1, X1
	VXORPS X2, X2, X2
	MOVL $0x0f0f0f0f, AX
	VPBROADCASTD AX, Z14
	MOVL $0x10101010, AX
	VPBROADCASTD AX, Z29
	VMOVDQU64 kx_nibshift<>(SB), Z13
	VMOVDQU64 kl_dperm<>+0(SB), Z20
	VMOVDQU64 kl_dperm<>+64(SB), Z21
	VMOVDQU64 kl_dperm<>+128(SB), Z22
	SUBQ $4, CX
	JB q41x_tail
q41x_four:
	VMOVD 0(SI), X8
	VPINSRD $1, 20(SI), X8, X8
	VPINSRD $2, 40(SI), X8, X8
	VPINSRD $3, 60(SI), X8, X8
	VCVTPH2PS X8, Y8
	VPERMPS Y8, Y20, Y8
	VBROADCASTF128 (DX), Y9
	VMULPS Y9, Y8, Y8
	VCVTDQ2PS (BX), X9
	VEXTRACTF128 $1, Y8, X10
	VFNMADD231PS X9, X10, X1
	VPERMPS Z8, Z21, Z10
	VPERMPS Z8, Z22, Z11
	VMOVDQU 4(SI), X4
	VINSERTI128 $1, 24(SI), Y4, Y4
	VSHUFI64X2 $0x50, Z4, Z4, Z4
	VPSRLVW Z13, Z4, Z4
	VPANDD Z14, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPDPBUSD 0(DI), Z4, Z5
	VCVTDQ2PS Z5, Z5
	VFMADD231PS Z5, Z10, Z0
	VMOVDQU 44(SI), X4
	VINSERTI128 $1, 64(SI), Y4, Y4
	VSHUFI64X2 $0x50, Z4, Z4, Z4
	VPSRLVW Z13, Z4, Z4
	VPANDD Z14, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPDPBUSD 64(DI), Z4, Z5
	VCVTDQ2PS Z5, Z5
	VFMADD231PS Z5, Z11, Z0
	ADDQ $80, SI
	ADDQ $128, DI
	ADDQ $16, DX
	ADDQ $16, BX
	SUBQ $4, CX
	JAE q41x_four
q41x_tail:
	ADDQ $4, CX
	JZ q41x_done
q41x_one:
	VMOVDQU 4(SI), X4
	VPSRLW $4, X4, X5
	VINSERTI128 $1, X5, Y4, Y4
	VPAND Y14, Y4, Y4
	VPXORD Y5, Y5, Y5
	VPDPBUSD (DI), Y4, Y5
	VCVTDQ2PS Y5, Y5
	MOVWLZX 0(SI), AX
	VMOVD AX, X6
	VCVTPH2PS X6, X6
	VMULSS (DX), X6, X6
	VBROADCASTSS X6, Y7
	VFMADD231PS Y5, Y7, Y2
	MOVWLZX 2(SI), AX
	VMOVD AX, X7
	VCVTPH2PS X7, X7
	VMULSS (DX), X7, X7
	VCVTSI2SSL (BX), X8, X8
	VMULSS X8, X7, X7
	VSUBSS X7, X1, X1
	ADDQ $20, SI
	ADDQ $32, DI
	ADDQ $4, DX
	ADDQ $4, BX
	DECQ CX
	JNZ q41x_one
q41x_done:
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

// func dotQ5_1AVX512(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32
TEXT ·dotQ5_1AVX512(SB), NOSPLIT, $0-44
	MOVQ w+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ qd+16(FP), DX
	MOVQ neg+24(FP), BX
	MOVQ nb+32(FP), CX
	VPXORD Z0, Z0, Z0
	VXORPS X1, X1, X1
	VXORPS X2, X2, X2
	MOVL $0x0f0f0f0f, AX
	VPBROADCASTD AX, Z14
	MOVL $0x10101010, AX
	VPBROADCASTD AX, Z29
	VMOVDQU64 kx_nibshift<>(SB), Z13
	VMOVDQU64 kl_dperm<>+0(SB), Z20
	VMOVDQU64 kl_dperm<>+64(SB), Z21
	VMOVDQU64 kl_dperm<>+128(SB), Z22
	SUBQ $4, CX
	JB q51x_tail
q51x_four:
	VMOVD 0(SI), X8
	VPINSRD $1, 24(SI), X8, X8
	VPINSRD $2, 48(SI), X8, X8
	VPINSRD $3, 72(SI), X8, X8
	VCVTPH2PS X8, Y8
	VPERMPS Y8, Y20, Y8
	VBROADCASTF128 (DX), Y9
	VMULPS Y9, Y8, Y8
	VCVTDQ2PS (BX), X9
	VEXTRACTF128 $1, Y8, X10
	VFNMADD231PS X9, X10, X1
	VPERMPS Z8, Z21, Z10
	VPERMPS Z8, Z22, Z11
	VMOVDQU 8(SI), X4
	VINSERTI128 $1, 32(SI), Y4, Y4
	VSHUFI64X2 $0x50, Z4, Z4, Z4
	VPSRLVW Z13, Z4, Z4
	VPANDD Z14, Z4, Z4
	MOVL 4(SI), AX
	MOVL 28(SI), R8
	SHLQ $32, R8
	ORQ R8, AX
	KMOVQ AX, K1
	VPADDB Z29, Z4, K1, Z4
	VPXORD Z5, Z5, Z5
	VPDPBUSD 0(DI), Z4, Z5
	VCVTDQ2PS Z5, Z5
	VFMADD231PS Z5, Z10, Z0
	VMOVDQU 56(SI), X4
	VINSERTI128 $1, 80(SI), Y4, Y4
	VSHUFI64X2 $0x50, Z4, Z4, Z4
	VPSRLVW Z13, Z4, Z4
	VPANDD Z14, Z4, Z4
	MOVL 52(SI), AX
	MOVL 76(SI), R8
	SHLQ $32, R8
	ORQ R8, AX
	KMOVQ AX, K1
	VPADDB Z29, Z4, K1, Z4
	VPXORD Z5, Z5, Z5
	VPDPBUSD 64(DI), Z4, Z5
	VCVTDQ2PS Z5, Z5
	VFMADD231PS Z5, Z11, Z0
	ADDQ $96, SI
	ADDQ $128, DI
	ADDQ $16, DX
	ADDQ $16, BX
	SUBQ $4, CX
	JAE q51x_four
q51x_tail:
	ADDQ $4, CX
	JZ q51x_done
q51x_one:
	VMOVDQU 8(SI), X4
	VPSRLW $4, X4, X5
	VINSERTI128 $1, X5, Y4, Y4
	VPAND Y14, Y4, Y4
	MOVL 4(SI), AX
	KMOVD AX, K1
	VPADDB Y29, Y4, K1, Y4
	VPXORD Y5, Y5, Y5
	VPDPBUSD (DI), Y4, Y5
	VCVTDQ2PS Y5, Y5
	MOVWLZX 0(SI), AX
	VMOVD AX, X6
	VCVTPH2PS X6, X6
	VMULSS (DX), X6, X6
	VBROADCASTSS X6, Y7
	VFMADD231PS Y5, Y7, Y2
	MOVWLZX 2(SI), AX
	VMOVD AX, X7
	VCVTPH2PS X7, X7
	VMULSS (DX), X7, X7
	VCVTSI2SSL (BX), X8, X8
	VMULSS X8, X7, X7
	VSUBSS X7, X1, X1
	ADDQ $24, SI
	ADDQ $32, DI
	ADDQ $4, DX
	ADDQ $4, BX
	DECQ CX
	JNZ q51x_one
q51x_done:
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

// func dotQ5_0AVX512(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32
TEXT ·dotQ5_0AVX512(SB), NOSPLIT, $0-44
	MOVQ w+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ qd+16(FP), DX
	MOVQ neg+24(FP), BX
	MOVQ nb+32(FP), CX
	VPXORD Z0, Z0, Z0
	VXORPS X1, X1, X1
	VXORPS X2, X2, X2
	MOVL $0x0f0f0f0f, AX
	VPBROADCASTD AX, Z14
	MOVL $0x10101010, AX
	VPBROADCASTD AX, Z29
	VMOVDQU64 kx_nibshift<>(SB), Z13
	VMOVDQU64 kl_dperm<>+0(SB), Z20
	VMOVDQU64 kl_dperm<>+64(SB), Z21
	VMOVDQU64 kl_dperm<>+128(SB), Z22
	SUBQ $4, CX
	JB q50x_tail
q50x_four:
	VMOVD 0(SI), X8
	VPINSRD $1, 22(SI), X8, X8
	VPINSRD $2, 44(SI), X8, X8
	VPINSRD $3, 66(SI), X8, X8
	VCVTPH2PS X8, Y8
	VPERMPS Y8, Y20, Y8
	VBROADCASTF128 (DX), Y9
	VMULPS Y9, Y8, Y8
	VCVTDQ2PS (BX), X9
	VMOVDQU (BX), X9
	VPSLLD $4, X9, X9
	VCVTDQ2PS X9, X9
	VFMADD231PS X9, X8, X1
	VPERMPS Z8, Z21, Z10
	VPERMPS Z8, Z22, Z11
	VMOVDQU 6(SI), X4
	VINSERTI128 $1, 28(SI), Y4, Y4
	VSHUFI64X2 $0x50, Z4, Z4, Z4
	VPSRLVW Z13, Z4, Z4
	VPANDD Z14, Z4, Z4
	MOVL 2(SI), AX
	MOVL 24(SI), R8
	SHLQ $32, R8
	ORQ R8, AX
	KMOVQ AX, K1
	VPADDB Z29, Z4, K1, Z4
	VPXORD Z5, Z5, Z5
	VPDPBUSD 0(DI), Z4, Z5
	VCVTDQ2PS Z5, Z5
	VFMADD231PS Z5, Z10, Z0
	VMOVDQU 50(SI), X4
	VINSERTI128 $1, 72(SI), Y4, Y4
	VSHUFI64X2 $0x50, Z4, Z4, Z4
	VPSRLVW Z13, Z4, Z4
	VPANDD Z14, Z4, Z4
	MOVL 46(SI), AX
	MOVL 68(SI), R8
	SHLQ $32, R8
	ORQ R8, AX
	KMOVQ AX, K1
	VPADDB Z29, Z4, K1, Z4
	VPXORD Z5, Z5, Z5
	VPDPBUSD 64(DI), Z4, Z5
	VCVTDQ2PS Z5, Z5
	VFMADD231PS Z5, Z11, Z0
	ADDQ $88, SI
	ADDQ $128, DI
	ADDQ $16, DX
	ADDQ $16, BX
	SUBQ $4, CX
	JAE q50x_four
q50x_tail:
	ADDQ $4, CX
	JZ q50x_done
q50x_one:
	VMOVDQU 6(SI), X4
	VPSRLW $4, X4, X5
	VINSERTI128 $1, X5, Y4, Y4
	VPAND Y14, Y4, Y4
	MOVL 2(SI), AX
	KMOVD AX, K1
	VPADDB Y29, Y4, K1, Y4
	VPXORD Y5, Y5, Y5
	VPDPBUSD (DI), Y4, Y5
	VCVTDQ2PS Y5, Y5
	MOVWLZX 0(SI), AX
	VMOVD AX, X6
	VCVTPH2PS X6, X6
	VMULSS (DX), X6, X6
	VBROADCASTSS X6, Y7
	VFMADD231PS Y5, Y7, Y2
	MOVL (BX), R8
	SHLL $4, R8
	VCVTSI2SSL R8, X8, X8
	VMULSS X8, X6, X6
	VADDSS X6, X1, X1
	ADDQ $22, SI
	ADDQ $32, DI
	ADDQ $4, DX
	ADDQ $4, BX
	DECQ CX
	JNZ q50x_one
q50x_done:
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

// func dotIQ4NLAVX512(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32
TEXT ·dotIQ4NLAVX512(SB), NOSPLIT, $0-44
	MOVQ w+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ qd+16(FP), DX
	MOVQ neg+24(FP), BX
	MOVQ nb+32(FP), CX
	VPXORD Z0, Z0, Z0
	VXORPS X1, X1, X1
	VXORPS X2, X2, X2
	MOVL $0x0f0f0f0f, AX
	VPBROADCASTD AX, Z14
	MOVL $0x10101010, AX
	VPBROADCASTD AX, Z29
	VMOVDQU64 kx_nibshift<>(SB), Z13
	VMOVDQU64 kx_lvl<>(SB), Z30
	VMOVDQU64 kl_dperm<>+0(SB), Z20
	VMOVDQU64 kl_dperm<>+64(SB), Z21
	VMOVDQU64 kl_dperm<>+128(SB), Z22
	SUBQ $4, CX
	JB iq4nlx_tail
iq4nlx_four:
	VMOVD 0(SI), X8
	VPINSRD $1, 18(SI), X8, X8
	VPINSRD $2, 36(SI), X8, X8
	VPINSRD $3, 54(SI), X8, X8
	VCVTPH2PS X8, Y8
	VPERMPS Y8, Y20, Y8
	VBROADCASTF128 (DX), Y9
	VMULPS Y9, Y8, Y8
	VCVTDQ2PS (BX), X9
	VMOVDQU (BX), X9
	VPSLLD $7, X9, X9
	VCVTDQ2PS X9, X9
	VFMADD231PS X9, X8, X1
	VPERMPS Z8, Z21, Z10
	VPERMPS Z8, Z22, Z11
	VMOVDQU 2(SI), X4
	VINSERTI128 $1, 20(SI), Y4, Y4
	VSHUFI64X2 $0x50, Z4, Z4, Z4
	VPSRLVW Z13, Z4, Z4
	VPANDD Z14, Z4, Z4
	VPSHUFB Z4, Z30, Z4
	VPXORD Z5, Z5, Z5
	VPDPBUSD 0(DI), Z4, Z5
	VCVTDQ2PS Z5, Z5
	VFMADD231PS Z5, Z10, Z0
	VMOVDQU 38(SI), X4
	VINSERTI128 $1, 56(SI), Y4, Y4
	VSHUFI64X2 $0x50, Z4, Z4, Z4
	VPSRLVW Z13, Z4, Z4
	VPANDD Z14, Z4, Z4
	VPSHUFB Z4, Z30, Z4
	VPXORD Z5, Z5, Z5
	VPDPBUSD 64(DI), Z4, Z5
	VCVTDQ2PS Z5, Z5
	VFMADD231PS Z5, Z11, Z0
	ADDQ $72, SI
	ADDQ $128, DI
	ADDQ $16, DX
	ADDQ $16, BX
	SUBQ $4, CX
	JAE iq4nlx_four
iq4nlx_tail:
	ADDQ $4, CX
	JZ iq4nlx_done
iq4nlx_one:
	VMOVDQU 2(SI), X4
	VPSRLW $4, X4, X5
	VINSERTI128 $1, X5, Y4, Y4
	VPAND Y14, Y4, Y4
	VPSHUFB Y4, Y30, Y4
	VPXORD Y5, Y5, Y5
	VPDPBUSD (DI), Y4, Y5
	VCVTDQ2PS Y5, Y5
	MOVWLZX 0(SI), AX
	VMOVD AX, X6
	VCVTPH2PS X6, X6
	VMULSS (DX), X6, X6
	VBROADCASTSS X6, Y7
	VFMADD231PS Y5, Y7, Y2
	MOVL (BX), R8
	SHLL $7, R8
	VCVTSI2SSL R8, X8, X8
	VMULSS X8, X6, X6
	VADDSS X6, X1, X1
	ADDQ $18, SI
	ADDQ $32, DI
	ADDQ $4, DX
	ADDQ $4, BX
	DECQ CX
	JNZ iq4nlx_one
iq4nlx_done:
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


// k6_qhshift: VPSLLVW counts [4|2] and VPSRLVW counts [0|2], which bring
// the four 2-bit planes of Q6_K's qh, broadcast to both halves, to bits
// 4-5.
DATA k6_qhshift<>+0(SB)/8, $0x0004000400040004
DATA k6_qhshift<>+8(SB)/8, $0x0004000400040004
DATA k6_qhshift<>+16(SB)/8, $0x0004000400040004
DATA k6_qhshift<>+24(SB)/8, $0x0004000400040004
DATA k6_qhshift<>+32(SB)/8, $0x0002000200020002
DATA k6_qhshift<>+40(SB)/8, $0x0002000200020002
DATA k6_qhshift<>+48(SB)/8, $0x0002000200020002
DATA k6_qhshift<>+56(SB)/8, $0x0002000200020002
DATA k6_qhshift<>+64(SB)/8, $0x0000000000000000
DATA k6_qhshift<>+72(SB)/8, $0x0000000000000000
DATA k6_qhshift<>+80(SB)/8, $0x0000000000000000
DATA k6_qhshift<>+88(SB)/8, $0x0000000000000000
DATA k6_qhshift<>+96(SB)/8, $0x0002000200020002
DATA k6_qhshift<>+104(SB)/8, $0x0002000200020002
DATA k6_qhshift<>+112(SB)/8, $0x0002000200020002
DATA k6_qhshift<>+120(SB)/8, $0x0002000200020002
GLOBL k6_qhshift<>(SB), RODATA|NOPTR, $128

// Q6K_HALF multiplies the 128 values of half of a Q6_K super-block: the
// 64 ql bytes at qlo(SI) give runs of low nibbles (values 0-63 of the
// half) and high nibbles (64-127) in activation order, each with two qh
// bits from the 32 bytes at qho(SI) (VPTERNLOGD A | B&C with Z31's 0x30),
// weighted by the scales VPERMW spreads with idxa and idxb into acca and
// accb; the -32 goes through bsums.
#define Q6K_HALF(qlo, qho, aoff, idxa, idxb, op, acca, accb) \
	VMOVDQU64 qlo(SI), Z3; \
	VBROADCASTI64X4 qho(SI), Z30; \
	VPANDD Z14, Z3, Z4; \
	VPSLLVW Z13, Z30, Z5; \
	VPTERNLOGD $0xf8, Z31, Z5, Z4; \
	VPMADDUBSW aoff(DI), Z4, Z4; \
	VPERMW Z9, idxa, Z5; \
	op Z5, Z4, acca; \
	VPSRLW $4, Z3, Z4; \
	VPANDD Z14, Z4, Z4; \
	VPSRLVW Z24, Z30, Z5; \
	VPTERNLOGD $0xf8, Z31, Z5, Z4; \
	VPMADDUBSW (aoff+64)(DI), Z4, Z4; \
	VPERMW Z9, idxb, Z5; \
	op Z5, Z4, accb

// func dotQ6KRowsAVX512(w *byte, ldw int, qs *int8, qd *float32, bsums *int16, nb int, out *float32, rows int)
// rows Q6_K weight rows (rows > 0), ldw bytes apart, times one row of Q8_K
// activations, into out[0:rows], the tables loaded once for all the rows
// (KROWS_ROW, KROWS_NEXT). Two super-blocks an iteration, as dotQ3KAVX512.
TEXT ·dotQ6KRowsAVX512(SB), NOSPLIT, $0-64
	MOVL $0x0f0f0f0f, AX
	VPBROADCASTD AX, Z14
	MOVL $0x30303030, AX
	VPBROADCASTD AX, Z31
	VMOVDQU64 k6_qhshift<>+0(SB), Z13
	VMOVDQU64 k6_qhshift<>+64(SB), Z24
	K_LOADIDX(k2_scidx<>)
q6k512_row:
	KROWS_ROW
	SUBQ $2, CX
	JB q6k512_one
q6k512_pair:
	VMOVDQU 192(SI), X11
	VINSERTI128 $1, 402(SI), Y11, Y11
	VPMOVSXBW Y11, Z9
	VPMADDWD (BX), Z9, Z10
	VPSLLD $5, Z10, Z10
	MOVWLZX 208(SI), AX
	VMOVD AX, X12
	VPINSRW $2, 418(SI), X12, X12
	VCVTPH2PS X12, X12
	VMOVQ (DX), X15
	VUNPCKLPS X15, X15, X15
	VMULPS X15, X12, X12
	VPERMPS Z12, Z25, Z12
	Q6K_HALF(0, 128, 0, Z16, Z17, VPMADDWD, Z6, Z7)
	Q6K_HALF(64, 160, 128, Z18, Z19, VPDPWSSD, Z6, Z7)
	Q6K_HALF(210, 338, 256, Z20, Z21, VPMADDWD, Z27, Z28)
	Q6K_HALF(274, 370, 384, Z22, Z23, VPDPWSSD, Z27, Z28)
	VPADDD Z7, Z6, Z6
	VPADDD Z28, Z27, Z27
	VSHUFI64X2 $0x44, Z27, Z6, Z7
	VSHUFI64X2 $0xee, Z27, Z6, Z6
	VPADDD Z7, Z6, Z6
	VPSUBD Z10, Z6, Z6
	VCVTDQ2PS Z6, Z6
	VFMADD231PS Z6, Z12, Z0
	ADDQ $420, SI
	ADDQ $512, DI
	ADDQ $8, DX
	ADDQ $64, BX
	SUBQ $2, CX
	JAE q6k512_pair
q6k512_one:
	ADDQ $2, CX
	JZ q6k512_done
	// The odd last super-block.
	VMOVDQU 192(SI), X11
	VPMOVSXBW X11, Y9
	VPMADDWD (BX), Y9, Y10
	VPSLLD $5, Y10, Y10
	Q6K_HALF(0, 128, 0, Z16, Z17, VPMADDWD, Z6, Z7)
	Q6K_HALF(64, 160, 128, Z18, Z19, VPDPWSSD, Z6, Z7)
	VPADDD Z7, Z6, Z6
	VEXTRACTI64X4 $1, Z6, Y7
	VPADDD Y7, Y6, Y6
	VPSUBD Y10, Y6, Y6
	MOVWLZX 208(SI), AX
	VMOVD AX, X12
	VCVTPH2PS X12, X12
	VMULSS (DX), X12, X12
	VBROADCASTSS X12, Z12
	VCVTDQ2PS Z6, Z6
	VFMADD231PS Z6, Z12, Z0
q6k512_done:
	VEXTRACTF64X4 $1, Z0, Y2
	VADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X2
	VADDPS X2, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	KROWS_NEXT(q6k512_row)
	VZEROUPPER
	RET

// Q4KX4_RUN unpacks two sub-blocks of a Q4_K weight row (32 quant bytes at
// woff(SI)) once and multiplies them with four activation rows (at
// aoff(DI), one row nb super-blocks after the other; R10 the fourth),
// weighted by the scales VPERMW spreads with index idx, into Z24-Z27.
#define Q4KX4_RUN(woff, aoff, idx, op) \
	VBROADCASTI64X4 woff(SI), Z4; \
	VPSRLVW Z13, Z4, Z4; \
	VPANDD Z14, Z4, Z4; \
	VPERMW Z9, idx, Z5; \
	VPMADDUBSW aoff(DI), Z4, Z6; \
	op Z5, Z6, Z24; \
	VPMADDUBSW aoff(DI)(AX*1), Z4, Z7; \
	op Z5, Z7, Z25; \
	VPMADDUBSW aoff(DI)(AX*2), Z4, Z8; \
	op Z5, Z8, Z26; \
	VPMADDUBSW aoff(R10), Z4, Z10; \
	op Z5, Z10, Z27

// Q4KX4_ROW finishes activation row c of a super-block (its bsums at bs,
// its dy at dy): the mins' part goes to Y(20+c), the int sums in isum,
// scaled by d·dy, to acc.
#define Q4KX4_ROW(bs, dy, isum, minacc, acc) \
	VBROADCASTSS dy, Z12; \
	VMULPS Z12, Z29, Z11; \
	VMULPS Y12, Y30, Y12; \
	VPMADDWD bs, Y28, Y10; \
	VCVTDQ2PS Y10, Y10; \
	VFNMADD231PS Y10, Y12, minacc; \
	VCVTDQ2PS isum, isum; \
	VFMADD231PS isum, Z11, acc

// func dotQ4Kx4AVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int, out *float32)
// Four activation rows, nb super-blocks apart, against one weight row,
// each weight block unpacked once for the four; their float sums are in
// Z0, Z1, Z15 and Z3 (K5_SCALES writes X2).
TEXT ·dotQ4Kx4AVX512(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ qd+16(FP), DX
	MOVQ bsums+24(FP), BX
	MOVQ nb+32(FP), CX
	MOVQ CX, AX
	SHLQ $8, AX
	MOVL $0x0f0f0f0f, R11
	VPBROADCASTD R11, Z14
	VMOVDQU64 k5_nibshift<>(SB), Z13
	VMOVDQU64 k5_scidx<>+0(SB), Z16
	VMOVDQU64 k5_scidx<>+64(SB), Z17
	VMOVDQU64 k5_scidx<>+128(SB), Z18
	VMOVDQU64 k5_scidx<>+192(SB), Z19
	VMOVDQU64 k5_minidx<>(SB), Z31
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z15, Z15, Z15
	VPXORD Z3, Z3, Z3
	VPXORD Z20, Z20, Z20
	VPXORD Z21, Z21, Z21
	VPXORD Z22, Z22, Z22
	VPXORD Z23, Z23, Z23
q4kx4512_loop:
	K5_SCALES
	VPMOVZXBW X2, Y9
	VPERMW Z9, Z31, Z28
	VPBROADCASTW 0(SI), Y29
	VCVTPH2PS Y29, Z29
	VPBROADCASTW 2(SI), X30
	VCVTPH2PS X30, Y30
	// K5_SCALES clobbered R8-R13: the row strides again, from AX.
	MOVQ AX, R12
	SHRQ $3, R12
	MOVQ AX, R13
	SHRQ $6, R13
	LEAQ (DI)(AX*2), R10
	ADDQ AX, R10
	Q4KX4_RUN(16, 0, Z16, VPMADDWD)
	Q4KX4_RUN(48, 64, Z17, VPDPWSSD)
	Q4KX4_RUN(80, 128, Z18, VPDPWSSD)
	Q4KX4_RUN(112, 192, Z19, VPDPWSSD)
	LEAQ (BX)(R12*2), R8
	ADDQ R12, R8
	LEAQ (DX)(R13*2), R9
	ADDQ R13, R9
	Q4KX4_ROW((BX), (DX), Z24, Y20, Z0)
	Q4KX4_ROW((BX)(R12*1), (DX)(R13*1), Z25, Y21, Z1)
	Q4KX4_ROW((BX)(R12*2), (DX)(R13*2), Z26, Y22, Z15)
	Q4KX4_ROW((R8), (R9), Z27, Y23, Z3)
	ADDQ $144, SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, BX
	DECQ CX
	JNZ q4kx4512_loop
	VEXTRACTF64X4 $1, Z0, Y4
	VADDPS Y4, Y0, Y0
	VADDPS Y20, Y0, Y0
	VEXTRACTF64X4 $1, Z1, Y4
	VADDPS Y4, Y1, Y1
	VADDPS Y21, Y1, Y1
	VEXTRACTF64X4 $1, Z15, Y4
	VADDPS Y4, Y15, Y2
	VADDPS Y22, Y2, Y2
	VEXTRACTF64X4 $1, Z3, Y4
	VADDPS Y4, Y3, Y3
	VADDPS Y23, Y3, Y3
	MOVQ out+40(FP), R8
	VHADDPS Y1, Y0, Y0
	VHADDPS Y3, Y2, Y2
	VHADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VMOVUPS X0, (R8)
	VZEROUPPER
	RET

// X4_MUL4 multiplies the unpacked quants in Z4 with four activation rows
// at aoff (R10: the fourth), weighted by Z5's scales, into Z24-Z27.
#define X4_MUL4(aoff, op) \
	VPMADDUBSW aoff(DI), Z4, Z6; \
	op Z5, Z6, Z24; \
	VPMADDUBSW aoff(DI)(AX*1), Z4, Z7; \
	op Z5, Z7, Z25; \
	VPMADDUBSW aoff(DI)(AX*2), Z4, Z8; \
	op Z5, Z8, Z26; \
	VPMADDUBSW aoff(R10), Z4, Z10; \
	op Z5, Z10, Z27

// Q6KX4_HALF is Q6K_HALF against four activation rows.
#define Q6KX4_HALF(qlo, qho, aoff, idxa, idxb, op) \
	VMOVDQU64 qlo(SI), Z3; \
	VBROADCASTI64X4 qho(SI), Z30; \
	VPANDD Z14, Z3, Z4; \
	VPSLLVW Z13, Z30, Z5; \
	VPTERNLOGD $0xf8, Z31, Z5, Z4; \
	VPERMW Z9, idxa, Z5; \
	X4_MUL4(aoff, op); \
	VPSRLW $4, Z3, Z4; \
	VPANDD Z14, Z4, Z4; \
	VPSRLVW Z28, Z30, Z5; \
	VPTERNLOGD $0xf8, Z31, Z5, Z4; \
	VPERMW Z9, idxb, Z5; \
	X4_MUL4(aoff+64, VPDPWSSD)

// Q6KX4_ROW finishes activation row c of a Q6_K super-block: its int
// sums (isum, folded to 8 lanes) less 32·Σ scale·bsum (bsums at bs),
// scaled by d·dy (dy at dy), go to the row's 8-lane sum acc.
#define Q6KX4_ROW(bs, dy, isum, ysum, acc) \
	VEXTRACTI64X4 $1, isum, Y10; \
	VPADDD Y10, ysum, ysum; \
	VPMADDWD bs, Y9, Y10; \
	VPSLLD $5, Y10, Y10; \
	VPSUBD Y10, ysum, ysum; \
	VCVTDQ2PS ysum, ysum; \
	VBROADCASTSS dy, Y12; \
	VMULPS Y12, Y29, Y12; \
	VFMADD231PS ysum, Y12, acc

// func dotQ6Kx4AVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int, out *float32)
// Four activation rows, nb super-blocks apart, against one weight row,
// each weight block unpacked once for the four.
TEXT ·dotQ6Kx4AVX512(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ qd+16(FP), DX
	MOVQ bsums+24(FP), BX
	MOVQ nb+32(FP), CX
	MOVQ CX, AX
	SHLQ $8, AX
	MOVQ CX, R12
	SHLQ $5, R12
	MOVQ CX, R13
	SHLQ $2, R13
	MOVL $0x0f0f0f0f, R11
	VPBROADCASTD R11, Z14
	MOVL $0x30303030, R11
	VPBROADCASTD R11, Z31
	VMOVDQU64 k6_qhshift<>+0(SB), Z13
	VMOVDQU64 k6_qhshift<>+64(SB), Z28
	VMOVDQU64 k2_scidx<>+0(SB), Z16
	VMOVDQU64 k2_scidx<>+64(SB), Z17
	VMOVDQU64 k2_scidx<>+128(SB), Z18
	VMOVDQU64 k2_scidx<>+192(SB), Z19
	VPXORD Z20, Z20, Z20
	VPXORD Z21, Z21, Z21
	VPXORD Z22, Z22, Z22
	VPXORD Z23, Z23, Z23
q6kx4512_loop:
	VMOVDQU 192(SI), X11
	VPMOVSXBW X11, Y9
	VPBROADCASTW 208(SI), X29
	VCVTPH2PS X29, Y29
	LEAQ (DI)(AX*2), R10
	ADDQ AX, R10
	Q6KX4_HALF(0, 128, 0, Z16, Z17, VPMADDWD)
	Q6KX4_HALF(64, 160, 128, Z18, Z19, VPDPWSSD)
	LEAQ (BX)(R12*2), R8
	ADDQ R12, R8
	LEAQ (DX)(R13*2), R9
	ADDQ R13, R9
	Q6KX4_ROW((BX), (DX), Z24, Y24, Y20)
	Q6KX4_ROW((BX)(R12*1), (DX)(R13*1), Z25, Y25, Y21)
	Q6KX4_ROW((BX)(R12*2), (DX)(R13*2), Z26, Y26, Y22)
	Q6KX4_ROW((R8), (R9), Z27, Y27, Y23)
	ADDQ $210, SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, BX
	DECQ CX
	JNZ q6kx4512_loop
	VMOVAPS Y20, Y0
	VMOVAPS Y21, Y1
	VMOVAPS Y22, Y2
	VMOVAPS Y23, Y3
	MOVQ out+40(FP), R8
	VHADDPS Y1, Y0, Y0
	VHADDPS Y3, Y2, Y2
	VHADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VMOVUPS X0, (R8)
	VZEROUPPER
	RET

// Q5KX4_RUN is Q4KX4_RUN for Q5_K run j, its fifth bits from the qh
// broadcast in Z31 (VPTERNLOGD with Z29's 0x10 bytes).
#define Q5KX4_RUN(woff, aoff, j, idx, op) \
	VBROADCASTI64X4 woff(SI), Z4; \
	VPSRLVW Z13, Z4, Z4; \
	VPANDD Z14, Z4, Z4; \
	VPROLVD k5_qhrot<>+(64*j)(SB), Z31, Z5; \
	VPTERNLOGD $0xf8, Z29, Z5, Z4; \
	VPERMW Z9, idx, Z5; \
	X4_MUL4(aoff, op)

// Q5KX4_ROW is Q4KX4_ROW with d in Z2.
#define Q5KX4_ROW(bs, dy, isum, minacc, acc) \
	VBROADCASTSS dy, Z12; \
	VMULPS Z12, Z2, Z11; \
	VMULPS Y12, Y30, Y12; \
	VPMADDWD bs, Y28, Y10; \
	VCVTDQ2PS Y10, Y10; \
	VFNMADD231PS Y10, Y12, minacc; \
	VCVTDQ2PS isum, isum; \
	VFMADD231PS isum, Z11, acc

// func dotQ5Kx4AVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int, out *float32)
// dotQ4Kx4AVX512 for Q5_K: each run gains its fifth bits as in
// dotQ5KAVX512.
TEXT ·dotQ5Kx4AVX512(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ qd+16(FP), DX
	MOVQ bsums+24(FP), BX
	MOVQ nb+32(FP), CX
	MOVQ CX, AX
	SHLQ $8, AX
	MOVL $0x0f0f0f0f, R11
	VPBROADCASTD R11, Z14
	MOVL $0x10101010, R11
	VPBROADCASTD R11, Z29
	VMOVDQU64 k5_nibshift<>(SB), Z13
	VMOVDQU64 k5_scidx<>+0(SB), Z16
	VMOVDQU64 k5_scidx<>+64(SB), Z17
	VMOVDQU64 k5_scidx<>+128(SB), Z18
	VMOVDQU64 k5_scidx<>+192(SB), Z19
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z15, Z15, Z15
	VPXORD Z3, Z3, Z3
	VPXORD Z20, Z20, Z20
	VPXORD Z21, Z21, Z21
	VPXORD Z22, Z22, Z22
	VPXORD Z23, Z23, Z23
q5kx4512_loop:
	K5_SCALES
	VPMOVZXBW X2, Y9
	VMOVDQU64 k5_minidx<>(SB), Z5
	VPERMW Z9, Z5, Z28
	VPBROADCASTW 0(SI), Y2
	VCVTPH2PS Y2, Z2
	VPBROADCASTW 2(SI), X30
	VCVTPH2PS X30, Y30
	// K5_SCALES clobbered R8-R13: the row strides again, from AX.
	MOVQ AX, R12
	SHRQ $3, R12
	MOVQ AX, R13
	SHRQ $6, R13
	LEAQ (DI)(AX*2), R10
	ADDQ AX, R10
	VBROADCASTI64X4 16(SI), Z31
	Q5KX4_RUN(48, 0, 0, Z16, VPMADDWD)
	Q5KX4_RUN(80, 64, 1, Z17, VPDPWSSD)
	Q5KX4_RUN(112, 128, 2, Z18, VPDPWSSD)
	Q5KX4_RUN(144, 192, 3, Z19, VPDPWSSD)
	LEAQ (BX)(R12*2), R8
	ADDQ R12, R8
	LEAQ (DX)(R13*2), R9
	ADDQ R13, R9
	Q5KX4_ROW((BX), (DX), Z24, Y20, Z0)
	Q5KX4_ROW((BX)(R12*1), (DX)(R13*1), Z25, Y21, Z1)
	Q5KX4_ROW((BX)(R12*2), (DX)(R13*2), Z26, Y22, Z15)
	Q5KX4_ROW((R8), (R9), Z27, Y23, Z3)
	ADDQ $176, SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, BX
	DECQ CX
	JNZ q5kx4512_loop
	VEXTRACTF64X4 $1, Z0, Y4
	VADDPS Y4, Y0, Y0
	VADDPS Y20, Y0, Y0
	VEXTRACTF64X4 $1, Z1, Y4
	VADDPS Y4, Y1, Y1
	VADDPS Y21, Y1, Y1
	VEXTRACTF64X4 $1, Z15, Y4
	VADDPS Y4, Y15, Y2
	VADDPS Y22, Y2, Y2
	VEXTRACTF64X4 $1, Z3, Y4
	VADDPS Y4, Y3, Y3
	VADDPS Y23, Y3, Y3
	MOVQ out+40(FP), R8
	VHADDPS Y1, Y0, Y0
	VHADDPS Y3, Y2, Y2
	VHADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VMOVUPS X0, (R8)
	VZEROUPPER
	RET

// Q2KX4_RUN: two 2-bit planes (VPSRLVW by shift) of the 32 qs bytes
// broadcast in Z31, against four activation rows.
#define Q2KX4_RUN(shift, aoff, idx, op) \
	VPSRLVW shift, Z31, Z4; \
	VPANDD Z29, Z4, Z4; \
	VPERMW Z9, idx, Z5; \
	X4_MUL4(aoff, op)

// Q2KX4_ROW finishes activation row c of a Q2_K super-block: [d, dmin]
// are floats 0-1 of X30, the mins words Y28.
#define Q2KX4_ROW(bs, dy, isum, minacc, acc) \
	VBROADCASTSS dy, X12; \
	VMULPS X12, X30, X12; \
	VBROADCASTSS X12, Z11; \
	VPERMILPS $0x55, X12, X12; \
	VBROADCASTSS X12, Y12; \
	VPMADDWD bs, Y28, Y10; \
	VCVTDQ2PS Y10, Y10; \
	VFNMADD231PS Y10, Y12, minacc; \
	VCVTDQ2PS isum, isum; \
	VFMADD231PS isum, Z11, acc

// func dotQ2Kx4AVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int, out *float32)
// Four activation rows, nb super-blocks apart, against one weight row.
TEXT ·dotQ2Kx4AVX512(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ qd+16(FP), DX
	MOVQ bsums+24(FP), BX
	MOVQ nb+32(FP), CX
	MOVQ CX, AX
	SHLQ $8, AX
	MOVQ CX, R12
	SHLQ $5, R12
	MOVQ CX, R13
	SHLQ $2, R13
	MOVL $0x0f0f0f0f, R11
	VPBROADCASTD R11, Z14
	MOVL $0x03030303, R11
	VPBROADCASTD R11, Z29
	VMOVDQU64 k2_shift<>+0(SB), Z13
	VMOVDQU64 k2_shift<>+64(SB), Z15
	VMOVDQU64 k2_scidx<>+0(SB), Z16
	VMOVDQU64 k2_scidx<>+64(SB), Z17
	VMOVDQU64 k2_scidx<>+128(SB), Z18
	VMOVDQU64 k2_scidx<>+192(SB), Z19
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z20, Z20, Z20
	VPXORD Z21, Z21, Z21
	VPXORD Z22, Z22, Z22
	VPXORD Z23, Z23, Z23
q2kx4512_loop:
	VMOVDQU 0(SI), X11
	VPSRLW $4, X11, X10
	VPAND X14, X10, X10
	VPAND X14, X11, X11
	VPMOVZXBW X11, Y9
	VPMOVZXBW X10, Y28
	VMOVD 80(SI), X30
	VCVTPH2PS X30, X30
	LEAQ (DI)(AX*2), R10
	ADDQ AX, R10
	VBROADCASTI64X4 16(SI), Z31
	Q2KX4_RUN(Z13, 0, Z16, VPMADDWD)
	Q2KX4_RUN(Z15, 64, Z17, VPDPWSSD)
	VBROADCASTI64X4 48(SI), Z31
	Q2KX4_RUN(Z13, 128, Z18, VPDPWSSD)
	Q2KX4_RUN(Z15, 192, Z19, VPDPWSSD)
	LEAQ (BX)(R12*2), R8
	ADDQ R12, R8
	LEAQ (DX)(R13*2), R9
	ADDQ R13, R9
	Q2KX4_ROW((BX), (DX), Z24, Y20, Z0)
	Q2KX4_ROW((BX)(R12*1), (DX)(R13*1), Z25, Y21, Z1)
	Q2KX4_ROW((BX)(R12*2), (DX)(R13*2), Z26, Y22, Z2)
	Q2KX4_ROW((R8), (R9), Z27, Y23, Z3)
	ADDQ $84, SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, BX
	DECQ CX
	JNZ q2kx4512_loop
	VEXTRACTF64X4 $1, Z0, Y4
	VADDPS Y4, Y0, Y0
	VADDPS Y20, Y0, Y0
	VEXTRACTF64X4 $1, Z1, Y4
	VADDPS Y4, Y1, Y1
	VADDPS Y21, Y1, Y1
	VEXTRACTF64X4 $1, Z2, Y4
	VADDPS Y4, Y2, Y2
	VADDPS Y22, Y2, Y2
	VEXTRACTF64X4 $1, Z3, Y4
	VADDPS Y4, Y3, Y3
	VADDPS Y23, Y3, Y3
	MOVQ out+40(FP), R8
	VHADDPS Y1, Y0, Y0
	VHADDPS Y3, Y2, Y2
	VHADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VMOVUPS X0, (R8)
	VZEROUPPER
	RET

// Q3KX4_RUN: Q3K_RUN against four activation rows (qs broadcast in Z31,
// hmask in Z30, 0x03 bytes in Z29, 0x04 in Z28).
#define Q3KX4_RUN(shift, r, aoff, idx, op) \
	VPSRLVW shift, Z31, Z4; \
	VPANDD Z29, Z4, Z4; \
	VPTESTMB k3_hbit<>+(64*r)(SB), Z30, K1; \
	VPADDB Z28, Z4, K1, Z4; \
	VPERMW Z9, idx, Z5; \
	X4_MUL4(aoff, op)

// Q3KX4_ROW finishes activation row c of a Q3_K super-block: its int
// sums less 4·Σ scale·bsum, scaled by d·dy (d in Y14), go to acc.
#define Q3KX4_ROW(bs, dy, isum, ysum, acc) \
	VEXTRACTI64X4 $1, isum, Y10; \
	VPADDD Y10, ysum, ysum; \
	VPMADDWD bs, Y9, Y10; \
	VPSLLD $2, Y10, Y10; \
	VPSUBD Y10, ysum, ysum; \
	VCVTDQ2PS ysum, ysum; \
	VBROADCASTSS dy, Y12; \
	VMULPS Y12, Y14, Y12; \
	VFMADD231PS ysum, Y12, acc

// func dotQ3Kx4AVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int, out *float32)
// Four activation rows, nb super-blocks apart, against one weight row.
TEXT ·dotQ3Kx4AVX512(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ qd+16(FP), DX
	MOVQ bsums+24(FP), BX
	MOVQ nb+32(FP), CX
	MOVQ CX, AX
	SHLQ $8, AX
	MOVL $0x03030303, R11
	VPBROADCASTD R11, Z29
	MOVL $0x04040404, R11
	VPBROADCASTD R11, Z28
	MOVL $0x20202020, R11
	VPBROADCASTD R11, Z2
	VMOVDQU64 k2_shift<>+0(SB), Z13
	VMOVDQU64 k2_shift<>+64(SB), Z15
	VMOVDQU64 k2_scidx<>+0(SB), Z16
	VMOVDQU64 k2_scidx<>+64(SB), Z17
	VMOVDQU64 k2_scidx<>+128(SB), Z18
	VMOVDQU64 k2_scidx<>+192(SB), Z19
	VPXORD Z20, Z20, Z20
	VPXORD Z21, Z21, Z21
	VPXORD Z22, Z22, Z22
	VPXORD Z23, Z23, Z23
q3kx4512_loop:
	Q3_SCALES(0, X11)
	VPSUBB X2, X11, X11
	VPMOVSXBW X11, Y9
	MOVWLZX 108(SI), R11
	VMOVD R11, X14
	VPBROADCASTW X14, X14
	VCVTPH2PS X14, Y14
	// Q3_SCALES clobbered R8-R13: the row strides again, from AX.
	MOVQ AX, R12
	SHRQ $3, R12
	MOVQ AX, R13
	SHRQ $6, R13
	LEAQ (DI)(AX*2), R10
	ADDQ AX, R10
	VBROADCASTI64X4 0(SI), Z30
	VBROADCASTI64X4 32(SI), Z31
	Q3KX4_RUN(Z13, 0, 0, Z16, VPMADDWD)
	Q3KX4_RUN(Z15, 1, 64, Z17, VPDPWSSD)
	VBROADCASTI64X4 64(SI), Z31
	Q3KX4_RUN(Z13, 2, 128, Z18, VPDPWSSD)
	Q3KX4_RUN(Z15, 3, 192, Z19, VPDPWSSD)
	LEAQ (BX)(R12*2), R8
	ADDQ R12, R8
	LEAQ (DX)(R13*2), R9
	ADDQ R13, R9
	Q3KX4_ROW((BX), (DX), Z24, Y24, Y20)
	Q3KX4_ROW((BX)(R12*1), (DX)(R13*1), Z25, Y25, Y21)
	Q3KX4_ROW((BX)(R12*2), (DX)(R13*2), Z26, Y26, Y22)
	Q3KX4_ROW((R8), (R9), Z27, Y27, Y23)
	ADDQ $110, SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, BX
	DECQ CX
	JNZ q3kx4512_loop
	VMOVAPS Y20, Y0
	VMOVAPS Y21, Y1
	VMOVAPS Y22, Y2
	VMOVAPS Y23, Y3
	MOVQ out+40(FP), R8
	VHADDPS Y1, Y0, Y0
	VHADDPS Y3, Y2, Y2
	VHADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VMOVUPS X0, (R8)
	VZEROUPPER
	RET

// IQ4XSX4_RUN is IQ4XS_RUN against four activation rows: the levels are
// looked up once, each row gets its VPDPBUSD sums weighted by the
// sub-block scales (VPERMD of Z9 with idx) added to Z24-Z27.
#define IQ4XSX4_RUN(woff, aoff, idx) \
	VBROADCASTI64X4 woff(SI), Z4; \
	VSHUFI64X2 $0x50, Z4, Z4, Z4; \
	VPSRLVW Z13, Z4, Z4; \
	VPANDD Z14, Z4, Z4; \
	VPSHUFB Z4, Z30, Z4; \
	VPERMD Z9, idx, Z5; \
	VPXORD Z6, Z6, Z6; \
	VPDPBUSD aoff(DI), Z4, Z6; \
	VPMULLD Z5, Z6, Z6; \
	VPADDD Z6, Z24, Z24; \
	VPXORD Z6, Z6, Z6; \
	VPDPBUSD aoff(DI)(AX*1), Z4, Z6; \
	VPMULLD Z5, Z6, Z6; \
	VPADDD Z6, Z25, Z25; \
	VPXORD Z6, Z6, Z6; \
	VPDPBUSD aoff(DI)(AX*2), Z4, Z6; \
	VPMULLD Z5, Z6, Z6; \
	VPADDD Z6, Z26, Z26; \
	VPXORD Z6, Z6, Z6; \
	VPDPBUSD aoff(R10), Z4, Z6; \
	VPMULLD Z5, Z6, Z6; \
	VPADDD Z6, Z27, Z27

// IQ4XSX4_ROW finishes activation row c of an IQ4_XS super-block: its int
// sums less 128·Σ scale·(32-value sum of y) (bsums at bs, Y3's ones),
// scaled by d·dy (d in Y28), go to acc.
#define IQ4XSX4_ROW(bs, dy, isum, ysum, acc) \
	VEXTRACTI64X4 $1, isum, Y10; \
	VPADDD Y10, ysum, ysum; \
	VPMADDWD bs, Y3, Y10; \
	VPMULLD Y9, Y10, Y10; \
	VPSLLD $7, Y10, Y10; \
	VPSUBD Y10, ysum, ysum; \
	VCVTDQ2PS ysum, ysum; \
	VBROADCASTSS dy, Y12; \
	VMULPS Y12, Y28, Y12; \
	VFMADD231PS ysum, Y12, acc

// func dotIQ4XSx4AVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int, out *float32)
// Four activation rows, nb super-blocks apart, against one weight row.
TEXT ·dotIQ4XSx4AVX512(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ qd+16(FP), DX
	MOVQ bsums+24(FP), BX
	MOVQ nb+32(FP), CX
	MOVQ CX, AX
	SHLQ $8, AX
	MOVQ CX, R12
	SHLQ $5, R12
	MOVQ CX, R13
	SHLQ $2, R13
	MOVL $15, R11
	VPBROADCASTD R11, Z0
	MOVL $3, R11
	VPBROADCASTD R11, Z1
	MOVL $32, R11
	VPBROADCASTD R11, Z2
	MOVL $0x00010001, R11
	VPBROADCASTD R11, Z3
	MOVL $0x0f0f0f0f, R11
	VPBROADCASTD R11, Z14
	VMOVDQU64 kx_lvl<>(SB), Z30
	VMOVDQU64 kx_nibshift<>(SB), Z13
	VMOVDQU64 kx_scidx<>+0(SB), Z16
	VMOVDQU64 kx_scidx<>+64(SB), Z17
	VMOVDQU64 kx_scidx<>+128(SB), Z18
	VMOVDQU64 kx_scidx<>+192(SB), Z19
	VPXORD Z20, Z20, Z20
	VPXORD Z21, Z21, Z21
	VPXORD Z22, Z22, Z22
	VPXORD Z23, Z23, Z23
iq4xsx4512_loop:
	VPBROADCASTD 4(SI), Y8
	VPBROADCASTD 0(SI), Y10
	VPSRLVD kx_scsh<>+0(SB), Y8, Y8
	VPANDD Y0, Y8, Y8
	VPSRLVD kx_scsh<>+64(SB), Y10, Y10
	VPANDD Y1, Y10, Y10
	VPSLLD $4, Y10, Y10
	VPORD Y10, Y8, Y9
	VPSUBD Y2, Y9, Y9
	MOVWLZX 0(SI), R11
	VMOVD R11, X28
	VPBROADCASTW X28, X28
	VCVTPH2PS X28, Y28
	LEAQ (DI)(AX*2), R10
	ADDQ AX, R10
	VPXORD Z24, Z24, Z24
	VPXORD Z25, Z25, Z25
	VPXORD Z26, Z26, Z26
	VPXORD Z27, Z27, Z27
	IQ4XSX4_RUN(8, 0, Z16)
	IQ4XSX4_RUN(40, 64, Z17)
	IQ4XSX4_RUN(72, 128, Z18)
	IQ4XSX4_RUN(104, 192, Z19)
	LEAQ (BX)(R12*2), R8
	ADDQ R12, R8
	LEAQ (DX)(R13*2), R9
	ADDQ R13, R9
	IQ4XSX4_ROW((BX), (DX), Z24, Y24, Y20)
	IQ4XSX4_ROW((BX)(R12*1), (DX)(R13*1), Z25, Y25, Y21)
	IQ4XSX4_ROW((BX)(R12*2), (DX)(R13*2), Z26, Y26, Y22)
	IQ4XSX4_ROW((R8), (R9), Z27, Y27, Y23)
	ADDQ $136, SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, BX
	DECQ CX
	JNZ iq4xsx4512_loop
	VMOVAPS Y20, Y0
	VMOVAPS Y21, Y1
	VMOVAPS Y22, Y2
	VMOVAPS Y23, Y3
	MOVQ out+40(FP), R8
	VHADDPS Y1, Y0, Y0
	VHADDPS Y3, Y2, Y2
	VHADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VMOVUPS X0, (R8)
	VZEROUPPER
	RET

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

// kmx_eidx: VPSHUFB indices that take byte k of 128-bit lane k (the E8M0
// scale of block k of four 17-byte blocks loaded at the first's) into the
// lane's first dword, zero-extended; kmx_eperm (VPERMD) gathers those four
// dwords.
DATA kmx_eidx<>+0(SB)/8, $0x8080808080808000
DATA kmx_eidx<>+8(SB)/8, $0x8080808080808080
DATA kmx_eidx<>+16(SB)/8, $0x8080808080808001
DATA kmx_eidx<>+24(SB)/8, $0x8080808080808080
DATA kmx_eidx<>+32(SB)/8, $0x8080808080808002
DATA kmx_eidx<>+40(SB)/8, $0x8080808080808080
DATA kmx_eidx<>+48(SB)/8, $0x8080808080808003
DATA kmx_eidx<>+56(SB)/8, $0x8080808080808080
GLOBL kmx_eidx<>(SB), RODATA|NOPTR, $64
DATA kmx_eperm<>+0(SB)/8, $0x0000000400000000
DATA kmx_eperm<>+8(SB)/8, $0x0000000c00000008
DATA kmx_eperm<>+16(SB)/8, $0x0000000400000000
DATA kmx_eperm<>+24(SB)/8, $0x0000000c00000008
DATA kmx_eperm<>+32(SB)/8, $0x0000000400000000
DATA kmx_eperm<>+40(SB)/8, $0x0000000c00000008
DATA kmx_eperm<>+48(SB)/8, $0x0000000400000000
DATA kmx_eperm<>+56(SB)/8, $0x0000000c00000008
GLOBL kmx_eperm<>(SB), RODATA|NOPTR, $64

// kmx_abs: the magnitudes of the doubled E2M1 levels, by nibble.
DATA kmx_abs<>+0(SB)/8, $0x0c08060403020100
DATA kmx_abs<>+8(SB)/8, $0x0c08060403020100
DATA kmx_abs<>+16(SB)/8, $0x0c08060403020100
DATA kmx_abs<>+24(SB)/8, $0x0c08060403020100
DATA kmx_abs<>+32(SB)/8, $0x0c08060403020100
DATA kmx_abs<>+40(SB)/8, $0x0c08060403020100
DATA kmx_abs<>+48(SB)/8, $0x0c08060403020100
DATA kmx_abs<>+56(SB)/8, $0x0c08060403020100
GLOBL kmx_abs<>(SB), RODATA|NOPTR, $64

// func dotMXFP4AVX512(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32
// dotIQ4NLAVX512 for MXFP4: 17-byte blocks, the E2M1 levels (doubled, plus
// 128) by VPSHUFB, and the E8M0 scales halved as ggml's
// GGML_E8M0_TO_FP32_HALF. Four blocks an iteration: their scales are
// 2^(e-128) by VSCALEFPS, exact for every e (e < 2 gives ggml's
// subnormals), and VPDPBUSD multiplies the levels' magnitudes with the
// activations negated where the level's sign bit (bit 3 of its E2M1
// nibble) is set, so each lane holds the plain sum of its 4 products, as
// the AVX2 kernel's do. The odd last blocks build their scales in integer
// registers and take a +128 on the levels back out with a second VPDPBUSD
// of 128s (neg is unused).
TEXT ·dotMXFP4AVX512(SB), NOSPLIT, $0-44
	MOVQ w+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ qd+16(FP), DX
	MOVQ nb+32(FP), CX
	VPXORD Z15, Z15, Z15
	VMOVDQU64 kmx_eidx<>(SB), Z27
	VMOVDQU64 kmx_eperm<>(SB), Z26
	MOVL $0xc3000000, AX
	VPBROADCASTD AX, X25
	MOVL $0x3f800000, AX
	VPBROADCASTD AX, X24
	VMOVDQU64 kmx_abs<>(SB), Z23
	MOVL $0xff00, AX
	KMOVW AX, K3
	MOVL $0x08080808, AX
	VPBROADCASTD AX, Z29
	VPXORD Z31, Z31, Z31
	VPXORD Z0, Z0, Z0
	VXORPS X1, X1, X1
	VXORPS X2, X2, X2
	MOVL $0x0f0f0f0f, AX
	VPBROADCASTD AX, Z14
	MOVL $0x80808080, AX
	VPBROADCASTD AX, Z28
	VMOVDQU64 kx_nibshift<>(SB), Z13
	VMOVDQU64 kmx_lvl<>(SB), Z30
	VMOVDQU64 kl_dperm<>+64(SB), Z21
	VMOVDQU64 kl_dperm<>+128(SB), Z22
	SUBQ $4, CX
	JB mxfp4x_tail
mxfp4x_four:
	VMOVDQU64 0(SI), Z8
	VPSHUFB Z27, Z8, Z8
	VPERMD Z8, Z26, Z8
	VCVTDQ2PS X8, X8
	VADDPS X25, X8, X8
	VSCALEFPS X8, X24, X8
	VBROADCASTF128 (DX), Y9
	VMULPS Y9, Y8, Y8
	VPERMPS Z8, Z21, Z10
	VPERMPS Z8, Z22, Z11
	VBROADCASTI32X4 1(SI), Z4
	VBROADCASTI32X4 18(SI), K3, Z4
	VPSRLVW Z13, Z4, Z4
	VPANDD Z14, Z4, Z4
	VPTESTMB Z29, Z4, K2
	VPSHUFB Z4, Z23, Z4
	VMOVDQU64 0(DI), Z7
	VPSUBB Z7, Z31, K2, Z7
	VPXORD Z5, Z5, Z5
	VPDPBUSD Z7, Z4, Z5
	VCVTDQ2PS Z5, Z5
	VFMADD231PS Z5, Z10, Z0
	VBROADCASTI32X4 35(SI), Z4
	VBROADCASTI32X4 52(SI), K3, Z4
	VPSRLVW Z13, Z4, Z4
	VPANDD Z14, Z4, Z4
	VPTESTMB Z29, Z4, K2
	VPSHUFB Z4, Z23, Z4
	VMOVDQU64 64(DI), Z7
	VPSUBB Z7, Z31, K2, Z7
	VPXORD Z5, Z5, Z5
	VPDPBUSD Z7, Z4, Z5
	VCVTDQ2PS Z5, Z5
	VFMADD231PS Z5, Z11, Z15
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
	VADDPS Z15, Z0, Z0
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

// kxr_dperm: VPERMPS indices that spread floats 0 and 1 over the two
// halves of a ZMM register.
DATA kxr_dperm<>+0(SB)/8, $0x0000000000000000
DATA kxr_dperm<>+8(SB)/8, $0x0000000000000000
DATA kxr_dperm<>+16(SB)/8, $0x0000000000000000
DATA kxr_dperm<>+24(SB)/8, $0x0000000000000000
DATA kxr_dperm<>+32(SB)/8, $0x0000000100000001
DATA kxr_dperm<>+40(SB)/8, $0x0000000100000001
DATA kxr_dperm<>+48(SB)/8, $0x0000000100000001
DATA kxr_dperm<>+56(SB)/8, $0x0000000100000001
GLOBL kxr_dperm<>(SB), RODATA|NOPTR, $64

// IQ4XSR_CHUNK multiplies chunk off(SI) of a repacked IQ4_XS pair (64
// bytes, two runs of 64 level indices: low and high nibbles) with the
// runs' rearranged activations at aoff(DI) and aoff+64(DI): VPSHUFB looks
// up the levels (+128), VPDPBUSD adds their products in fours, sub-block d
// into dword d of Z5 (low run) and Z6 (high run).
#define IQ4XSR_CHUNK(off, aoff) \
	VMOVDQU64 off(SI), Z4; \
	VPSRLW $4, Z4, Z7; \
	VPANDD Z14, Z4, Z4; \
	VPANDD Z14, Z7, Z7; \
	VPSHUFB Z4, Z30, Z4; \
	VPSHUFB Z7, Z30, Z7; \
	VPDPBUSD aoff(DI), Z4, Z5; \
	VPDPBUSD (aoff+64)(DI), Z7, Z6

// func dotIQ4XSRAVX512(p *byte, qs *int8, sums *int32, d *float32, np int) float32
// np pairs of super-blocks repacked by repackIQ4XS times activations
// rearranged by iq4Act.set: per pair, the eight runs' sums of sub-block
// d meet in dword d, less 128·Σy (sums), times the 16 scales by one
// VPMULLD, then as floats times d·dy of the dword's super-block.
TEXT ·dotIQ4XSRAVX512(SB), NOSPLIT, $0-44
	MOVQ p+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ sums+16(FP), BX
	MOVQ d+24(FP), DX
	MOVQ np+32(FP), CX
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	MOVL $0x0f0f0f0f, AX
	VPBROADCASTD AX, Z14
	VMOVDQU64 kx_lvl<>(SB), Z30
	VMOVDQU64 kxr_dperm<>(SB), Z25
iq4xsr512_pair:
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	IQ4XSR_CHUNK(24, 0)
	IQ4XSR_CHUNK(88, 128)
	IQ4XSR_CHUNK(152, 256)
	IQ4XSR_CHUNK(216, 384)
	VPADDD Z6, Z5, Z5
	VPSUBD (BX), Z5, Z5
	VPMOVSXBD (SI), Z8
	VPMULLD Z8, Z5, Z5
	VCVTDQ2PS Z5, Z5
	VMOVQ 16(SI), X9
	VMOVQ (DX), X10
	VMULPS X10, X9, X9
	VPERMPS Z9, Z25, Z9
	VFMADD231PS Z5, Z9, Z0
	ADDQ $280, SI
	ADDQ $512, DI
	ADDQ $64, BX
	ADDQ $8, DX
	DECQ CX
	JNZ iq4xsr512_pair
	ZSUM
	VMOVSS X0, ret+40(FP)
	VZEROUPPER
	RET

// func dotMXFP4RAVX512(p *byte, qs *int8, sums *int32, d *float32, ng int) float32
// ng groups of 16 MXFP4 blocks repacked by repackMXFP4 times activations
// rearranged by setBlocks: IQ4XSR_CHUNK's sums with the E2M1 levels
// (+128), block d in dword d, less 128·Σy (sums), then as floats times
// 2^(e-128) (VSCALEFPS, exact for every e) and the blocks' dy.
TEXT ·dotMXFP4RAVX512(SB), NOSPLIT, $0-44
	MOVQ p+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ sums+16(FP), BX
	MOVQ d+24(FP), DX
	MOVQ ng+32(FP), CX
	VPXORD Z0, Z0, Z0
	MOVL $0x0f0f0f0f, AX
	VPBROADCASTD AX, Z14
	MOVL $0xc3000000, AX
	VPBROADCASTD AX, Z25
	MOVL $0x3f800000, AX
	VPBROADCASTD AX, Z24
	VMOVDQU64 kmx_lvl<>(SB), Z30
mxfp4r512_group:
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	IQ4XSR_CHUNK(16, 0)
	IQ4XSR_CHUNK(80, 128)
	IQ4XSR_CHUNK(144, 256)
	IQ4XSR_CHUNK(208, 384)
	VPADDD Z6, Z5, Z5
	VPSUBD (BX), Z5, Z5
	VCVTDQ2PS Z5, Z5
	VPMOVZXBD (SI), Z8
	VCVTDQ2PS Z8, Z8
	VADDPS Z25, Z8, Z8
	VSCALEFPS Z8, Z24, Z8
	VMULPS (DX), Z8, Z8
	VFMADD231PS Z5, Z8, Z0
	ADDQ $272, SI
	ADDQ $512, DI
	ADDQ $64, BX
	ADDQ $64, DX
	DECQ CX
	JNZ mxfp4r512_group
	ZSUM
	VMOVSS X0, ret+40(FP)
	VZEROUPPER
	RET

// kq4r_mperm: VPERMPS indices that spread floats 2 and 3 over the two
// halves of a ZMM register.
DATA kq4r_mperm<>+0(SB)/8, $0x0000000200000002
DATA kq4r_mperm<>+8(SB)/8, $0x0000000200000002
DATA kq4r_mperm<>+16(SB)/8, $0x0000000200000002
DATA kq4r_mperm<>+24(SB)/8, $0x0000000200000002
DATA kq4r_mperm<>+32(SB)/8, $0x0000000300000003
DATA kq4r_mperm<>+40(SB)/8, $0x0000000300000003
DATA kq4r_mperm<>+48(SB)/8, $0x0000000300000003
DATA kq4r_mperm<>+56(SB)/8, $0x0000000300000003
GLOBL kq4r_mperm<>(SB), RODATA|NOPTR, $64

// kq4r_fix: [1, 1, 1/128, 1/128]: iq4Act's sums are 128 times the
// sub-blocks' activation sums.
DATA kq4r_fix<>+0(SB)/4, $0x3f800000
DATA kq4r_fix<>+4(SB)/4, $0x3f800000
DATA kq4r_fix<>+8(SB)/4, $0x3c000000
DATA kq4r_fix<>+12(SB)/4, $0x3c000000
GLOBL kq4r_fix<>(SB), RODATA|NOPTR, $16

// Q4KR_CHUNK multiplies chunk off(SI) of a repacked Q4_K pair (64 bytes,
// two runs of 64 quants: low and high nibbles) with the runs' rearranged
// activations at aoff(DI) and aoff+64(DI), sub-block d into dword d of Z5
// (low run) and Z6 (high run).
#define Q4KR_CHUNK(off, aoff) \
	VMOVDQU64 off(SI), Z4; \
	VPSRLW $4, Z4, Z7; \
	VPANDD Z14, Z4, Z4; \
	VPANDD Z14, Z7, Z7; \
	VPDPBUSD aoff(DI), Z4, Z5; \
	VPDPBUSD (aoff+64)(DI), Z7, Z6

// SUB16_START and SUB16_ROW are K45R_START and K45R_ROW for the repacked
// Q2_K/Q3_K rows kernels: 3 in each byte (Z14), 4 in each byte (Z29), 15
// in each dword (Z15); the row arguments in R8-R10.
#define SUB16_START \
	MOVL $0x03030303, AX; \
	VPBROADCASTD AX, Z14; \
	MOVL $0x04040404, AX; \
	VPBROADCASTD AX, Z29; \
	MOVL $15, AX; \
	VPBROADCASTD AX, Z15; \
	MOVQ p+0(FP), R8; \
	MOVQ out+48(FP), R9; \
	MOVQ rows+56(FP), R10

#define SUB16_ROW \
	MOVQ R8, SI; \
	MOVQ qs+16(FP), DI; \
	MOVQ sums+24(FP), BX; \
	MOVQ d+32(FP), DX; \
	MOVQ nb+40(FP), CX; \
	VPXORD Z0, Z0, Z0; \
	VPXORD Z1, Z1, Z1

// Q2KR_RUN adds run r's 2-bit quants (bits 2r, 2r+1 of Z4's bytes, shifted
// down by sh) times its activations at aoff(DI) to acc, sub-block d in
// dword d.
#define Q2KR_RUN(sh, aoff, acc) \
	VPSRLW $sh, Z4, Z5; \
	VPANDD Z14, Z5, Z5; \
	VPDPBUSD aoff(DI), Z5, acc

// Q2KR_QUANTS leaves in Z2 the dot of a super-block's 2-bit quants at
// qoff(SI) (four runs, run r in bits 2r, 2r+1) with its 256 activations at
// DI, sub-block d in dword d. Clobbers Z3-Z5.
#define Q2KR_QUANTS(qoff) \
	VMOVDQU64 qoff(SI), Z4; \
	VPANDD Z14, Z4, Z5; \
	VPXORD Z2, Z2, Z2; \
	VPXORD Z3, Z3, Z3; \
	VPDPBUSD 0(DI), Z5, Z2; \
	Q2KR_RUN(2, 64, Z3); \
	Q2KR_RUN(4, 128, Z2); \
	Q2KR_RUN(6, 192, Z3); \
	VPADDD Z3, Z2, Z2

// Q3KR_RUN is Q2KR_RUN for a repacked Q3_K super-block: the run's high
// bits, the 64-bit mask at hoff(SI), add 4 to its quants.
#define Q3KR_RUN(sh, hoff, aoff, acc) \
	VPSRLW $sh, Z4, Z5; \
	VPANDD Z14, Z5, Z5; \
	KMOVQ hoff(SI), K1; \
	VPADDB Z29, Z5, K1, Z5; \
	VPDPBUSD aoff(DI), Z5, acc

// K45R_START loads what the repacked Q4_K/Q5_K rows kernels keep in
// registers and their row arguments: p (R8), out (R9), rows (R10).
#define K45R_START \
	MOVL $0x0f0f0f0f, AX; \
	VPBROADCASTD AX, Z14; \
	MOVL $0x10101010, AX; \
	VPBROADCASTD AX, Z29; \
	VMOVDQU64 kxr_dperm<>(SB), Z25; \
	VMOVDQU64 kq4r_mperm<>(SB), Z26; \
	VMOVUPS kq4r_fix<>(SB), X15; \
	MOVQ p+0(FP), R8; \
	MOVQ out+48(FP), R9; \
	MOVQ rows+56(FP), R10

// K45R_ROW starts a row: the pair pointers from their start, the sums
// cleared.
#define K45R_ROW \
	MOVQ R8, SI; \
	MOVQ qs+16(FP), DI; \
	MOVQ sums+24(FP), BX; \
	MOVQ d+32(FP), DX; \
	MOVQ np+40(FP), CX; \
	VPXORD Z0, Z0, Z0; \
	VPXORD Z1, Z1, Z1

// K45R_PAIR finishes a pair whose sub-block sums are in Z5 and Z6: times
// the 16 scales (VPMULLD), as floats times d·dy of each dword's
// super-block into Z0; the 16 mins times the sub-blocks' activation sums
// times dmin·dy into Z1; then steps to the next pair (pairBytes on).
#define K45R_PAIR(pairBytes) \
	VPADDD Z6, Z5, Z5; \
	VPMOVZXBD (SI), Z8; \
	VPMULLD Z8, Z5, Z5; \
	VCVTDQ2PS Z5, Z5; \
	VPMOVZXBD 16(SI), Z9; \
	VPMULLD (BX), Z9, Z9; \
	VCVTDQ2PS Z9, Z9; \
	VMOVQ 32(SI), X10; \
	VCVTPH2PS X10, X10; \
	VMOVQ (DX), X11; \
	VMOVDDUP X11, X11; \
	VMULPS X11, X10, X10; \
	VMULPS X15, X10, X10; \
	VPERMPS Z10, Z25, Z12; \
	VPERMPS Z10, Z26, Z13; \
	VFMADD231PS Z5, Z12, Z0; \
	VFMADD231PS Z9, Z13, Z1; \
	ADDQ $pairBytes, SI; \
	ADDQ $512, DI; \
	ADDQ $64, BX; \
	ADDQ $8, DX

// K45R_STORE stores the row's sum (Z0 less Z1) and steps to the next row,
// looping to label while rows are left.
#define K45R_STORE(label) \
	VSUBPS Z1, Z0, Z0; \
	ZSUM; \
	VMOVSS X0, (R9); \
	ADDQ $4, R9; \
	ADDQ ldp+8(FP), R8; \
	DECQ R10; \
	JNZ label

// func dotQ4KRRowsAVX512(p *byte, ldp int, qs *int8, sums *int32, d *float32, np int, out *float32, rows int)
// rows rows (rows > 0) of np pairs of super-blocks (np > 0) repacked by
// repackQ4K, ldp bytes apart, times activations rearranged by iq4Act.set,
// into out[0:rows]. Per pair, the eight runs' sums of sub-block d meet in
// dword d (K45R_PAIR finishes them).
TEXT ·dotQ4KRRowsAVX512(SB), NOSPLIT, $0-64
	K45R_START
q4kr512_row:
	K45R_ROW
q4kr512_pair:
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	Q4KR_CHUNK(40, 0)
	Q4KR_CHUNK(104, 128)
	Q4KR_CHUNK(168, 256)
	Q4KR_CHUNK(232, 384)
	K45R_PAIR(296)
	DECQ CX
	JNZ q4kr512_pair
	K45R_STORE(q4kr512_row)
	VZEROUPPER
	RET

// Q5KR_CHUNK is Q4KR_CHUNK for a repacked Q5_K pair: each run's fifth
// bits, the 64-bit masks at hoff(SI) and hoff+8(SI), add 16 (Z29) to
// their quants by a masked byte add.
#define Q5KR_CHUNK(off, hoff, aoff) \
	VMOVDQU64 off(SI), Z4; \
	VPSRLW $4, Z4, Z7; \
	VPANDD Z14, Z4, Z4; \
	VPANDD Z14, Z7, Z7; \
	KMOVQ hoff(SI), K1; \
	KMOVQ (hoff+8)(SI), K2; \
	VPADDB Z29, Z4, K1, Z4; \
	VPADDB Z29, Z7, K2, Z7; \
	VPDPBUSD aoff(DI), Z4, Z5; \
	VPDPBUSD (aoff+64)(DI), Z7, Z6

// func dotQ5KRRowsAVX512(p *byte, ldp int, qs *int8, sums *int32, d *float32, np int, out *float32, rows int)
// dotQ4KRRowsAVX512 for rows repacked by repackQ5K.
TEXT ·dotQ5KRRowsAVX512(SB), NOSPLIT, $0-64
	K45R_START
q5kr512_row:
	K45R_ROW
q5kr512_pair:
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	Q5KR_CHUNK(40, 296, 0)
	Q5KR_CHUNK(104, 312, 128)
	Q5KR_CHUNK(168, 328, 256)
	Q5KR_CHUNK(232, 344, 384)
	K45R_PAIR(360)
	DECQ CX
	JNZ q5kr512_pair
	K45R_STORE(q5kr512_row)
	VZEROUPPER
	RET

// func dotIQ4NLRAVX512(p *byte, qs *int8, sums *int32, d *float32, ng int) float32
// ng groups of 16 IQ4_NL blocks repacked by repackIQ4NL times activations
// rearranged by setBlocks: IQ4XSR_CHUNK's sums, block d in dword d, less
// 128·Σy (sums), then as floats times the blocks' f16 d and their dy.
TEXT ·dotIQ4NLRAVX512(SB), NOSPLIT, $0-44
	MOVQ p+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ sums+16(FP), BX
	MOVQ d+24(FP), DX
	MOVQ ng+32(FP), CX
	VPXORD Z0, Z0, Z0
	MOVL $0x0f0f0f0f, AX
	VPBROADCASTD AX, Z14
	VMOVDQU64 kx_lvl<>(SB), Z30
iq4nlr512_group:
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	IQ4XSR_CHUNK(32, 0)
	IQ4XSR_CHUNK(96, 128)
	IQ4XSR_CHUNK(160, 256)
	IQ4XSR_CHUNK(224, 384)
	VPADDD Z6, Z5, Z5
	VPSUBD (BX), Z5, Z5
	VCVTDQ2PS Z5, Z5
	VCVTPH2PS (SI), Z8
	VMULPS (DX), Z8, Z8
	VFMADD231PS Z5, Z8, Z0
	ADDQ $288, SI
	ADDQ $512, DI
	ADDQ $64, BX
	ADDQ $64, DX
	DECQ CX
	JNZ iq4nlr512_group
	ZSUM
	VMOVSS X0, ret+40(FP)
	VZEROUPPER
	RET

// LEGR_START, for the repacked Q4_1, Q5_0 and Q5_1 dots at the end of
// this file (defined after a TEXT of the same arguments, for vet), loads
// the arguments, zeroes Z0, and puts 15 in each byte (Z14) and 16 in each
// byte (Z29).
#define LEGR_START \
	MOVQ p+0(FP), SI; \
	MOVQ qs+8(FP), DI; \
	MOVQ sums+16(FP), BX; \
	MOVQ d+24(FP), DX; \
	MOVQ ng+32(FP), CX; \
	VPXORD Z0, Z0, Z0; \
	MOVL $0x0f0f0f0f, AX; \
	VPBROADCASTD AX, Z14; \
	MOVL $0x10101010, AX; \
	VPBROADCASTD AX, Z29

// func dotQ2KRRowsAVX512(p *byte, ldp int, qs *int8, sums *int32, d *float32, nb int, out *float32, rows int)
// rows rows (rows > 0) of nb super-blocks (nb > 0) repacked by repackQ2K,
// ldp bytes apart, times activations rearranged by iq4Act.setSub16, into
// out[0:rows]. Per super-block the four runs' sums of sub-block d meet in
// dword d; times the 16 scales, as floats times d·dy into Z0; the 16 mins
// times the sub-blocks' activation sums times dmin·dy into Z1.
TEXT ·dotQ2KRRowsAVX512(SB), NOSPLIT, $0-64
	SUB16_START
q2kr512_row:
	SUB16_ROW
q2kr512_block:
	Q2KR_QUANTS(16)
	VPMOVZXBD (SI), Z8
	VPANDD Z15, Z8, Z9
	VPSRLD $4, Z8, Z8
	VPMULLD Z9, Z2, Z2
	VCVTDQ2PS Z2, Z2
	VPMULLD (BX), Z8, Z8
	VCVTDQ2PS Z8, Z8
	VMOVD 80(SI), X10
	VCVTPH2PS X10, X10
	VBROADCASTSS (DX), X11
	VMULPS X11, X10, X10
	VBROADCASTSS X10, Z12
	VMOVSHDUP X10, X13
	VBROADCASTSS X13, Z13
	VFMADD231PS Z2, Z12, Z0
	VFMADD231PS Z8, Z13, Z1
	ADDQ $84, SI
	ADDQ $256, DI
	ADDQ $64, BX
	ADDQ $4, DX
	DECQ CX
	JNZ q2kr512_block
	K45R_STORE(q2kr512_row)
	VZEROUPPER
	RET

// func dotQ3KRRowsAVX512(p *byte, ldp int, qs *int8, sums *int32, d *float32, nb int, out *float32, rows int)
// dotQ2KRRowsAVX512 for rows repacked by repackQ3K: the quants' offset
// (4 times the sub-blocks' activation sums) comes off the integer sums
// before the signed scales multiply them; no mins.
TEXT ·dotQ3KRRowsAVX512(SB), NOSPLIT, $0-64
	SUB16_START
q3kr512_row:
	SUB16_ROW
q3kr512_block:
	VMOVDQU64 16(SI), Z4
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	Q3KR_RUN(0, 80, 0, Z2)
	Q3KR_RUN(2, 88, 64, Z3)
	Q3KR_RUN(4, 96, 128, Z2)
	Q3KR_RUN(6, 104, 192, Z3)
	VPADDD Z3, Z2, Z2
	VMOVDQU32 (BX), Z8
	VPSLLD $2, Z8, Z8
	VPSUBD Z8, Z2, Z2
	VPMOVSXBD (SI), Z9
	VPMULLD Z9, Z2, Z2
	VCVTDQ2PS Z2, Z2
	VPBROADCASTW 112(SI), X10
	VCVTPH2PS X10, X10
	VMULSS (DX), X10, X10
	VBROADCASTSS X10, Z12
	VFMADD231PS Z2, Z12, Z0
	ADDQ $114, SI
	ADDQ $256, DI
	ADDQ $64, BX
	ADDQ $4, DX
	DECQ CX
	JNZ q3kr512_block
	K45R_STORE(q3kr512_row)
	VZEROUPPER
	RET

// func dotTQRRowsAVX512(p *byte, ldp int, qs *int8, sums *int32, d *float32, nb int, out *float32, rows int)
// rows rows (rows > 0) of nb ternary super-blocks (nb > 0) repacked by
// repackTQ1 or repackTQ2, ldp bytes apart, times activations rearranged
// by iq4Act.setSub16, into out[0:rows]. Per super-block the four runs'
// sums less the 16 block sums (the quants' +1), as floats times d·dy,
// go to Z0; a row's scales d start nb·64 bytes after its quants (R11).
TEXT ·dotTQRRowsAVX512(SB), NOSPLIT, $0-64
	SUB16_START
tqr512_row:
	SUB16_ROW
	MOVQ CX, R11
	SHLQ $6, R11
	ADDQ SI, R11
tqr512_block:
	Q2KR_QUANTS(0)
	VPSUBD (BX), Z2, Z2
	VCVTDQ2PS Z2, Z2
	VMULPS.BCST (R11), Z2, Z2
	VFMADD231PS.BCST (DX), Z2, Z0
	ADDQ $64, SI
	ADDQ $4, R11
	ADDQ $256, DI
	ADDQ $64, BX
	ADDQ $4, DX
	DECQ CX
	JNZ tqr512_block
	K45R_STORE(tqr512_row)
	VZEROUPPER
	RET

// The repacked Q4_1, Q5_0 and Q5_1 dots (repack_iq4.go): ng groups of 16
// blocks times activations rearranged by setBlocks, block d in dword d of
// Z5 (low runs) and Z6 (high runs).

// LEGR_SCALE adds the group's Σq·y (Z5 + Z6) times d·dy to Z0.
#define LEGR_SCALE \
	VPADDD Z6, Z5, Z5; \
	VCVTDQ2PS Z5, Z5; \
	VCVTPH2PS (SI), Z8; \
	VMULPS (DX), Z8, Z8; \
	VFMADD231PS Z5, Z8, Z0

// LEGR_OFFSET adds the blocks' m·dy·Σy to Z0 (sums are 128·Σy).
#define LEGR_OFFSET \
	VPSRAD $7, (BX), Z9; \
	VCVTDQ2PS Z9, Z9; \
	VMULPS (DX), Z9, Z9; \
	VCVTPH2PS 32(SI), Z10; \
	VFMADD231PS Z9, Z10, Z0

// LEGR_NEXT scales the group (LEGR_SCALE), moves on by its gb bytes and
// loops to label; then sums Z0.
#define LEGR_NEXT(gb, label) \
	LEGR_SCALE; \
	ADDQ $gb, SI; \
	ADDQ $512, DI; \
	ADDQ $64, BX; \
	ADDQ $64, DX; \
	DECQ CX; \
	JNZ label; \
	ZSUM

// LEGR_Q5 multiplies a Q5_0 or Q5_1 group's quants: the nibbles with
// their fifth bits added back.
#define LEGR_Q5 \
	VPXORD Z5, Z5, Z5; \
	VPXORD Z6, Z6, Z6; \
	Q5KR_CHUNK(64, 320, 0); \
	Q5KR_CHUNK(128, 336, 128); \
	Q5KR_CHUNK(192, 352, 256); \
	Q5KR_CHUNK(256, 368, 384)

// func dotQ4_1RAVX512(p *byte, qs *int8, sums *int32, d *float32, ng int) float32
TEXT ·dotQ4_1RAVX512(SB), NOSPLIT, $0-44
	LEGR_START
q41r512_group:
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	Q4KR_CHUNK(64, 0)
	Q4KR_CHUNK(128, 128)
	Q4KR_CHUNK(192, 256)
	Q4KR_CHUNK(256, 384)
	LEGR_OFFSET
	LEGR_NEXT(320, q41r512_group)
	VMOVSS X0, ret+40(FP)
	VZEROUPPER
	RET

// func dotQ5_0RAVX512(p *byte, qs *int8, sums *int32, d *float32, ng int) float32
// The quants are Q5_0's plus 16: 16·Σy (sums >> 3) comes off each block.
TEXT ·dotQ5_0RAVX512(SB), NOSPLIT, $0-44
	LEGR_START
q50r512_group:
	LEGR_Q5
	VPSRAD $3, (BX), Z9
	VPSUBD Z9, Z5, Z5
	LEGR_NEXT(384, q50r512_group)
	VMOVSS X0, ret+40(FP)
	VZEROUPPER
	RET

// func dotQ5_1RAVX512(p *byte, qs *int8, sums *int32, d *float32, ng int) float32
TEXT ·dotQ5_1RAVX512(SB), NOSPLIT, $0-44
	LEGR_START
q51r512_group:
	LEGR_Q5
	LEGR_OFFSET
	LEGR_NEXT(384, q51r512_group)
	VMOVSS X0, ret+40(FP)
	VZEROUPPER
	RET
