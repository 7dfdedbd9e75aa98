//go:build arm64 && !purego

#include "textflag.h"

// NEON kernels for kernels_asm.go (ARMv8.0 Advanced SIMD, no extensions,
// except the *SDOT kernels: ARMv8.2 dot product, run only where present).
// Lengths are in elements: multiples of 4 (16 for the unrolled loops, with a
// 4-wide tail loop) unless a function says otherwise; the Go wrappers do the
// rest. Go's assembler lacks most NEON arithmetic (FADD, FMUL, FCVTL, FCVTN,
// SMULL, SADALP, SCVTF, FCVTAS, FMLA by element, ...): those are WORD
// encodings, each with the instruction in GNU syntax as its comment
// (`llvm-mc -triple=aarch64 -show-encoding` assembles a comment to check
// or redo its word). Native Go instructions list the destination last.

// func dotF32SIMD(a, b *float32, n int) float32
TEXT ·dotF32SIMD(SB), NOSPLIT, $0-28
	MOVD a+0(FP), R0
	MOVD b+8(FP), R1
	MOVD n+16(FP), R2
	VEOR V0.B16, V0.B16, V0.B16
	VEOR V1.B16, V1.B16, V1.B16
	VEOR V2.B16, V2.B16, V2.B16
	VEOR V3.B16, V3.B16, V3.B16
	CMP $16, R2
	BLT dotf32_tail

dotf32_loop:
	VLD1.P 64(R0), [V4.S4, V5.S4, V6.S4, V7.S4]
	VLD1.P 64(R1), [V16.S4, V17.S4, V18.S4, V19.S4]
	VFMLA V4.S4, V16.S4, V0.S4
	VFMLA V5.S4, V17.S4, V1.S4
	VFMLA V6.S4, V18.S4, V2.S4
	VFMLA V7.S4, V19.S4, V3.S4
	SUB $16, R2
	CMP $16, R2
	BGE dotf32_loop

dotf32_tail:
	CBZ R2, dotf32_done
	VLD1.P 16(R0), [V4.S4]
	VLD1.P 16(R1), [V16.S4]
	VFMLA V4.S4, V16.S4, V0.S4
	SUB $4, R2
	B dotf32_tail

dotf32_done:
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x4e22d400 // fadd v0.4s, v0.4s, v2.4s
	WORD $0x6e20d400 // faddp v0.4s, v0.4s, v0.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	FMOVS F0, ret+24(FP)
	RET

// func dotF16SIMD(w *byte, x *float32, n int) float32
TEXT ·dotF16SIMD(SB), NOSPLIT, $0-28
	MOVD w+0(FP), R0
	MOVD x+8(FP), R1
	MOVD n+16(FP), R2
	VEOR V0.B16, V0.B16, V0.B16
	VEOR V1.B16, V1.B16, V1.B16
	VEOR V2.B16, V2.B16, V2.B16
	VEOR V3.B16, V3.B16, V3.B16
	CMP $16, R2
	BLT dotf16_tail

dotf16_loop:
	VLD1.P 32(R0), [V4.H8, V5.H8]
	VLD1.P 64(R1), [V16.S4, V17.S4, V18.S4, V19.S4]
	WORD $0x0e217886 // fcvtl v6.4s, v4.4h
	WORD $0x4e217887 // fcvtl2 v7.4s, v4.8h
	WORD $0x0e2178b4 // fcvtl v20.4s, v5.4h
	WORD $0x4e2178b5 // fcvtl2 v21.4s, v5.8h
	VFMLA V6.S4, V16.S4, V0.S4
	VFMLA V7.S4, V17.S4, V1.S4
	VFMLA V20.S4, V18.S4, V2.S4
	VFMLA V21.S4, V19.S4, V3.S4
	SUB $16, R2
	CMP $16, R2
	BGE dotf16_loop

dotf16_tail:
	CBZ R2, dotf16_done
	VLD1.P 8(R0), [V4.H4]
	VLD1.P 16(R1), [V16.S4]
	WORD $0x0e217886 // fcvtl v6.4s, v4.4h
	VFMLA V6.S4, V16.S4, V0.S4
	SUB $4, R2
	B dotf16_tail

dotf16_done:
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x4e22d400 // fadd v0.4s, v0.4s, v2.4s
	WORD $0x6e20d400 // faddp v0.4s, v0.4s, v0.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	FMOVS F0, ret+24(FP)
	RET

// func f16ToF32SIMD(src *byte, dst *float32, n int)
TEXT ·f16ToF32SIMD(SB), NOSPLIT, $0-24
	MOVD src+0(FP), R0
	MOVD dst+8(FP), R1
	MOVD n+16(FP), R2
	CMP $16, R2
	BLT tof32_tail

tof32_loop:
	VLD1.P 32(R0), [V4.H8, V5.H8]
	WORD $0x0e217880 // fcvtl v0.4s, v4.4h
	WORD $0x4e217881 // fcvtl2 v1.4s, v4.8h
	WORD $0x0e2178a2 // fcvtl v2.4s, v5.4h
	WORD $0x4e2178a3 // fcvtl2 v3.4s, v5.8h
	VST1.P [V0.S4, V1.S4, V2.S4, V3.S4], 64(R1)
	SUB $16, R2
	CMP $16, R2
	BGE tof32_loop

tof32_tail:
	CBZ R2, tof32_done
	VLD1.P 8(R0), [V4.H4]
	WORD $0x0e217880 // fcvtl v0.4s, v4.4h
	VST1.P [V0.S4], 16(R1)
	SUB $4, R2
	B tof32_tail

tof32_done:
	RET

// func f32ToF16SIMD(src *float32, dst *byte, n int)
// Rounds to nearest even (FPCR's default mode, which Go keeps). FCVTN keeps
// the top payload bits of a NaN; runtime.F32ToF16 gives sign|0x7e00, so
// lanes whose magnitude (& 0x7fff, V28) is above 0x7c00 (V29) have their
// payload bits 0x1ff (V30) cleared.
TEXT ·f32ToF16SIMD(SB), NOSPLIT, $0-24
	MOVD src+0(FP), R0
	MOVD dst+8(FP), R1
	MOVD n+16(FP), R2
	WORD $0x6f04a41c // mvni v28.8h, #0x80, lsl #8
	WORD $0x4f03a79d // movi v29.8h, #0x7c, lsl #8
	WORD $0x6f07a7de // mvni v30.8h, #0xfe, lsl #8
	CMP $16, R2
	BLT tof16_tail

tof16_loop:
	VLD1.P 64(R0), [V0.S4, V1.S4, V2.S4, V3.S4]
	WORD $0x0e216804 // fcvtn v4.4h, v0.4s
	WORD $0x4e216824 // fcvtn2 v4.8h, v1.4s
	WORD $0x0e216845 // fcvtn v5.4h, v2.4s
	WORD $0x4e216865 // fcvtn2 v5.8h, v3.4s
	WORD $0x4e3c1c86 // and v6.16b, v4.16b, v28.16b
	WORD $0x6e7d34c6 // cmhi v6.8h, v6.8h, v29.8h
	WORD $0x4e3e1cc6 // and v6.16b, v6.16b, v30.16b
	WORD $0x4e661c84 // bic v4.16b, v4.16b, v6.16b
	WORD $0x4e3c1ca7 // and v7.16b, v5.16b, v28.16b
	WORD $0x6e7d34e7 // cmhi v7.8h, v7.8h, v29.8h
	WORD $0x4e3e1ce7 // and v7.16b, v7.16b, v30.16b
	WORD $0x4e671ca5 // bic v5.16b, v5.16b, v7.16b
	VST1.P [V4.H8, V5.H8], 32(R1)
	SUB $16, R2
	CMP $16, R2
	BGE tof16_loop

tof16_tail:
	CBZ R2, tof16_done
	VLD1.P 16(R0), [V0.S4]
	WORD $0x0e216804 // fcvtn v4.4h, v0.4s
	WORD $0x4e3c1c86 // and v6.16b, v4.16b, v28.16b
	WORD $0x6e7d34c6 // cmhi v6.8h, v6.8h, v29.8h
	WORD $0x4e3e1cc6 // and v6.16b, v6.16b, v30.16b
	WORD $0x4e661c84 // bic v4.16b, v4.16b, v6.16b
	VST1.P [V4.H4], 8(R1)
	SUB $4, R2
	B tof16_tail

tof16_done:
	RET

// func gemm6x16SIMD(k int, a, b, c *float32, ldc int, add int)
// The 6×16 tile accumulates in V8-V31 (row i in V(8+4i)..V(11+4i)); per
// k step the b row is in V0-V3 and the 6 a values in V4 and V5[0:2].
TEXT ·gemm6x16SIMD(SB), NOSPLIT, $0-48
	MOVD k+0(FP), R0
	MOVD a+8(FP), R1
	MOVD b+16(FP), R2
	MOVD c+24(FP), R3
	MOVD ldc+32(FP), R4
	LSL $2, R4
	MOVD add+40(FP), R5
	// Fetch the C tile early: it is loaded or written only at the end.
	MOVD R3, R6
	PRFM (R6), PSTL1KEEP
	ADD R4, R6
	PRFM (R6), PSTL1KEEP
	ADD R4, R6
	PRFM (R6), PSTL1KEEP
	ADD R4, R6
	PRFM (R6), PSTL1KEEP
	ADD R4, R6
	PRFM (R6), PSTL1KEEP
	ADD R4, R6
	PRFM (R6), PSTL1KEEP
	VEOR V8.B16, V8.B16, V8.B16
	VEOR V9.B16, V9.B16, V9.B16
	VEOR V10.B16, V10.B16, V10.B16
	VEOR V11.B16, V11.B16, V11.B16
	VEOR V12.B16, V12.B16, V12.B16
	VEOR V13.B16, V13.B16, V13.B16
	VEOR V14.B16, V14.B16, V14.B16
	VEOR V15.B16, V15.B16, V15.B16
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	VEOR V20.B16, V20.B16, V20.B16
	VEOR V21.B16, V21.B16, V21.B16
	VEOR V22.B16, V22.B16, V22.B16
	VEOR V23.B16, V23.B16, V23.B16
	VEOR V24.B16, V24.B16, V24.B16
	VEOR V25.B16, V25.B16, V25.B16
	VEOR V26.B16, V26.B16, V26.B16
	VEOR V27.B16, V27.B16, V27.B16
	VEOR V28.B16, V28.B16, V28.B16
	VEOR V29.B16, V29.B16, V29.B16
	VEOR V30.B16, V30.B16, V30.B16
	VEOR V31.B16, V31.B16, V31.B16
	CBZ R0, gemm_store

gemm_loop:
	VLD1.P 64(R2), [V0.S4, V1.S4, V2.S4, V3.S4]
	VLD1.P 16(R1), [V4.S4]
	VLD1.P 8(R1), [V5.S2]
	WORD $0x4f841008 // fmla v8.4s, v0.4s, v4.s[0]
	WORD $0x4f841029 // fmla v9.4s, v1.4s, v4.s[0]
	WORD $0x4f84104a // fmla v10.4s, v2.4s, v4.s[0]
	WORD $0x4f84106b // fmla v11.4s, v3.4s, v4.s[0]
	WORD $0x4fa4100c // fmla v12.4s, v0.4s, v4.s[1]
	WORD $0x4fa4102d // fmla v13.4s, v1.4s, v4.s[1]
	WORD $0x4fa4104e // fmla v14.4s, v2.4s, v4.s[1]
	WORD $0x4fa4106f // fmla v15.4s, v3.4s, v4.s[1]
	WORD $0x4f841810 // fmla v16.4s, v0.4s, v4.s[2]
	WORD $0x4f841831 // fmla v17.4s, v1.4s, v4.s[2]
	WORD $0x4f841852 // fmla v18.4s, v2.4s, v4.s[2]
	WORD $0x4f841873 // fmla v19.4s, v3.4s, v4.s[2]
	WORD $0x4fa41814 // fmla v20.4s, v0.4s, v4.s[3]
	WORD $0x4fa41835 // fmla v21.4s, v1.4s, v4.s[3]
	WORD $0x4fa41856 // fmla v22.4s, v2.4s, v4.s[3]
	WORD $0x4fa41877 // fmla v23.4s, v3.4s, v4.s[3]
	WORD $0x4f851018 // fmla v24.4s, v0.4s, v5.s[0]
	WORD $0x4f851039 // fmla v25.4s, v1.4s, v5.s[0]
	WORD $0x4f85105a // fmla v26.4s, v2.4s, v5.s[0]
	WORD $0x4f85107b // fmla v27.4s, v3.4s, v5.s[0]
	WORD $0x4fa5101c // fmla v28.4s, v0.4s, v5.s[1]
	WORD $0x4fa5103d // fmla v29.4s, v1.4s, v5.s[1]
	WORD $0x4fa5105e // fmla v30.4s, v2.4s, v5.s[1]
	WORD $0x4fa5107f // fmla v31.4s, v3.4s, v5.s[1]
	SUBS $1, R0
	BNE gemm_loop

gemm_store:
	CBZ R5, gemm_set
	VLD1 (R3), [V0.S4, V1.S4, V2.S4, V3.S4]
	WORD $0x4e20d508 // fadd v8.4s, v8.4s, v0.4s
	WORD $0x4e21d529 // fadd v9.4s, v9.4s, v1.4s
	WORD $0x4e22d54a // fadd v10.4s, v10.4s, v2.4s
	WORD $0x4e23d56b // fadd v11.4s, v11.4s, v3.4s
	VST1 [V8.S4, V9.S4, V10.S4, V11.S4], (R3)
	ADD R4, R3
	VLD1 (R3), [V0.S4, V1.S4, V2.S4, V3.S4]
	WORD $0x4e20d58c // fadd v12.4s, v12.4s, v0.4s
	WORD $0x4e21d5ad // fadd v13.4s, v13.4s, v1.4s
	WORD $0x4e22d5ce // fadd v14.4s, v14.4s, v2.4s
	WORD $0x4e23d5ef // fadd v15.4s, v15.4s, v3.4s
	VST1 [V12.S4, V13.S4, V14.S4, V15.S4], (R3)
	ADD R4, R3
	VLD1 (R3), [V0.S4, V1.S4, V2.S4, V3.S4]
	WORD $0x4e20d610 // fadd v16.4s, v16.4s, v0.4s
	WORD $0x4e21d631 // fadd v17.4s, v17.4s, v1.4s
	WORD $0x4e22d652 // fadd v18.4s, v18.4s, v2.4s
	WORD $0x4e23d673 // fadd v19.4s, v19.4s, v3.4s
	VST1 [V16.S4, V17.S4, V18.S4, V19.S4], (R3)
	ADD R4, R3
	VLD1 (R3), [V0.S4, V1.S4, V2.S4, V3.S4]
	WORD $0x4e20d694 // fadd v20.4s, v20.4s, v0.4s
	WORD $0x4e21d6b5 // fadd v21.4s, v21.4s, v1.4s
	WORD $0x4e22d6d6 // fadd v22.4s, v22.4s, v2.4s
	WORD $0x4e23d6f7 // fadd v23.4s, v23.4s, v3.4s
	VST1 [V20.S4, V21.S4, V22.S4, V23.S4], (R3)
	ADD R4, R3
	VLD1 (R3), [V0.S4, V1.S4, V2.S4, V3.S4]
	WORD $0x4e20d718 // fadd v24.4s, v24.4s, v0.4s
	WORD $0x4e21d739 // fadd v25.4s, v25.4s, v1.4s
	WORD $0x4e22d75a // fadd v26.4s, v26.4s, v2.4s
	WORD $0x4e23d77b // fadd v27.4s, v27.4s, v3.4s
	VST1 [V24.S4, V25.S4, V26.S4, V27.S4], (R3)
	ADD R4, R3
	VLD1 (R3), [V0.S4, V1.S4, V2.S4, V3.S4]
	WORD $0x4e20d79c // fadd v28.4s, v28.4s, v0.4s
	WORD $0x4e21d7bd // fadd v29.4s, v29.4s, v1.4s
	WORD $0x4e22d7de // fadd v30.4s, v30.4s, v2.4s
	WORD $0x4e23d7ff // fadd v31.4s, v31.4s, v3.4s
	VST1 [V28.S4, V29.S4, V30.S4, V31.S4], (R3)
	RET

gemm_set:
	VST1 [V8.S4, V9.S4, V10.S4, V11.S4], (R3)
	ADD R4, R3
	VST1 [V12.S4, V13.S4, V14.S4, V15.S4], (R3)
	ADD R4, R3
	VST1 [V16.S4, V17.S4, V18.S4, V19.S4], (R3)
	ADD R4, R3
	VST1 [V20.S4, V21.S4, V22.S4, V23.S4], (R3)
	ADD R4, R3
	VST1 [V24.S4, V25.S4, V26.S4, V27.S4], (R3)
	ADD R4, R3
	VST1 [V28.S4, V29.S4, V30.S4, V31.S4], (R3)
	RET

// Integer block dots. Per block the int8 products (SMULL/SMULL2, 16 bits:
// at most 2^14 in magnitude) are summed pairwise into four int32 lanes
// (SADDLP/SADALP), converted to float and scaled by the weight's half scale
// times the activation scale, into a float accumulator. Q4_0 nibbles are
// unpacked to signed q-8 first (signed products need no neg·8 correction
// of unsigned nibbles, unlike the amd64 kernels): low nibbles are elements
// 0-15, high ones 16-31. V28 holds bytes 0x0f, V29 bytes 8.

// func dotQ8SIMD(w *byte, qs *int8, qd *float32, nb int) float32
TEXT ·dotQ8SIMD(SB), NOSPLIT, $0-36
	MOVD w+0(FP), R0
	MOVD qs+8(FP), R1
	MOVD qd+16(FP), R2
	MOVD nb+24(FP), R3
	VEOR V30.B16, V30.B16, V30.B16
	CBZ R3, dotq8_done

dotq8_loop:
	VLD1.P 2(R0), V16.H[0]
	VLD1.P 32(R0), [V0.B16, V1.B16]
	VLD1.P 32(R1), [V2.B16, V3.B16]
	FMOVS.P 4(R2), F17
	WORD $0x0e22c004 // smull v4.8h, v0.8b, v2.8b
	WORD $0x4e22c005 // smull2 v5.8h, v0.16b, v2.16b
	WORD $0x0e23c026 // smull v6.8h, v1.8b, v3.8b
	WORD $0x4e23c027 // smull2 v7.8h, v1.16b, v3.16b
	WORD $0x4e602892 // saddlp v18.4s, v4.8h
	WORD $0x4e6068b2 // sadalp v18.4s, v5.8h
	WORD $0x4e6068d2 // sadalp v18.4s, v6.8h
	WORD $0x4e6068f2 // sadalp v18.4s, v7.8h
	WORD $0x4e21da52 // scvtf v18.4s, v18.4s
	WORD $0x1ee24210 // fcvt s16, h16
	WORD $0x1e310a10 // fmul s16, s16, s17
	WORD $0x4f90125e // fmla v30.4s, v18.4s, v16.s[0]
	SUBS $1, R3
	BNE dotq8_loop

dotq8_done:
	WORD $0x6e3ed7de // faddp v30.4s, v30.4s, v30.4s
	WORD $0x7e30dbc0 // faddp s0, v30.2s
	FMOVS F0, ret+32(FP)
	RET

// func dotQ4SIMD(w *byte, qs *int8, qd *float32, nb int) float32
TEXT ·dotQ4SIMD(SB), NOSPLIT, $0-36
	MOVD w+0(FP), R0
	MOVD qs+8(FP), R1
	MOVD qd+16(FP), R2
	MOVD nb+24(FP), R3
	VEOR V30.B16, V30.B16, V30.B16
	WORD $0x4f00e5fc // movi v28.16b, #0x0f
	WORD $0x4f00e51d // movi v29.16b, #8
	CBZ R3, dotq4_done

dotq4_loop:
	VLD1.P 2(R0), V16.H[0]
	VLD1.P 16(R0), [V0.B16]
	VLD1.P 32(R1), [V2.B16, V3.B16]
	FMOVS.P 4(R2), F17
	WORD $0x6f0c0401 // ushr v1.16b, v0.16b, #4
	WORD $0x4e3c1c00 // and v0.16b, v0.16b, v28.16b
	WORD $0x6e3d8400 // sub v0.16b, v0.16b, v29.16b
	WORD $0x6e3d8421 // sub v1.16b, v1.16b, v29.16b
	WORD $0x0e22c004 // smull v4.8h, v0.8b, v2.8b
	WORD $0x4e22c005 // smull2 v5.8h, v0.16b, v2.16b
	WORD $0x0e23c026 // smull v6.8h, v1.8b, v3.8b
	WORD $0x4e23c027 // smull2 v7.8h, v1.16b, v3.16b
	WORD $0x4e602892 // saddlp v18.4s, v4.8h
	WORD $0x4e6068b2 // sadalp v18.4s, v5.8h
	WORD $0x4e6068d2 // sadalp v18.4s, v6.8h
	WORD $0x4e6068f2 // sadalp v18.4s, v7.8h
	WORD $0x4e21da52 // scvtf v18.4s, v18.4s
	WORD $0x1ee24210 // fcvt s16, h16
	WORD $0x1e310a10 // fmul s16, s16, s17
	WORD $0x4f90125e // fmla v30.4s, v18.4s, v16.s[0]
	SUBS $1, R3
	BNE dotq4_loop

dotq4_done:
	WORD $0x6e3ed7de // faddp v30.4s, v30.4s, v30.4s
	WORD $0x7e30dbc0 // faddp s0, v30.2s
	FMOVS F0, ret+32(FP)
	RET

// Four-row forms: the activation block (V2, V3) and scale (F17) are loaded
// once per block for four weight rows at R0, R4, R5, R6. The rows' half
// scales go to V16's lanes, are widened together and multiplied by the
// activation scale. Rows alternate between two sets of temporaries so that
// in-order cores can overlap them. Row r accumulates in V(20+r).

// func dotQ8x4SIMD(w *byte, stride int, qs *int8, qd *float32, nb int, out *float32)
TEXT ·dotQ8x4SIMD(SB), NOSPLIT, $0-48
	MOVD w+0(FP), R0
	MOVD stride+8(FP), R8
	MOVD qs+16(FP), R1
	MOVD qd+24(FP), R2
	MOVD nb+32(FP), R3
	MOVD out+40(FP), R7
	ADD R8, R0, R4
	ADD R8, R4, R5
	ADD R8, R5, R6
	VEOR V20.B16, V20.B16, V20.B16
	VEOR V21.B16, V21.B16, V21.B16
	VEOR V22.B16, V22.B16, V22.B16
	VEOR V23.B16, V23.B16, V23.B16
	CBZ R3, dotq8x4_done

dotq8x4_loop:
	VLD1.P 32(R1), [V2.B16, V3.B16]
	FMOVS.P 4(R2), F17
	VLD1.P 2(R0), V16.H[0]
	VLD1.P 2(R4), V16.H[1]
	VLD1.P 2(R5), V16.H[2]
	VLD1.P 2(R6), V16.H[3]
	WORD $0x0e217a10 // fcvtl v16.4s, v16.4h
	WORD $0x4f919210 // fmul v16.4s, v16.4s, v17.s[0]
	VLD1.P 32(R0), [V0.B16, V1.B16]
	WORD $0x0e22c004 // smull v4.8h, v0.8b, v2.8b
	WORD $0x4e22c005 // smull2 v5.8h, v0.16b, v2.16b
	WORD $0x0e23c026 // smull v6.8h, v1.8b, v3.8b
	WORD $0x4e23c027 // smull2 v7.8h, v1.16b, v3.16b
	WORD $0x4e602892 // saddlp v18.4s, v4.8h
	WORD $0x4e6068b2 // sadalp v18.4s, v5.8h
	WORD $0x4e6068d2 // sadalp v18.4s, v6.8h
	WORD $0x4e6068f2 // sadalp v18.4s, v7.8h
	WORD $0x4e21da52 // scvtf v18.4s, v18.4s
	WORD $0x4f901254 // fmla v20.4s, v18.4s, v16.s[0]
	VLD1.P 32(R4), [V8.B16, V9.B16]
	WORD $0x0e22c10a // smull v10.8h, v8.8b, v2.8b
	WORD $0x4e22c10b // smull2 v11.8h, v8.16b, v2.16b
	WORD $0x0e23c12c // smull v12.8h, v9.8b, v3.8b
	WORD $0x4e23c12d // smull2 v13.8h, v9.16b, v3.16b
	WORD $0x4e602953 // saddlp v19.4s, v10.8h
	WORD $0x4e606973 // sadalp v19.4s, v11.8h
	WORD $0x4e606993 // sadalp v19.4s, v12.8h
	WORD $0x4e6069b3 // sadalp v19.4s, v13.8h
	WORD $0x4e21da73 // scvtf v19.4s, v19.4s
	WORD $0x4fb01275 // fmla v21.4s, v19.4s, v16.s[1]
	VLD1.P 32(R5), [V0.B16, V1.B16]
	WORD $0x0e22c004 // smull v4.8h, v0.8b, v2.8b
	WORD $0x4e22c005 // smull2 v5.8h, v0.16b, v2.16b
	WORD $0x0e23c026 // smull v6.8h, v1.8b, v3.8b
	WORD $0x4e23c027 // smull2 v7.8h, v1.16b, v3.16b
	WORD $0x4e602892 // saddlp v18.4s, v4.8h
	WORD $0x4e6068b2 // sadalp v18.4s, v5.8h
	WORD $0x4e6068d2 // sadalp v18.4s, v6.8h
	WORD $0x4e6068f2 // sadalp v18.4s, v7.8h
	WORD $0x4e21da52 // scvtf v18.4s, v18.4s
	WORD $0x4f901a56 // fmla v22.4s, v18.4s, v16.s[2]
	VLD1.P 32(R6), [V8.B16, V9.B16]
	WORD $0x0e22c10a // smull v10.8h, v8.8b, v2.8b
	WORD $0x4e22c10b // smull2 v11.8h, v8.16b, v2.16b
	WORD $0x0e23c12c // smull v12.8h, v9.8b, v3.8b
	WORD $0x4e23c12d // smull2 v13.8h, v9.16b, v3.16b
	WORD $0x4e602953 // saddlp v19.4s, v10.8h
	WORD $0x4e606973 // sadalp v19.4s, v11.8h
	WORD $0x4e606993 // sadalp v19.4s, v12.8h
	WORD $0x4e6069b3 // sadalp v19.4s, v13.8h
	WORD $0x4e21da73 // scvtf v19.4s, v19.4s
	WORD $0x4fb01a77 // fmla v23.4s, v19.4s, v16.s[3]
	SUBS $1, R3
	BNE dotq8x4_loop

dotq8x4_done:
	WORD $0x6e35d694 // faddp v20.4s, v20.4s, v21.4s
	WORD $0x6e37d6d6 // faddp v22.4s, v22.4s, v23.4s
	WORD $0x6e36d694 // faddp v20.4s, v20.4s, v22.4s
	VST1 [V20.S4], (R7)
	RET

// func dotQ4x4SIMD(w *byte, stride int, qs *int8, qd *float32, neg *int32, nb int, out *float32)
// neg is unused: the nibbles are biased to signed before the multiply.
TEXT ·dotQ4x4SIMD(SB), NOSPLIT, $0-56
	MOVD w+0(FP), R0
	MOVD stride+8(FP), R8
	MOVD qs+16(FP), R1
	MOVD qd+24(FP), R2
	MOVD nb+40(FP), R3
	MOVD out+48(FP), R7
	ADD R8, R0, R4
	ADD R8, R4, R5
	ADD R8, R5, R6
	VEOR V20.B16, V20.B16, V20.B16
	VEOR V21.B16, V21.B16, V21.B16
	VEOR V22.B16, V22.B16, V22.B16
	VEOR V23.B16, V23.B16, V23.B16
	WORD $0x4f00e5fc // movi v28.16b, #0x0f
	WORD $0x4f00e51d // movi v29.16b, #8
	CBZ R3, dotq4x4_done

dotq4x4_loop:
	VLD1.P 32(R1), [V2.B16, V3.B16]
	FMOVS.P 4(R2), F17
	VLD1.P 2(R0), V16.H[0]
	VLD1.P 2(R4), V16.H[1]
	VLD1.P 2(R5), V16.H[2]
	VLD1.P 2(R6), V16.H[3]
	WORD $0x0e217a10 // fcvtl v16.4s, v16.4h
	WORD $0x4f919210 // fmul v16.4s, v16.4s, v17.s[0]
	VLD1.P 16(R0), [V0.B16]
	WORD $0x6f0c0401 // ushr v1.16b, v0.16b, #4
	WORD $0x4e3c1c00 // and v0.16b, v0.16b, v28.16b
	WORD $0x6e3d8400 // sub v0.16b, v0.16b, v29.16b
	WORD $0x6e3d8421 // sub v1.16b, v1.16b, v29.16b
	WORD $0x0e22c004 // smull v4.8h, v0.8b, v2.8b
	WORD $0x4e22c005 // smull2 v5.8h, v0.16b, v2.16b
	WORD $0x0e23c026 // smull v6.8h, v1.8b, v3.8b
	WORD $0x4e23c027 // smull2 v7.8h, v1.16b, v3.16b
	WORD $0x4e602892 // saddlp v18.4s, v4.8h
	WORD $0x4e6068b2 // sadalp v18.4s, v5.8h
	WORD $0x4e6068d2 // sadalp v18.4s, v6.8h
	WORD $0x4e6068f2 // sadalp v18.4s, v7.8h
	WORD $0x4e21da52 // scvtf v18.4s, v18.4s
	WORD $0x4f901254 // fmla v20.4s, v18.4s, v16.s[0]
	VLD1.P 16(R4), [V8.B16]
	WORD $0x6f0c0509 // ushr v9.16b, v8.16b, #4
	WORD $0x4e3c1d08 // and v8.16b, v8.16b, v28.16b
	WORD $0x6e3d8508 // sub v8.16b, v8.16b, v29.16b
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e22c10a // smull v10.8h, v8.8b, v2.8b
	WORD $0x4e22c10b // smull2 v11.8h, v8.16b, v2.16b
	WORD $0x0e23c12c // smull v12.8h, v9.8b, v3.8b
	WORD $0x4e23c12d // smull2 v13.8h, v9.16b, v3.16b
	WORD $0x4e602953 // saddlp v19.4s, v10.8h
	WORD $0x4e606973 // sadalp v19.4s, v11.8h
	WORD $0x4e606993 // sadalp v19.4s, v12.8h
	WORD $0x4e6069b3 // sadalp v19.4s, v13.8h
	WORD $0x4e21da73 // scvtf v19.4s, v19.4s
	WORD $0x4fb01275 // fmla v21.4s, v19.4s, v16.s[1]
	VLD1.P 16(R5), [V0.B16]
	WORD $0x6f0c0401 // ushr v1.16b, v0.16b, #4
	WORD $0x4e3c1c00 // and v0.16b, v0.16b, v28.16b
	WORD $0x6e3d8400 // sub v0.16b, v0.16b, v29.16b
	WORD $0x6e3d8421 // sub v1.16b, v1.16b, v29.16b
	WORD $0x0e22c004 // smull v4.8h, v0.8b, v2.8b
	WORD $0x4e22c005 // smull2 v5.8h, v0.16b, v2.16b
	WORD $0x0e23c026 // smull v6.8h, v1.8b, v3.8b
	WORD $0x4e23c027 // smull2 v7.8h, v1.16b, v3.16b
	WORD $0x4e602892 // saddlp v18.4s, v4.8h
	WORD $0x4e6068b2 // sadalp v18.4s, v5.8h
	WORD $0x4e6068d2 // sadalp v18.4s, v6.8h
	WORD $0x4e6068f2 // sadalp v18.4s, v7.8h
	WORD $0x4e21da52 // scvtf v18.4s, v18.4s
	WORD $0x4f901a56 // fmla v22.4s, v18.4s, v16.s[2]
	VLD1.P 16(R6), [V8.B16]
	WORD $0x6f0c0509 // ushr v9.16b, v8.16b, #4
	WORD $0x4e3c1d08 // and v8.16b, v8.16b, v28.16b
	WORD $0x6e3d8508 // sub v8.16b, v8.16b, v29.16b
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e22c10a // smull v10.8h, v8.8b, v2.8b
	WORD $0x4e22c10b // smull2 v11.8h, v8.16b, v2.16b
	WORD $0x0e23c12c // smull v12.8h, v9.8b, v3.8b
	WORD $0x4e23c12d // smull2 v13.8h, v9.16b, v3.16b
	WORD $0x4e602953 // saddlp v19.4s, v10.8h
	WORD $0x4e606973 // sadalp v19.4s, v11.8h
	WORD $0x4e606993 // sadalp v19.4s, v12.8h
	WORD $0x4e6069b3 // sadalp v19.4s, v13.8h
	WORD $0x4e21da73 // scvtf v19.4s, v19.4s
	WORD $0x4fb01a77 // fmla v23.4s, v19.4s, v16.s[3]
	SUBS $1, R3
	BNE dotq4x4_loop

dotq4x4_done:
	WORD $0x6e35d694 // faddp v20.4s, v20.4s, v21.4s
	WORD $0x6e37d6d6 // faddp v22.4s, v22.4s, v23.4s
	WORD $0x6e36d694 // faddp v20.4s, v20.4s, v22.4s
	VST1 [V20.S4], (R7)
	RET

// ARMv8.2 dot-product forms of the four integer dots, used only where the
// CPU has FEAT_DotProd (kernels_arm64.go checks). SDOT sums four int8
// products into each int32 lane: two SDOTs take a whole block (exact, at
// most 2^19 in magnitude). The one-row forms do four blocks a step: their
// block sums are reduced by ADDP into one vector (lane b: block b), scaled
// by the four half scales times the four activation scales, and added to
// one float accumulator; a one-block loop does the rest. The four-row forms
// reduce the four rows' block sums the same way (lane r: row r).

// func dotQ8SDOT(w *byte, qs *int8, qd *float32, nb int) float32
TEXT ·dotQ8SDOT(SB), NOSPLIT, $0-36
	MOVD w+0(FP), R0
	MOVD qs+8(FP), R1
	MOVD qd+16(FP), R2
	MOVD nb+24(FP), R3
	VEOR V30.B16, V30.B16, V30.B16
	CMP $4, R3
	BLT dotq8sd_tail

dotq8sd_loop4:
	VLD1.P 2(R0), V16.H[0]
	VLD1.P 32(R0), [V8.B16, V9.B16]
	VLD1.P 2(R0), V16.H[1]
	VLD1.P 32(R0), [V10.B16, V11.B16]
	VLD1.P 2(R0), V16.H[2]
	VLD1.P 32(R0), [V12.B16, V13.B16]
	VLD1.P 2(R0), V16.H[3]
	VLD1.P 32(R0), [V14.B16, V15.B16]
	VLD1.P 64(R1), [V0.B16, V1.B16, V2.B16, V3.B16]
	VLD1.P 64(R1), [V4.B16, V5.B16, V6.B16, V7.B16]
	VLD1.P 16(R2), [V17.S4]
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	VEOR V20.B16, V20.B16, V20.B16
	VEOR V21.B16, V21.B16, V21.B16
	WORD $0x4e809512 // sdot v18.4s, v8.16b, v0.16b
	WORD $0x4e829553 // sdot v19.4s, v10.16b, v2.16b
	WORD $0x4e849594 // sdot v20.4s, v12.16b, v4.16b
	WORD $0x4e8695d5 // sdot v21.4s, v14.16b, v6.16b
	WORD $0x4e819532 // sdot v18.4s, v9.16b, v1.16b
	WORD $0x4e839573 // sdot v19.4s, v11.16b, v3.16b
	WORD $0x4e8595b4 // sdot v20.4s, v13.16b, v5.16b
	WORD $0x4e8795f5 // sdot v21.4s, v15.16b, v7.16b
	WORD $0x0e217a10 // fcvtl v16.4s, v16.4h
	WORD $0x6e31de10 // fmul v16.4s, v16.4s, v17.4s
	WORD $0x4eb3be52 // addp v18.4s, v18.4s, v19.4s
	WORD $0x4eb5be94 // addp v20.4s, v20.4s, v21.4s
	WORD $0x4eb4be52 // addp v18.4s, v18.4s, v20.4s
	WORD $0x4e21da52 // scvtf v18.4s, v18.4s
	WORD $0x4e30ce5e // fmla v30.4s, v18.4s, v16.4s
	SUB $4, R3
	CMP $4, R3
	BGE dotq8sd_loop4

dotq8sd_tail:
	CBZ R3, dotq8sd_done

dotq8sd_loop:
	VLD1.P 2(R0), V16.H[0]
	VLD1.P 32(R0), [V8.B16, V9.B16]
	VLD1.P 32(R1), [V0.B16, V1.B16]
	FMOVS.P 4(R2), F17
	VEOR V18.B16, V18.B16, V18.B16
	WORD $0x4e809512 // sdot v18.4s, v8.16b, v0.16b
	WORD $0x4e819532 // sdot v18.4s, v9.16b, v1.16b
	WORD $0x4e21da52 // scvtf v18.4s, v18.4s
	WORD $0x1ee24210 // fcvt s16, h16
	WORD $0x1e310a10 // fmul s16, s16, s17
	WORD $0x4f90125e // fmla v30.4s, v18.4s, v16.s[0]
	SUBS $1, R3
	BNE dotq8sd_loop

dotq8sd_done:
	WORD $0x6e3ed7de // faddp v30.4s, v30.4s, v30.4s
	WORD $0x7e30dbc0 // faddp s0, v30.2s
	FMOVS F0, ret+32(FP)
	RET

// func dotQ4SDOT(w *byte, qs *int8, qd *float32, nb int) float32
// Nibbles are unpacked to signed q-8 as in dotQ4SIMD: V28 holds bytes 0x0f,
// V29 bytes 8.
TEXT ·dotQ4SDOT(SB), NOSPLIT, $0-36
	MOVD w+0(FP), R0
	MOVD qs+8(FP), R1
	MOVD qd+16(FP), R2
	MOVD nb+24(FP), R3
	VEOR V30.B16, V30.B16, V30.B16
	WORD $0x4f00e5fc // movi v28.16b, #0x0f
	WORD $0x4f00e51d // movi v29.16b, #8
	CMP $4, R3
	BLT dotq4sd_tail

dotq4sd_loop4:
	VLD1.P 2(R0), V16.H[0]
	VLD1.P 16(R0), [V8.B16]
	VLD1.P 2(R0), V16.H[1]
	VLD1.P 16(R0), [V10.B16]
	VLD1.P 2(R0), V16.H[2]
	VLD1.P 16(R0), [V12.B16]
	VLD1.P 2(R0), V16.H[3]
	VLD1.P 16(R0), [V14.B16]
	VLD1.P 64(R1), [V0.B16, V1.B16, V2.B16, V3.B16]
	VLD1.P 64(R1), [V4.B16, V5.B16, V6.B16, V7.B16]
	VLD1.P 16(R2), [V17.S4]
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	VEOR V20.B16, V20.B16, V20.B16
	VEOR V21.B16, V21.B16, V21.B16
	WORD $0x6f0c0509 // ushr v9.16b, v8.16b, #4
	WORD $0x6f0c054b // ushr v11.16b, v10.16b, #4
	WORD $0x6f0c058d // ushr v13.16b, v12.16b, #4
	WORD $0x6f0c05cf // ushr v15.16b, v14.16b, #4
	WORD $0x4e3c1d08 // and v8.16b, v8.16b, v28.16b
	WORD $0x4e3c1d4a // and v10.16b, v10.16b, v28.16b
	WORD $0x4e3c1d8c // and v12.16b, v12.16b, v28.16b
	WORD $0x4e3c1dce // and v14.16b, v14.16b, v28.16b
	WORD $0x6e3d8508 // sub v8.16b, v8.16b, v29.16b
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x6e3d854a // sub v10.16b, v10.16b, v29.16b
	WORD $0x6e3d856b // sub v11.16b, v11.16b, v29.16b
	WORD $0x6e3d858c // sub v12.16b, v12.16b, v29.16b
	WORD $0x6e3d85ad // sub v13.16b, v13.16b, v29.16b
	WORD $0x6e3d85ce // sub v14.16b, v14.16b, v29.16b
	WORD $0x6e3d85ef // sub v15.16b, v15.16b, v29.16b
	WORD $0x4e809512 // sdot v18.4s, v8.16b, v0.16b
	WORD $0x4e829553 // sdot v19.4s, v10.16b, v2.16b
	WORD $0x4e849594 // sdot v20.4s, v12.16b, v4.16b
	WORD $0x4e8695d5 // sdot v21.4s, v14.16b, v6.16b
	WORD $0x4e819532 // sdot v18.4s, v9.16b, v1.16b
	WORD $0x4e839573 // sdot v19.4s, v11.16b, v3.16b
	WORD $0x4e8595b4 // sdot v20.4s, v13.16b, v5.16b
	WORD $0x4e8795f5 // sdot v21.4s, v15.16b, v7.16b
	WORD $0x0e217a10 // fcvtl v16.4s, v16.4h
	WORD $0x6e31de10 // fmul v16.4s, v16.4s, v17.4s
	WORD $0x4eb3be52 // addp v18.4s, v18.4s, v19.4s
	WORD $0x4eb5be94 // addp v20.4s, v20.4s, v21.4s
	WORD $0x4eb4be52 // addp v18.4s, v18.4s, v20.4s
	WORD $0x4e21da52 // scvtf v18.4s, v18.4s
	WORD $0x4e30ce5e // fmla v30.4s, v18.4s, v16.4s
	SUB $4, R3
	CMP $4, R3
	BGE dotq4sd_loop4

dotq4sd_tail:
	CBZ R3, dotq4sd_done

dotq4sd_loop:
	VLD1.P 2(R0), V16.H[0]
	VLD1.P 16(R0), [V8.B16]
	VLD1.P 32(R1), [V0.B16, V1.B16]
	FMOVS.P 4(R2), F17
	VEOR V18.B16, V18.B16, V18.B16
	WORD $0x6f0c0509 // ushr v9.16b, v8.16b, #4
	WORD $0x4e3c1d08 // and v8.16b, v8.16b, v28.16b
	WORD $0x6e3d8508 // sub v8.16b, v8.16b, v29.16b
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x4e809512 // sdot v18.4s, v8.16b, v0.16b
	WORD $0x4e819532 // sdot v18.4s, v9.16b, v1.16b
	WORD $0x4e21da52 // scvtf v18.4s, v18.4s
	WORD $0x1ee24210 // fcvt s16, h16
	WORD $0x1e310a10 // fmul s16, s16, s17
	WORD $0x4f90125e // fmla v30.4s, v18.4s, v16.s[0]
	SUBS $1, R3
	BNE dotq4sd_loop

dotq4sd_done:
	WORD $0x6e3ed7de // faddp v30.4s, v30.4s, v30.4s
	WORD $0x7e30dbc0 // faddp s0, v30.2s
	FMOVS F0, ret+32(FP)
	RET

// func dotQ8x4SDOT(w *byte, stride int, qs *int8, qd *float32, nb int, out *float32)
// Rows at R0, R4, R5, R6; V16 holds their half scales times the
// activation scale, V20 the four rows' sums.
TEXT ·dotQ8x4SDOT(SB), NOSPLIT, $0-48
	MOVD w+0(FP), R0
	MOVD stride+8(FP), R8
	MOVD qs+16(FP), R1
	MOVD qd+24(FP), R2
	MOVD nb+32(FP), R3
	MOVD out+40(FP), R7
	ADD R8, R0, R4
	ADD R8, R4, R5
	ADD R8, R5, R6
	VEOR V20.B16, V20.B16, V20.B16
	CBZ R3, dotq8x4sd_done

dotq8x4sd_loop:
	VLD1.P 32(R1), [V0.B16, V1.B16]
	FMOVS.P 4(R2), F17
	VLD1.P 2(R0), V16.H[0]
	VLD1.P 2(R4), V16.H[1]
	VLD1.P 2(R5), V16.H[2]
	VLD1.P 2(R6), V16.H[3]
	VLD1.P 32(R0), [V8.B16, V9.B16]
	VLD1.P 32(R4), [V10.B16, V11.B16]
	VLD1.P 32(R5), [V12.B16, V13.B16]
	VLD1.P 32(R6), [V14.B16, V15.B16]
	VEOR V4.B16, V4.B16, V4.B16
	VEOR V5.B16, V5.B16, V5.B16
	VEOR V6.B16, V6.B16, V6.B16
	VEOR V7.B16, V7.B16, V7.B16
	WORD $0x0e217a10 // fcvtl v16.4s, v16.4h
	WORD $0x4f919210 // fmul v16.4s, v16.4s, v17.s[0]
	WORD $0x4e809504 // sdot v4.4s, v8.16b, v0.16b
	WORD $0x4e809545 // sdot v5.4s, v10.16b, v0.16b
	WORD $0x4e809586 // sdot v6.4s, v12.16b, v0.16b
	WORD $0x4e8095c7 // sdot v7.4s, v14.16b, v0.16b
	WORD $0x4e819524 // sdot v4.4s, v9.16b, v1.16b
	WORD $0x4e819565 // sdot v5.4s, v11.16b, v1.16b
	WORD $0x4e8195a6 // sdot v6.4s, v13.16b, v1.16b
	WORD $0x4e8195e7 // sdot v7.4s, v15.16b, v1.16b
	WORD $0x4ea5bc84 // addp v4.4s, v4.4s, v5.4s
	WORD $0x4ea7bcc6 // addp v6.4s, v6.4s, v7.4s
	WORD $0x4ea6bc84 // addp v4.4s, v4.4s, v6.4s
	WORD $0x4e21d884 // scvtf v4.4s, v4.4s
	WORD $0x4e30cc94 // fmla v20.4s, v4.4s, v16.4s
	SUBS $1, R3
	BNE dotq8x4sd_loop

dotq8x4sd_done:
	VST1 [V20.S4], (R7)
	RET

// func dotQ4x4SDOT(w *byte, stride int, qs *int8, qd *float32, neg *int32, nb int, out *float32)
// neg is unused: the nibbles are biased to signed before the multiply.
TEXT ·dotQ4x4SDOT(SB), NOSPLIT, $0-56
	MOVD w+0(FP), R0
	MOVD stride+8(FP), R8
	MOVD qs+16(FP), R1
	MOVD qd+24(FP), R2
	MOVD nb+40(FP), R3
	MOVD out+48(FP), R7
	ADD R8, R0, R4
	ADD R8, R4, R5
	ADD R8, R5, R6
	VEOR V20.B16, V20.B16, V20.B16
	WORD $0x4f00e5fc // movi v28.16b, #0x0f
	WORD $0x4f00e51d // movi v29.16b, #8
	CBZ R3, dotq4x4sd_done

dotq4x4sd_loop:
	VLD1.P 32(R1), [V0.B16, V1.B16]
	FMOVS.P 4(R2), F17
	VLD1.P 2(R0), V16.H[0]
	VLD1.P 2(R4), V16.H[1]
	VLD1.P 2(R5), V16.H[2]
	VLD1.P 2(R6), V16.H[3]
	VLD1.P 16(R0), [V8.B16]
	VLD1.P 16(R4), [V10.B16]
	VLD1.P 16(R5), [V12.B16]
	VLD1.P 16(R6), [V14.B16]
	VEOR V4.B16, V4.B16, V4.B16
	VEOR V5.B16, V5.B16, V5.B16
	VEOR V6.B16, V6.B16, V6.B16
	VEOR V7.B16, V7.B16, V7.B16
	WORD $0x0e217a10 // fcvtl v16.4s, v16.4h
	WORD $0x4f919210 // fmul v16.4s, v16.4s, v17.s[0]
	WORD $0x6f0c0509 // ushr v9.16b, v8.16b, #4
	WORD $0x6f0c054b // ushr v11.16b, v10.16b, #4
	WORD $0x6f0c058d // ushr v13.16b, v12.16b, #4
	WORD $0x6f0c05cf // ushr v15.16b, v14.16b, #4
	WORD $0x4e3c1d08 // and v8.16b, v8.16b, v28.16b
	WORD $0x4e3c1d4a // and v10.16b, v10.16b, v28.16b
	WORD $0x4e3c1d8c // and v12.16b, v12.16b, v28.16b
	WORD $0x4e3c1dce // and v14.16b, v14.16b, v28.16b
	WORD $0x6e3d8508 // sub v8.16b, v8.16b, v29.16b
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x6e3d854a // sub v10.16b, v10.16b, v29.16b
	WORD $0x6e3d856b // sub v11.16b, v11.16b, v29.16b
	WORD $0x6e3d858c // sub v12.16b, v12.16b, v29.16b
	WORD $0x6e3d85ad // sub v13.16b, v13.16b, v29.16b
	WORD $0x6e3d85ce // sub v14.16b, v14.16b, v29.16b
	WORD $0x6e3d85ef // sub v15.16b, v15.16b, v29.16b
	WORD $0x4e809504 // sdot v4.4s, v8.16b, v0.16b
	WORD $0x4e809545 // sdot v5.4s, v10.16b, v0.16b
	WORD $0x4e809586 // sdot v6.4s, v12.16b, v0.16b
	WORD $0x4e8095c7 // sdot v7.4s, v14.16b, v0.16b
	WORD $0x4e819524 // sdot v4.4s, v9.16b, v1.16b
	WORD $0x4e819565 // sdot v5.4s, v11.16b, v1.16b
	WORD $0x4e8195a6 // sdot v6.4s, v13.16b, v1.16b
	WORD $0x4e8195e7 // sdot v7.4s, v15.16b, v1.16b
	WORD $0x4ea5bc84 // addp v4.4s, v4.4s, v5.4s
	WORD $0x4ea7bcc6 // addp v6.4s, v6.4s, v7.4s
	WORD $0x4ea6bc84 // addp v4.4s, v4.4s, v6.4s
	WORD $0x4e21d884 // scvtf v4.4s, v4.4s
	WORD $0x4e30cc94 // fmla v20.4s, v4.4s, v16.4s
	SUBS $1, R3
	BNE dotq4x4sd_loop

dotq4x4sd_done:
	VST1 [V20.S4], (R7)
	RET

// func dequantQ8SIMD(src *byte, dst *float32, nb int)
TEXT ·dequantQ8SIMD(SB), NOSPLIT, $0-24
	MOVD src+0(FP), R0
	MOVD dst+8(FP), R1
	MOVD nb+16(FP), R2
	CBZ R2, dqq8_done

dqq8_loop:
	VLD1.P 2(R0), V16.H[0]
	VLD1.P 32(R0), [V0.B16, V1.B16]
	WORD $0x1ee24210 // fcvt s16, h16
	WORD $0x0f08a402 // sxtl v2.8h, v0.8b
	WORD $0x4f08a403 // sxtl2 v3.8h, v0.16b
	WORD $0x0f08a424 // sxtl v4.8h, v1.8b
	WORD $0x4f08a425 // sxtl2 v5.8h, v1.16b
	WORD $0x0f10a448 // sxtl v8.4s, v2.4h
	WORD $0x4f10a449 // sxtl2 v9.4s, v2.8h
	WORD $0x0f10a46a // sxtl v10.4s, v3.4h
	WORD $0x4f10a46b // sxtl2 v11.4s, v3.8h
	WORD $0x0f10a48c // sxtl v12.4s, v4.4h
	WORD $0x4f10a48d // sxtl2 v13.4s, v4.8h
	WORD $0x0f10a4ae // sxtl v14.4s, v5.4h
	WORD $0x4f10a4af // sxtl2 v15.4s, v5.8h
	WORD $0x4e21d908 // scvtf v8.4s, v8.4s
	WORD $0x4e21d929 // scvtf v9.4s, v9.4s
	WORD $0x4e21d94a // scvtf v10.4s, v10.4s
	WORD $0x4e21d96b // scvtf v11.4s, v11.4s
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4e21d9ad // scvtf v13.4s, v13.4s
	WORD $0x4e21d9ce // scvtf v14.4s, v14.4s
	WORD $0x4e21d9ef // scvtf v15.4s, v15.4s
	WORD $0x4f909108 // fmul v8.4s, v8.4s, v16.s[0]
	WORD $0x4f909129 // fmul v9.4s, v9.4s, v16.s[0]
	WORD $0x4f90914a // fmul v10.4s, v10.4s, v16.s[0]
	WORD $0x4f90916b // fmul v11.4s, v11.4s, v16.s[0]
	WORD $0x4f90918c // fmul v12.4s, v12.4s, v16.s[0]
	WORD $0x4f9091ad // fmul v13.4s, v13.4s, v16.s[0]
	WORD $0x4f9091ce // fmul v14.4s, v14.4s, v16.s[0]
	WORD $0x4f9091ef // fmul v15.4s, v15.4s, v16.s[0]
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(R1)
	VST1.P [V12.S4, V13.S4, V14.S4, V15.S4], 64(R1)
	SUBS $1, R2
	BNE dqq8_loop

dqq8_done:
	RET

// func dequantQ4SIMD(src *byte, dst *float32, nb int)
TEXT ·dequantQ4SIMD(SB), NOSPLIT, $0-24
	MOVD src+0(FP), R0
	MOVD dst+8(FP), R1
	MOVD nb+16(FP), R2
	WORD $0x4f00e5fc // movi v28.16b, #0x0f
	WORD $0x4f00e51d // movi v29.16b, #8
	CBZ R2, dqq4_done

dqq4_loop:
	VLD1.P 2(R0), V16.H[0]
	VLD1.P 16(R0), [V0.B16]
	WORD $0x6f0c0401 // ushr v1.16b, v0.16b, #4
	WORD $0x4e3c1c00 // and v0.16b, v0.16b, v28.16b
	WORD $0x6e3d8400 // sub v0.16b, v0.16b, v29.16b
	WORD $0x6e3d8421 // sub v1.16b, v1.16b, v29.16b
	WORD $0x1ee24210 // fcvt s16, h16
	WORD $0x0f08a402 // sxtl v2.8h, v0.8b
	WORD $0x4f08a403 // sxtl2 v3.8h, v0.16b
	WORD $0x0f08a424 // sxtl v4.8h, v1.8b
	WORD $0x4f08a425 // sxtl2 v5.8h, v1.16b
	WORD $0x0f10a448 // sxtl v8.4s, v2.4h
	WORD $0x4f10a449 // sxtl2 v9.4s, v2.8h
	WORD $0x0f10a46a // sxtl v10.4s, v3.4h
	WORD $0x4f10a46b // sxtl2 v11.4s, v3.8h
	WORD $0x0f10a48c // sxtl v12.4s, v4.4h
	WORD $0x4f10a48d // sxtl2 v13.4s, v4.8h
	WORD $0x0f10a4ae // sxtl v14.4s, v5.4h
	WORD $0x4f10a4af // sxtl2 v15.4s, v5.8h
	WORD $0x4e21d908 // scvtf v8.4s, v8.4s
	WORD $0x4e21d929 // scvtf v9.4s, v9.4s
	WORD $0x4e21d94a // scvtf v10.4s, v10.4s
	WORD $0x4e21d96b // scvtf v11.4s, v11.4s
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4e21d9ad // scvtf v13.4s, v13.4s
	WORD $0x4e21d9ce // scvtf v14.4s, v14.4s
	WORD $0x4e21d9ef // scvtf v15.4s, v15.4s
	WORD $0x4f909108 // fmul v8.4s, v8.4s, v16.s[0]
	WORD $0x4f909129 // fmul v9.4s, v9.4s, v16.s[0]
	WORD $0x4f90914a // fmul v10.4s, v10.4s, v16.s[0]
	WORD $0x4f90916b // fmul v11.4s, v11.4s, v16.s[0]
	WORD $0x4f90918c // fmul v12.4s, v12.4s, v16.s[0]
	WORD $0x4f9091ad // fmul v13.4s, v13.4s, v16.s[0]
	WORD $0x4f9091ce // fmul v14.4s, v14.4s, v16.s[0]
	WORD $0x4f9091ef // fmul v15.4s, v15.4s, v16.s[0]
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(R1)
	VST1.P [V12.S4, V13.S4, V14.S4, V15.S4], 64(R1)
	SUBS $1, R2
	BNE dqq4_loop

dqq4_done:
	RET

// func quantQ8SIMD(src *float32, dst *byte, sums *int32, nb int)
// Encodes nb blocks of 32 floats as Q8_0 (34 bytes a block) exactly as
// quantize_row_q8_0_ref: d = amax/127 stored as a half, quants x·(1/d)
// (0 when d is 0) rounded half away from zero (FCVTAS); sums, when not
// nil, receives each block's sum of quants.
TEXT ·quantQ8SIMD(SB), NOSPLIT, $0-32
	MOVD src+0(FP), R0
	MOVD dst+8(FP), R1
	MOVD sums+16(FP), R2
	MOVD nb+24(FP), R3
	CBZ R3, q8_done
	MOVW $0x42fe0000, R9 // 127
	FMOVS R9, F30
	MOVW $0x3f800000, R9 // 1
	FMOVS R9, F31
	VEOR V29.B16, V29.B16, V29.B16

q8_loop:
	VLD1.P 64(R0), [V0.S4, V1.S4, V2.S4, V3.S4]
	VLD1.P 64(R0), [V4.S4, V5.S4, V6.S4, V7.S4]
	WORD $0x4ea0f810 // fabs v16.4s, v0.4s
	WORD $0x4ea0f831 // fabs v17.4s, v1.4s
	WORD $0x4ea0f852 // fabs v18.4s, v2.4s
	WORD $0x4ea0f873 // fabs v19.4s, v3.4s
	WORD $0x4ea0f894 // fabs v20.4s, v4.4s
	WORD $0x4ea0f8b5 // fabs v21.4s, v5.4s
	WORD $0x4ea0f8d6 // fabs v22.4s, v6.4s
	WORD $0x4ea0f8f7 // fabs v23.4s, v7.4s
	WORD $0x4e31f610 // fmax v16.4s, v16.4s, v17.4s
	WORD $0x4e33f652 // fmax v18.4s, v18.4s, v19.4s
	WORD $0x4e35f694 // fmax v20.4s, v20.4s, v21.4s
	WORD $0x4e37f6d6 // fmax v22.4s, v22.4s, v23.4s
	WORD $0x4e32f610 // fmax v16.4s, v16.4s, v18.4s
	WORD $0x4e36f694 // fmax v20.4s, v20.4s, v22.4s
	WORD $0x4e34f610 // fmax v16.4s, v16.4s, v20.4s
	WORD $0x6e30fa10 // fmaxv s16, v16.4s
	FDIVS F30, F16, F17 // d = amax/127
	FCVTSH F17, F18
	FMOVS F18, R9
	MOVH R9, (R1)
	FDIVS F17, F31, F19 // id = 1/d
	FCMPS F29, F17
	FCSELS EQ, F29, F19, F19 // id = 0 where d = 0
	WORD $0x4f939000 // fmul v0.4s, v0.4s, v19.s[0]
	WORD $0x4f939021 // fmul v1.4s, v1.4s, v19.s[0]
	WORD $0x4f939042 // fmul v2.4s, v2.4s, v19.s[0]
	WORD $0x4f939063 // fmul v3.4s, v3.4s, v19.s[0]
	WORD $0x4f939084 // fmul v4.4s, v4.4s, v19.s[0]
	WORD $0x4f9390a5 // fmul v5.4s, v5.4s, v19.s[0]
	WORD $0x4f9390c6 // fmul v6.4s, v6.4s, v19.s[0]
	WORD $0x4f9390e7 // fmul v7.4s, v7.4s, v19.s[0]
	WORD $0x4e21c800 // fcvtas v0.4s, v0.4s
	WORD $0x4e21c821 // fcvtas v1.4s, v1.4s
	WORD $0x4e21c842 // fcvtas v2.4s, v2.4s
	WORD $0x4e21c863 // fcvtas v3.4s, v3.4s
	WORD $0x4e21c884 // fcvtas v4.4s, v4.4s
	WORD $0x4e21c8a5 // fcvtas v5.4s, v5.4s
	WORD $0x4e21c8c6 // fcvtas v6.4s, v6.4s
	WORD $0x4e21c8e7 // fcvtas v7.4s, v7.4s
	CBZ R2, q8_pack
	WORD $0x4ea18410 // add v16.4s, v0.4s, v1.4s
	WORD $0x4ea38451 // add v17.4s, v2.4s, v3.4s
	WORD $0x4ea58492 // add v18.4s, v4.4s, v5.4s
	WORD $0x4ea784d3 // add v19.4s, v6.4s, v7.4s
	WORD $0x4eb18610 // add v16.4s, v16.4s, v17.4s
	WORD $0x4eb38652 // add v18.4s, v18.4s, v19.4s
	WORD $0x4eb28610 // add v16.4s, v16.4s, v18.4s
	WORD $0x4eb1ba10 // addv s16, v16.4s
	FMOVS F16, R9
	MOVW.P R9, 4(R2)

q8_pack:
	WORD $0x0e614800 // sqxtn v0.4h, v0.4s
	WORD $0x4e614820 // sqxtn2 v0.8h, v1.4s
	WORD $0x0e614842 // sqxtn v2.4h, v2.4s
	WORD $0x4e614862 // sqxtn2 v2.8h, v3.4s
	WORD $0x0e614884 // sqxtn v4.4h, v4.4s
	WORD $0x4e6148a4 // sqxtn2 v4.8h, v5.4s
	WORD $0x0e6148c6 // sqxtn v6.4h, v6.4s
	WORD $0x4e6148e6 // sqxtn2 v6.8h, v7.4s
	WORD $0x0e214800 // sqxtn v0.8b, v0.8h
	WORD $0x4e214840 // sqxtn2 v0.16b, v2.8h
	WORD $0x0e214881 // sqxtn v1.8b, v4.8h
	WORD $0x4e2148c1 // sqxtn2 v1.16b, v6.8h
	ADD $2, R1
	VST1.P [V0.B16, V1.B16], 32(R1)
	SUBS $1, R3
	BNE q8_loop

q8_done:
	RET

// func transpose8SIMD(dst, src *float32, stride, kc, ldd int)
// kc is a multiple of 4; stride and ldd are in floats. Per 4 columns, the
// 4×4 blocks of rows 0-3 and 4-7 are transposed with TRN1/TRN2 on 32-bit
// then 64-bit lanes; dst row k gets rows 0-3 then 4-7 of column k.
TEXT ·transpose8SIMD(SB), NOSPLIT, $0-40
	MOVD dst+0(FP), R0
	MOVD src+8(FP), R1
	MOVD stride+16(FP), R2
	MOVD kc+24(FP), R3
	MOVD ldd+32(FP), R4
	LSL $2, R2
	LSL $2, R4
	ADD R2, R1, R5
	ADD R2, R5, R6
	ADD R2, R6, R7
	ADD R2, R7, R8
	ADD R2, R8, R9
	ADD R2, R9, R10
	ADD R2, R10, R11
	LSR $2, R3
	CBZ R3, tr_done

tr_loop:
	VLD1.P 16(R1), [V0.S4]
	VLD1.P 16(R5), [V1.S4]
	VLD1.P 16(R6), [V2.S4]
	VLD1.P 16(R7), [V3.S4]
	VLD1.P 16(R8), [V4.S4]
	VLD1.P 16(R9), [V5.S4]
	VLD1.P 16(R10), [V6.S4]
	VLD1.P 16(R11), [V7.S4]
	WORD $0x4e812810 // trn1 v16.4s, v0.4s, v1.4s
	WORD $0x4e816811 // trn2 v17.4s, v0.4s, v1.4s
	WORD $0x4e832852 // trn1 v18.4s, v2.4s, v3.4s
	WORD $0x4e836853 // trn2 v19.4s, v2.4s, v3.4s
	WORD $0x4e852894 // trn1 v20.4s, v4.4s, v5.4s
	WORD $0x4e856895 // trn2 v21.4s, v4.4s, v5.4s
	WORD $0x4e8728d6 // trn1 v22.4s, v6.4s, v7.4s
	WORD $0x4e8768d7 // trn2 v23.4s, v6.4s, v7.4s
	WORD $0x4ed22a18 // trn1 v24.2d, v16.2d, v18.2d
	WORD $0x4ed62a99 // trn1 v25.2d, v20.2d, v22.2d
	WORD $0x4ed32a3a // trn1 v26.2d, v17.2d, v19.2d
	WORD $0x4ed72abb // trn1 v27.2d, v21.2d, v23.2d
	WORD $0x4ed26a1c // trn2 v28.2d, v16.2d, v18.2d
	WORD $0x4ed66a9d // trn2 v29.2d, v20.2d, v22.2d
	WORD $0x4ed36a3e // trn2 v30.2d, v17.2d, v19.2d
	WORD $0x4ed76abf // trn2 v31.2d, v21.2d, v23.2d
	VST1.P [V24.S4, V25.S4], (R0)(R4)
	VST1.P [V26.S4, V27.S4], (R0)(R4)
	VST1.P [V28.S4, V29.S4], (R0)(R4)
	VST1.P [V30.S4, V31.S4], (R0)(R4)
	SUBS $1, R3
	BNE tr_loop

tr_done:
	RET

// func addSIMD(dst, a, b *float32, n int)
// dst = a + b.
TEXT ·addSIMD(SB), NOSPLIT, $0-32
	MOVD dst+0(FP), R0
	MOVD a+8(FP), R1
	MOVD b+16(FP), R2
	MOVD n+24(FP), R3

add_loop:
	CMP $16, R3
	BLT add_tail
	VLD1.P 64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]
	VLD1.P 64(R2), [V4.S4, V5.S4, V6.S4, V7.S4]
	WORD $0x4e24d400 // fadd v0.4s, v0.4s, v4.4s
	WORD $0x4e25d421 // fadd v1.4s, v1.4s, v5.4s
	WORD $0x4e26d442 // fadd v2.4s, v2.4s, v6.4s
	WORD $0x4e27d463 // fadd v3.4s, v3.4s, v7.4s
	VST1.P [V0.S4, V1.S4, V2.S4, V3.S4], 64(R0)
	SUB $16, R3
	B add_loop

add_tail:
	CBZ R3, add_done
	VLD1.P 16(R1), [V0.S4]
	VLD1.P 16(R2), [V4.S4]
	WORD $0x4e24d400 // fadd v0.4s, v0.4s, v4.4s
	VST1.P [V0.S4], 16(R0)
	SUB $4, R3
	B add_tail

add_done:
	RET

// func mulSIMD(dst, a, b *float32, n int)
// dst = a · b.
TEXT ·mulSIMD(SB), NOSPLIT, $0-32
	MOVD dst+0(FP), R0
	MOVD a+8(FP), R1
	MOVD b+16(FP), R2
	MOVD n+24(FP), R3

mul_loop:
	CMP $16, R3
	BLT mul_tail
	VLD1.P 64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]
	VLD1.P 64(R2), [V4.S4, V5.S4, V6.S4, V7.S4]
	WORD $0x6e24dc00 // fmul v0.4s, v0.4s, v4.4s
	WORD $0x6e25dc21 // fmul v1.4s, v1.4s, v5.4s
	WORD $0x6e26dc42 // fmul v2.4s, v2.4s, v6.4s
	WORD $0x6e27dc63 // fmul v3.4s, v3.4s, v7.4s
	VST1.P [V0.S4, V1.S4, V2.S4, V3.S4], 64(R0)
	SUB $16, R3
	B mul_loop

mul_tail:
	CBZ R3, mul_done
	VLD1.P 16(R1), [V0.S4]
	VLD1.P 16(R2), [V4.S4]
	WORD $0x6e24dc00 // fmul v0.4s, v0.4s, v4.4s
	VST1.P [V0.S4], 16(R0)
	SUB $4, R3
	B mul_tail

mul_done:
	RET

// func scaleSIMD(dst, x *float32, n int, s float32)
TEXT ·scaleSIMD(SB), NOSPLIT, $0-28
	MOVD dst+0(FP), R0
	MOVD x+8(FP), R1
	MOVD n+16(FP), R3
	FMOVS s+24(FP), F16

scale_loop:
	CMP $16, R3
	BLT scale_tail
	VLD1.P 64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]
	WORD $0x4f909000 // fmul v0.4s, v0.4s, v16.s[0]
	WORD $0x4f909021 // fmul v1.4s, v1.4s, v16.s[0]
	WORD $0x4f909042 // fmul v2.4s, v2.4s, v16.s[0]
	WORD $0x4f909063 // fmul v3.4s, v3.4s, v16.s[0]
	VST1.P [V0.S4, V1.S4, V2.S4, V3.S4], 64(R0)
	SUB $16, R3
	B scale_loop

scale_tail:
	CBZ R3, scale_done
	VLD1.P 16(R1), [V0.S4]
	WORD $0x4f909000 // fmul v0.4s, v0.4s, v16.s[0]
	VST1.P [V0.S4], 16(R0)
	SUB $4, R3
	B scale_tail

scale_done:
	RET

// func scaleAddSIMD(dst, x, m *float32, n int, s float32)
// dst = x*s + m, fused (FMLA) as the Go compiler fuses scaleAddGo on arm64.
TEXT ·scaleAddSIMD(SB), NOSPLIT, $0-36
	MOVD dst+0(FP), R0
	MOVD x+8(FP), R1
	MOVD m+16(FP), R2
	MOVD n+24(FP), R3
	FMOVS s+32(FP), F16

scaleadd_loop:
	CMP $16, R3
	BLT scaleadd_tail
	VLD1.P 64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]
	VLD1.P 64(R2), [V4.S4, V5.S4, V6.S4, V7.S4]
	WORD $0x4f901004 // fmla v4.4s, v0.4s, v16.s[0]
	WORD $0x4f901025 // fmla v5.4s, v1.4s, v16.s[0]
	WORD $0x4f901046 // fmla v6.4s, v2.4s, v16.s[0]
	WORD $0x4f901067 // fmla v7.4s, v3.4s, v16.s[0]
	VST1.P [V4.S4, V5.S4, V6.S4, V7.S4], 64(R0)
	SUB $16, R3
	B scaleadd_loop

scaleadd_tail:
	CBZ R3, scaleadd_done
	VLD1.P 16(R1), [V0.S4]
	VLD1.P 16(R2), [V4.S4]
	WORD $0x4f901004 // fmla v4.4s, v0.4s, v16.s[0]
	VST1.P [V4.S4], 16(R0)
	SUB $4, R3
	B scaleadd_tail

scaleadd_done:
	RET

// func sumSqSIMD(x *float32, n int) float32
TEXT ·sumSqSIMD(SB), NOSPLIT, $0-20
	MOVD x+0(FP), R0
	MOVD n+8(FP), R2
	VEOR V0.B16, V0.B16, V0.B16
	VEOR V1.B16, V1.B16, V1.B16
	VEOR V2.B16, V2.B16, V2.B16
	VEOR V3.B16, V3.B16, V3.B16
	CMP $16, R2
	BLT sumsq_tail

sumsq_loop:
	VLD1.P 64(R0), [V4.S4, V5.S4, V6.S4, V7.S4]
	VFMLA V4.S4, V4.S4, V0.S4
	VFMLA V5.S4, V5.S4, V1.S4
	VFMLA V6.S4, V6.S4, V2.S4
	VFMLA V7.S4, V7.S4, V3.S4
	SUB $16, R2
	CMP $16, R2
	BGE sumsq_loop

sumsq_tail:
	CBZ R2, sumsq_done
	VLD1.P 16(R0), [V4.S4]
	VFMLA V4.S4, V4.S4, V0.S4
	SUB $4, R2
	B sumsq_tail

sumsq_done:
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x4e22d400 // fadd v0.4s, v0.4s, v2.4s
	WORD $0x6e20d400 // faddp v0.4s, v0.4s, v0.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	FMOVS F0, ret+16(FP)
	RET

// func maxSIMD(x *float32, n int) float32
// n >= 4. FMAX gives NaN when either operand is NaN, as Go's max.
TEXT ·maxSIMD(SB), NOSPLIT, $0-20
	MOVD x+0(FP), R0
	MOVD n+8(FP), R2
	VLD1.P 16(R0), [V0.S4]
	SUB $4, R2

max_loop:
	CBZ R2, max_done
	VLD1.P 16(R0), [V1.S4]
	WORD $0x4e21f400 // fmax v0.4s, v0.4s, v1.4s
	SUB $4, R2
	B max_loop

max_done:
	WORD $0x6e30f800 // fmaxv s0, v0.4s
	FMOVS F0, ret+16(FP)
	RET

// Constants of the exp approximation (Cephes' expf, as the amd64 kernels):
// lo = ln(FLT_MIN), hi, log2(e), 0.5, ln2 split in C1 + C2, the polynomial
// P0-P5, 1, and the int exponent bias 127. EXPCONSTS broadcasts them into
// V16-V29.
DATA expConsts<>+0(SB)/4, $0xc2aeac50
DATA expConsts<>+4(SB)/4, $0x42b17218
DATA expConsts<>+8(SB)/4, $0x3fb8aa3b
DATA expConsts<>+12(SB)/4, $0x3f000000
DATA expConsts<>+16(SB)/4, $0x3f318000
DATA expConsts<>+20(SB)/4, $0xb95e8083
DATA expConsts<>+24(SB)/4, $0x39506967
DATA expConsts<>+28(SB)/4, $0x3ab743ce
DATA expConsts<>+32(SB)/4, $0x3c088908
DATA expConsts<>+36(SB)/4, $0x3d2aa9c1
DATA expConsts<>+40(SB)/4, $0x3e2aaaaa
DATA expConsts<>+44(SB)/4, $0x3f000000
DATA expConsts<>+48(SB)/4, $0x3f800000
DATA expConsts<>+52(SB)/4, $0x0000007f
GLOBL expConsts<>(SB), RODATA|NOPTR, $56

#define EXPCONSTS \
	MOVD $expConsts<>(SB), R9 \
	VLD1R.P 4(R9), [V16.S4] \
	VLD1R.P 4(R9), [V17.S4] \
	VLD1R.P 4(R9), [V18.S4] \
	VLD1R.P 4(R9), [V19.S4] \
	VLD1R.P 4(R9), [V20.S4] \
	VLD1R.P 4(R9), [V21.S4] \
	VLD1R.P 4(R9), [V22.S4] \
	VLD1R.P 4(R9), [V23.S4] \
	VLD1R.P 4(R9), [V24.S4] \
	VLD1R.P 4(R9), [V25.S4] \
	VLD1R.P 4(R9), [V26.S4] \
	VLD1R.P 4(R9), [V27.S4] \
	VLD1R.P 4(R9), [V28.S4] \
	VLD1R.P 4(R9), [V29.S4]

// The exp steps below (in expSubSIMD and siluSIMD) set V0 to exp(V0) for 4
// lanes: n = floor(x·log2e + 0.5), r = x - n·ln2, 2^n·(1 + r + r²·P(r)).
// Lanes below lo, and NaN lanes, give 0; lanes above ~88.38 (a little
// early) give +Inf. They clobber V1-V5.

// func expSubSIMD(dst, x *float32, n int, m float32) float32
// dst = exp(x - m); returns the sum of dst.
TEXT ·expSubSIMD(SB), NOSPLIT, $0-36
	MOVD dst+0(FP), R0
	MOVD x+8(FP), R1
	MOVD n+16(FP), R2
	FMOVS m+24(FP), F30
	EXPCONSTS
	VEOR V31.B16, V31.B16, V31.B16
	VDUP V30.S[0], V30.S4
	CBZ R2, expsub_done

expsub_loop:
	VLD1.P 16(R1), [V0.S4]
	WORD $0x4ebed400 // fsub v0.4s, v0.4s, v30.4s
	WORD $0x6e30e403 // fcmge v3.4s, v0.4s, v16.4s
	WORD $0x4eb1f400 // fmin v0.4s, v0.4s, v17.4s
	WORD $0x4e30f400 // fmax v0.4s, v0.4s, v16.4s
	WORD $0x4eb31e61 // mov v1.16b, v19.16b
	WORD $0x4e32cc01 // fmla v1.4s, v0.4s, v18.4s
	WORD $0x4e21b821 // fcvtms v1.4s, v1.4s
	WORD $0x4e21d822 // scvtf v2.4s, v1.4s
	WORD $0x4eb4cc40 // fmls v0.4s, v2.4s, v20.4s
	WORD $0x4eb5cc40 // fmls v0.4s, v2.4s, v21.4s
	WORD $0x4eb71ee4 // mov v4.16b, v23.16b
	WORD $0x4e20cec4 // fmla v4.4s, v22.4s, v0.4s
	WORD $0x4eb81f05 // mov v5.16b, v24.16b
	WORD $0x4e20cc85 // fmla v5.4s, v4.4s, v0.4s
	WORD $0x4eb91f24 // mov v4.16b, v25.16b
	WORD $0x4e20cca4 // fmla v4.4s, v5.4s, v0.4s
	WORD $0x4eba1f45 // mov v5.16b, v26.16b
	WORD $0x4e20cc85 // fmla v5.4s, v4.4s, v0.4s
	WORD $0x4ebb1f64 // mov v4.16b, v27.16b
	WORD $0x4e20cca4 // fmla v4.4s, v5.4s, v0.4s
	WORD $0x6e20dc84 // fmul v4.4s, v4.4s, v0.4s
	WORD $0x4ea01c05 // mov v5.16b, v0.16b
	WORD $0x4e20cc85 // fmla v5.4s, v4.4s, v0.4s
	WORD $0x4e3cd4a5 // fadd v5.4s, v5.4s, v28.4s
	WORD $0x4ebd8421 // add v1.4s, v1.4s, v29.4s
	WORD $0x4f375421 // shl v1.4s, v1.4s, #23
	WORD $0x6e21dca0 // fmul v0.4s, v5.4s, v1.4s
	WORD $0x4e231c00 // and v0.16b, v0.16b, v3.16b
	VST1.P [V0.S4], 16(R0)
	WORD $0x4e20d7ff // fadd v31.4s, v31.4s, v0.4s
	SUBS $4, R2
	BNE expsub_loop

expsub_done:
	WORD $0x6e3fd7ff // faddp v31.4s, v31.4s, v31.4s
	WORD $0x7e30dbe0 // faddp s0, v31.2s
	FMOVS F0, ret+32(FP)
	RET

// func siluSIMD(dst, x *float32, n int)
// dst = x / (1 + exp(-x)).
TEXT ·siluSIMD(SB), NOSPLIT, $0-24
	MOVD dst+0(FP), R0
	MOVD x+8(FP), R1
	MOVD n+16(FP), R2
	EXPCONSTS
	CBZ R2, silu_done

silu_loop:
	VLD1.P 16(R1), [V6.S4]
	WORD $0x6ea0f8c0 // fneg v0.4s, v6.4s
	WORD $0x6e30e403 // fcmge v3.4s, v0.4s, v16.4s
	WORD $0x4eb1f400 // fmin v0.4s, v0.4s, v17.4s
	WORD $0x4e30f400 // fmax v0.4s, v0.4s, v16.4s
	WORD $0x4eb31e61 // mov v1.16b, v19.16b
	WORD $0x4e32cc01 // fmla v1.4s, v0.4s, v18.4s
	WORD $0x4e21b821 // fcvtms v1.4s, v1.4s
	WORD $0x4e21d822 // scvtf v2.4s, v1.4s
	WORD $0x4eb4cc40 // fmls v0.4s, v2.4s, v20.4s
	WORD $0x4eb5cc40 // fmls v0.4s, v2.4s, v21.4s
	WORD $0x4eb71ee4 // mov v4.16b, v23.16b
	WORD $0x4e20cec4 // fmla v4.4s, v22.4s, v0.4s
	WORD $0x4eb81f05 // mov v5.16b, v24.16b
	WORD $0x4e20cc85 // fmla v5.4s, v4.4s, v0.4s
	WORD $0x4eb91f24 // mov v4.16b, v25.16b
	WORD $0x4e20cca4 // fmla v4.4s, v5.4s, v0.4s
	WORD $0x4eba1f45 // mov v5.16b, v26.16b
	WORD $0x4e20cc85 // fmla v5.4s, v4.4s, v0.4s
	WORD $0x4ebb1f64 // mov v4.16b, v27.16b
	WORD $0x4e20cca4 // fmla v4.4s, v5.4s, v0.4s
	WORD $0x6e20dc84 // fmul v4.4s, v4.4s, v0.4s
	WORD $0x4ea01c05 // mov v5.16b, v0.16b
	WORD $0x4e20cc85 // fmla v5.4s, v4.4s, v0.4s
	WORD $0x4e3cd4a5 // fadd v5.4s, v5.4s, v28.4s
	WORD $0x4ebd8421 // add v1.4s, v1.4s, v29.4s
	WORD $0x4f375421 // shl v1.4s, v1.4s, #23
	WORD $0x6e21dca0 // fmul v0.4s, v5.4s, v1.4s
	WORD $0x4e231c00 // and v0.16b, v0.16b, v3.16b
	WORD $0x4e3cd400 // fadd v0.4s, v0.4s, v28.4s
	WORD $0x6e20fcc6 // fdiv v6.4s, v6.4s, v0.4s
	VST1.P [V6.S4], 16(R0)
	SUBS $4, R2
	BNE silu_loop

silu_done:
	RET

// func ropeNormSIMD(dst, x, cs, sn *float32, n int)
// dst = x*cs + swap(x)*sn, where swap (REV64) exchanges the elements of
// each pair.
TEXT ·ropeNormSIMD(SB), NOSPLIT, $0-40
	MOVD dst+0(FP), R0
	MOVD x+8(FP), R1
	MOVD cs+16(FP), R2
	MOVD sn+24(FP), R3
	MOVD n+32(FP), R4
	CBZ R4, ropen_done

ropen_loop:
	VLD1.P 16(R1), [V0.S4]
	VLD1.P 16(R2), [V2.S4]
	VLD1.P 16(R3), [V3.S4]
	VREV64 V0.S4, V1.S4
	WORD $0x6e22dc04 // fmul v4.4s, v0.4s, v2.4s
	WORD $0x4e23cc24 // fmla v4.4s, v1.4s, v3.4s
	VST1.P [V4.S4], 16(R0)
	SUBS $4, R4
	BNE ropen_loop

ropen_done:
	RET

// func ropeNeoxSIMD(d0, d1, x0, x1, c, s *float32, n int)
// d0 = x0*c - x1*s; d1 = x1*c + x0*s.
TEXT ·ropeNeoxSIMD(SB), NOSPLIT, $0-56
	MOVD d0+0(FP), R0
	MOVD d1+8(FP), R1
	MOVD x0+16(FP), R2
	MOVD x1+24(FP), R3
	MOVD c+32(FP), R4
	MOVD s+40(FP), R5
	MOVD n+48(FP), R6
	CBZ R6, ropex_done

ropex_loop:
	VLD1.P 16(R2), [V0.S4]
	VLD1.P 16(R3), [V1.S4]
	VLD1.P 16(R4), [V2.S4]
	VLD1.P 16(R5), [V3.S4]
	WORD $0x6e22dc04 // fmul v4.4s, v0.4s, v2.4s
	WORD $0x4ea3cc24 // fmls v4.4s, v1.4s, v3.4s
	WORD $0x6e22dc25 // fmul v5.4s, v1.4s, v2.4s
	WORD $0x4e23cc05 // fmla v5.4s, v0.4s, v3.4s
	VST1.P [V4.S4], 16(R0)
	VST1.P [V5.S4], 16(R1)
	SUBS $4, R6
	BNE ropex_loop

ropex_done:
	RET
