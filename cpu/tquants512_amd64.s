//go:build amd64 && !purego

#include "textflag.h"
#include "zsum_amd64.h"

// AVX-512 dots of the ternary types, TQ1_0 and TQ2_0, with Q8_K
// activations (kquants.go), chosen over the AVX2 ones (kquants_amd64.s)
// where the CPU has AVX-512 F/BW/VL and VNNI (kernels512_amd64.go). Each
// super-block of 256 weights is unpacked into four ZMM registers of
// unsigned trits 0..2, laid out so that each meets 64 contiguous
// activations; VPDPBUSD multiplies and sums them into int32 lanes, and the
// trits' offset (-1) comes off through the activations' block sums, as in
// the AVX2 kernels. Integer sums are exact; only the float scaling differs
// in order from the other sets. Go's operand order is reversed from
// Intel's: the destination is last.
//
// TQ1_0 packs five trits a byte, as the number t0·81+t1·27+t2·9+t3·3+t4
// scaled to 0..255: trit n of byte q is (q·3ⁿ mod 256)·3 >> 8. A 16-bit
// VPMULLW by 3ⁿ·256 leaves q·3ⁿ mod 256 of a word's low byte in its high
// byte (of the high byte too, once VPSRLW has moved it down), and VPMULHUW
// by 3 (or 768, for the high byte's trit at bits 8-9) takes the trit. The
// powers differ per group of bytes, so that one step decodes trits of
// different positions straight into activation order:
//
//	step 1: qs[0:32] twice, ×[1 | 3]            -> values   0..63
//	step 2: qs[0:32] twice, ×[9 | 27]           -> values  64..127
//	step 3: qs[0:32], qs[32:48] twice, ×[81 | 1 | 3] -> values 128..191
//	step 4: qs[32:48] three times, qh[0:4] four times,
//	        ×[9 | 27 | 81 | 1, 3, 9, 27]        -> values 192..255
//
// TQ2_0 packs four 2-bit planes in each of two 32-byte runs: a run
// broadcast to both halves of a ZMM register and shifted by VPSRLVW gives
// two planes, 64 values in activation order.

// t1_pow1: step 1's powers of 3 [1 | 3], shifted left 8 in each word.
DATA t1_pow1<>+0(SB)/8, $0x0100010001000100
DATA t1_pow1<>+8(SB)/8, $0x0100010001000100
DATA t1_pow1<>+16(SB)/8, $0x0100010001000100
DATA t1_pow1<>+24(SB)/8, $0x0100010001000100
DATA t1_pow1<>+32(SB)/8, $0x0300030003000300
DATA t1_pow1<>+40(SB)/8, $0x0300030003000300
DATA t1_pow1<>+48(SB)/8, $0x0300030003000300
DATA t1_pow1<>+56(SB)/8, $0x0300030003000300
GLOBL t1_pow1<>(SB), RODATA|NOPTR, $64
// t1_pow2: step 2's powers of 3 [9 | 27], shifted left 8 in each word.
DATA t1_pow2<>+0(SB)/8, $0x0900090009000900
DATA t1_pow2<>+8(SB)/8, $0x0900090009000900
DATA t1_pow2<>+16(SB)/8, $0x0900090009000900
DATA t1_pow2<>+24(SB)/8, $0x0900090009000900
DATA t1_pow2<>+32(SB)/8, $0x1b001b001b001b00
DATA t1_pow2<>+40(SB)/8, $0x1b001b001b001b00
DATA t1_pow2<>+48(SB)/8, $0x1b001b001b001b00
DATA t1_pow2<>+56(SB)/8, $0x1b001b001b001b00
GLOBL t1_pow2<>(SB), RODATA|NOPTR, $64
// t1_pow3: step 3's powers of 3 [81 | 1 (bytes 32-47) | 3 (bytes 48-63)], shifted left 8 in each word.
DATA t1_pow3<>+0(SB)/8, $0x5100510051005100
DATA t1_pow3<>+8(SB)/8, $0x5100510051005100
DATA t1_pow3<>+16(SB)/8, $0x5100510051005100
DATA t1_pow3<>+24(SB)/8, $0x5100510051005100
DATA t1_pow3<>+32(SB)/8, $0x0100010001000100
DATA t1_pow3<>+40(SB)/8, $0x0100010001000100
DATA t1_pow3<>+48(SB)/8, $0x0300030003000300
DATA t1_pow3<>+56(SB)/8, $0x0300030003000300
GLOBL t1_pow3<>(SB), RODATA|NOPTR, $64
// t1_pow4: step 4's powers of 3 [9 | 27 | 81 (bytes 0-47, 16 each) | 1, 3, 9, 27 (bytes 48-63, 4 each)], shifted left 8 in each word.
DATA t1_pow4<>+0(SB)/8, $0x0900090009000900
DATA t1_pow4<>+8(SB)/8, $0x0900090009000900
DATA t1_pow4<>+16(SB)/8, $0x1b001b001b001b00
DATA t1_pow4<>+24(SB)/8, $0x1b001b001b001b00
DATA t1_pow4<>+32(SB)/8, $0x5100510051005100
DATA t1_pow4<>+40(SB)/8, $0x5100510051005100
DATA t1_pow4<>+48(SB)/8, $0x0300030001000100
DATA t1_pow4<>+56(SB)/8, $0x1b001b0009000900
GLOBL t1_pow4<>(SB), RODATA|NOPTR, $64
// t2_sh01 and t2_sh23: VPSRLVW counts 0 and 2, 4 and 6 (low half, high
// half), that take two 2-bit planes from 32 bytes broadcast to both halves.
DATA t2_sh01<>+0(SB)/8, $0x0000000000000000
DATA t2_sh01<>+8(SB)/8, $0x0000000000000000
DATA t2_sh01<>+16(SB)/8, $0x0000000000000000
DATA t2_sh01<>+24(SB)/8, $0x0000000000000000
DATA t2_sh01<>+32(SB)/8, $0x0002000200020002
DATA t2_sh01<>+40(SB)/8, $0x0002000200020002
DATA t2_sh01<>+48(SB)/8, $0x0002000200020002
DATA t2_sh01<>+56(SB)/8, $0x0002000200020002
GLOBL t2_sh01<>(SB), RODATA|NOPTR, $64

DATA t2_sh23<>+0(SB)/8, $0x0004000400040004
DATA t2_sh23<>+8(SB)/8, $0x0004000400040004
DATA t2_sh23<>+16(SB)/8, $0x0004000400040004
DATA t2_sh23<>+24(SB)/8, $0x0004000400040004
DATA t2_sh23<>+32(SB)/8, $0x0006000600060006
DATA t2_sh23<>+40(SB)/8, $0x0006000600060006
DATA t2_sh23<>+48(SB)/8, $0x0006000600060006
DATA t2_sh23<>+56(SB)/8, $0x0006000600060006
GLOBL t2_sh23<>(SB), RODATA|NOPTR, $64

// t2_mask01 and t2_mask23: the bytes that hold planes 0 and 1, 2 and 3
// (low half, high half) of 32 TQ2_0 bytes broadcast to both halves. Masked
// in place, plane p weighs 4^p; t2_sh01/t2_sh23's counts, as VPSRAVD
// counts on the dword sums, take the weights back out exactly.
DATA t2_mask01<>+0(SB)/8, $0x0303030303030303
DATA t2_mask01<>+8(SB)/8, $0x0303030303030303
DATA t2_mask01<>+16(SB)/8, $0x0303030303030303
DATA t2_mask01<>+24(SB)/8, $0x0303030303030303
DATA t2_mask01<>+32(SB)/8, $0x0c0c0c0c0c0c0c0c
DATA t2_mask01<>+40(SB)/8, $0x0c0c0c0c0c0c0c0c
DATA t2_mask01<>+48(SB)/8, $0x0c0c0c0c0c0c0c0c
DATA t2_mask01<>+56(SB)/8, $0x0c0c0c0c0c0c0c0c
GLOBL t2_mask01<>(SB), RODATA|NOPTR, $64
DATA t2_mask23<>+0(SB)/8, $0x3030303030303030
DATA t2_mask23<>+8(SB)/8, $0x3030303030303030
DATA t2_mask23<>+16(SB)/8, $0x3030303030303030
DATA t2_mask23<>+24(SB)/8, $0x3030303030303030
DATA t2_mask23<>+32(SB)/8, $0xc0c0c0c0c0c0c0c0
DATA t2_mask23<>+40(SB)/8, $0xc0c0c0c0c0c0c0c0
DATA t2_mask23<>+48(SB)/8, $0xc0c0c0c0c0c0c0c0
DATA t2_mask23<>+56(SB)/8, $0xc0c0c0c0c0c0c0c0
GLOBL t2_mask23<>(SB), RODATA|NOPTR, $64
// t2_dsh01 and t2_dsh23: VPSRAVD counts 0 and 2, 4 and 6 (low half, high
// half), one a dword.
DATA t2_dsh01<>+0(SB)/8, $0x0000000000000000
DATA t2_dsh01<>+8(SB)/8, $0x0000000000000000
DATA t2_dsh01<>+16(SB)/8, $0x0000000000000000
DATA t2_dsh01<>+24(SB)/8, $0x0000000000000000
DATA t2_dsh01<>+32(SB)/8, $0x0000000200000002
DATA t2_dsh01<>+40(SB)/8, $0x0000000200000002
DATA t2_dsh01<>+48(SB)/8, $0x0000000200000002
DATA t2_dsh01<>+56(SB)/8, $0x0000000200000002
GLOBL t2_dsh01<>(SB), RODATA|NOPTR, $64
DATA t2_dsh23<>+0(SB)/8, $0x0000000400000004
DATA t2_dsh23<>+8(SB)/8, $0x0000000400000004
DATA t2_dsh23<>+16(SB)/8, $0x0000000400000004
DATA t2_dsh23<>+24(SB)/8, $0x0000000400000004
DATA t2_dsh23<>+32(SB)/8, $0x0000000600000006
DATA t2_dsh23<>+40(SB)/8, $0x0000000600000006
DATA t2_dsh23<>+48(SB)/8, $0x0000000600000006
DATA t2_dsh23<>+56(SB)/8, $0x0000000600000006
GLOBL t2_dsh23<>(SB), RODATA|NOPTR, $64

// TQ_CONSTS loads what both ternary kernels use: 3 and 768 in each word
// (Z24, Z25), 0xff00 in each word (Z26), 1 in each word (Z28).
#define TQ_CONSTS \
	MOVL $0x00030003, R11; \
	VPBROADCASTD R11, Z24; \
	MOVL $0x03000300, R11; \
	VPBROADCASTD R11, Z25; \
	MOVL $0xff00ff00, R11; \
	VPBROADCASTD R11, Z26; \
	MOVL $0x00010001, R11; \
	VPBROADCASTD R11, Z28

// TQ1_LOAD spreads the TQ1_0 super-block at SI over the registers the
// four steps read: Z30 (step 1 and 2), Z7 (step 3), Z9 (step 4), and each
// one's high bytes moved down, Z31, Z10, Z11. Clobbers X8 and Z27.
#define TQ1_LOAD \
	VBROADCASTI64X4 0(SI), Z30; \
	VPSRLW $8, Z30, Z31; \
	VBROADCASTI32X4 32(SI), Z27; \
	VINSERTI64X4 $0, 0(SI), Z27, Z7; \
	VPBROADCASTD 48(SI), X8; \
	VINSERTI32X4 $3, X8, Z27, Z9; \
	VPSRLW $8, Z7, Z10; \
	VPSRLW $8, Z9, Z11

// TQ1_TRITS leaves in Z5 the 64 trits of one step: the bytes of r (its
// high bytes moved down in rh) times the powers pow, mod 256, times 3,
// >> 8. Clobbers Z4.
#define TQ1_TRITS(r, rh, pow) \
	VPMULLW pow, r, Z4; \
	VPMULLW pow, rh, Z5; \
	VPMULHUW Z24, Z4, Z4; \
	VPMULHUW Z25, Z5, Z5; \
	VPTERNLOGD $0xec, Z26, Z4, Z5

// TQ_SCALE adds the int32 sums in Z6, less the activations' 16 block sums
// at BX, scaled by d·dy (the weights' f16 d at doff(SI), dy at DX), to Z0.
#define TQ_SCALE(doff) \
	VPMADDWD (BX), Y28, Y12; \
	VPSUBD Z12, Z6, Z6; \
	VPBROADCASTW doff(SI), X13; \
	VCVTPH2PS X13, X13; \
	VMULSS (DX), X13, X13; \
	VBROADCASTSS X13, Z13; \
	VCVTDQ2PS Z6, Z6; \
	VFMADD231PS Z6, Z13, Z0

// func dotTQ1AVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32
TEXT ·dotTQ1AVX512(SB), NOSPLIT, $0-44
	MOVQ w+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ qd+16(FP), DX
	MOVQ bsums+24(FP), BX
	MOVQ nb+32(FP), CX
	VPXORD Z0, Z0, Z0
	TQ_CONSTS
	VMOVDQU64 t1_pow1<>(SB), Z16
	VMOVDQU64 t1_pow2<>(SB), Z17
	VMOVDQU64 t1_pow3<>(SB), Z18
	VMOVDQU64 t1_pow4<>(SB), Z19
tq1z_loop:
	TQ1_LOAD
	VPXORD Z6, Z6, Z6
	VPXORD Z15, Z15, Z15
	TQ1_TRITS(Z30, Z31, Z16)
	VPDPBUSD 0(DI), Z5, Z6
	TQ1_TRITS(Z30, Z31, Z17)
	VPDPBUSD 64(DI), Z5, Z15
	TQ1_TRITS(Z7, Z10, Z18)
	VPDPBUSD 128(DI), Z5, Z6
	TQ1_TRITS(Z9, Z11, Z19)
	VPDPBUSD 192(DI), Z5, Z15
	VPADDD Z15, Z6, Z6
	TQ_SCALE(52)
	ADDQ $54, SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, BX
	DECQ CX
	JNZ tq1z_loop
	ZSUM
	VMOVSS X0, ret+40(FP)
	VZEROUPPER
	RET

// TQ2_TWO adds to acc the dot of two planes of the 32 bytes broadcast in
// r, masked in place by mask (so weighing 4^plane), with the 64
// activations at aoff(DI). Clobbers Z4.
#define TQ2_TWO(r, mask, aoff, acc) \
	VPANDD mask, r, Z4; \
	VPDPBUSD aoff(DI), Z4, acc

// func dotTQ2AVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32
TEXT ·dotTQ2AVX512(SB), NOSPLIT, $0-44
	MOVQ w+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ qd+16(FP), DX
	MOVQ bsums+24(FP), BX
	MOVQ nb+32(FP), CX
	VPXORD Z0, Z0, Z0
	TQ_CONSTS
	VMOVDQU64 t2_mask01<>(SB), Z30
	VMOVDQU64 t2_mask23<>(SB), Z31
	VMOVDQU64 t2_dsh01<>(SB), Z20
	VMOVDQU64 t2_dsh23<>(SB), Z21
tq2z_loop:
	VBROADCASTI64X4 0(SI), Z1
	VBROADCASTI64X4 32(SI), Z2
	VPXORD Z6, Z6, Z6
	VPXORD Z15, Z15, Z15
	TQ2_TWO(Z1, Z30, 0, Z6)
	TQ2_TWO(Z1, Z31, 64, Z15)
	TQ2_TWO(Z2, Z30, 128, Z6)
	TQ2_TWO(Z2, Z31, 192, Z15)
	VPSRAVD Z20, Z6, Z6
	VPSRAVD Z21, Z15, Z15
	VPADDD Z15, Z6, Z6
	TQ_SCALE(64)
	ADDQ $66, SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, BX
	DECQ CX
	JNZ tq2z_loop
	ZSUM
	VMOVSS X0, ret+40(FP)
	VZEROUPPER
	RET

// The x4 kernels: one weight row against four activation rows, nb
// super-blocks apart (qs AX = 256·nb bytes, bsums R12 = 32·nb bytes, dy
// R13 = 4·nb bytes), each super-block's trits decoded once for the four.
// Row c's int32 sums are in Z12+c, its float sums in Z0+c.

// TQX4_SETUP computes the strides from nb (CX) and zeroes the float sums.
#define TQX4_SETUP \
	MOVQ CX, AX; \
	SHLQ $8, AX; \
	MOVQ CX, R12; \
	SHLQ $5, R12; \
	MOVQ CX, R13; \
	SHLQ $2, R13; \
	VPXORD Z0, Z0, Z0; \
	VPXORD Z1, Z1, Z1; \
	VPXORD Z2, Z2, Z2; \
	VPXORD Z3, Z3, Z3; \
	TQ_CONSTS

// TQX4_ZERO zeroes the four rows' int32 sums and points R10 at row 3's
// activations.
#define TQX4_ZERO \
	VPXORD Z12, Z12, Z12; \
	VPXORD Z13, Z13, Z13; \
	VPXORD Z14, Z14, Z14; \
	VPXORD Z15, Z15, Z15; \
	LEAQ (DI)(AX*2), R10; \
	ADDQ AX, R10

// TQX4_DOT adds the dots of the 64 unsigned bytes in t with the four
// rows' activations at aoff to their int32 sums.
#define TQX4_DOT(t, aoff) \
	VPDPBUSD aoff(DI), t, Z12; \
	VPDPBUSD aoff(DI)(AX*1), t, Z13; \
	VPDPBUSD aoff(DI)(AX*2), t, Z14; \
	VPDPBUSD aoff(R10), t, Z15

// TQX4_ROW finishes one row of a super-block: its int32 sums less its 16
// block sums at bs, scaled by d·dy (d in X20, dy at dy), go to acc.
#define TQX4_ROW(bs, dy, isum, acc) \
	VPMADDWD bs, Y28, Y21; \
	VPSUBD Z21, isum, isum; \
	VMULSS dy, X20, X22; \
	VBROADCASTSS X22, Z22; \
	VCVTDQ2PS isum, isum; \
	VFMADD231PS isum, Z22, acc

// TQX4_ROWS finishes the four rows of the super-block at SI (its f16 d at
// doff).
#define TQX4_ROWS(doff) \
	VPBROADCASTW doff(SI), X20; \
	VCVTPH2PS X20, X20; \
	LEAQ (BX)(R12*2), R8; \
	ADDQ R12, R8; \
	LEAQ (DX)(R13*2), R9; \
	ADDQ R13, R9; \
	TQX4_ROW((BX), (DX), Z12, Z0); \
	TQX4_ROW((BX)(R12*1), (DX)(R13*1), Z13, Z1); \
	TQX4_ROW((BX)(R12*2), (DX)(R13*2), Z14, Z2); \
	TQX4_ROW((R8), (R9), Z15, Z3)

// TQX4_STORE stores the sums of Z0-Z3's floats at (R8).
#define TQX4_STORE \
	VEXTRACTF64X4 $1, Z0, Y4; \
	VADDPS Y4, Y0, Y0; \
	VEXTRACTF64X4 $1, Z1, Y4; \
	VADDPS Y4, Y1, Y1; \
	VEXTRACTF64X4 $1, Z2, Y4; \
	VADDPS Y4, Y2, Y2; \
	VEXTRACTF64X4 $1, Z3, Y4; \
	VADDPS Y4, Y3, Y3; \
	VHADDPS Y1, Y0, Y0; \
	VHADDPS Y3, Y2, Y2; \
	VHADDPS Y2, Y0, Y0; \
	VEXTRACTF128 $1, Y0, X1; \
	VADDPS X1, X0, X0; \
	VMOVUPS X0, (R8)

// func dotTQ1x4AVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int, out *float32)
TEXT ·dotTQ1x4AVX512(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ qd+16(FP), DX
	MOVQ bsums+24(FP), BX
	MOVQ nb+32(FP), CX
	TQX4_SETUP
	VMOVDQU64 t1_pow1<>(SB), Z16
	VMOVDQU64 t1_pow2<>(SB), Z17
	VMOVDQU64 t1_pow3<>(SB), Z18
	VMOVDQU64 t1_pow4<>(SB), Z19
tq1x4_loop:
	TQ1_LOAD
	TQX4_ZERO
	TQ1_TRITS(Z30, Z31, Z16)
	TQX4_DOT(Z5, 0)
	TQ1_TRITS(Z30, Z31, Z17)
	TQX4_DOT(Z5, 64)
	TQ1_TRITS(Z7, Z10, Z18)
	TQX4_DOT(Z5, 128)
	TQ1_TRITS(Z9, Z11, Z19)
	TQX4_DOT(Z5, 192)
	TQX4_ROWS(52)
	ADDQ $54, SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, BX
	DECQ CX
	JNZ tq1x4_loop
	MOVQ out+40(FP), R8
	TQX4_STORE
	VZEROUPPER
	RET

// func dotTQ2x4AVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int, out *float32)
TEXT ·dotTQ2x4AVX512(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ qd+16(FP), DX
	MOVQ bsums+24(FP), BX
	MOVQ nb+32(FP), CX
	TQX4_SETUP
	MOVL $0x03030303, R11
	VPBROADCASTD R11, Z29
	VMOVDQU64 t2_sh01<>(SB), Z30
	VMOVDQU64 t2_sh23<>(SB), Z31
tq2x4_loop:
	VBROADCASTI64X4 0(SI), Z7
	VBROADCASTI64X4 32(SI), Z8
	TQX4_ZERO
	VPSRLVW Z30, Z7, Z4
	VPANDD Z29, Z4, Z4
	TQX4_DOT(Z4, 0)
	VPSRLVW Z31, Z7, Z5
	VPANDD Z29, Z5, Z5
	TQX4_DOT(Z5, 64)
	VPSRLVW Z30, Z8, Z4
	VPANDD Z29, Z4, Z4
	TQX4_DOT(Z4, 128)
	VPSRLVW Z31, Z8, Z5
	VPANDD Z29, Z5, Z5
	TQX4_DOT(Z5, 192)
	TQX4_ROWS(64)
	ADDQ $66, SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, BX
	DECQ CX
	JNZ tq2x4_loop
	MOVQ out+40(FP), R8
	TQX4_STORE
	VZEROUPPER
	RET
