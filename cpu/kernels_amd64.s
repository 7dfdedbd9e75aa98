//go:build amd64 && !purego

#include "textflag.h"
#include "ymm_amd64.h"

// AVX2/FMA/F16C kernels for kernels_asm.go. Lengths are in elements and
// are multiples of 8 unless a function says otherwise; the Go wrappers do
// the tails. Go's operand order is reversed from Intel's: the destination
// comes last.

// func cpuidex(leaf, sub uint32) (a, b, c, d uint32)
TEXT ·cpuidex(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX
	MOVL sub+4(FP), CX
	CPUID
	MOVL AX, a+8(FP)
	MOVL BX, b+12(FP)
	MOVL CX, c+16(FP)
	MOVL DX, d+20(FP)
	RET

// func xgetbv0() (a, d uint32)
TEXT ·xgetbv0(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, a+0(FP)
	MOVL DX, d+4(FP)
	RET

// HSUM reduces the 8 lanes of Y0 into the low lane of X0 (clobbers X1).
#define HSUM \
	VEXTRACTF128 $1, Y0, X1 \
	VADDPS X1, X0, X0 \
	VHADDPS X0, X0, X0 \
	VHADDPS X0, X0, X0

// func dotF32SIMD(a, b *float32, n int) float32
TEXT ·dotF32SIMD(SB), NOSPLIT, $0-28
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ n+16(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	CMPQ CX, $32
	JLT dotf32_tail

dotf32_loop:
	VMOVUPS (SI), Y4
	VMOVUPS 32(SI), Y5
	VMOVUPS 64(SI), Y6
	VMOVUPS 96(SI), Y7
	VFMADD231PS (DI), Y4, Y0
	VFMADD231PS 32(DI), Y5, Y1
	VFMADD231PS 64(DI), Y6, Y2
	VFMADD231PS 96(DI), Y7, Y3
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $32, CX
	CMPQ CX, $32
	JGE dotf32_loop

dotf32_tail:
	CMPQ CX, $8
	JLT dotf32_done
	VMOVUPS (SI), Y4
	VFMADD231PS (DI), Y4, Y0
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JMP dotf32_tail

dotf32_done:
	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y2, Y0, Y0
	HSUM
	VMOVSS X0, ret+24(FP)
	VZEROUPPER
	RET

// func dotF16SIMD(w *byte, x *float32, n int) float32
TEXT ·dotF16SIMD(SB), NOSPLIT, $0-28
	MOVQ w+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ n+16(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	CMPQ CX, $32
	JLT dotf16_tail

dotf16_loop:
	PREFETCHT0 1024(SI) // 1 KiB ahead: 8-20 % faster from DRAM on Zen (BenchmarkMulMatStreamed)
	VCVTPH2PS (SI), Y4
	VCVTPH2PS 16(SI), Y5
	VCVTPH2PS 32(SI), Y6
	VCVTPH2PS 48(SI), Y7
	VFMADD231PS (DI), Y4, Y0
	VFMADD231PS 32(DI), Y5, Y1
	VFMADD231PS 64(DI), Y6, Y2
	VFMADD231PS 96(DI), Y7, Y3
	ADDQ $64, SI
	ADDQ $128, DI
	SUBQ $32, CX
	CMPQ CX, $32
	JGE dotf16_loop

dotf16_tail:
	CMPQ CX, $8
	JLT dotf16_done
	VCVTPH2PS (SI), Y4
	VFMADD231PS (DI), Y4, Y0
	ADDQ $16, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JMP dotf16_tail

dotf16_done:
	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y2, Y0, Y0
	HSUM
	VMOVSS X0, ret+24(FP)
	VZEROUPPER
	RET

// Q8BLOCK multiplies the signed weight quants in W with the activation
// quants at (DI) and accumulates the float block sum, scaled by the
// weight's half scale at (SI) and the activation scale at (DX), into ACC.
// Y15 holds 16-bit ones. Clobbers Y4-Y7.
#define Q8BLOCK(W, ACC) \
	VMOVDQU (DI), Y5 \
	VPSIGNB W, W, Y4 \
	VPSIGNB W, Y5, Y5 \
	VPMADDUBSW Y5, Y4, Y4 \
	VPMADDWD Y15, Y4, Y4 \
	VCVTDQ2PS Y4, Y4 \
	VPBROADCASTW (SI), X6 \
	VCVTPH2PS X6, Y6 \
	VBROADCASTSS (DX), Y7 \
	VMULPS Y7, Y6, Y6 \
	VFMADD231PS Y4, Y6, ACC

// Q8DOT sums the dot of the Q8_0 weight row at SI with the activations
// at DI (quants) and DX (scales) over CX blocks into X0, two blocks a
// step into Y0 and Y1, each block's line 1 KiB ahead prefetched (15-25 %
// faster from DRAM on Zen, BenchmarkMulMatStreamed). Y15 holds 16-bit
// ones. Clobbers SI, DI, DX, CX, Y1, Y4-Y8.
#define Q8DOT(LOOP, TAIL, DONE) \
	VXORPS Y0, Y0, Y0 \
	VXORPS Y1, Y1, Y1 \
	CMPQ CX, $2 \
	JLT TAIL \
LOOP: \
	PREFETCHT0 1024(SI) \
	VMOVDQU 2(SI), Y8 \
	Q8BLOCK(Y8, Y0) \
	ADDQ $34, SI \
	ADDQ $32, DI \
	ADDQ $4, DX \
	VMOVDQU 2(SI), Y8 \
	Q8BLOCK(Y8, Y1) \
	ADDQ $34, SI \
	ADDQ $32, DI \
	ADDQ $4, DX \
	SUBQ $2, CX \
	CMPQ CX, $2 \
	JGE LOOP \
TAIL: \
	TESTQ CX, CX \
	JZ DONE \
	VMOVDQU 2(SI), Y8 \
	Q8BLOCK(Y8, Y0) \
DONE: \
	VADDPS Y1, Y0, Y0 \
	HSUM

// func dotQ8SIMD(w *byte, qs *int8, qd *float32, nb int) float32
TEXT ·dotQ8SIMD(SB), NOSPLIT, $0-36
	MOVQ w+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ qd+16(FP), DX
	MOVQ nb+24(FP), CX
	VPCMPEQW Y15, Y15, Y15
	VPSRLW $15, Y15, Y15
	Q8DOT(dotq8_loop, dotq8_tail, dotq8_done)
	VMOVSS X0, ret+32(FP)
	VZEROUPPER
	RET

// func dotQ8RowsSIMD(w *byte, ldw int, qs *int8, qd *float32, nb int, out *float32, rows int)
// rows >= 1 Q8_0 weight rows of nb blocks, ldw bytes apart, each times the
// activations as dotQ8SIMD (so its bits): out[r] for row r, in one call.
TEXT ·dotQ8RowsSIMD(SB), NOSPLIT, $0-56
	MOVQ w+0(FP), R13
	MOVQ ldw+8(FP), BX
	MOVQ out+40(FP), R9
	MOVQ rows+48(FP), R12
	VPCMPEQW Y15, Y15, Y15
	VPSRLW $15, Y15, Y15

q8rows_row:
	MOVQ R13, SI
	MOVQ qs+16(FP), DI
	MOVQ qd+24(FP), DX
	MOVQ nb+32(FP), CX
	Q8DOT(q8rows_loop, q8rows_tail, q8rows_done)
	VMOVSS X0, (R9)
	ADDQ $4, R9
	ADDQ BX, R13
	DECQ R12
	JNZ q8rows_row
	VZEROUPPER
	RET

// Q4UNPACK loads the 16 nibble bytes of the Q4_0 block at (SI) into Y8 as
// 32 signed values in [-8, 7]: low nibbles first, then high nibbles.
// Y13 holds bytes 8, Y14 bytes 0x0f. Clobbers X9.
#define Q4UNPACK \
	VMOVDQU 2(SI), X8 \
	VPSRLW $4, X8, X9 \
	VINSERTI128 $1, X9, Y8, Y8 \
	VPAND Y14, Y8, Y8 \
	VPSUBB Y13, Y8, Y8

// func dotQ4SIMD(w *byte, qs *int8, qd *float32, nb int) float32
TEXT ·dotQ4SIMD(SB), NOSPLIT, $0-36
	MOVQ w+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ qd+16(FP), DX
	MOVQ nb+24(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VPCMPEQW Y15, Y15, Y15
	VPSRLW $15, Y15, Y15
	VMOVDQU nibMask<>(SB), Y14
	VMOVDQU eights<>(SB), Y13
	CMPQ CX, $2
	JLT dotq4_tail

dotq4_loop:
	Q4UNPACK
	Q8BLOCK(Y8, Y0)
	ADDQ $18, SI
	ADDQ $32, DI
	ADDQ $4, DX
	Q4UNPACK
	Q8BLOCK(Y8, Y1)
	ADDQ $18, SI
	ADDQ $32, DI
	ADDQ $4, DX
	SUBQ $2, CX
	CMPQ CX, $2
	JGE dotq4_loop

dotq4_tail:
	TESTQ CX, CX
	JZ dotq4_done
	Q4UNPACK
	Q8BLOCK(Y8, Y0)

dotq4_done:
	VADDPS Y1, Y0, Y0
	HSUM
	VMOVSS X0, ret+32(FP)
	VZEROUPPER
	RET

// func f16ToF32SIMD(src *byte, dst *float32, n int)
TEXT ·f16ToF32SIMD(SB), NOSPLIT, $0-24
	MOVQ src+0(FP), SI
	MOVQ dst+8(FP), DI
	MOVQ n+16(FP), CX
	CMPQ CX, $32
	JLT f16_tail

f16_loop:
	VCVTPH2PS (SI), Y0
	VCVTPH2PS 16(SI), Y1
	VCVTPH2PS 32(SI), Y2
	VCVTPH2PS 48(SI), Y3
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ $64, SI
	ADDQ $128, DI
	SUBQ $32, CX
	CMPQ CX, $32
	JGE f16_loop

f16_tail:
	CMPQ CX, $8
	JLT f16_done
	VCVTPH2PS (SI), Y0
	VMOVUPS Y0, (DI)
	ADDQ $16, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JMP f16_tail

f16_done:
	VZEROUPPER
	RET

// func addSIMD(dst, a, b *float32, n int)
TEXT ·addSIMD(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	CMPQ CX, $32
	JLT addavx_tail

addavx_loop:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS 64(SI), Y2
	VMOVUPS 96(SI), Y3
	VADDPS (DX), Y0, Y0
	VADDPS 32(DX), Y1, Y1
	VADDPS 64(DX), Y2, Y2
	VADDPS 96(DX), Y3, Y3
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ $128, SI
	ADDQ $128, DX
	ADDQ $128, DI
	SUBQ $32, CX
	CMPQ CX, $32
	JGE addavx_loop

addavx_tail:
	CMPQ CX, $8
	JLT addavx_done
	VMOVUPS (SI), Y0
	VADDPS (DX), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	SUBQ $8, CX
	JMP addavx_tail

addavx_done:
	VZEROUPPER
	RET

// func mulSIMD(dst, a, b *float32, n int)
TEXT ·mulSIMD(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	CMPQ CX, $32
	JLT mulavx_tail

mulavx_loop:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS 64(SI), Y2
	VMOVUPS 96(SI), Y3
	VMULPS (DX), Y0, Y0
	VMULPS 32(DX), Y1, Y1
	VMULPS 64(DX), Y2, Y2
	VMULPS 96(DX), Y3, Y3
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ $128, SI
	ADDQ $128, DX
	ADDQ $128, DI
	SUBQ $32, CX
	CMPQ CX, $32
	JGE mulavx_loop

mulavx_tail:
	CMPQ CX, $8
	JLT mulavx_done
	VMOVUPS (SI), Y0
	VMULPS (DX), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	SUBQ $8, CX
	JMP mulavx_tail

mulavx_done:
	VZEROUPPER
	RET

// func scaleSIMD(dst, x *float32, n int, s float32)
TEXT ·scaleSIMD(SB), NOSPLIT, $0-28
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS s+24(FP), Y15
	CMPQ CX, $32
	JLT scale_tail

scale_loop:
	VMULPS (SI), Y15, Y0
	VMULPS 32(SI), Y15, Y1
	VMULPS 64(SI), Y15, Y2
	VMULPS 96(SI), Y15, Y3
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $32, CX
	CMPQ CX, $32
	JGE scale_loop

scale_tail:
	CMPQ CX, $8
	JLT scale_done
	VMULPS (SI), Y15, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JMP scale_tail

scale_done:
	VZEROUPPER
	RET

// func scaleAddSIMD(dst, x, m *float32, n int, s float32)
// dst = x*s + m, rounding the product before the sum.
TEXT ·scaleAddSIMD(SB), NOSPLIT, $0-36
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ m+16(FP), DX
	MOVQ n+24(FP), CX
	VBROADCASTSS s+32(FP), Y15

scaleadd_loop:
	CMPQ CX, $8
	JLT scaleadd_done
	VMULPS (SI), Y15, Y0
	VADDPS (DX), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	SUBQ $8, CX
	JMP scaleadd_loop

scaleadd_done:
	VZEROUPPER
	RET

// func sumSqSIMD(x *float32, n int) float32
TEXT ·sumSqSIMD(SB), NOSPLIT, $0-20
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	CMPQ CX, $32
	JLT sumsq_tail

sumsq_loop:
	VMOVUPS (SI), Y4
	VMOVUPS 32(SI), Y5
	VMOVUPS 64(SI), Y6
	VMOVUPS 96(SI), Y7
	VFMADD231PS Y4, Y4, Y0
	VFMADD231PS Y5, Y5, Y1
	VFMADD231PS Y6, Y6, Y2
	VFMADD231PS Y7, Y7, Y3
	ADDQ $128, SI
	SUBQ $32, CX
	CMPQ CX, $32
	JGE sumsq_loop

sumsq_tail:
	CMPQ CX, $8
	JLT sumsq_done
	VMOVUPS (SI), Y4
	VFMADD231PS Y4, Y4, Y0
	ADDQ $32, SI
	SUBQ $8, CX
	JMP sumsq_tail

sumsq_done:
	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y2, Y0, Y0
	HSUM
	VMOVSS X0, ret+16(FP)
	VZEROUPPER
	RET

// func maxSIMD(x *float32, n int) float32
// n >= 8.
TEXT ·maxSIMD(SB), NOSPLIT, $0-20
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VMOVUPS (SI), Y0
	ADDQ $32, SI
	SUBQ $8, CX

max_loop:
	CMPQ CX, $8
	JLT max_done
	VMAXPS (SI), Y0, Y0
	ADDQ $32, SI
	SUBQ $8, CX
	JMP max_loop

max_done:
	VEXTRACTF128 $1, Y0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0x4e, X0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0xb1, X0, X1
	VMAXPS X1, X0, X0
	VMOVSS X0, ret+16(FP)
	VZEROUPPER
	RET

// EXP sets X to exp(X) for 8 lanes (Cephes' expf: 2^n·p(r)). Lanes below
// ln(FLT_MIN), and NaN lanes, give 0; lanes above ~88.38 (a little early)
// give +Inf.
// Clobbers T1-T3.
#define EXP(X, T1, T2, T3) \
	VCMPPS $0x1d, expLo<>(SB), X, T3 \
	VMINPS expHi<>(SB), X, X \
	VMAXPS expLo<>(SB), X, X \
	VMOVUPS expHalf<>(SB), T1 \
	VFMADD231PS expLog2e<>(SB), X, T1 \
	VROUNDPS $1, T1, T1 \
	VFNMADD231PS expC1<>(SB), T1, X \
	VFNMADD231PS expC2<>(SB), T1, X \
	VMOVUPS expP0<>(SB), T2 \
	VFMADD213PS expP1<>(SB), X, T2 \
	VFMADD213PS expP2<>(SB), X, T2 \
	VFMADD213PS expP3<>(SB), X, T2 \
	VFMADD213PS expP4<>(SB), X, T2 \
	VFMADD213PS expP5<>(SB), X, T2 \
	VMULPS X, T2, T2 \
	VFMADD213PS X, X, T2 \
	VADDPS vOne<>(SB), T2, T2 \
	VCVTTPS2DQ T1, T1 \
	VPADDD vBias127<>(SB), T1, T1 \
	VPSLLD $23, T1, T1 \
	VMULPS T1, T2, X \
	VANDPS T3, X, X

// func expSubSIMD(dst, x *float32, n int, m float32) float32
// dst = exp(x - m); returns the sum of dst.
TEXT ·expSubSIMD(SB), NOSPLIT, $0-36
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS m+24(FP), Y15
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11
	CMPQ CX, $16
	JLT expsub_tail

expsub_loop:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y4
	VSUBPS Y15, Y0, Y0
	VSUBPS Y15, Y4, Y4
	EXP(Y0, Y1, Y2, Y3)
	EXP(Y4, Y5, Y6, Y7)
	VMOVUPS Y0, (DI)
	VMOVUPS Y4, 32(DI)
	VADDPS Y0, Y10, Y10
	VADDPS Y4, Y11, Y11
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $16, CX
	CMPQ CX, $16
	JGE expsub_loop

expsub_tail:
	CMPQ CX, $8
	JLT expsub_done
	VMOVUPS (SI), Y0
	VSUBPS Y15, Y0, Y0
	EXP(Y0, Y1, Y2, Y3)
	VMOVUPS Y0, (DI)
	VADDPS Y0, Y10, Y10

expsub_done:
	VADDPS Y11, Y10, Y0
	HSUM
	VMOVSS X0, ret+32(FP)
	VZEROUPPER
	RET

// func siluSIMD(dst, x *float32, n int)
// dst = x / (1 + exp(-x)).
TEXT ·siluSIMD(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VMOVUPS vSignBit<>(SB), Y15
	VMOVUPS vOne<>(SB), Y14

silu_loop:
	CMPQ CX, $8
	JLT silu_done
	VMOVUPS (SI), Y8
	VXORPS Y15, Y8, Y0
	EXP(Y0, Y1, Y2, Y3)
	VADDPS Y14, Y0, Y0
	VDIVPS Y0, Y8, Y8
	VMOVUPS Y8, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JMP silu_loop

silu_done:
	VZEROUPPER
	RET

DATA nibMask<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibMask<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibMask<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibMask<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL nibMask<>(SB), RODATA|NOPTR, $32

DATA hiShift4<>+0(SB)/8, $0
DATA hiShift4<>+8(SB)/8, $0
DATA hiShift4<>+16(SB)/8, $0x0000000400000004
DATA hiShift4<>+24(SB)/8, $0x0000000400000004
GLOBL hiShift4<>(SB), RODATA|NOPTR, $32

DATA eights<>+0(SB)/8, $0x0808080808080808
DATA eights<>+8(SB)/8, $0x0808080808080808
DATA eights<>+16(SB)/8, $0x0808080808080808
DATA eights<>+24(SB)/8, $0x0808080808080808
GLOBL eights<>(SB), RODATA|NOPTR, $32

DATA expHi<>+0(SB)/8, $0x42b1721842b17218
DATA expHi<>+8(SB)/8, $0x42b1721842b17218
DATA expHi<>+16(SB)/8, $0x42b1721842b17218
DATA expHi<>+24(SB)/8, $0x42b1721842b17218
GLOBL expHi<>(SB), RODATA|NOPTR, $32

DATA expLo<>+0(SB)/8, $0xc2aeac50c2aeac50
DATA expLo<>+8(SB)/8, $0xc2aeac50c2aeac50
DATA expLo<>+16(SB)/8, $0xc2aeac50c2aeac50
DATA expLo<>+24(SB)/8, $0xc2aeac50c2aeac50
GLOBL expLo<>(SB), RODATA|NOPTR, $32

DATA expLog2e<>+0(SB)/8, $0x3fb8aa3b3fb8aa3b
DATA expLog2e<>+8(SB)/8, $0x3fb8aa3b3fb8aa3b
DATA expLog2e<>+16(SB)/8, $0x3fb8aa3b3fb8aa3b
DATA expLog2e<>+24(SB)/8, $0x3fb8aa3b3fb8aa3b
GLOBL expLog2e<>(SB), RODATA|NOPTR, $32

DATA expHalf<>+0(SB)/8, $0x3f0000003f000000
DATA expHalf<>+8(SB)/8, $0x3f0000003f000000
DATA expHalf<>+16(SB)/8, $0x3f0000003f000000
DATA expHalf<>+24(SB)/8, $0x3f0000003f000000
GLOBL expHalf<>(SB), RODATA|NOPTR, $32

DATA expC1<>+0(SB)/8, $0x3f3180003f318000
DATA expC1<>+8(SB)/8, $0x3f3180003f318000
DATA expC1<>+16(SB)/8, $0x3f3180003f318000
DATA expC1<>+24(SB)/8, $0x3f3180003f318000
GLOBL expC1<>(SB), RODATA|NOPTR, $32

DATA expC2<>+0(SB)/8, $0xb95e8083b95e8083
DATA expC2<>+8(SB)/8, $0xb95e8083b95e8083
DATA expC2<>+16(SB)/8, $0xb95e8083b95e8083
DATA expC2<>+24(SB)/8, $0xb95e8083b95e8083
GLOBL expC2<>(SB), RODATA|NOPTR, $32

DATA expP0<>+0(SB)/8, $0x3950696739506967
DATA expP0<>+8(SB)/8, $0x3950696739506967
DATA expP0<>+16(SB)/8, $0x3950696739506967
DATA expP0<>+24(SB)/8, $0x3950696739506967
GLOBL expP0<>(SB), RODATA|NOPTR, $32

DATA expP1<>+0(SB)/8, $0x3ab743ce3ab743ce
DATA expP1<>+8(SB)/8, $0x3ab743ce3ab743ce
DATA expP1<>+16(SB)/8, $0x3ab743ce3ab743ce
DATA expP1<>+24(SB)/8, $0x3ab743ce3ab743ce
GLOBL expP1<>(SB), RODATA|NOPTR, $32

DATA expP2<>+0(SB)/8, $0x3c0889083c088908
DATA expP2<>+8(SB)/8, $0x3c0889083c088908
DATA expP2<>+16(SB)/8, $0x3c0889083c088908
DATA expP2<>+24(SB)/8, $0x3c0889083c088908
GLOBL expP2<>(SB), RODATA|NOPTR, $32

DATA expP3<>+0(SB)/8, $0x3d2aa9c13d2aa9c1
DATA expP3<>+8(SB)/8, $0x3d2aa9c13d2aa9c1
DATA expP3<>+16(SB)/8, $0x3d2aa9c13d2aa9c1
DATA expP3<>+24(SB)/8, $0x3d2aa9c13d2aa9c1
GLOBL expP3<>(SB), RODATA|NOPTR, $32

DATA expP4<>+0(SB)/8, $0x3e2aaaaa3e2aaaaa
DATA expP4<>+8(SB)/8, $0x3e2aaaaa3e2aaaaa
DATA expP4<>+16(SB)/8, $0x3e2aaaaa3e2aaaaa
DATA expP4<>+24(SB)/8, $0x3e2aaaaa3e2aaaaa
GLOBL expP4<>(SB), RODATA|NOPTR, $32

DATA expP5<>+0(SB)/8, $0x3f0000003f000000
DATA expP5<>+8(SB)/8, $0x3f0000003f000000
DATA expP5<>+16(SB)/8, $0x3f0000003f000000
DATA expP5<>+24(SB)/8, $0x3f0000003f000000
GLOBL expP5<>(SB), RODATA|NOPTR, $32

DATA vOne<>+0(SB)/8, $0x3f8000003f800000
DATA vOne<>+8(SB)/8, $0x3f8000003f800000
DATA vOne<>+16(SB)/8, $0x3f8000003f800000
DATA vOne<>+24(SB)/8, $0x3f8000003f800000
GLOBL vOne<>(SB), RODATA|NOPTR, $32

DATA vBias127<>+0(SB)/8, $0x0000007f0000007f
DATA vBias127<>+8(SB)/8, $0x0000007f0000007f
DATA vBias127<>+16(SB)/8, $0x0000007f0000007f
DATA vBias127<>+24(SB)/8, $0x0000007f0000007f
GLOBL vBias127<>(SB), RODATA|NOPTR, $32

DATA vSignBit<>+0(SB)/8, $0x8000000080000000
DATA vSignBit<>+8(SB)/8, $0x8000000080000000
DATA vSignBit<>+16(SB)/8, $0x8000000080000000
DATA vSignBit<>+24(SB)/8, $0x8000000080000000
GLOBL vSignBit<>(SB), RODATA|NOPTR, $32

// TRANSPOSE8 transposes the 8×8 block in Y0-Y7 (row i in Yi) into Y8-Y15
// (column j in Y(8+j)), clobbering Y0-Y7.
#define TRANSPOSE8 \
	VUNPCKLPS Y1, Y0, Y8 \
	VUNPCKHPS Y1, Y0, Y9 \
	VUNPCKLPS Y3, Y2, Y10 \
	VUNPCKHPS Y3, Y2, Y11 \
	VUNPCKLPS Y5, Y4, Y12 \
	VUNPCKHPS Y5, Y4, Y13 \
	VUNPCKLPS Y7, Y6, Y14 \
	VUNPCKHPS Y7, Y6, Y15 \
	VSHUFPS $0x44, Y10, Y8, Y0 \
	VSHUFPS $0xee, Y10, Y8, Y1 \
	VSHUFPS $0x44, Y11, Y9, Y2 \
	VSHUFPS $0xee, Y11, Y9, Y3 \
	VSHUFPS $0x44, Y14, Y12, Y4 \
	VSHUFPS $0xee, Y14, Y12, Y5 \
	VSHUFPS $0x44, Y15, Y13, Y6 \
	VSHUFPS $0xee, Y15, Y13, Y7 \
	VPERM2F128 $0x20, Y4, Y0, Y8 \
	VPERM2F128 $0x20, Y5, Y1, Y9 \
	VPERM2F128 $0x20, Y6, Y2, Y10 \
	VPERM2F128 $0x20, Y7, Y3, Y11 \
	VPERM2F128 $0x31, Y4, Y0, Y12 \
	VPERM2F128 $0x31, Y5, Y1, Y13 \
	VPERM2F128 $0x31, Y6, Y2, Y14 \
	VPERM2F128 $0x31, Y7, Y3, Y15

// PACKSTORE8 stores the transposed block in Y8-Y15 at DI, ldd bytes (R11)
// apart, and leaves DI past it.
#define PACKSTORE8 \
	MOVQ DI, DX \
	VMOVUPS Y8, (DX) \
	ADDQ R11, DX \
	VMOVUPS Y9, (DX) \
	ADDQ R11, DX \
	VMOVUPS Y10, (DX) \
	ADDQ R11, DX \
	VMOVUPS Y11, (DX) \
	ADDQ R11, DX \
	VMOVUPS Y12, (DX) \
	ADDQ R11, DX \
	VMOVUPS Y13, (DX) \
	ADDQ R11, DX \
	VMOVUPS Y14, (DX) \
	ADDQ R11, DX \
	VMOVUPS Y15, (DX) \
	ADDQ R11, DX \
	MOVQ DX, DI

// TRANSPOSE8ROWS(LOAD, STEP) is the loop of the 8-row transposes: CX
// steps of loading 8 elements of each row at SI (rows 4-7 at R10, R8
// bytes apart, R9 = 3·R8) with LOAD, transposing them and storing the
// 8 columns at DI, R11 bytes apart; the rows advance STEP bytes a step.
#define TRANSPOSE8ROWS(LOAD, STEP) \
	SHRQ $3, CX \
	JZ t8_done \
t8_loop: \
	LOAD (SI), Y0 \
	LOAD (SI)(R8*1), Y1 \
	LOAD (SI)(R8*2), Y2 \
	LOAD (SI)(R9*1), Y3 \
	LOAD (R10), Y4 \
	LOAD (R10)(R8*1), Y5 \
	LOAD (R10)(R8*2), Y6 \
	LOAD (R10)(R9*1), Y7 \
	TRANSPOSE8 \
	PACKSTORE8 \
	ADDQ $STEP, SI \
	ADDQ $STEP, R10 \
	DECQ CX \
	JNZ t8_loop \
t8_done: \
	VZEROUPPER \
	RET

// func transpose8SIMD(dst, src *float32, stride, kc, ldd int)
// Packs 8 rows of kc floats (kc a multiple of 8) transposed: dst[k*ldd+r]
// = row r's element k. stride and ldd are in floats.
TEXT ·transpose8SIMD(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ stride+16(FP), R8
	MOVQ kc+24(FP), CX
	MOVQ ldd+32(FP), R11
	SHLQ $2, R8
	SHLQ $2, R11
	LEAQ (R8)(R8*2), R9      // 3*stride
	LEAQ (SI)(R8*4), R10     // row 4
	TRANSPOSE8ROWS(VMOVUPS, 32)

// func transpose8F16SIMD(dst *float32, src *byte, stride, kc, ldd int)
// transpose8SIMD for 8 rows of kc halves (kc a multiple of 8), stride
// bytes apart, converted to float32 as they are loaded.
TEXT ·transpose8F16SIMD(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ stride+16(FP), R8
	MOVQ kc+24(FP), CX
	MOVQ ldd+32(FP), R11
	SHLQ $2, R11
	LEAQ (R8)(R8*2), R9      // 3*stride
	LEAQ (SI)(R8*4), R10     // row 4
	TRANSPOSE8ROWS(VCVTPH2PS, 16)

// LOADPAIR sets Y to 8 halves of the row at LO (low lane) and of the row
// at HI (high lane).
#define LOADPAIR(LO, HI, Y, X) \
	VMOVDQU LO, X \
	VINSERTI128 $1, HI, Y, Y

// func packF16SIMD(dst, src *byte, stride, kc int)
// Packs 16 rows of kc halves (kc a multiple of 8), stride bytes apart,
// as the f16 GEMM tile reads them: dst[2·(16k+r)] = row r's half k. Rows
// r and r+8 share a register's lanes, so an 8×8 transpose of words in
// each lane gives a k step's 16 halves in one register.
TEXT ·packF16SIMD(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ stride+16(FP), R8
	MOVQ kc+24(FP), CX
	LEAQ (R8)(R8*2), R9      // 3*stride
	LEAQ (SI)(R8*4), R11     // row 4
	LEAQ (R11)(R8*4), R10    // row 8
	LEAQ (R10)(R8*4), R12    // row 12
	SHRQ $3, CX
	JZ packf16_done

packf16_loop:
	LOADPAIR((SI), (R10), Y0, X0)
	LOADPAIR((SI)(R8*1), (R10)(R8*1), Y1, X1)
	LOADPAIR((SI)(R8*2), (R10)(R8*2), Y2, X2)
	LOADPAIR((SI)(R9*1), (R10)(R9*1), Y3, X3)
	LOADPAIR((R11), (R12), Y4, X4)
	LOADPAIR((R11)(R8*1), (R12)(R8*1), Y5, X5)
	LOADPAIR((R11)(R8*2), (R12)(R8*2), Y6, X6)
	LOADPAIR((R11)(R9*1), (R12)(R9*1), Y7, X7)
	// Words of row pairs, then dwords of 4 rows, then qwords of 8.
	VPUNPCKLWD Y1, Y0, Y8
	VPUNPCKHWD Y1, Y0, Y9
	VPUNPCKLWD Y3, Y2, Y10
	VPUNPCKHWD Y3, Y2, Y11
	VPUNPCKLWD Y5, Y4, Y12
	VPUNPCKHWD Y5, Y4, Y13
	VPUNPCKLWD Y7, Y6, Y14
	VPUNPCKHWD Y7, Y6, Y15
	VPUNPCKLDQ Y10, Y8, Y0
	VPUNPCKHDQ Y10, Y8, Y1
	VPUNPCKLDQ Y11, Y9, Y2
	VPUNPCKHDQ Y11, Y9, Y3
	VPUNPCKLDQ Y14, Y12, Y4
	VPUNPCKHDQ Y14, Y12, Y5
	VPUNPCKLDQ Y15, Y13, Y6
	VPUNPCKHDQ Y15, Y13, Y7
	VPUNPCKLQDQ Y4, Y0, Y8
	VPUNPCKHQDQ Y4, Y0, Y9
	VPUNPCKLQDQ Y5, Y1, Y10
	VPUNPCKHQDQ Y5, Y1, Y11
	VPUNPCKLQDQ Y6, Y2, Y12
	VPUNPCKHQDQ Y6, Y2, Y13
	VPUNPCKLQDQ Y7, Y3, Y14
	VPUNPCKHQDQ Y7, Y3, Y15
	VMOVDQU Y8, (DI)
	VMOVDQU Y9, 32(DI)
	VMOVDQU Y10, 64(DI)
	VMOVDQU Y11, 96(DI)
	VMOVDQU Y12, 128(DI)
	VMOVDQU Y13, 160(DI)
	VMOVDQU Y14, 192(DI)
	VMOVDQU Y15, 224(DI)
	ADDQ $256, DI
	ADDQ $16, SI
	ADDQ $16, R11
	ADDQ $16, R10
	ADDQ $16, R12
	DECQ CX
	JNZ packf16_loop

packf16_done:
	VZEROUPPER
	RET

// func prefetchRowsSIMD(p uintptr, stride, rows, n int)
// Prefetches the cache lines of n bytes (n > 0) from p in each of rows
// rows (rows > 0), stride bytes apart.
TEXT ·prefetchRowsSIMD(SB), NOSPLIT, $0-32
	MOVQ p+0(FP), SI
	MOVQ stride+8(FP), R8
	MOVQ rows+16(FP), CX
	MOVQ n+24(FP), DX

prefetch_row:
	XORQ AX, AX

prefetch_line:
	PREFETCHT0 (SI)(AX*1)
	ADDQ $64, AX
	CMPQ AX, DX
	JLT prefetch_line
	ADDQ R8, SI
	DECQ CX
	JNZ prefetch_row
	RET

// func dequantQ8SIMD(src *byte, dst *float32, nb int)
TEXT ·dequantQ8SIMD(SB), NOSPLIT, $0-24
	MOVQ src+0(FP), SI
	MOVQ dst+8(FP), DI
	MOVQ nb+16(FP), CX
	TESTQ CX, CX
	JZ dq8_done

dq8_loop:
	VPBROADCASTW (SI), X4
	VCVTPH2PS X4, Y4
	VPMOVSXBD 2(SI), Y0
	VPMOVSXBD 10(SI), Y1
	VPMOVSXBD 18(SI), Y2
	VPMOVSXBD 26(SI), Y3
	VCVTDQ2PS Y0, Y0
	VCVTDQ2PS Y1, Y1
	VCVTDQ2PS Y2, Y2
	VCVTDQ2PS Y3, Y3
	VMULPS Y4, Y0, Y0
	VMULPS Y4, Y1, Y1
	VMULPS Y4, Y2, Y2
	VMULPS Y4, Y3, Y3
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ $34, SI
	ADDQ $128, DI
	DECQ CX
	JNZ dq8_loop

dq8_done:
	VZEROUPPER
	RET

// func dequantQ4SIMD(src *byte, dst *float32, nb int)
TEXT ·dequantQ4SIMD(SB), NOSPLIT, $0-24
	MOVQ src+0(FP), SI
	MOVQ dst+8(FP), DI
	MOVQ nb+16(FP), CX
	VMOVDQU nibMask<>(SB), Y14
	VMOVDQU eights<>(SB), Y13
	TESTQ CX, CX
	JZ dq4_done

dq4_loop:
	VPBROADCASTW (SI), X4
	VCVTPH2PS X4, Y4
	Q4UNPACK
	VEXTRACTI128 $1, Y8, X9
	VPMOVSXBD X8, Y0
	VPSRLDQ $8, X8, X8
	VPMOVSXBD X8, Y1
	VPMOVSXBD X9, Y2
	VPSRLDQ $8, X9, X9
	VPMOVSXBD X9, Y3
	VCVTDQ2PS Y0, Y0
	VCVTDQ2PS Y1, Y1
	VCVTDQ2PS Y2, Y2
	VCVTDQ2PS Y3, Y3
	VMULPS Y4, Y0, Y0
	VMULPS Y4, Y1, Y1
	VMULPS Y4, Y2, Y2
	VMULPS Y4, Y3, Y3
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ $18, SI
	ADDQ $128, DI
	DECQ CX
	JNZ dq4_loop

dq4_done:
	VZEROUPPER
	RET

// func ropeNormSIMD(dst, x, cs, sn *float32, n int)
// dst = x*cs + swap(x)*sn, where swap exchanges the elements of each pair:
// with cs = (c,c) and sn = (-s,s) per pair this rotates adjacent pairs.
TEXT ·ropeNormSIMD(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ cs+16(FP), DX
	MOVQ sn+24(FP), R8
	MOVQ n+32(FP), CX

ropen_loop:
	CMPQ CX, $8
	JLT ropen_done
	VMOVUPS (SI), Y0
	VPERMILPS $0xb1, Y0, Y1
	VMULPS (DX), Y0, Y0
	VFMADD231PS (R8), Y1, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	ADDQ $32, DX
	ADDQ $32, R8
	SUBQ $8, CX
	JMP ropen_loop

ropen_done:
	VZEROUPPER
	RET

// func ropeNeoxSIMD(d0, d1, x0, x1, c, s *float32, n int)
// d0 = x0*c - x1*s; d1 = x1*c + x0*s.
TEXT ·ropeNeoxSIMD(SB), NOSPLIT, $0-56
	MOVQ d0+0(FP), DI
	MOVQ d1+8(FP), R9
	MOVQ x0+16(FP), SI
	MOVQ x1+24(FP), R10
	MOVQ c+32(FP), DX
	MOVQ s+40(FP), R8
	MOVQ n+48(FP), CX

ropex_loop:
	CMPQ CX, $8
	JLT ropex_done
	VMOVUPS (SI), Y0
	VMOVUPS (R10), Y1
	VMOVUPS (DX), Y2
	VMOVUPS (R8), Y3
	VMULPS Y2, Y0, Y4
	VFNMADD231PS Y3, Y1, Y4
	VMULPS Y2, Y1, Y5
	VFMADD231PS Y3, Y0, Y5
	VMOVUPS Y4, (DI)
	VMOVUPS Y5, (R9)
	ADDQ $32, SI
	ADDQ $32, R10
	ADDQ $32, DI
	ADDQ $32, R9
	ADDQ $32, DX
	ADDQ $32, R8
	SUBQ $8, CX
	JMP ropex_loop

ropex_done:
	VZEROUPPER
	RET

// Four-row integer dots. Per block the activation quants (Y4), their scale
// (Y13) and, for Q4_0, their negated sum (Y12) are loaded once and used by
// four weight rows at SI, R8, R10 and R12, accumulating into Y0-Y3. Y14
// holds 16-bit ones, Y15 the nibble mask. HSUM4 writes the four sums to
// (R9).

// The four-row loops prefetch the same block of the next four rows
// (4*stride ahead), which are what the next call reads: the four rows are
// short interleaved streams that the hardware prefetchers pick up late, and
// prefetching within a row ran into the rows already being read (1.4-1.9x
// on weights streamed from DRAM, K = 1024 to 4096).

// Q8ROW: one Q8_0 weight block at P times the activations, into ACC.
#define Q8ROW(P, ACC) \
	VMOVDQU 2(P), Y5 \
	VPSIGNB Y5, Y5, Y6 \
	VPSIGNB Y5, Y4, Y5 \
	VPMADDUBSW Y5, Y6, Y5 \
	VPMADDWD Y14, Y5, Y5 \
	VCVTDQ2PS Y5, Y5 \
	VPBROADCASTW (P), X6 \
	VCVTPH2PS X6, Y6 \
	VMULPS Y13, Y6, Y6 \
	VFMADD231PS Y5, Y6, ACC

// Q4ROW: one Q4_0 weight block at P: its nibbles (0..15, unsigned) times
// the activations, plus the negated activation sum in each of the 8 lanes,
// is Σ(q-8)·y. The 16 bytes go to both halves of Y5; shifting the high
// half right by 4 (Y11) and masking gives the low nibbles (elements 0-15)
// then the high ones (16-31).
#define Q4ROW(P, ACC) \
	VBROADCASTI128 2(P), Y5 \
	VPSRLVD Y11, Y5, Y5 \
	VPAND Y15, Y5, Y5 \
	VPMADDUBSW Y4, Y5, Y5 \
	VPMADDWD Y14, Y5, Y5 \
	VPADDD Y12, Y5, Y5 \
	VCVTDQ2PS Y5, Y5 \
	VPBROADCASTW (P), X6 \
	VCVTPH2PS X6, Y6 \
	VMULPS Y13, Y6, Y6 \
	VFMADD231PS Y5, Y6, ACC

#define HSUM4 \
	VHADDPS Y1, Y0, Y0 \
	VHADDPS Y3, Y2, Y2 \
	VHADDPS Y2, Y0, Y0 \
	VEXTRACTF128 $1, Y0, X1 \
	VADDPS X1, X0, X0 \
	VMOVUPS X0, (R9)

// func dotQ8x4SIMD(w *byte, stride int, qs *int8, qd *float32, nb int, out *float32)
TEXT ·dotQ8x4SIMD(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), SI
	MOVQ stride+8(FP), BX
	MOVQ qs+16(FP), DI
	MOVQ qd+24(FP), DX
	MOVQ nb+32(FP), CX
	MOVQ out+40(FP), R9
	LEAQ (SI)(BX*1), R8
	LEAQ (SI)(BX*2), R10
	LEAQ (R8)(BX*2), R12
	VPCMPEQW Y14, Y14, Y14
	VPSRLW $15, Y14, Y14
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	TESTQ CX, CX
	JZ dq8x4_done

dq8x4_loop:
	PREFETCHT0 (SI)(BX*4)
	PREFETCHT0 (R8)(BX*4)
	PREFETCHT0 (R10)(BX*4)
	PREFETCHT0 (R12)(BX*4)
	VMOVDQU (DI), Y4
	VBROADCASTSS (DX), Y13
	Q8ROW(SI, Y0)
	Q8ROW(R8, Y1)
	Q8ROW(R10, Y2)
	Q8ROW(R12, Y3)
	ADDQ $34, SI
	ADDQ $34, R8
	ADDQ $34, R10
	ADDQ $34, R12
	ADDQ $32, DI
	ADDQ $4, DX
	DECQ CX
	JNZ dq8x4_loop

dq8x4_done:
	HSUM4
	VZEROUPPER
	RET

// func dotQ4x4SIMD(w *byte, stride int, qs *int8, qd *float32, neg *int32, nb int, out *float32)
TEXT ·dotQ4x4SIMD(SB), NOSPLIT, $0-56
	MOVQ w+0(FP), SI
	MOVQ stride+8(FP), BX
	MOVQ qs+16(FP), DI
	MOVQ qd+24(FP), DX
	MOVQ neg+32(FP), R11
	MOVQ nb+40(FP), CX
	MOVQ out+48(FP), R9
	LEAQ (SI)(BX*1), R8
	LEAQ (SI)(BX*2), R10
	LEAQ (R8)(BX*2), R12
	VPCMPEQW Y14, Y14, Y14
	VPSRLW $15, Y14, Y14
	VMOVDQU nibMask<>(SB), Y15
	VMOVDQU hiShift4<>(SB), Y11
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	TESTQ CX, CX
	JZ dq4x4_done

dq4x4_loop:
	PREFETCHT0 (SI)(BX*4)
	PREFETCHT0 (R8)(BX*4)
	PREFETCHT0 (R10)(BX*4)
	PREFETCHT0 (R12)(BX*4)
	VMOVDQU (DI), Y4
	VBROADCASTSS (DX), Y13
	VPBROADCASTD (R11), Y12
	Q4ROW(SI, Y0)
	Q4ROW(R8, Y1)
	Q4ROW(R10, Y2)
	Q4ROW(R12, Y3)
	ADDQ $18, SI
	ADDQ $18, R8
	ADDQ $18, R10
	ADDQ $18, R12
	ADDQ $32, DI
	ADDQ $4, DX
	ADDQ $4, R11
	DECQ CX
	JNZ dq4x4_loop

dq4x4_done:
	HSUM4
	VZEROUPPER
	RET

// func f32ToF16SIMD(src *float32, dst *byte, n int)
// Rounds to nearest even, as runtime.F32ToF16.
TEXT ·f32ToF16SIMD(SB), NOSPLIT, $0-24
	MOVQ src+0(FP), SI
	MOVQ dst+8(FP), DI
	MOVQ n+16(FP), CX

tof16_loop:
	CMPQ CX, $8
	JLT tof16_done
	VMOVUPS (SI), Y0
	VCVTPS2PH $0, Y0, X1
	VMOVDQU X1, (DI)
	ADDQ $32, SI
	ADDQ $16, DI
	SUBQ $8, CX
	JMP tof16_loop

tof16_done:
	VZEROUPPER
	RET

DATA vAbsMask<>+0(SB)/8, $0x7fffffff7fffffff
DATA vAbsMask<>+8(SB)/8, $0x7fffffff7fffffff
DATA vAbsMask<>+16(SB)/8, $0x7fffffff7fffffff
DATA vAbsMask<>+24(SB)/8, $0x7fffffff7fffffff
GLOBL vAbsMask<>(SB), RODATA|NOPTR, $32

// Dword order that undoes VPACKSSDW/VPACKSSWB's per-lane interleaving.
DATA q8Perm<>+0(SB)/8, $0x0000000400000000
DATA q8Perm<>+8(SB)/8, $0x0000000500000001
DATA q8Perm<>+16(SB)/8, $0x0000000600000002
DATA q8Perm<>+24(SB)/8, $0x0000000700000003
GLOBL q8Perm<>(SB), RODATA|NOPTR, $32

DATA f127<>+0(SB)/4, $0x42fe0000
GLOBL f127<>(SB), RODATA|NOPTR, $4

// ROUNDAWAY rounds the 8 lanes of X to integers, halves away from zero
// (C's roundf, as ggml's reference quantizer): trunc(x), plus ±1 where
// |x - trunc(x)| >= 0.5 (exact for |x| < 2^23). Clobbers T1, T2.
#define ROUNDAWAY(X, T1, T2) \
	VROUNDPS $3, X, T1 \
	VSUBPS T1, X, T2 \
	VANDPS Y15, T2, T2 \
	VCMPPS $0x0d, expHalf<>(SB), T2, T2 \
	VANDPS vSignBit<>(SB), X, X \
	VORPS vOne<>(SB), X, X \
	VANDPS T2, X, X \
	VADDPS T1, X, X

// func quantQ8SIMD(src *float32, dst *byte, sums *int32, nb int)
// Encodes nb blocks of 32 floats as Q8_0 (34 bytes a block) exactly as
// quantize_row_q8_0_ref; sums, when not nil, receives each block's sum of
// quants.
TEXT ·quantQ8SIMD(SB), NOSPLIT, $0-32
	MOVQ src+0(FP), SI
	MOVQ dst+8(FP), DI
	MOVQ sums+16(FP), R8
	MOVQ nb+24(FP), CX
	TESTQ CX, CX
	JZ q8_done
	VMOVUPS vAbsMask<>(SB), Y15
	VMOVDQU q8Perm<>(SB), Y14
	VXORPS X13, X13, X13

q8_loop:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS 64(SI), Y2
	VMOVUPS 96(SI), Y3
	// amax over the block, in every lane of X4
	VANDPS Y15, Y0, Y4
	VANDPS Y15, Y1, Y5
	VMAXPS Y5, Y4, Y4
	VANDPS Y15, Y2, Y5
	VMAXPS Y5, Y4, Y4
	VANDPS Y15, Y3, Y5
	VMAXPS Y5, Y4, Y4
	VEXTRACTF128 $1, Y4, X5
	VMAXPS X5, X4, X4
	VPERMILPS $0x4e, X4, X5
	VMAXPS X5, X4, X4
	VPERMILPS $0xb1, X4, X5
	VMAXPS X5, X4, X4
	// d = amax/127, stored as f16; id = 1/d, or 0 when d is 0
	VDIVSS f127<>(SB), X4, X6
	VCVTPS2PH $0, X6, X7
	VMOVD X7, AX
	MOVW AX, (DI)
	VMOVSS vOne<>(SB), X7
	VDIVSS X6, X7, X7
	VCMPSS $4, X13, X6, X8
	VANDPS X8, X7, X7
	VBROADCASTSS X7, Y7
	VMULPS Y7, Y0, Y0
	VMULPS Y7, Y1, Y1
	VMULPS Y7, Y2, Y2
	VMULPS Y7, Y3, Y3
	ROUNDAWAY(Y0, Y8, Y9)
	ROUNDAWAY(Y1, Y8, Y9)
	ROUNDAWAY(Y2, Y8, Y9)
	ROUNDAWAY(Y3, Y8, Y9)
	VCVTTPS2DQ Y0, Y0
	VCVTTPS2DQ Y1, Y1
	VCVTTPS2DQ Y2, Y2
	VCVTTPS2DQ Y3, Y3
	TESTQ R8, R8
	JZ q8_pack
	VPADDD Y1, Y0, Y10
	VPADDD Y3, Y2, Y11
	VPADDD Y11, Y10, Y10
	VEXTRACTI128 $1, Y10, X11
	VPADDD X11, X10, X10
	VPSHUFD $0x4e, X10, X11
	VPADDD X11, X10, X10
	VPSHUFD $0xb1, X10, X11
	VPADDD X11, X10, X10
	VMOVD X10, (R8)
	ADDQ $4, R8

q8_pack:
	VPACKSSDW Y1, Y0, Y0
	VPACKSSDW Y3, Y2, Y2
	VPACKSSWB Y2, Y0, Y0
	VPERMD Y0, Y14, Y0
	VMOVDQU Y0, 2(DI)
	ADDQ $128, SI
	ADDQ $34, DI
	DECQ CX
	JNZ q8_loop

q8_done:
	VZEROUPPER
	RET

// Panel kernels: 8 weight rows repacked (panelQ4) so that each 32-bit lane
// of a 32-byte chunk holds 4 consecutive quants of one row, times 4
// activation rows (quants at DI, DI+R11, R12, R12+R11). Each activation
// row's 4 quants are broadcast to all lanes, so one multiply serves 8
// weight rows and the lanes end up holding whole per-row block sums: one
// conversion and one FMA per block and activation row, not per pair.

// P4CHUNK multiplies chunk G's nibbles (Y8) with the 4 activation quants
// at byte 4G of each row, accumulating 16-bit sums into Y4-Y7. At most 16
// products of 15·127 meet in one 16-bit lane over a block: no overflow.
#define P4CHUNK(G) \
	VMOVDQU 32+32*G(SI), Y8 \
	VPBROADCASTD 4*G(DI), Y9 \
	VPBROADCASTD 4*G(DI)(R11*1), Y13 \
	VPBROADCASTD 4*G(R12), Y14 \
	VPBROADCASTD 4*G(R12)(R11*1), Y15 \
	VPMADDUBSW Y9, Y8, Y9 \
	VPMADDUBSW Y13, Y8, Y13 \
	VPMADDUBSW Y14, Y8, Y14 \
	VPMADDUBSW Y15, Y8, Y15 \
	VPADDW Y9, Y4, Y4 \
	VPADDW Y13, Y5, Y5 \
	VPADDW Y14, Y6, Y6 \
	VPADDW Y15, Y7, Y7

// P4FINISH turns column accumulator I's 16-bit sums into the 8 rows' block
// sums, corrects for the nibbles' offset of 8 with the negated activation
// sum at NEG, and adds them, scaled by the weight scales (Y11) times the
// activation scale at D, into F.
#define P4FINISH(I, NEG, D, F) \
	VPMADDWD Y10, I, I \
	VPBROADCASTD NEG, Y9 \
	VPSLLD $3, Y9, Y9 \
	VPADDD Y9, I, I \
	VCVTDQ2PS I, I \
	VBROADCASTSS D, Y12 \
	VMULPS Y11, Y12, Y12 \
	VFMADD231PS I, Y12, F

// func dotQ4x8x4SIMD(p *byte, qs *int8, qd *float32, neg *int32, nb int, out *float32, ldo int)
// p holds nb repacked blocks of 288 bytes: 8 float scales, then 8 chunks.
// Activation rows are nb blocks apart; out gets activation row c's 8
// results at c·ldo bytes. nb >= 1.
TEXT ·dotQ4x8x4SIMD(SB), NOSPLIT, $0-56
	MOVQ p+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ qd+16(FP), DX
	MOVQ neg+24(FP), BX
	MOVQ nb+32(FP), CX
	MOVQ CX, R11
	SHLQ $5, R11
	LEAQ (CX*4), R13
	LEAQ (DI)(R11*2), R12
	LEAQ (DX)(R13*2), R10
	LEAQ (BX)(R13*2), R8
	VPCMPEQW Y10, Y10, Y10
	VPSRLW $15, Y10, Y10
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3

p4_loop:
	VMOVUPS (SI), Y11
	VPXOR Y4, Y4, Y4
	VPXOR Y5, Y5, Y5
	VPXOR Y6, Y6, Y6
	VPXOR Y7, Y7, Y7
	P4CHUNK(0)
	P4CHUNK(1)
	P4CHUNK(2)
	P4CHUNK(3)
	P4CHUNK(4)
	P4CHUNK(5)
	P4CHUNK(6)
	P4CHUNK(7)
	P4FINISH(Y4, (BX), (DX), Y0)
	P4FINISH(Y5, (BX)(R13*1), (DX)(R13*1), Y1)
	P4FINISH(Y6, (R8), (R10), Y2)
	P4FINISH(Y7, (R8)(R13*1), (R10)(R13*1), Y3)
	ADDQ $288, SI
	ADDQ $32, DI
	ADDQ $32, R12
	ADDQ $4, DX
	ADDQ $4, R10
	ADDQ $4, BX
	ADDQ $4, R8
	DECQ CX
	JNZ p4_loop

	MOVQ out+40(FP), R9
	MOVQ ldo+48(FP), AX
	VMOVUPS Y0, (R9)
	VMOVUPS Y1, (R9)(AX*1)
	VMOVUPS Y2, (R9)(AX*2)
	LEAQ (R9)(AX*2), R9
	VMOVUPS Y3, (R9)(AX*1)
	VZEROUPPER
	RET

// P8CHUNK multiplies chunk G's signed quants (Y8; magnitudes in Y9) with
// the 4 activation quants at byte 4G of each row, accumulating 32-bit sums
// into Y4-Y7 (Q8_0's 16-bit pair sums can reach 32512: no room to add
// chunks before widening).
#define P8CHUNK(G) \
	VMOVDQU 32+32*G(SI), Y8 \
	VPSIGNB Y8, Y8, Y9 \
	VPBROADCASTD 4*G(DI), Y12 \
	VPBROADCASTD 4*G(DI)(R11*1), Y13 \
	VPBROADCASTD 4*G(R12), Y14 \
	VPBROADCASTD 4*G(R12)(R11*1), Y15 \
	VPSIGNB Y8, Y12, Y12 \
	VPSIGNB Y8, Y13, Y13 \
	VPSIGNB Y8, Y14, Y14 \
	VPSIGNB Y8, Y15, Y15 \
	VPMADDUBSW Y12, Y9, Y12 \
	VPMADDUBSW Y13, Y9, Y13 \
	VPMADDUBSW Y14, Y9, Y14 \
	VPMADDUBSW Y15, Y9, Y15 \
	VPMADDWD Y10, Y12, Y12 \
	VPMADDWD Y10, Y13, Y13 \
	VPMADDWD Y10, Y14, Y14 \
	VPMADDWD Y10, Y15, Y15 \
	VPADDD Y12, Y4, Y4 \
	VPADDD Y13, Y5, Y5 \
	VPADDD Y14, Y6, Y6 \
	VPADDD Y15, Y7, Y7

// P8FINISH adds column accumulator I's block sums, scaled by the weight
// scales (Y11) times the activation scale at D, into F.
#define P8FINISH(I, D, F) \
	VCVTDQ2PS I, I \
	VBROADCASTSS D, Y12 \
	VMULPS Y11, Y12, Y12 \
	VFMADD231PS I, Y12, F

// func dotQ8x8x4SIMD(p *byte, qs *int8, qd *float32, nb int, out *float32, ldo int)
// As dotQ4x8x4SIMD for Q8_0 weights repacked by panelQ8.
TEXT ·dotQ8x8x4SIMD(SB), NOSPLIT, $0-48
	MOVQ p+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ qd+16(FP), DX
	MOVQ nb+24(FP), CX
	MOVQ CX, R11
	SHLQ $5, R11
	LEAQ (CX*4), R13
	LEAQ (DI)(R11*2), R12
	LEAQ (DX)(R13*2), R10
	VPCMPEQW Y10, Y10, Y10
	VPSRLW $15, Y10, Y10
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3

p8_loop:
	VMOVUPS (SI), Y11
	VPXOR Y4, Y4, Y4
	VPXOR Y5, Y5, Y5
	VPXOR Y6, Y6, Y6
	VPXOR Y7, Y7, Y7
	P8CHUNK(0)
	P8CHUNK(1)
	P8CHUNK(2)
	P8CHUNK(3)
	P8CHUNK(4)
	P8CHUNK(5)
	P8CHUNK(6)
	P8CHUNK(7)
	P8FINISH(Y4, (DX), Y0)
	P8FINISH(Y5, (DX)(R13*1), Y1)
	P8FINISH(Y6, (R10), Y2)
	P8FINISH(Y7, (R10)(R13*1), Y3)
	ADDQ $288, SI
	ADDQ $32, DI
	ADDQ $32, R12
	ADDQ $4, DX
	ADDQ $4, R10
	DECQ CX
	JNZ p8_loop

	MOVQ out+32(FP), R9
	MOVQ ldo+40(FP), AX
	VMOVUPS Y0, (R9)
	VMOVUPS Y1, (R9)(AX*1)
	VMOVUPS Y2, (R9)(AX*2)
	LEAQ (R9)(AX*2), R9
	VMOVUPS Y3, (R9)(AX*1)
	VZEROUPPER
	RET

// Repacking for the panel kernels: per block, the 8 rows' half scales as
// floats, then the 8 rows' 32 quants (Q4_0: unsigned nibbles, low ones
// first) as an 8×8 transpose of 32-bit groups, so chunk j holds group j of
// every row.

// func panelQ8SIMD(w *byte, stride, nb int, p *byte)
// As panelQ8 (matmul_fast.go): 8 rows stride bytes apart, nb >= 1 blocks.
TEXT ·panelQ8SIMD(SB), NOSPLIT, $0-32
	MOVQ w+0(FP), SI
	MOVQ stride+8(FP), BX
	MOVQ nb+16(FP), CX
	MOVQ p+24(FP), DI
	LEAQ (SI)(BX*1), R8
	LEAQ (R8)(BX*1), R9
	LEAQ (R9)(BX*1), R10
	LEAQ (R10)(BX*1), R11
	LEAQ (R11)(BX*1), R12
	LEAQ (R12)(BX*1), R13
	LEAQ (R13)(BX*1), DX

panelQ8_loop:
	MOVWLZX (SI), AX
	VMOVD AX, X0
	VPINSRW $1, (R8), X0, X0
	VPINSRW $2, (R9), X0, X0
	VPINSRW $3, (R10), X0, X0
	VPINSRW $4, (R11), X0, X0
	VPINSRW $5, (R12), X0, X0
	VPINSRW $6, (R13), X0, X0
	VPINSRW $7, (DX), X0, X0
	VCVTPH2PS X0, Y0
	VMOVUPS Y0, (DI)
	VMOVDQU 2(SI), Y0
	VMOVDQU 2(R8), Y1
	VMOVDQU 2(R9), Y2
	VMOVDQU 2(R10), Y3
	VMOVDQU 2(R11), Y4
	VMOVDQU 2(R12), Y5
	VMOVDQU 2(R13), Y6
	VMOVDQU 2(DX), Y7
	TRANSPOSE8
	VMOVDQU Y8, 32(DI)
	VMOVDQU Y9, 64(DI)
	VMOVDQU Y10, 96(DI)
	VMOVDQU Y11, 128(DI)
	VMOVDQU Y12, 160(DI)
	VMOVDQU Y13, 192(DI)
	VMOVDQU Y14, 224(DI)
	VMOVDQU Y15, 256(DI)
	ADDQ $34, SI
	ADDQ $34, R8
	ADDQ $34, R9
	ADDQ $34, R10
	ADDQ $34, R11
	ADDQ $34, R12
	ADDQ $34, R13
	ADDQ $34, DX
	ADDQ $288, DI
	DECQ CX
	JNZ panelQ8_loop
	VZEROUPPER
	RET

// func panelQ4SIMD(w *byte, stride, nb int, p *byte)
// As panelQ4 (matmul_fast.go): 8 rows stride bytes apart, nb >= 1 blocks.
TEXT ·panelQ4SIMD(SB), NOSPLIT, $0-32
	MOVQ w+0(FP), SI
	MOVQ stride+8(FP), BX
	MOVQ nb+16(FP), CX
	MOVQ p+24(FP), DI
	LEAQ (SI)(BX*1), R8
	LEAQ (R8)(BX*1), R9
	LEAQ (R9)(BX*1), R10
	LEAQ (R10)(BX*1), R11
	LEAQ (R11)(BX*1), R12
	LEAQ (R12)(BX*1), R13
	LEAQ (R13)(BX*1), DX

panelQ4_loop:
	MOVWLZX (SI), AX
	VMOVD AX, X0
	VPINSRW $1, (R8), X0, X0
	VPINSRW $2, (R9), X0, X0
	VPINSRW $3, (R10), X0, X0
	VPINSRW $4, (R11), X0, X0
	VPINSRW $5, (R12), X0, X0
	VPINSRW $6, (R13), X0, X0
	VPINSRW $7, (DX), X0, X0
	VCVTPH2PS X0, Y0
	VMOVUPS Y0, (DI)
	VMOVDQU 2(SI), X0
	VPSRLW $4, X0, X8
	VINSERTI128 $1, X8, Y0, Y0
	VPAND nibMask<>(SB), Y0, Y0
	VMOVDQU 2(R8), X1
	VPSRLW $4, X1, X8
	VINSERTI128 $1, X8, Y1, Y1
	VPAND nibMask<>(SB), Y1, Y1
	VMOVDQU 2(R9), X2
	VPSRLW $4, X2, X8
	VINSERTI128 $1, X8, Y2, Y2
	VPAND nibMask<>(SB), Y2, Y2
	VMOVDQU 2(R10), X3
	VPSRLW $4, X3, X8
	VINSERTI128 $1, X8, Y3, Y3
	VPAND nibMask<>(SB), Y3, Y3
	VMOVDQU 2(R11), X4
	VPSRLW $4, X4, X8
	VINSERTI128 $1, X8, Y4, Y4
	VPAND nibMask<>(SB), Y4, Y4
	VMOVDQU 2(R12), X5
	VPSRLW $4, X5, X8
	VINSERTI128 $1, X8, Y5, Y5
	VPAND nibMask<>(SB), Y5, Y5
	VMOVDQU 2(R13), X6
	VPSRLW $4, X6, X8
	VINSERTI128 $1, X8, Y6, Y6
	VPAND nibMask<>(SB), Y6, Y6
	VMOVDQU 2(DX), X7
	VPSRLW $4, X7, X8
	VINSERTI128 $1, X8, Y7, Y7
	VPAND nibMask<>(SB), Y7, Y7
	TRANSPOSE8
	VMOVDQU Y8, 32(DI)
	VMOVDQU Y9, 64(DI)
	VMOVDQU Y10, 96(DI)
	VMOVDQU Y11, 128(DI)
	VMOVDQU Y12, 160(DI)
	VMOVDQU Y13, 192(DI)
	VMOVDQU Y14, 224(DI)
	VMOVDQU Y15, 256(DI)
	ADDQ $18, SI
	ADDQ $18, R8
	ADDQ $18, R9
	ADDQ $18, R10
	ADDQ $18, R11
	ADDQ $18, R12
	ADDQ $18, R13
	ADDQ $18, DX
	ADDQ $288, DI
	DECQ CX
	JNZ panelQ4_loop
	VZEROUPPER
	RET

// F16ROW3 converts 8 halves of a weight row at W into Y15 and accumulates
// its products with the column chunks in Y12-Y14 into A0-A2; F16ROW2 does
// the same for Y12-Y13.
#define F16ROW3(W, A0, A1, A2) \
	VCVTPH2PS W, Y15 \
	VFMADD231PS Y12, Y15, A0 \
	VFMADD231PS Y13, Y15, A1 \
	VFMADD231PS Y14, Y15, A2

#define F16ROW2(W, A0, A1) \
	VCVTPH2PS W, Y15 \
	VFMADD231PS Y12, Y15, A0 \
	VFMADD231PS Y13, Y15, A1

// PAIRSUM sets D = [lanes 0-3 + lanes 4-7 of A | the same of B], as
// HSTORE's first add does for each (clobbers T).
#define PAIRSUM(A, B, D, T) \
	VPERM2F128 $0x20, B, A, D \
	VPERM2F128 $0x31, B, A, T \
	VADDPS T, D, D

// RED4X2 reduces the 2-column tile sums in Y0-Y7 (column c of row r in
// Y(2r+c)) and stores column 0's four at DST0, column 1's at DST1: each
// sum added as HSTORE adds it, ((a0+a4)+(a1+a5)) + ((a2+a6)+(a3+a7)), so
// the same bits, in 14 instructions for the 8 rather than 40 (clobbers
// Y8-Y15).
#define RED4X2(DST0, DST1) \
	PAIRSUM(Y0, Y1, Y8, Y9) \
	PAIRSUM(Y2, Y3, Y10, Y11) \
	PAIRSUM(Y4, Y5, Y12, Y13) \
	PAIRSUM(Y6, Y7, Y14, Y15) \
	VHADDPS Y10, Y8, Y8 \
	VHADDPS Y14, Y12, Y12 \
	VHADDPS Y12, Y8, Y8 \
	VMOVUPS X8, DST0 \
	VEXTRACTF128 $1, Y8, X9 \
	VMOVUPS X9, DST1

// HSTORE reduces the 8 lanes of A (XA its low half) and stores the sum at
// DST (clobbers X15).
#define HSTORE(A, XA, DST) \
	VEXTRACTF128 $1, A, X15 \
	VADDPS X15, XA, XA \
	VHADDPS XA, XA, XA \
	VHADDPS XA, XA, XA \
	VMOVSS XA, DST

// func dotF16x4x3SIMD(w *byte, ldw int, x0, x1, x2 *float32, k int, out *float32, ldo int)
// 4 weight rows of k halves (k > 0, a multiple of 8), ldw bytes apart,
// times 3 columns: out[c*ldo+r] = Σ half(row r)·column c. Each weight chunk
// is converted once and each column chunk loaded once for 12 products.
TEXT ·dotF16x4x3SIMD(SB), NOSPLIT, $0-64
	// Weight rows 0-3 at SI, R8, R9, R10; columns at DI, R11, R12; out at
	// DX, ldo bytes in BX; AX indexes the elements.
	MOVQ w+0(FP), SI
	MOVQ ldw+8(FP), BX
	LEAQ (SI)(BX*1), R8
	LEAQ (R8)(BX*1), R9
	LEAQ (R9)(BX*1), R10
	MOVQ x0+16(FP), DI
	MOVQ x1+24(FP), R11
	MOVQ x2+32(FP), R12
	MOVQ k+40(FP), CX
	MOVQ out+48(FP), DX
	MOVQ ldo+56(FP), BX
	SHLQ $2, BX
	XORQ AX, AX
	ZERO12

f16x4x3_loop:
	VMOVUPS (DI)(AX*4), Y12
	VMOVUPS (R11)(AX*4), Y13
	VMOVUPS (R12)(AX*4), Y14
	F16ROW3((SI)(AX*2), Y0, Y1, Y2)
	F16ROW3((R8)(AX*2), Y3, Y4, Y5)
	F16ROW3((R9)(AX*2), Y6, Y7, Y8)
	F16ROW3((R10)(AX*2), Y9, Y10, Y11)
	ADDQ $8, AX
	CMPQ AX, CX
	JLT f16x4x3_loop

	// Column c of row r is in Y(3r+c); out[c*ldo+r].
	LEAQ (DX)(BX*1), R8
	LEAQ (R8)(BX*1), R9
	HSTORE(Y0, X0, 0(DX))
	HSTORE(Y3, X3, 4(DX))
	HSTORE(Y6, X6, 8(DX))
	HSTORE(Y9, X9, 12(DX))
	HSTORE(Y1, X1, 0(R8))
	HSTORE(Y4, X4, 4(R8))
	HSTORE(Y7, X7, 8(R8))
	HSTORE(Y10, X10, 12(R8))
	HSTORE(Y2, X2, 0(R9))
	HSTORE(Y5, X5, 4(R9))
	HSTORE(Y8, X8, 8(R9))
	HSTORE(Y11, X11, 12(R9))
	VZEROUPPER
	RET

// func dotF16x4x1SIMD(w *byte, ldw int, x0, x1, x2 *float32, k int, out *float32, ldo int)
// dotF16x4x3SIMD for 1 column: out[r] = Σ half(row r)·x0, two accumulators
// a row; x1, x2 and ldo are unused. For short rows, where a call per row
// costs more than its products.
TEXT ·dotF16x4x1SIMD(SB), NOSPLIT, $0-64
	MOVQ w+0(FP), SI
	MOVQ ldw+8(FP), BX
	LEAQ (SI)(BX*1), R8
	LEAQ (R8)(BX*1), R9
	LEAQ (R9)(BX*1), R10
	MOVQ x0+16(FP), DI
	MOVQ k+40(FP), CX
	MOVQ out+48(FP), DX
	XORQ AX, AX
	ZERO8
	TESTQ $8, CX
	JZ f16x4x1_loop16
	// An odd chunk of 8 first, so the loop runs whole chunks of 16.
	VMOVUPS (DI), Y12
	VCVTPH2PS (SI), Y8
	VFMADD231PS Y12, Y8, Y0
	VCVTPH2PS (R8), Y9
	VFMADD231PS Y12, Y9, Y2
	VCVTPH2PS (R9), Y10
	VFMADD231PS Y12, Y10, Y4
	VCVTPH2PS (R10), Y11
	VFMADD231PS Y12, Y11, Y6
	MOVQ $8, AX

f16x4x1_loop16:
	CMPQ AX, CX
	JGE f16x4x1_done
	VMOVUPS (DI)(AX*4), Y12
	VMOVUPS 32(DI)(AX*4), Y13
	VCVTPH2PS (SI)(AX*2), Y8
	VFMADD231PS Y12, Y8, Y0
	VCVTPH2PS 16(SI)(AX*2), Y8
	VFMADD231PS Y13, Y8, Y1
	VCVTPH2PS (R8)(AX*2), Y9
	VFMADD231PS Y12, Y9, Y2
	VCVTPH2PS 16(R8)(AX*2), Y9
	VFMADD231PS Y13, Y9, Y3
	VCVTPH2PS (R9)(AX*2), Y10
	VFMADD231PS Y12, Y10, Y4
	VCVTPH2PS 16(R9)(AX*2), Y10
	VFMADD231PS Y13, Y10, Y5
	VCVTPH2PS (R10)(AX*2), Y11
	VFMADD231PS Y12, Y11, Y6
	VCVTPH2PS 16(R10)(AX*2), Y11
	VFMADD231PS Y13, Y11, Y7
	ADDQ $16, AX
	JMP f16x4x1_loop16

f16x4x1_done:
	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y5, Y4, Y4
	VADDPS Y7, Y6, Y6
	HSTORE(Y0, X0, 0(DX))
	HSTORE(Y2, X2, 4(DX))
	HSTORE(Y4, X4, 8(DX))
	HSTORE(Y6, X6, 12(DX))
	VZEROUPPER
	RET

// func dotF16x4x2SIMD(w *byte, ldw int, x0, x1, x2 *float32, k int, out *float32, ldo int)
// dotF16x4x3SIMD for 2 columns; x2 is unused.
TEXT ·dotF16x4x2SIMD(SB), NOSPLIT, $0-64
	MOVQ w+0(FP), SI
	MOVQ ldw+8(FP), BX
	LEAQ (SI)(BX*1), R8
	LEAQ (R8)(BX*1), R9
	LEAQ (R9)(BX*1), R10
	MOVQ x0+16(FP), DI
	MOVQ x1+24(FP), R11
	MOVQ x2+32(FP), R12
	MOVQ k+40(FP), CX
	MOVQ out+48(FP), DX
	MOVQ ldo+56(FP), BX
	SHLQ $2, BX
	XORQ AX, AX
	ZERO8

f16x4x2_loop:
	VMOVUPS (DI)(AX*4), Y12
	VMOVUPS (R11)(AX*4), Y13
	F16ROW2((SI)(AX*2), Y0, Y1)
	F16ROW2((R8)(AX*2), Y2, Y3)
	F16ROW2((R9)(AX*2), Y4, Y5)
	F16ROW2((R10)(AX*2), Y6, Y7)
	ADDQ $8, AX
	CMPQ AX, CX
	JLT f16x4x2_loop

	// Column c of row r is in Y(2r+c); out[c*ldo+r].
	LEAQ (DX)(BX*1), R8
	RED4X2(0(DX), 0(R8))
	VZEROUPPER
	RET

#define F32ROW3(W, A0, A1, A2) \
	VMOVUPS W, Y15 \
	VFMADD231PS Y12, Y15, A0 \
	VFMADD231PS Y13, Y15, A1 \
	VFMADD231PS Y14, Y15, A2

#define F32ROW2(W, A0, A1) \
	VMOVUPS W, Y15 \
	VFMADD231PS Y12, Y15, A0 \
	VFMADD231PS Y13, Y15, A1

// func dotF32x4x3SIMD(w *byte, ldw int, x0, x1, x2 *float32, k int, out *float32, ldo int)
// dotF16x4x3SIMD for float32 weight rows: each weight chunk and each
// column chunk is loaded once for 12 products.
TEXT ·dotF32x4x3SIMD(SB), NOSPLIT, $0-64
	// Weight rows 0-3 at SI, R8, R9, R10; columns at DI, R11, R12; out at
	// DX, ldo bytes in BX; AX indexes the elements.
	MOVQ w+0(FP), SI
	MOVQ ldw+8(FP), BX
	LEAQ (SI)(BX*1), R8
	LEAQ (R8)(BX*1), R9
	LEAQ (R9)(BX*1), R10
	MOVQ x0+16(FP), DI
	MOVQ x1+24(FP), R11
	MOVQ x2+32(FP), R12
	MOVQ k+40(FP), CX
	MOVQ out+48(FP), DX
	MOVQ ldo+56(FP), BX
	SHLQ $2, BX
	XORQ AX, AX
	ZERO12

f32x4x3_loop:
	VMOVUPS (DI)(AX*4), Y12
	VMOVUPS (R11)(AX*4), Y13
	VMOVUPS (R12)(AX*4), Y14
	F32ROW3((SI)(AX*4), Y0, Y1, Y2)
	F32ROW3((R8)(AX*4), Y3, Y4, Y5)
	F32ROW3((R9)(AX*4), Y6, Y7, Y8)
	F32ROW3((R10)(AX*4), Y9, Y10, Y11)
	ADDQ $8, AX
	CMPQ AX, CX
	JLT f32x4x3_loop

	// Column c of row r is in Y(3r+c); out[c*ldo+r].
	LEAQ (DX)(BX*1), R8
	LEAQ (R8)(BX*1), R9
	HSTORE(Y0, X0, 0(DX))
	HSTORE(Y3, X3, 4(DX))
	HSTORE(Y6, X6, 8(DX))
	HSTORE(Y9, X9, 12(DX))
	HSTORE(Y1, X1, 0(R8))
	HSTORE(Y4, X4, 4(R8))
	HSTORE(Y7, X7, 8(R8))
	HSTORE(Y10, X10, 12(R8))
	HSTORE(Y2, X2, 0(R9))
	HSTORE(Y5, X5, 4(R9))
	HSTORE(Y8, X8, 8(R9))
	HSTORE(Y11, X11, 12(R9))
	VZEROUPPER
	RET

// THIN2 accumulates the 4 weight rows at SI, R8, R9 and R10 times the
// columns at XA and XB over k = CX elements into Y0-Y7, as
// dotF32x4x2SIMD and thinF32x4c4AVX2 do (clobbers AX, Y12, Y13, Y15).
#define THIN2(XA, XB, LOOP) \
	XORQ AX, AX \
	ZERO8 \
LOOP: \
	VMOVUPS (XA)(AX*4), Y12 \
	VMOVUPS (XB)(AX*4), Y13 \
	F32ROW2((SI)(AX*4), Y0, Y1) \
	F32ROW2((R8)(AX*4), Y2, Y3) \
	F32ROW2((R9)(AX*4), Y4, Y5) \
	F32ROW2((R10)(AX*4), Y6, Y7) \
	ADDQ $8, AX \
	CMPQ AX, CX \
	JLT LOOP

// func dotF32x4x2SIMD(w *byte, ldw int, x0, x1, x2 *float32, k int, out *float32, ldo int)
// dotF32x4x3SIMD for 2 columns; x2 is unused.
TEXT ·dotF32x4x2SIMD(SB), NOSPLIT, $0-64
	MOVQ w+0(FP), SI
	MOVQ ldw+8(FP), BX
	LEAQ (SI)(BX*1), R8
	LEAQ (R8)(BX*1), R9
	LEAQ (R9)(BX*1), R10
	MOVQ x0+16(FP), DI
	MOVQ x1+24(FP), R11
	MOVQ x2+32(FP), R12
	MOVQ k+40(FP), CX
	MOVQ out+48(FP), DX
	MOVQ ldo+56(FP), BX
	SHLQ $2, BX
	THIN2(DI, R11, f32x4x2_loop)

	// Column c of row r is in Y(2r+c); out[c*ldo+r].
	LEAQ (DX)(BX*1), R8
	RED4X2(0(DX), 0(R8))
	VZEROUPPER
	RET

// func thinF32x4c4AVX2(w *byte, ldw int, x0, x1, x2, x3 *float32, k int, out *float32, ldo int, groups int)
// groups >= 1 groups of 4 float32 weight rows (ldw bytes apart) of k
// elements (k > 0, a multiple of 8) times the 4 columns x0-x3:
// out[c*ldo+r]. Each group runs dotF32x4x2SIMD's operations for columns
// 0-1 and then 2-3, so its bits, in one call for the whole product.
TEXT ·thinF32x4c4AVX2(SB), NOSPLIT, $0-80
	MOVQ w+0(FP), SI
	MOVQ ldw+8(FP), BX
	MOVQ x0+16(FP), DI
	MOVQ x1+24(FP), R11
	MOVQ x2+32(FP), R12
	MOVQ x3+40(FP), R13
	MOVQ k+48(FP), CX
	MOVQ out+56(FP), DX
	MOVQ ldo+64(FP), R14
	SHLQ $2, R14

thin4_group:
	LEAQ (SI)(BX*1), R8
	LEAQ (R8)(BX*1), R9
	LEAQ (R9)(BX*1), R10
	THIN2(DI, R11, thin4_cols01)
	LEAQ (DX)(R14*1), AX
	RED4X2(0(DX), 0(AX))
	THIN2(R12, R13, thin4_cols23)
	LEAQ (DX)(R14*2), AX
	RED4X2(0(AX), 0(AX)(R14*1))
	ADDQ $16, DX
	LEAQ (SI)(BX*4), SI
	DECQ groups+72(FP)
	JNZ thin4_group
	VZEROUPPER
	RET

// func thinF32x4c2AVX2(w *byte, ldw int, x0, x1 *float32, k int, out *float32, ldo int, groups int)
// thinF32x4c4AVX2 for the 2 columns x0 and x1: dotF32x4x2SIMD's
// operations a group, so its bits, in one call for the whole product.
TEXT ·thinF32x4c2AVX2(SB), NOSPLIT, $0-64
	MOVQ w+0(FP), SI
	MOVQ ldw+8(FP), BX
	MOVQ x0+16(FP), DI
	MOVQ x1+24(FP), R11
	MOVQ k+32(FP), CX
	MOVQ out+40(FP), DX
	MOVQ ldo+48(FP), R14
	SHLQ $2, R14
	MOVQ groups+56(FP), R12

thin2_group:
	LEAQ (SI)(BX*1), R8
	LEAQ (R8)(BX*1), R9
	LEAQ (R9)(BX*1), R10
	THIN2(DI, R11, thin2_cols01)
	LEAQ (DX)(R14*1), AX
	RED4X2(0(DX), 0(AX))
	ADDQ $16, DX
	LEAQ (SI)(BX*4), SI
	DECQ R12
	JNZ thin2_group
	VZEROUPPER
	RET

// R8HALF multiplies 4 repacked rows' quants (bytes 0-7 of each row's block
// at LO, bytes 8-15 at HI) with the block's activations (Y8: bytes 0-7,
// Y9: 8-15, Y10: 16-23, Y11: 24-31, each in every quadword), leaving the 4
// rows' sums, two dwords a row, in ACC. Low nibbles are weights 0-15, high
// nibbles 16-31; four 16-bit pair sums (at most 4·2·15·127) fit a word.
#define R8HALF(LO, HI, ACC) \
	VMOVDQU LO, ACC \
	VPSRLW $4, ACC, Y6 \
	VPAND Y15, ACC, ACC \
	VPAND Y15, Y6, Y6 \
	VPMADDUBSW Y8, ACC, ACC \
	VPMADDUBSW Y10, Y6, Y6 \
	VPADDW Y6, ACC, ACC \
	VMOVDQU HI, Y6 \
	VPSRLW $4, Y6, Y7 \
	VPAND Y15, Y6, Y6 \
	VPAND Y15, Y7, Y7 \
	VPMADDUBSW Y9, Y6, Y6 \
	VPMADDUBSW Y11, Y7, Y7 \
	VPADDW Y7, Y6, Y6 \
	VPADDW Y6, ACC, ACC \
	VPMADDWD Y14, ACC, ACC

// func dotQ4R8SIMD(p *byte, qs *int8, qd *float32, neg *int32, nb int, out *float32, groups int)
// p holds groups >= 1 groups, one after another, of nb >= 1 blocks of 8
// Q4_0 rows repacked by repackQ4R8; out gets each group's 8 rows' dot
// products with the Q8 activations, 8 floats a group.
TEXT ·dotQ4R8SIMD(SB), NOSPLIT, $0-56
	MOVQ p+0(FP), SI
	MOVQ out+40(FP), R9
	MOVQ groups+48(FP), R12
	VPCMPEQW Y14, Y14, Y14
	VPSRLW $15, Y14, Y14
	VMOVDQU nibMask<>(SB), Y15

r8_group:
	MOVQ qs+8(FP), DI
	MOVQ qd+16(FP), DX
	MOVQ neg+24(FP), R11
	MOVQ nb+32(FP), CX
	VXORPS Y0, Y0, Y0

r8_loop:
	VPBROADCASTQ 0(DI), Y8
	VPBROADCASTQ 8(DI), Y9
	VPBROADCASTQ 16(DI), Y10
	VPBROADCASTQ 24(DI), Y11
	R8HALF(16(SI), 80(SI), Y4)
	R8HALF(48(SI), 112(SI), Y5)
	// Row sums in the order r0 r1 r4 r5 | r2 r3 r6 r7, the scales' order.
	VPHADDD Y5, Y4, Y4
	VPBROADCASTD (R11), Y12
	VPSLLD $3, Y12, Y12
	VPADDD Y12, Y4, Y4
	VCVTDQ2PS Y4, Y4
	VCVTPH2PS (SI), Y5
	VBROADCASTSS (DX), Y12
	VMULPS Y12, Y5, Y5
	VFMADD231PS Y4, Y5, Y0
	ADDQ $144, SI
	ADDQ $32, DI
	ADDQ $4, DX
	ADDQ $4, R11
	DECQ CX
	JNZ r8_loop

	// Back to row order: swap the middle quadwords.
	VPERMQ $0xD8, Y0, Y0
	VMOVUPS Y0, (R9)
	ADDQ $32, R9
	DECQ R12
	JNZ r8_group
	VZEROUPPER
	RET

// func gemvF32x4SIMD(w *byte, ldw int, x *float32, k int, out *float32, groups int)
// 4-row groups of f32 weight rows in one call (k a multiple of 8,
// groups > 0): out[r] = Σ row r · x, rows ldw bytes apart; 4 weight rows
// share each load of x, two accumulators a row. The four sums of a group
// are stored as one vector, so a group costs its loads and little else.
// A call of one group is dotF32x4Asm's one-column tile.
TEXT ·gemvF32x4SIMD(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), SI
	MOVQ ldw+8(FP), BX
	MOVQ x+16(FP), DI
	MOVQ k+24(FP), CX
	MOVQ out+32(FP), DX
	MOVQ groups+40(FP), R12
	MOVQ CX, R11
	ANDQ $-16, R11
	LEAQ (BX)(BX*2), R13 // 3 rows

gemv4_group:
	LEAQ (SI)(BX*1), R8
	LEAQ (SI)(BX*2), R9
	LEAQ (SI)(R13*1), R10
	XORQ AX, AX
	ZERO8
	TESTQ R11, R11
	JZ gemv4_tail

gemv4_loop:
	VMOVUPS (DI)(AX*4), Y12
	VMOVUPS 32(DI)(AX*4), Y13
	VFMADD231PS (SI)(AX*4), Y12, Y0
	VFMADD231PS 32(SI)(AX*4), Y13, Y1
	VFMADD231PS (R8)(AX*4), Y12, Y2
	VFMADD231PS 32(R8)(AX*4), Y13, Y3
	VFMADD231PS (R9)(AX*4), Y12, Y4
	VFMADD231PS 32(R9)(AX*4), Y13, Y5
	VFMADD231PS (R10)(AX*4), Y12, Y6
	VFMADD231PS 32(R10)(AX*4), Y13, Y7
	ADDQ $16, AX
	CMPQ AX, R11
	JLT gemv4_loop

gemv4_tail:
	CMPQ AX, CX
	JGE gemv4_sum
	VMOVUPS (DI)(AX*4), Y12
	VFMADD231PS (SI)(AX*4), Y12, Y0
	VFMADD231PS (R8)(AX*4), Y12, Y2
	VFMADD231PS (R9)(AX*4), Y12, Y4
	VFMADD231PS (R10)(AX*4), Y12, Y6

gemv4_sum:
	// Each row's lanes are summed in HSTORE's order (the high half onto
	// the low, then pairs), so that the one-column tile adds as the
	// others do, but the four rows' last steps share three horizontal adds.
	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y5, Y4, Y4
	VADDPS Y7, Y6, Y6
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VEXTRACTF128 $1, Y2, X3
	VADDPS X3, X2, X2
	VEXTRACTF128 $1, Y4, X5
	VADDPS X5, X4, X4
	VEXTRACTF128 $1, Y6, X7
	VADDPS X7, X6, X6
	VHADDPS X2, X0, X0 // a01 a23 b01 b23
	VHADDPS X6, X4, X4 // c01 c23 d01 d23
	VHADDPS X4, X0, X0 // a b c d
	VMOVUPS X0, (DX)
	LEAQ (SI)(BX*4), SI
	ADDQ $16, DX
	DECQ R12
	JNZ gemv4_group
	VZEROUPPER
	RET

// SM_SCALE sets out[0:n] = x·s (+ mask, when MASK is not 0) for the row
// at SRC (mask MASK, out DST; all advanced), n = CNT a multiple of 8, and
// its maximum, lane by lane in MAX, then reduced into the low lane of
// MAXX: as scaleAddSIMD (or scaleSIMD) and maxSIMD compute them. S is s
// broadcast; clobbers Y0, X1.
#define SM_SCALE(SRC, MASK, DST, CNT, S, MAX, MAXX, L1, L2, L3) \
	VBROADCASTSS vNegInf<>(SB), MAX \
L1: \
	TESTQ CNT, CNT \
	JZ L3 \
	VMULPS (SRC), S, Y0 \
	TESTQ MASK, MASK \
	JZ L2 \
	VADDPS (MASK), Y0, Y0 \
	ADDQ $32, MASK \
L2: \
	VMOVUPS Y0, (DST) \
	VMAXPS Y0, MAX, MAX \
	ADDQ $32, SRC \
	ADDQ $32, DST \
	SUBQ $8, CNT \
	JMP L1 \
L3: \
	VEXTRACTF128 $1, MAX, X1 \
	VMAXPS X1, MAXX, MAXX \
	VPERMILPS $0x4e, MAXX, X1 \
	VMAXPS X1, MAXX, MAXX \
	VPERMILPS $0xb1, MAXX, X1 \
	VMAXPS X1, MAXX, MAXX

// vNegInf is -Inf, SM_SCALE's starting maximum: VMAXPS then gives each
// lane's first value as maxSIMD's start does (a NaN included).
DATA vNegInf<>+0(SB)/4, $0xff800000
GLOBL vNegInf<>(SB), RODATA|NOPTR, $4

// SM_EXP sets the chunk at OFF(DST) to exp(chunk - MX) and adds it to
// ACC, as expSubSIMD does; V and T1-T3 are scratch.
#define SM_EXP(DST, OFF, MX, ACC, V, T1, T2, T3) \
	VMOVUPS OFF(DST), V \
	VSUBPS MX, V, V \
	EXP(V, T1, T2, T3) \
	VMOVUPS V, OFF(DST) \
	VADDPS V, ACC, ACC

// SM_RECIP sets R (broadcast) to 1/Σ for the sums ACC0 and ACC1, adding
// them as expSubSIMD does and leaving Σ in the low lane of X0.
#define SM_RECIP(ACC0, ACC1, R) \
	VADDPS ACC1, ACC0, Y0 \
	HSUM \
	VMOVSS vOne<>(SB), X1 \
	VDIVSS X0, X1, X1 \
	VBROADCASTSS X1, R

// func softMaxRowAVX2(out, x, mask *float32, n int, scale float32) float32
// out = exp(v - max v)/Σ for v = x·scale (+ mask), n > 0 a multiple of 8,
// returning Σ, or 0 for a row masked whole: the bits of scaleAdd (or
// scale), max, expSub and scale by 1/Σ, in one call.
TEXT ·softMaxRowAVX2(SB), NOSPLIT, $0-44
	MOVQ out+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ mask+16(FP), DX
	MOVQ n+24(FP), CX
	VBROADCASTSS scale+32(FP), Y15
	MOVQ DI, R8
	MOVQ CX, R9
	SM_SCALE(SI, DX, R8, R9, Y15, Y14, X14, sm1_s1, sm1_s2, sm1_s3)
	VMOVD X14, AX
	CMPL AX, $-8388608 // -Inf: masked whole
	JEQ sm1_masked
	VBROADCASTSS X14, Y14
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11
	MOVQ DI, R8
	MOVQ CX, R9
sm1_exp2:
	CMPQ R9, $16
	JLT sm1_exp1
	SM_EXP(R8, 0, Y14, Y10, Y0, Y1, Y2, Y3)
	SM_EXP(R8, 32, Y14, Y11, Y4, Y5, Y6, Y7)
	ADDQ $64, R8
	SUBQ $16, R9
	JMP sm1_exp2
sm1_exp1:
	TESTQ R9, R9
	JZ sm1_sum
	SM_EXP(R8, 0, Y14, Y10, Y0, Y1, Y2, Y3)
sm1_sum:
	SM_RECIP(Y10, Y11, Y13)
	VMOVSS X0, ret+40(FP)
	MOVQ DI, R8
	MOVQ CX, R9
sm1_div:
	VMULPS (R8), Y13, Y0
	VMOVUPS Y0, (R8)
	ADDQ $32, R8
	SUBQ $8, R9
	JNZ sm1_div
	VZEROUPPER
	RET
sm1_masked:
	MOVL $0, ret+40(FP)
	VZEROUPPER
	RET

// func softMaxRows2AVX2(out0, x0, m0, out1, x1, m1 *float32, n int, scale float32) (sum0, sum1 float32)
// softMaxRowAVX2 on two rows of n elements, their exponentials
// interleaved so that the two dependency chains overlap: each row's bits
// are softMaxRowAVX2's.
TEXT ·softMaxRows2AVX2(SB), NOSPLIT, $0-72
	MOVQ n+48(FP), CX
	VBROADCASTSS scale+56(FP), Y15
	MOVQ x0+8(FP), SI
	MOVQ m0+16(FP), DX
	MOVQ out0+0(FP), R8
	MOVQ CX, R9
	SM_SCALE(SI, DX, R8, R9, Y15, Y14, X14, sm2_a1, sm2_a2, sm2_a3)
	MOVQ x1+32(FP), SI
	MOVQ m1+40(FP), DX
	MOVQ out1+24(FP), R8
	MOVQ CX, R9
	SM_SCALE(SI, DX, R8, R9, Y15, Y13, X13, sm2_b1, sm2_b2, sm2_b3)
	VMOVD X14, R10
	VMOVD X13, R11
	VBROADCASTSS X14, Y14
	VBROADCASTSS X13, Y15
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11
	VXORPS Y12, Y12, Y12
	VXORPS Y13, Y13, Y13
	MOVQ out0+0(FP), DI
	MOVQ out1+24(FP), SI
	MOVQ CX, R9
sm2_exp2:
	CMPQ R9, $16
	JLT sm2_exp1
	SM_EXP(DI, 0, Y14, Y10, Y0, Y1, Y2, Y3)
	SM_EXP(SI, 0, Y15, Y12, Y4, Y5, Y6, Y7)
	SM_EXP(DI, 32, Y14, Y11, Y0, Y1, Y2, Y3)
	SM_EXP(SI, 32, Y15, Y13, Y4, Y5, Y6, Y7)
	ADDQ $64, DI
	ADDQ $64, SI
	SUBQ $16, R9
	JMP sm2_exp2
sm2_exp1:
	TESTQ R9, R9
	JZ sm2_sum
	SM_EXP(DI, 0, Y14, Y10, Y0, Y1, Y2, Y3)
	SM_EXP(SI, 0, Y15, Y12, Y4, Y5, Y6, Y7)
sm2_sum:
	SM_RECIP(Y10, Y11, Y14)
	VMOVSS X0, sum0+64(FP)
	SM_RECIP(Y12, Y13, Y15)
	VMOVSS X0, sum1+68(FP)
	MOVQ out0+0(FP), DI
	MOVQ out1+24(FP), SI
	MOVQ CX, R9
sm2_div:
	VMULPS (DI), Y14, Y0
	VMULPS (SI), Y15, Y1
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, (SI)
	ADDQ $32, DI
	ADDQ $32, SI
	SUBQ $8, R9
	JNZ sm2_div
	CMPL R10, $-8388608 // -Inf: row 0 masked whole
	JNE sm2_row1
	MOVL $0, sum0+64(FP)
sm2_row1:
	CMPL R11, $-8388608
	JNE sm2_done
	MOVL $0, sum1+68(FP)
sm2_done:
	VZEROUPPER
	RET
