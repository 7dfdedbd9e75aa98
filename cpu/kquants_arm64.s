//go:build arm64 && !purego

#include "textflag.h"

// NEON kernels for the weight types of kquants.go, ARMv8.0 baseline: the
// Q8_K activation quantizer, and the integer dots of each type with its
// vec_dot_type. The weight quants are unpacked to bytes (the IQ4/MXFP4
// levels by TBL), multiplied with the activations by SMULL/SMULL2 into
// 16-bit sums (at most 4 products of |q| <= 63 and |y| <= 127; the 8-bit
// levels pair-wise into 32 bits by SADDLP/SADALP), weighted by their
// sub-block scales with SMLAL/MLA by element into int32, and the offsets
// (the mins) applied through the activations' 16-value sums (bsums). The
// bodies are WORD-encoded (Go's assembler lacks most of these
// instructions); each line's comment is the instruction. Registers: x0
// weights, x1 activation quants, x2 activation scales, x3 bsums (or the
// Q8 block sums), x4 blocks.

// func dotQ4KNEON(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32
TEXT ·dotQ4KNEON(SB), NOSPLIT, $0-44
	MOVD w+0(FP), R0
	MOVD qs+8(FP), R1
	MOVD qd+16(FP), R2
	MOVD bsums+24(FP), R3
	MOVD nb+32(FP), R4
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0xb4000ee4 // cbz x4, 0x1e8
	WORD $0xb9400405 // ldr w5, [x0, #4]
	WORD $0xb9400806 // ldr w6, [x0, #8]
	WORD $0xb9400c07 // ldr w7, [x0, #12]
	WORD $0x53047ce8 // lsr w8, w7, #4
	WORD $0x1200cd08 // and w8, w8, #0xf0f0f0f
	WORD $0x53067cc9 // lsr w9, w6, #6
	WORD $0x1200c529 // and w9, w9, #0x3030303
	WORD $0x2a091108 // orr w8, w8, w9, lsl #4
	WORD $0x1200d4ca // and w10, w6, #0x3f3f3f3f
	WORD $0x1200cceb // and w11, w7, #0xf0f0f0f
	WORD $0x53067ca9 // lsr w9, w5, #6
	WORD $0x1200c529 // and w9, w9, #0x3030303
	WORD $0x2a09116b // orr w11, w11, w9, lsl #4
	WORD $0x1200d4a5 // and w5, w5, #0x3f3f3f3f
	WORD $0x1e2700af // fmov s15, w5
	WORD $0x4e0c1d6f // mov v15.s[1], w11
	WORD $0x2f08a5ef // ushll v15.8h, v15.8b, #0
	WORD $0x1e270154 // fmov s20, w10
	WORD $0x4e0c1d14 // mov v20.s[1], w8
	WORD $0x2f08a694 // ushll v20.8h, v20.8b, #0
	WORD $0x4cdfa475 // ld1 { v21.8h, v22.8h }, [x3], #32
	WORD $0x4e76beb5 // addp v21.8h, v21.8h, v22.8h
	WORD $0x0e75c297 // smull v23.4s, v20.4h, v21.4h
	WORD $0x4e758297 // smlal2 v23.4s, v20.8h, v21.8h
	WORD $0x4e21daf7 // scvtf v23.4s, v23.4s
	WORD $0xbc404459 // ldr s25, [x2], #4
	WORD $0x7d400418 // ldr h24, [x0, #2]
	WORD $0x1ee24318 // fcvt s24, h24
	WORD $0x1e390b18 // fmul s24, s24, s25
	WORD $0x4f9812e1 // fmla v1.4s, v23.4s, v24.s[0]
	WORD $0x7d40001a // ldr h26, [x0]
	WORD $0x1ee2435a // fcvt s26, h26
	WORD $0x1e390b5a // fmul s26, s26, s25
	WORD $0x4f00e41f // movi v31.16b, #0
	WORD $0x91004009 // add x9, x0, #16
	WORD $0x4cdf2122 // ld1 { v2.16b, v3.16b, v4.16b, v5.16b }, [x9], #64
	WORD $0x4e3e1c46 // and v6.16b, v2.16b, v30.16b
	WORD $0x4e3e1c67 // and v7.16b, v3.16b, v30.16b
	WORD $0x6f0c0448 // ushr v8.16b, v2.16b, #4
	WORD $0x6f0c0469 // ushr v9.16b, v3.16b, #4
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x0e30c0ca // smull v10.8h, v6.8b, v16.8b
	WORD $0x4e30c0cb // smull2 v11.8h, v6.16b, v16.16b
	WORD $0x0e3180ea // smlal v10.8h, v7.8b, v17.8b
	WORD $0x4e3180eb // smlal2 v11.8h, v7.16b, v17.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f4f215f // smlal v31.4s, v10.4h, v15.h[0]
	WORD $0x4f4f215f // smlal2 v31.4s, v10.8h, v15.h[0]
	WORD $0x0e32c10a // smull v10.8h, v8.8b, v18.8b
	WORD $0x4e32c10b // smull2 v11.8h, v8.16b, v18.16b
	WORD $0x0e33812a // smlal v10.8h, v9.8b, v19.8b
	WORD $0x4e33812b // smlal2 v11.8h, v9.16b, v19.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f5f215f // smlal v31.4s, v10.4h, v15.h[1]
	WORD $0x4f5f215f // smlal2 v31.4s, v10.8h, v15.h[1]
	WORD $0x4e3e1c86 // and v6.16b, v4.16b, v30.16b
	WORD $0x4e3e1ca7 // and v7.16b, v5.16b, v30.16b
	WORD $0x6f0c0488 // ushr v8.16b, v4.16b, #4
	WORD $0x6f0c04a9 // ushr v9.16b, v5.16b, #4
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x0e30c0ca // smull v10.8h, v6.8b, v16.8b
	WORD $0x4e30c0cb // smull2 v11.8h, v6.16b, v16.16b
	WORD $0x0e3180ea // smlal v10.8h, v7.8b, v17.8b
	WORD $0x4e3180eb // smlal2 v11.8h, v7.16b, v17.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f6f215f // smlal v31.4s, v10.4h, v15.h[2]
	WORD $0x4f6f215f // smlal2 v31.4s, v10.8h, v15.h[2]
	WORD $0x0e32c10a // smull v10.8h, v8.8b, v18.8b
	WORD $0x4e32c10b // smull2 v11.8h, v8.16b, v18.16b
	WORD $0x0e33812a // smlal v10.8h, v9.8b, v19.8b
	WORD $0x4e33812b // smlal2 v11.8h, v9.16b, v19.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f7f215f // smlal v31.4s, v10.4h, v15.h[3]
	WORD $0x4f7f215f // smlal2 v31.4s, v10.8h, v15.h[3]
	WORD $0x4cdf2122 // ld1 { v2.16b, v3.16b, v4.16b, v5.16b }, [x9], #64
	WORD $0x4e3e1c46 // and v6.16b, v2.16b, v30.16b
	WORD $0x4e3e1c67 // and v7.16b, v3.16b, v30.16b
	WORD $0x6f0c0448 // ushr v8.16b, v2.16b, #4
	WORD $0x6f0c0469 // ushr v9.16b, v3.16b, #4
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x0e30c0ca // smull v10.8h, v6.8b, v16.8b
	WORD $0x4e30c0cb // smull2 v11.8h, v6.16b, v16.16b
	WORD $0x0e3180ea // smlal v10.8h, v7.8b, v17.8b
	WORD $0x4e3180eb // smlal2 v11.8h, v7.16b, v17.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f4f295f // smlal v31.4s, v10.4h, v15.h[4]
	WORD $0x4f4f295f // smlal2 v31.4s, v10.8h, v15.h[4]
	WORD $0x0e32c10a // smull v10.8h, v8.8b, v18.8b
	WORD $0x4e32c10b // smull2 v11.8h, v8.16b, v18.16b
	WORD $0x0e33812a // smlal v10.8h, v9.8b, v19.8b
	WORD $0x4e33812b // smlal2 v11.8h, v9.16b, v19.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f5f295f // smlal v31.4s, v10.4h, v15.h[5]
	WORD $0x4f5f295f // smlal2 v31.4s, v10.8h, v15.h[5]
	WORD $0x4e3e1c86 // and v6.16b, v4.16b, v30.16b
	WORD $0x4e3e1ca7 // and v7.16b, v5.16b, v30.16b
	WORD $0x6f0c0488 // ushr v8.16b, v4.16b, #4
	WORD $0x6f0c04a9 // ushr v9.16b, v5.16b, #4
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x0e30c0ca // smull v10.8h, v6.8b, v16.8b
	WORD $0x4e30c0cb // smull2 v11.8h, v6.16b, v16.16b
	WORD $0x0e3180ea // smlal v10.8h, v7.8b, v17.8b
	WORD $0x4e3180eb // smlal2 v11.8h, v7.16b, v17.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f6f295f // smlal v31.4s, v10.4h, v15.h[6]
	WORD $0x4f6f295f // smlal2 v31.4s, v10.8h, v15.h[6]
	WORD $0x0e32c10a // smull v10.8h, v8.8b, v18.8b
	WORD $0x4e32c10b // smull2 v11.8h, v8.16b, v18.16b
	WORD $0x0e33812a // smlal v10.8h, v9.8b, v19.8b
	WORD $0x4e33812b // smlal2 v11.8h, v9.16b, v19.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f7f295f // smlal v31.4s, v10.4h, v15.h[7]
	WORD $0x4f7f295f // smlal2 v31.4s, v10.8h, v15.h[7]
	WORD $0x4e21dbff // scvtf v31.4s, v31.4s
	WORD $0x4f9a13e0 // fmla v0.4s, v31.4s, v26.s[0]
	WORD $0x91024000 // add x0, x0, #144
	WORD $0xf1000484 // subs x4, x4, #1
	WORD $0x54fff161 // b.ne 0x10
	WORD $0x4ea1d400 // fsub v0.4s, v0.4s, v1.4s
	WORD $0x6e20d400 // faddp v0.4s, v0.4s, v0.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	FMOVS F0, ret+40(FP)
	RET

// func dotQ5KNEON(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32
TEXT ·dotQ5KNEON(SB), NOSPLIT, $0-44
	MOVD w+0(FP), R0
	MOVD qs+8(FP), R1
	MOVD qd+16(FP), R2
	MOVD bsums+24(FP), R3
	MOVD nb+32(FP), R4
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0xb40014e4 // cbz x4, 0x2a8
	WORD $0x4f00e61d // movi v29.16b, #16
	WORD $0xb9400405 // ldr w5, [x0, #4]
	WORD $0xb9400806 // ldr w6, [x0, #8]
	WORD $0xb9400c07 // ldr w7, [x0, #12]
	WORD $0x53047ce8 // lsr w8, w7, #4
	WORD $0x1200cd08 // and w8, w8, #0xf0f0f0f
	WORD $0x53067cc9 // lsr w9, w6, #6
	WORD $0x1200c529 // and w9, w9, #0x3030303
	WORD $0x2a091108 // orr w8, w8, w9, lsl #4
	WORD $0x1200d4ca // and w10, w6, #0x3f3f3f3f
	WORD $0x1200cceb // and w11, w7, #0xf0f0f0f
	WORD $0x53067ca9 // lsr w9, w5, #6
	WORD $0x1200c529 // and w9, w9, #0x3030303
	WORD $0x2a09116b // orr w11, w11, w9, lsl #4
	WORD $0x1200d4a5 // and w5, w5, #0x3f3f3f3f
	WORD $0x1e2700af // fmov s15, w5
	WORD $0x4e0c1d6f // mov v15.s[1], w11
	WORD $0x2f08a5ef // ushll v15.8h, v15.8b, #0
	WORD $0x1e270154 // fmov s20, w10
	WORD $0x4e0c1d14 // mov v20.s[1], w8
	WORD $0x2f08a694 // ushll v20.8h, v20.8b, #0
	WORD $0x4cdfa475 // ld1 { v21.8h, v22.8h }, [x3], #32
	WORD $0x4e76beb5 // addp v21.8h, v21.8h, v22.8h
	WORD $0x0e75c297 // smull v23.4s, v20.4h, v21.4h
	WORD $0x4e758297 // smlal2 v23.4s, v20.8h, v21.8h
	WORD $0x4e21daf7 // scvtf v23.4s, v23.4s
	WORD $0xbc404459 // ldr s25, [x2], #4
	WORD $0x7d400418 // ldr h24, [x0, #2]
	WORD $0x1ee24318 // fcvt s24, h24
	WORD $0x1e390b18 // fmul s24, s24, s25
	WORD $0x4f9812e1 // fmla v1.4s, v23.4s, v24.s[0]
	WORD $0x7d40001a // ldr h26, [x0]
	WORD $0x1ee2435a // fcvt s26, h26
	WORD $0x1e390b5a // fmul s26, s26, s25
	WORD $0x4f00e41f // movi v31.16b, #0
	WORD $0xad40b40c // ldp q12, q13, [x0, #16]
	WORD $0x9100c009 // add x9, x0, #48
	WORD $0x4cdf2122 // ld1 { v2.16b, v3.16b, v4.16b, v5.16b }, [x9], #64
	WORD $0x4e3e1c46 // and v6.16b, v2.16b, v30.16b
	WORD $0x4e3e1c67 // and v7.16b, v3.16b, v30.16b
	WORD $0x6f0c0448 // ushr v8.16b, v2.16b, #4
	WORD $0x6f0c0469 // ushr v9.16b, v3.16b, #4
	WORD $0x4f0c559b // shl v27.16b, v12.16b, #4
	WORD $0x4e3d1f7b // and v27.16b, v27.16b, v29.16b
	WORD $0x4ebb1cc6 // orr v6.16b, v6.16b, v27.16b
	WORD $0x4f0c55bc // shl v28.16b, v13.16b, #4
	WORD $0x4e3d1f9c // and v28.16b, v28.16b, v29.16b
	WORD $0x4ebc1ce7 // orr v7.16b, v7.16b, v28.16b
	WORD $0x4f0b559b // shl v27.16b, v12.16b, #3
	WORD $0x4e3d1f7b // and v27.16b, v27.16b, v29.16b
	WORD $0x4ebb1d08 // orr v8.16b, v8.16b, v27.16b
	WORD $0x4f0b55bc // shl v28.16b, v13.16b, #3
	WORD $0x4e3d1f9c // and v28.16b, v28.16b, v29.16b
	WORD $0x4ebc1d29 // orr v9.16b, v9.16b, v28.16b
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x0e30c0ca // smull v10.8h, v6.8b, v16.8b
	WORD $0x4e30c0cb // smull2 v11.8h, v6.16b, v16.16b
	WORD $0x0e3180ea // smlal v10.8h, v7.8b, v17.8b
	WORD $0x4e3180eb // smlal2 v11.8h, v7.16b, v17.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f4f215f // smlal v31.4s, v10.4h, v15.h[0]
	WORD $0x4f4f215f // smlal2 v31.4s, v10.8h, v15.h[0]
	WORD $0x0e32c10a // smull v10.8h, v8.8b, v18.8b
	WORD $0x4e32c10b // smull2 v11.8h, v8.16b, v18.16b
	WORD $0x0e33812a // smlal v10.8h, v9.8b, v19.8b
	WORD $0x4e33812b // smlal2 v11.8h, v9.16b, v19.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f5f215f // smlal v31.4s, v10.4h, v15.h[1]
	WORD $0x4f5f215f // smlal2 v31.4s, v10.8h, v15.h[1]
	WORD $0x4e3e1c86 // and v6.16b, v4.16b, v30.16b
	WORD $0x4e3e1ca7 // and v7.16b, v5.16b, v30.16b
	WORD $0x6f0c0488 // ushr v8.16b, v4.16b, #4
	WORD $0x6f0c04a9 // ushr v9.16b, v5.16b, #4
	WORD $0x4f0a559b // shl v27.16b, v12.16b, #2
	WORD $0x4e3d1f7b // and v27.16b, v27.16b, v29.16b
	WORD $0x4ebb1cc6 // orr v6.16b, v6.16b, v27.16b
	WORD $0x4f0a55bc // shl v28.16b, v13.16b, #2
	WORD $0x4e3d1f9c // and v28.16b, v28.16b, v29.16b
	WORD $0x4ebc1ce7 // orr v7.16b, v7.16b, v28.16b
	WORD $0x4f09559b // shl v27.16b, v12.16b, #1
	WORD $0x4e3d1f7b // and v27.16b, v27.16b, v29.16b
	WORD $0x4ebb1d08 // orr v8.16b, v8.16b, v27.16b
	WORD $0x4f0955bc // shl v28.16b, v13.16b, #1
	WORD $0x4e3d1f9c // and v28.16b, v28.16b, v29.16b
	WORD $0x4ebc1d29 // orr v9.16b, v9.16b, v28.16b
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x0e30c0ca // smull v10.8h, v6.8b, v16.8b
	WORD $0x4e30c0cb // smull2 v11.8h, v6.16b, v16.16b
	WORD $0x0e3180ea // smlal v10.8h, v7.8b, v17.8b
	WORD $0x4e3180eb // smlal2 v11.8h, v7.16b, v17.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f6f215f // smlal v31.4s, v10.4h, v15.h[2]
	WORD $0x4f6f215f // smlal2 v31.4s, v10.8h, v15.h[2]
	WORD $0x0e32c10a // smull v10.8h, v8.8b, v18.8b
	WORD $0x4e32c10b // smull2 v11.8h, v8.16b, v18.16b
	WORD $0x0e33812a // smlal v10.8h, v9.8b, v19.8b
	WORD $0x4e33812b // smlal2 v11.8h, v9.16b, v19.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f7f215f // smlal v31.4s, v10.4h, v15.h[3]
	WORD $0x4f7f215f // smlal2 v31.4s, v10.8h, v15.h[3]
	WORD $0x4cdf2122 // ld1 { v2.16b, v3.16b, v4.16b, v5.16b }, [x9], #64
	WORD $0x4e3e1c46 // and v6.16b, v2.16b, v30.16b
	WORD $0x4e3e1c67 // and v7.16b, v3.16b, v30.16b
	WORD $0x6f0c0448 // ushr v8.16b, v2.16b, #4
	WORD $0x6f0c0469 // ushr v9.16b, v3.16b, #4
	WORD $0x4e3d1d9b // and v27.16b, v12.16b, v29.16b
	WORD $0x4ebb1cc6 // orr v6.16b, v6.16b, v27.16b
	WORD $0x4e3d1dbc // and v28.16b, v13.16b, v29.16b
	WORD $0x4ebc1ce7 // orr v7.16b, v7.16b, v28.16b
	WORD $0x6f0f059b // ushr v27.16b, v12.16b, #1
	WORD $0x4e3d1f7b // and v27.16b, v27.16b, v29.16b
	WORD $0x4ebb1d08 // orr v8.16b, v8.16b, v27.16b
	WORD $0x6f0f05bc // ushr v28.16b, v13.16b, #1
	WORD $0x4e3d1f9c // and v28.16b, v28.16b, v29.16b
	WORD $0x4ebc1d29 // orr v9.16b, v9.16b, v28.16b
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x0e30c0ca // smull v10.8h, v6.8b, v16.8b
	WORD $0x4e30c0cb // smull2 v11.8h, v6.16b, v16.16b
	WORD $0x0e3180ea // smlal v10.8h, v7.8b, v17.8b
	WORD $0x4e3180eb // smlal2 v11.8h, v7.16b, v17.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f4f295f // smlal v31.4s, v10.4h, v15.h[4]
	WORD $0x4f4f295f // smlal2 v31.4s, v10.8h, v15.h[4]
	WORD $0x0e32c10a // smull v10.8h, v8.8b, v18.8b
	WORD $0x4e32c10b // smull2 v11.8h, v8.16b, v18.16b
	WORD $0x0e33812a // smlal v10.8h, v9.8b, v19.8b
	WORD $0x4e33812b // smlal2 v11.8h, v9.16b, v19.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f5f295f // smlal v31.4s, v10.4h, v15.h[5]
	WORD $0x4f5f295f // smlal2 v31.4s, v10.8h, v15.h[5]
	WORD $0x4e3e1c86 // and v6.16b, v4.16b, v30.16b
	WORD $0x4e3e1ca7 // and v7.16b, v5.16b, v30.16b
	WORD $0x6f0c0488 // ushr v8.16b, v4.16b, #4
	WORD $0x6f0c04a9 // ushr v9.16b, v5.16b, #4
	WORD $0x6f0e059b // ushr v27.16b, v12.16b, #2
	WORD $0x4e3d1f7b // and v27.16b, v27.16b, v29.16b
	WORD $0x4ebb1cc6 // orr v6.16b, v6.16b, v27.16b
	WORD $0x6f0e05bc // ushr v28.16b, v13.16b, #2
	WORD $0x4e3d1f9c // and v28.16b, v28.16b, v29.16b
	WORD $0x4ebc1ce7 // orr v7.16b, v7.16b, v28.16b
	WORD $0x6f0d059b // ushr v27.16b, v12.16b, #3
	WORD $0x4e3d1f7b // and v27.16b, v27.16b, v29.16b
	WORD $0x4ebb1d08 // orr v8.16b, v8.16b, v27.16b
	WORD $0x6f0d05bc // ushr v28.16b, v13.16b, #3
	WORD $0x4e3d1f9c // and v28.16b, v28.16b, v29.16b
	WORD $0x4ebc1d29 // orr v9.16b, v9.16b, v28.16b
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x0e30c0ca // smull v10.8h, v6.8b, v16.8b
	WORD $0x4e30c0cb // smull2 v11.8h, v6.16b, v16.16b
	WORD $0x0e3180ea // smlal v10.8h, v7.8b, v17.8b
	WORD $0x4e3180eb // smlal2 v11.8h, v7.16b, v17.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f6f295f // smlal v31.4s, v10.4h, v15.h[6]
	WORD $0x4f6f295f // smlal2 v31.4s, v10.8h, v15.h[6]
	WORD $0x0e32c10a // smull v10.8h, v8.8b, v18.8b
	WORD $0x4e32c10b // smull2 v11.8h, v8.16b, v18.16b
	WORD $0x0e33812a // smlal v10.8h, v9.8b, v19.8b
	WORD $0x4e33812b // smlal2 v11.8h, v9.16b, v19.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f7f295f // smlal v31.4s, v10.4h, v15.h[7]
	WORD $0x4f7f295f // smlal2 v31.4s, v10.8h, v15.h[7]
	WORD $0x4e21dbff // scvtf v31.4s, v31.4s
	WORD $0x4f9a13e0 // fmla v0.4s, v31.4s, v26.s[0]
	WORD $0x9102c000 // add x0, x0, #176
	WORD $0xf1000484 // subs x4, x4, #1
	WORD $0x54ffeb81 // b.ne 0x14
	WORD $0x4ea1d400 // fsub v0.4s, v0.4s, v1.4s
	WORD $0x6e20d400 // faddp v0.4s, v0.4s, v0.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	FMOVS F0, ret+40(FP)
	RET

// func dotQ6KNEON(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32
TEXT ·dotQ6KNEON(SB), NOSPLIT, $0-44
	MOVD w+0(FP), R0
	MOVD qs+8(FP), R1
	MOVD qd+16(FP), R2
	MOVD bsums+24(FP), R3
	MOVD nb+32(FP), R4
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0xb40016c4 // cbz x4, 0x2e4
	WORD $0x4f01e61d // movi v29.16b, #48
	WORD $0x4f01e41c // movi v28.16b, #32
	WORD $0x3dc0300e // ldr q14, [x0, #192]
	WORD $0x4f08a5cf // sshll2 v15.8h, v14.16b, #0
	WORD $0x0f08a5ce // sshll v14.8h, v14.8b, #0
	WORD $0xbc404459 // ldr s25, [x2], #4
	WORD $0x7d41a01a // ldr h26, [x0, #208]
	WORD $0x1ee2435a // fcvt s26, h26
	WORD $0x1e390b5a // fmul s26, s26, s25
	WORD $0x91008063 // add x3, x3, #32
	WORD $0x4f00e41f // movi v31.16b, #0
	WORD $0xaa0003e9 // mov x9, x0
	WORD $0x4cdf2122 // ld1 { v2.16b, v3.16b, v4.16b, v5.16b }, [x9], #64
	WORD $0xad441c06 // ldp q6, q7, [x0, #128]
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x4e3e1c48 // and v8.16b, v2.16b, v30.16b
	WORD $0x4f0c54d4 // shl v20.16b, v6.16b, #4
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d08 // orr v8.16b, v8.16b, v20.16b
	WORD $0x6e3c8508 // sub v8.16b, v8.16b, v28.16b
	WORD $0x4e3e1c69 // and v9.16b, v3.16b, v30.16b
	WORD $0x4f0c54f4 // shl v20.16b, v7.16b, #4
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d29 // orr v9.16b, v9.16b, v20.16b
	WORD $0x6e3c8529 // sub v9.16b, v9.16b, v28.16b
	WORD $0x0e30c10a // smull v10.8h, v8.8b, v16.8b
	WORD $0x4e30c10b // smull2 v11.8h, v8.16b, v16.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f4e215f // smlal v31.4s, v10.4h, v14.h[0]
	WORD $0x4f4e215f // smlal2 v31.4s, v10.8h, v14.h[0]
	WORD $0x0e31c12a // smull v10.8h, v9.8b, v17.8b
	WORD $0x4e31c12b // smull2 v11.8h, v9.16b, v17.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f5e215f // smlal v31.4s, v10.4h, v14.h[1]
	WORD $0x4f5e215f // smlal2 v31.4s, v10.8h, v14.h[1]
	WORD $0x4e3e1c88 // and v8.16b, v4.16b, v30.16b
	WORD $0x4f0a54d4 // shl v20.16b, v6.16b, #2
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d08 // orr v8.16b, v8.16b, v20.16b
	WORD $0x6e3c8508 // sub v8.16b, v8.16b, v28.16b
	WORD $0x4e3e1ca9 // and v9.16b, v5.16b, v30.16b
	WORD $0x4f0a54f4 // shl v20.16b, v7.16b, #2
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d29 // orr v9.16b, v9.16b, v20.16b
	WORD $0x6e3c8529 // sub v9.16b, v9.16b, v28.16b
	WORD $0x0e32c10a // smull v10.8h, v8.8b, v18.8b
	WORD $0x4e32c10b // smull2 v11.8h, v8.16b, v18.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f6e215f // smlal v31.4s, v10.4h, v14.h[2]
	WORD $0x4f6e215f // smlal2 v31.4s, v10.8h, v14.h[2]
	WORD $0x0e33c12a // smull v10.8h, v9.8b, v19.8b
	WORD $0x4e33c12b // smull2 v11.8h, v9.16b, v19.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f7e215f // smlal v31.4s, v10.4h, v14.h[3]
	WORD $0x4f7e215f // smlal2 v31.4s, v10.8h, v14.h[3]
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x6f0c0448 // ushr v8.16b, v2.16b, #4
	WORD $0x4e3d1cd4 // and v20.16b, v6.16b, v29.16b
	WORD $0x4eb41d08 // orr v8.16b, v8.16b, v20.16b
	WORD $0x6e3c8508 // sub v8.16b, v8.16b, v28.16b
	WORD $0x6f0c0469 // ushr v9.16b, v3.16b, #4
	WORD $0x4e3d1cf4 // and v20.16b, v7.16b, v29.16b
	WORD $0x4eb41d29 // orr v9.16b, v9.16b, v20.16b
	WORD $0x6e3c8529 // sub v9.16b, v9.16b, v28.16b
	WORD $0x0e30c10a // smull v10.8h, v8.8b, v16.8b
	WORD $0x4e30c10b // smull2 v11.8h, v8.16b, v16.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f4e295f // smlal v31.4s, v10.4h, v14.h[4]
	WORD $0x4f4e295f // smlal2 v31.4s, v10.8h, v14.h[4]
	WORD $0x0e31c12a // smull v10.8h, v9.8b, v17.8b
	WORD $0x4e31c12b // smull2 v11.8h, v9.16b, v17.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f5e295f // smlal v31.4s, v10.4h, v14.h[5]
	WORD $0x4f5e295f // smlal2 v31.4s, v10.8h, v14.h[5]
	WORD $0x6f0c0488 // ushr v8.16b, v4.16b, #4
	WORD $0x6f0e04d4 // ushr v20.16b, v6.16b, #2
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d08 // orr v8.16b, v8.16b, v20.16b
	WORD $0x6e3c8508 // sub v8.16b, v8.16b, v28.16b
	WORD $0x6f0c04a9 // ushr v9.16b, v5.16b, #4
	WORD $0x6f0e04f4 // ushr v20.16b, v7.16b, #2
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d29 // orr v9.16b, v9.16b, v20.16b
	WORD $0x6e3c8529 // sub v9.16b, v9.16b, v28.16b
	WORD $0x0e32c10a // smull v10.8h, v8.8b, v18.8b
	WORD $0x4e32c10b // smull2 v11.8h, v8.16b, v18.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f6e295f // smlal v31.4s, v10.4h, v14.h[6]
	WORD $0x4f6e295f // smlal2 v31.4s, v10.8h, v14.h[6]
	WORD $0x0e33c12a // smull v10.8h, v9.8b, v19.8b
	WORD $0x4e33c12b // smull2 v11.8h, v9.16b, v19.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f7e295f // smlal v31.4s, v10.4h, v14.h[7]
	WORD $0x4f7e295f // smlal2 v31.4s, v10.8h, v14.h[7]
	WORD $0x4cdf2122 // ld1 { v2.16b, v3.16b, v4.16b, v5.16b }, [x9], #64
	WORD $0xad451c06 // ldp q6, q7, [x0, #160]
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x4e3e1c48 // and v8.16b, v2.16b, v30.16b
	WORD $0x4f0c54d4 // shl v20.16b, v6.16b, #4
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d08 // orr v8.16b, v8.16b, v20.16b
	WORD $0x6e3c8508 // sub v8.16b, v8.16b, v28.16b
	WORD $0x4e3e1c69 // and v9.16b, v3.16b, v30.16b
	WORD $0x4f0c54f4 // shl v20.16b, v7.16b, #4
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d29 // orr v9.16b, v9.16b, v20.16b
	WORD $0x6e3c8529 // sub v9.16b, v9.16b, v28.16b
	WORD $0x0e30c10a // smull v10.8h, v8.8b, v16.8b
	WORD $0x4e30c10b // smull2 v11.8h, v8.16b, v16.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f4f215f // smlal v31.4s, v10.4h, v15.h[0]
	WORD $0x4f4f215f // smlal2 v31.4s, v10.8h, v15.h[0]
	WORD $0x0e31c12a // smull v10.8h, v9.8b, v17.8b
	WORD $0x4e31c12b // smull2 v11.8h, v9.16b, v17.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f5f215f // smlal v31.4s, v10.4h, v15.h[1]
	WORD $0x4f5f215f // smlal2 v31.4s, v10.8h, v15.h[1]
	WORD $0x4e3e1c88 // and v8.16b, v4.16b, v30.16b
	WORD $0x4f0a54d4 // shl v20.16b, v6.16b, #2
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d08 // orr v8.16b, v8.16b, v20.16b
	WORD $0x6e3c8508 // sub v8.16b, v8.16b, v28.16b
	WORD $0x4e3e1ca9 // and v9.16b, v5.16b, v30.16b
	WORD $0x4f0a54f4 // shl v20.16b, v7.16b, #2
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d29 // orr v9.16b, v9.16b, v20.16b
	WORD $0x6e3c8529 // sub v9.16b, v9.16b, v28.16b
	WORD $0x0e32c10a // smull v10.8h, v8.8b, v18.8b
	WORD $0x4e32c10b // smull2 v11.8h, v8.16b, v18.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f6f215f // smlal v31.4s, v10.4h, v15.h[2]
	WORD $0x4f6f215f // smlal2 v31.4s, v10.8h, v15.h[2]
	WORD $0x0e33c12a // smull v10.8h, v9.8b, v19.8b
	WORD $0x4e33c12b // smull2 v11.8h, v9.16b, v19.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f7f215f // smlal v31.4s, v10.4h, v15.h[3]
	WORD $0x4f7f215f // smlal2 v31.4s, v10.8h, v15.h[3]
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x6f0c0448 // ushr v8.16b, v2.16b, #4
	WORD $0x4e3d1cd4 // and v20.16b, v6.16b, v29.16b
	WORD $0x4eb41d08 // orr v8.16b, v8.16b, v20.16b
	WORD $0x6e3c8508 // sub v8.16b, v8.16b, v28.16b
	WORD $0x6f0c0469 // ushr v9.16b, v3.16b, #4
	WORD $0x4e3d1cf4 // and v20.16b, v7.16b, v29.16b
	WORD $0x4eb41d29 // orr v9.16b, v9.16b, v20.16b
	WORD $0x6e3c8529 // sub v9.16b, v9.16b, v28.16b
	WORD $0x0e30c10a // smull v10.8h, v8.8b, v16.8b
	WORD $0x4e30c10b // smull2 v11.8h, v8.16b, v16.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f4f295f // smlal v31.4s, v10.4h, v15.h[4]
	WORD $0x4f4f295f // smlal2 v31.4s, v10.8h, v15.h[4]
	WORD $0x0e31c12a // smull v10.8h, v9.8b, v17.8b
	WORD $0x4e31c12b // smull2 v11.8h, v9.16b, v17.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f5f295f // smlal v31.4s, v10.4h, v15.h[5]
	WORD $0x4f5f295f // smlal2 v31.4s, v10.8h, v15.h[5]
	WORD $0x6f0c0488 // ushr v8.16b, v4.16b, #4
	WORD $0x6f0e04d4 // ushr v20.16b, v6.16b, #2
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d08 // orr v8.16b, v8.16b, v20.16b
	WORD $0x6e3c8508 // sub v8.16b, v8.16b, v28.16b
	WORD $0x6f0c04a9 // ushr v9.16b, v5.16b, #4
	WORD $0x6f0e04f4 // ushr v20.16b, v7.16b, #2
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d29 // orr v9.16b, v9.16b, v20.16b
	WORD $0x6e3c8529 // sub v9.16b, v9.16b, v28.16b
	WORD $0x0e32c10a // smull v10.8h, v8.8b, v18.8b
	WORD $0x4e32c10b // smull2 v11.8h, v8.16b, v18.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f6f295f // smlal v31.4s, v10.4h, v15.h[6]
	WORD $0x4f6f295f // smlal2 v31.4s, v10.8h, v15.h[6]
	WORD $0x0e33c12a // smull v10.8h, v9.8b, v19.8b
	WORD $0x4e33c12b // smull2 v11.8h, v9.16b, v19.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f7f295f // smlal v31.4s, v10.4h, v15.h[7]
	WORD $0x4f7f295f // smlal2 v31.4s, v10.8h, v15.h[7]
	WORD $0x4e21dbff // scvtf v31.4s, v31.4s
	WORD $0x4f9a13e0 // fmla v0.4s, v31.4s, v26.s[0]
	WORD $0x91034800 // add x0, x0, #210
	WORD $0xf1000484 // subs x4, x4, #1
	WORD $0x54ffe9c1 // b.ne 0x18
	WORD $0x4ea1d400 // fsub v0.4s, v0.4s, v1.4s
	WORD $0x6e20d400 // faddp v0.4s, v0.4s, v0.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	FMOVS F0, ret+40(FP)
	RET

// func dotQ3KNEON(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32
TEXT ·dotQ3KNEON(SB), NOSPLIT, $0-44
	MOVD w+0(FP), R0
	MOVD qs+8(FP), R1
	MOVD qd+16(FP), R2
	MOVD bsums+24(FP), R3
	MOVD nb+32(FP), R4
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0xb4001b64 // cbz x4, 0x378
	WORD $0x4f00e49d // movi v29.16b, #4
	WORD $0x4f01e41c // movi v28.16b, #32
	WORD $0x4f00e47b // movi v27.16b, #3
	WORD $0xb9406005 // ldr w5, [x0, #96]
	WORD $0xb9406406 // ldr w6, [x0, #100]
	WORD $0xb9406807 // ldr w7, [x0, #104]
	WORD $0x53047ca8 // lsr w8, w5, #4
	WORD $0x1200cd08 // and w8, w8, #0xf0f0f0f
	WORD $0x53047ce9 // lsr w9, w7, #4
	WORD $0x1200c529 // and w9, w9, #0x3030303
	WORD $0x2a091108 // orr w8, w8, w9, lsl #4
	WORD $0x53047cca // lsr w10, w6, #4
	WORD $0x1200cd4a // and w10, w10, #0xf0f0f0f
	WORD $0x53067ce9 // lsr w9, w7, #6
	WORD $0x1200c529 // and w9, w9, #0x3030303
	WORD $0x2a09114a // orr w10, w10, w9, lsl #4
	WORD $0x1200cca5 // and w5, w5, #0xf0f0f0f
	WORD $0x1200c4e9 // and w9, w7, #0x3030303
	WORD $0x2a0910a5 // orr w5, w5, w9, lsl #4
	WORD $0x1200ccc6 // and w6, w6, #0xf0f0f0f
	WORD $0x53027ce9 // lsr w9, w7, #2
	WORD $0x1200c529 // and w9, w9, #0x3030303
	WORD $0x2a0910c6 // orr w6, w6, w9, lsl #4
	WORD $0x1e2700ae // fmov s14, w5
	WORD $0x4e0c1cce // mov v14.s[1], w6
	WORD $0x4e141d0e // mov v14.s[2], w8
	WORD $0x4e1c1d4e // mov v14.s[3], w10
	WORD $0x6e3c85ce // sub v14.16b, v14.16b, v28.16b
	WORD $0x4f08a5cf // sshll2 v15.8h, v14.16b, #0
	WORD $0x0f08a5ce // sshll v14.8h, v14.8b, #0
	WORD $0xbc404459 // ldr s25, [x2], #4
	WORD $0x7d40d81a // ldr h26, [x0, #108]
	WORD $0x1ee2435a // fcvt s26, h26
	WORD $0x1e390b5a // fmul s26, s26, s25
	WORD $0x91008063 // add x3, x3, #32
	WORD $0x4f00e41f // movi v31.16b, #0
	WORD $0xad401404 // ldp q4, q5, [x0]
	WORD $0xad410c02 // ldp q2, q3, [x0, #32]
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x4e3b1c48 // and v8.16b, v2.16b, v27.16b
	WORD $0x4f0a5494 // shl v20.16b, v4.16b, #2
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d08 // orr v8.16b, v8.16b, v20.16b
	WORD $0x6e3d8508 // sub v8.16b, v8.16b, v29.16b
	WORD $0x4e3b1c69 // and v9.16b, v3.16b, v27.16b
	WORD $0x4f0a54b4 // shl v20.16b, v5.16b, #2
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d29 // orr v9.16b, v9.16b, v20.16b
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e30c10a // smull v10.8h, v8.8b, v16.8b
	WORD $0x4e30c10b // smull2 v11.8h, v8.16b, v16.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f4e215f // smlal v31.4s, v10.4h, v14.h[0]
	WORD $0x4f4e215f // smlal2 v31.4s, v10.8h, v14.h[0]
	WORD $0x0e31c12a // smull v10.8h, v9.8b, v17.8b
	WORD $0x4e31c12b // smull2 v11.8h, v9.16b, v17.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f5e215f // smlal v31.4s, v10.4h, v14.h[1]
	WORD $0x4f5e215f // smlal2 v31.4s, v10.8h, v14.h[1]
	WORD $0x6f0e0448 // ushr v8.16b, v2.16b, #2
	WORD $0x4e3b1d08 // and v8.16b, v8.16b, v27.16b
	WORD $0x4f095494 // shl v20.16b, v4.16b, #1
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d08 // orr v8.16b, v8.16b, v20.16b
	WORD $0x6e3d8508 // sub v8.16b, v8.16b, v29.16b
	WORD $0x6f0e0469 // ushr v9.16b, v3.16b, #2
	WORD $0x4e3b1d29 // and v9.16b, v9.16b, v27.16b
	WORD $0x4f0954b4 // shl v20.16b, v5.16b, #1
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d29 // orr v9.16b, v9.16b, v20.16b
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e32c10a // smull v10.8h, v8.8b, v18.8b
	WORD $0x4e32c10b // smull2 v11.8h, v8.16b, v18.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f6e215f // smlal v31.4s, v10.4h, v14.h[2]
	WORD $0x4f6e215f // smlal2 v31.4s, v10.8h, v14.h[2]
	WORD $0x0e33c12a // smull v10.8h, v9.8b, v19.8b
	WORD $0x4e33c12b // smull2 v11.8h, v9.16b, v19.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f7e215f // smlal v31.4s, v10.4h, v14.h[3]
	WORD $0x4f7e215f // smlal2 v31.4s, v10.8h, v14.h[3]
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x6f0c0448 // ushr v8.16b, v2.16b, #4
	WORD $0x4e3b1d08 // and v8.16b, v8.16b, v27.16b
	WORD $0x4e3d1c94 // and v20.16b, v4.16b, v29.16b
	WORD $0x4eb41d08 // orr v8.16b, v8.16b, v20.16b
	WORD $0x6e3d8508 // sub v8.16b, v8.16b, v29.16b
	WORD $0x6f0c0469 // ushr v9.16b, v3.16b, #4
	WORD $0x4e3b1d29 // and v9.16b, v9.16b, v27.16b
	WORD $0x4e3d1cb4 // and v20.16b, v5.16b, v29.16b
	WORD $0x4eb41d29 // orr v9.16b, v9.16b, v20.16b
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e30c10a // smull v10.8h, v8.8b, v16.8b
	WORD $0x4e30c10b // smull2 v11.8h, v8.16b, v16.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f4e295f // smlal v31.4s, v10.4h, v14.h[4]
	WORD $0x4f4e295f // smlal2 v31.4s, v10.8h, v14.h[4]
	WORD $0x0e31c12a // smull v10.8h, v9.8b, v17.8b
	WORD $0x4e31c12b // smull2 v11.8h, v9.16b, v17.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f5e295f // smlal v31.4s, v10.4h, v14.h[5]
	WORD $0x4f5e295f // smlal2 v31.4s, v10.8h, v14.h[5]
	WORD $0x6f0a0448 // ushr v8.16b, v2.16b, #6
	WORD $0x4e3b1d08 // and v8.16b, v8.16b, v27.16b
	WORD $0x6f0f0494 // ushr v20.16b, v4.16b, #1
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d08 // orr v8.16b, v8.16b, v20.16b
	WORD $0x6e3d8508 // sub v8.16b, v8.16b, v29.16b
	WORD $0x6f0a0469 // ushr v9.16b, v3.16b, #6
	WORD $0x4e3b1d29 // and v9.16b, v9.16b, v27.16b
	WORD $0x6f0f04b4 // ushr v20.16b, v5.16b, #1
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d29 // orr v9.16b, v9.16b, v20.16b
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e32c10a // smull v10.8h, v8.8b, v18.8b
	WORD $0x4e32c10b // smull2 v11.8h, v8.16b, v18.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f6e295f // smlal v31.4s, v10.4h, v14.h[6]
	WORD $0x4f6e295f // smlal2 v31.4s, v10.8h, v14.h[6]
	WORD $0x0e33c12a // smull v10.8h, v9.8b, v19.8b
	WORD $0x4e33c12b // smull2 v11.8h, v9.16b, v19.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f7e295f // smlal v31.4s, v10.4h, v14.h[7]
	WORD $0x4f7e295f // smlal2 v31.4s, v10.8h, v14.h[7]
	WORD $0xad420c02 // ldp q2, q3, [x0, #64]
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x4e3b1c48 // and v8.16b, v2.16b, v27.16b
	WORD $0x6f0e0494 // ushr v20.16b, v4.16b, #2
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d08 // orr v8.16b, v8.16b, v20.16b
	WORD $0x6e3d8508 // sub v8.16b, v8.16b, v29.16b
	WORD $0x4e3b1c69 // and v9.16b, v3.16b, v27.16b
	WORD $0x6f0e04b4 // ushr v20.16b, v5.16b, #2
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d29 // orr v9.16b, v9.16b, v20.16b
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e30c10a // smull v10.8h, v8.8b, v16.8b
	WORD $0x4e30c10b // smull2 v11.8h, v8.16b, v16.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f4f215f // smlal v31.4s, v10.4h, v15.h[0]
	WORD $0x4f4f215f // smlal2 v31.4s, v10.8h, v15.h[0]
	WORD $0x0e31c12a // smull v10.8h, v9.8b, v17.8b
	WORD $0x4e31c12b // smull2 v11.8h, v9.16b, v17.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f5f215f // smlal v31.4s, v10.4h, v15.h[1]
	WORD $0x4f5f215f // smlal2 v31.4s, v10.8h, v15.h[1]
	WORD $0x6f0e0448 // ushr v8.16b, v2.16b, #2
	WORD $0x4e3b1d08 // and v8.16b, v8.16b, v27.16b
	WORD $0x6f0d0494 // ushr v20.16b, v4.16b, #3
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d08 // orr v8.16b, v8.16b, v20.16b
	WORD $0x6e3d8508 // sub v8.16b, v8.16b, v29.16b
	WORD $0x6f0e0469 // ushr v9.16b, v3.16b, #2
	WORD $0x4e3b1d29 // and v9.16b, v9.16b, v27.16b
	WORD $0x6f0d04b4 // ushr v20.16b, v5.16b, #3
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d29 // orr v9.16b, v9.16b, v20.16b
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e32c10a // smull v10.8h, v8.8b, v18.8b
	WORD $0x4e32c10b // smull2 v11.8h, v8.16b, v18.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f6f215f // smlal v31.4s, v10.4h, v15.h[2]
	WORD $0x4f6f215f // smlal2 v31.4s, v10.8h, v15.h[2]
	WORD $0x0e33c12a // smull v10.8h, v9.8b, v19.8b
	WORD $0x4e33c12b // smull2 v11.8h, v9.16b, v19.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f7f215f // smlal v31.4s, v10.4h, v15.h[3]
	WORD $0x4f7f215f // smlal2 v31.4s, v10.8h, v15.h[3]
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x6f0c0448 // ushr v8.16b, v2.16b, #4
	WORD $0x4e3b1d08 // and v8.16b, v8.16b, v27.16b
	WORD $0x6f0c0494 // ushr v20.16b, v4.16b, #4
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d08 // orr v8.16b, v8.16b, v20.16b
	WORD $0x6e3d8508 // sub v8.16b, v8.16b, v29.16b
	WORD $0x6f0c0469 // ushr v9.16b, v3.16b, #4
	WORD $0x4e3b1d29 // and v9.16b, v9.16b, v27.16b
	WORD $0x6f0c04b4 // ushr v20.16b, v5.16b, #4
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d29 // orr v9.16b, v9.16b, v20.16b
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e30c10a // smull v10.8h, v8.8b, v16.8b
	WORD $0x4e30c10b // smull2 v11.8h, v8.16b, v16.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f4f295f // smlal v31.4s, v10.4h, v15.h[4]
	WORD $0x4f4f295f // smlal2 v31.4s, v10.8h, v15.h[4]
	WORD $0x0e31c12a // smull v10.8h, v9.8b, v17.8b
	WORD $0x4e31c12b // smull2 v11.8h, v9.16b, v17.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f5f295f // smlal v31.4s, v10.4h, v15.h[5]
	WORD $0x4f5f295f // smlal2 v31.4s, v10.8h, v15.h[5]
	WORD $0x6f0a0448 // ushr v8.16b, v2.16b, #6
	WORD $0x4e3b1d08 // and v8.16b, v8.16b, v27.16b
	WORD $0x6f0b0494 // ushr v20.16b, v4.16b, #5
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d08 // orr v8.16b, v8.16b, v20.16b
	WORD $0x6e3d8508 // sub v8.16b, v8.16b, v29.16b
	WORD $0x6f0a0469 // ushr v9.16b, v3.16b, #6
	WORD $0x4e3b1d29 // and v9.16b, v9.16b, v27.16b
	WORD $0x6f0b04b4 // ushr v20.16b, v5.16b, #5
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d29 // orr v9.16b, v9.16b, v20.16b
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e32c10a // smull v10.8h, v8.8b, v18.8b
	WORD $0x4e32c10b // smull2 v11.8h, v8.16b, v18.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f6f295f // smlal v31.4s, v10.4h, v15.h[6]
	WORD $0x4f6f295f // smlal2 v31.4s, v10.8h, v15.h[6]
	WORD $0x0e33c12a // smull v10.8h, v9.8b, v19.8b
	WORD $0x4e33c12b // smull2 v11.8h, v9.16b, v19.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f7f295f // smlal v31.4s, v10.4h, v15.h[7]
	WORD $0x4f7f295f // smlal2 v31.4s, v10.8h, v15.h[7]
	WORD $0x4e21dbff // scvtf v31.4s, v31.4s
	WORD $0x4f9a13e0 // fmla v0.4s, v31.4s, v26.s[0]
	WORD $0x9101b800 // add x0, x0, #110
	WORD $0xf1000484 // subs x4, x4, #1
	WORD $0x54ffe541 // b.ne 0x1c
	WORD $0x4ea1d400 // fsub v0.4s, v0.4s, v1.4s
	WORD $0x6e20d400 // faddp v0.4s, v0.4s, v0.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	FMOVS F0, ret+40(FP)
	RET

// func dotQ2KNEON(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32
TEXT ·dotQ2KNEON(SB), NOSPLIT, $0-44
	MOVD w+0(FP), R0
	MOVD qs+8(FP), R1
	MOVD qd+16(FP), R2
	MOVD bsums+24(FP), R3
	MOVD nb+32(FP), R4
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0xb40011e4 // cbz x4, 0x248
	WORD $0x4f00e47b // movi v27.16b, #3
	WORD $0x3dc0000d // ldr q13, [x0]
	WORD $0x4e3e1dae // and v14.16b, v13.16b, v30.16b
	WORD $0x6f0c05ad // ushr v13.16b, v13.16b, #4
	WORD $0x6f08a5cf // ushll2 v15.8h, v14.16b, #0
	WORD $0x2f08a5ce // ushll v14.8h, v14.8b, #0
	WORD $0x6f08a5b5 // ushll2 v21.8h, v13.16b, #0
	WORD $0x2f08a5b4 // ushll v20.8h, v13.8b, #0
	WORD $0x4cdfa476 // ld1 { v22.8h, v23.8h }, [x3], #32
	WORD $0x0e76c298 // smull v24.4s, v20.4h, v22.4h
	WORD $0x4e768298 // smlal2 v24.4s, v20.8h, v22.8h
	WORD $0x0e7782b8 // smlal v24.4s, v21.4h, v23.4h
	WORD $0x4e7782b8 // smlal2 v24.4s, v21.8h, v23.8h
	WORD $0x4e21db18 // scvtf v24.4s, v24.4s
	WORD $0xbc404459 // ldr s25, [x2], #4
	WORD $0x7d40a41a // ldr h26, [x0, #82]
	WORD $0x1ee2435a // fcvt s26, h26
	WORD $0x1e390b5a // fmul s26, s26, s25
	WORD $0x4f9a1301 // fmla v1.4s, v24.4s, v26.s[0]
	WORD $0x7d40a01a // ldr h26, [x0, #80]
	WORD $0x1ee2435a // fcvt s26, h26
	WORD $0x1e390b5a // fmul s26, s26, s25
	WORD $0x4f00e41f // movi v31.16b, #0
	WORD $0xad408c02 // ldp q2, q3, [x0, #16]
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x4e3b1c48 // and v8.16b, v2.16b, v27.16b
	WORD $0x4e3b1c69 // and v9.16b, v3.16b, v27.16b
	WORD $0x0e30c10a // smull v10.8h, v8.8b, v16.8b
	WORD $0x4e30c10b // smull2 v11.8h, v8.16b, v16.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f4e215f // smlal v31.4s, v10.4h, v14.h[0]
	WORD $0x4f4e215f // smlal2 v31.4s, v10.8h, v14.h[0]
	WORD $0x0e31c12a // smull v10.8h, v9.8b, v17.8b
	WORD $0x4e31c12b // smull2 v11.8h, v9.16b, v17.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f5e215f // smlal v31.4s, v10.4h, v14.h[1]
	WORD $0x4f5e215f // smlal2 v31.4s, v10.8h, v14.h[1]
	WORD $0x6f0e0448 // ushr v8.16b, v2.16b, #2
	WORD $0x4e3b1d08 // and v8.16b, v8.16b, v27.16b
	WORD $0x6f0e0469 // ushr v9.16b, v3.16b, #2
	WORD $0x4e3b1d29 // and v9.16b, v9.16b, v27.16b
	WORD $0x0e32c10a // smull v10.8h, v8.8b, v18.8b
	WORD $0x4e32c10b // smull2 v11.8h, v8.16b, v18.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f6e215f // smlal v31.4s, v10.4h, v14.h[2]
	WORD $0x4f6e215f // smlal2 v31.4s, v10.8h, v14.h[2]
	WORD $0x0e33c12a // smull v10.8h, v9.8b, v19.8b
	WORD $0x4e33c12b // smull2 v11.8h, v9.16b, v19.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f7e215f // smlal v31.4s, v10.4h, v14.h[3]
	WORD $0x4f7e215f // smlal2 v31.4s, v10.8h, v14.h[3]
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x6f0c0448 // ushr v8.16b, v2.16b, #4
	WORD $0x4e3b1d08 // and v8.16b, v8.16b, v27.16b
	WORD $0x6f0c0469 // ushr v9.16b, v3.16b, #4
	WORD $0x4e3b1d29 // and v9.16b, v9.16b, v27.16b
	WORD $0x0e30c10a // smull v10.8h, v8.8b, v16.8b
	WORD $0x4e30c10b // smull2 v11.8h, v8.16b, v16.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f4e295f // smlal v31.4s, v10.4h, v14.h[4]
	WORD $0x4f4e295f // smlal2 v31.4s, v10.8h, v14.h[4]
	WORD $0x0e31c12a // smull v10.8h, v9.8b, v17.8b
	WORD $0x4e31c12b // smull2 v11.8h, v9.16b, v17.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f5e295f // smlal v31.4s, v10.4h, v14.h[5]
	WORD $0x4f5e295f // smlal2 v31.4s, v10.8h, v14.h[5]
	WORD $0x6f0a0448 // ushr v8.16b, v2.16b, #6
	WORD $0x4e3b1d08 // and v8.16b, v8.16b, v27.16b
	WORD $0x6f0a0469 // ushr v9.16b, v3.16b, #6
	WORD $0x4e3b1d29 // and v9.16b, v9.16b, v27.16b
	WORD $0x0e32c10a // smull v10.8h, v8.8b, v18.8b
	WORD $0x4e32c10b // smull2 v11.8h, v8.16b, v18.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f6e295f // smlal v31.4s, v10.4h, v14.h[6]
	WORD $0x4f6e295f // smlal2 v31.4s, v10.8h, v14.h[6]
	WORD $0x0e33c12a // smull v10.8h, v9.8b, v19.8b
	WORD $0x4e33c12b // smull2 v11.8h, v9.16b, v19.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f7e295f // smlal v31.4s, v10.4h, v14.h[7]
	WORD $0x4f7e295f // smlal2 v31.4s, v10.8h, v14.h[7]
	WORD $0xad418c02 // ldp q2, q3, [x0, #48]
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x4e3b1c48 // and v8.16b, v2.16b, v27.16b
	WORD $0x4e3b1c69 // and v9.16b, v3.16b, v27.16b
	WORD $0x0e30c10a // smull v10.8h, v8.8b, v16.8b
	WORD $0x4e30c10b // smull2 v11.8h, v8.16b, v16.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f4f215f // smlal v31.4s, v10.4h, v15.h[0]
	WORD $0x4f4f215f // smlal2 v31.4s, v10.8h, v15.h[0]
	WORD $0x0e31c12a // smull v10.8h, v9.8b, v17.8b
	WORD $0x4e31c12b // smull2 v11.8h, v9.16b, v17.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f5f215f // smlal v31.4s, v10.4h, v15.h[1]
	WORD $0x4f5f215f // smlal2 v31.4s, v10.8h, v15.h[1]
	WORD $0x6f0e0448 // ushr v8.16b, v2.16b, #2
	WORD $0x4e3b1d08 // and v8.16b, v8.16b, v27.16b
	WORD $0x6f0e0469 // ushr v9.16b, v3.16b, #2
	WORD $0x4e3b1d29 // and v9.16b, v9.16b, v27.16b
	WORD $0x0e32c10a // smull v10.8h, v8.8b, v18.8b
	WORD $0x4e32c10b // smull2 v11.8h, v8.16b, v18.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f6f215f // smlal v31.4s, v10.4h, v15.h[2]
	WORD $0x4f6f215f // smlal2 v31.4s, v10.8h, v15.h[2]
	WORD $0x0e33c12a // smull v10.8h, v9.8b, v19.8b
	WORD $0x4e33c12b // smull2 v11.8h, v9.16b, v19.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f7f215f // smlal v31.4s, v10.4h, v15.h[3]
	WORD $0x4f7f215f // smlal2 v31.4s, v10.8h, v15.h[3]
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x6f0c0448 // ushr v8.16b, v2.16b, #4
	WORD $0x4e3b1d08 // and v8.16b, v8.16b, v27.16b
	WORD $0x6f0c0469 // ushr v9.16b, v3.16b, #4
	WORD $0x4e3b1d29 // and v9.16b, v9.16b, v27.16b
	WORD $0x0e30c10a // smull v10.8h, v8.8b, v16.8b
	WORD $0x4e30c10b // smull2 v11.8h, v8.16b, v16.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f4f295f // smlal v31.4s, v10.4h, v15.h[4]
	WORD $0x4f4f295f // smlal2 v31.4s, v10.8h, v15.h[4]
	WORD $0x0e31c12a // smull v10.8h, v9.8b, v17.8b
	WORD $0x4e31c12b // smull2 v11.8h, v9.16b, v17.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f5f295f // smlal v31.4s, v10.4h, v15.h[5]
	WORD $0x4f5f295f // smlal2 v31.4s, v10.8h, v15.h[5]
	WORD $0x6f0a0448 // ushr v8.16b, v2.16b, #6
	WORD $0x4e3b1d08 // and v8.16b, v8.16b, v27.16b
	WORD $0x6f0a0469 // ushr v9.16b, v3.16b, #6
	WORD $0x4e3b1d29 // and v9.16b, v9.16b, v27.16b
	WORD $0x0e32c10a // smull v10.8h, v8.8b, v18.8b
	WORD $0x4e32c10b // smull2 v11.8h, v8.16b, v18.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f6f295f // smlal v31.4s, v10.4h, v15.h[6]
	WORD $0x4f6f295f // smlal2 v31.4s, v10.8h, v15.h[6]
	WORD $0x0e33c12a // smull v10.8h, v9.8b, v19.8b
	WORD $0x4e33c12b // smull2 v11.8h, v9.16b, v19.16b
	WORD $0x4e6b854a // add v10.8h, v10.8h, v11.8h
	WORD $0x0f7f295f // smlal v31.4s, v10.4h, v15.h[7]
	WORD $0x4f7f295f // smlal2 v31.4s, v10.8h, v15.h[7]
	WORD $0x4e21dbff // scvtf v31.4s, v31.4s
	WORD $0x4f9a13e0 // fmla v0.4s, v31.4s, v26.s[0]
	WORD $0x91015000 // add x0, x0, #84
	WORD $0xf1000484 // subs x4, x4, #1
	WORD $0x54ffee81 // b.ne 0x14
	WORD $0x4ea1d400 // fsub v0.4s, v0.4s, v1.4s
	WORD $0x6e20d400 // faddp v0.4s, v0.4s, v0.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	FMOVS F0, ret+40(FP)
	RET

// func dotIQ4XSNEON(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32
TEXT ·dotIQ4XSNEON(SB), NOSPLIT, $0-44
	MOVD w+0(FP), R0
	MOVD qs+8(FP), R1
	MOVD qd+16(FP), R2
	MOVD bsums+24(FP), R3
	MOVD nb+32(FP), R4
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0xb40015e4 // cbz x4, 0x2c8
	WORD $0xd293102a // mov x10, #39041
	WORD $0xf2b7f5aa // movk x10, #49069, lsl #16
	WORD $0xf2dbb9ea // movk x10, #56783, lsl #32
	WORD $0xf2fedd4a // movk x10, #63210, lsl #48
	WORD $0x9e67015b // fmov d27, x10
	WORD $0xd281a02a // mov x10, #3329
	WORD $0xf2a4c32a // movk x10, #9753, lsl #16
	WORD $0xf2c8a6aa // movk x10, #17717, lsl #32
	WORD $0xf2ee2b2a // movk x10, #29017, lsl #48
	WORD $0x4e181d5b // mov v27.d[1], x10
	WORD $0x79400405 // ldrh w5, [x0, #2]
	WORD $0xb9400406 // ldr w6, [x0, #4]
	WORD $0x53000cc7 // ubfx w7, w6, #0, #4
	WORD $0x530004a8 // ubfx w8, w5, #0, #2
	WORD $0x2a0810e7 // orr w7, w7, w8, lsl #4
	WORD $0x510080e7 // sub w7, w7, #32
	WORD $0x4e041cee // mov v14.s[0], w7
	WORD $0x53041cc7 // ubfx w7, w6, #4, #4
	WORD $0x53020ca8 // ubfx w8, w5, #2, #2
	WORD $0x2a0810e7 // orr w7, w7, w8, lsl #4
	WORD $0x510080e7 // sub w7, w7, #32
	WORD $0x4e0c1cee // mov v14.s[1], w7
	WORD $0x53082cc7 // ubfx w7, w6, #8, #4
	WORD $0x530414a8 // ubfx w8, w5, #4, #2
	WORD $0x2a0810e7 // orr w7, w7, w8, lsl #4
	WORD $0x510080e7 // sub w7, w7, #32
	WORD $0x4e141cee // mov v14.s[2], w7
	WORD $0x530c3cc7 // ubfx w7, w6, #12, #4
	WORD $0x53061ca8 // ubfx w8, w5, #6, #2
	WORD $0x2a0810e7 // orr w7, w7, w8, lsl #4
	WORD $0x510080e7 // sub w7, w7, #32
	WORD $0x4e1c1cee // mov v14.s[3], w7
	WORD $0x53104cc7 // ubfx w7, w6, #16, #4
	WORD $0x530824a8 // ubfx w8, w5, #8, #2
	WORD $0x2a0810e7 // orr w7, w7, w8, lsl #4
	WORD $0x510080e7 // sub w7, w7, #32
	WORD $0x4e041cef // mov v15.s[0], w7
	WORD $0x53145cc7 // ubfx w7, w6, #20, #4
	WORD $0x530a2ca8 // ubfx w8, w5, #10, #2
	WORD $0x2a0810e7 // orr w7, w7, w8, lsl #4
	WORD $0x510080e7 // sub w7, w7, #32
	WORD $0x4e0c1cef // mov v15.s[1], w7
	WORD $0x53186cc7 // ubfx w7, w6, #24, #4
	WORD $0x530c34a8 // ubfx w8, w5, #12, #2
	WORD $0x2a0810e7 // orr w7, w7, w8, lsl #4
	WORD $0x510080e7 // sub w7, w7, #32
	WORD $0x4e141cef // mov v15.s[2], w7
	WORD $0x531c7cc7 // lsr w7, w6, #28
	WORD $0x530e3ca8 // ubfx w8, w5, #14, #2
	WORD $0x2a0810e7 // orr w7, w7, w8, lsl #4
	WORD $0x510080e7 // sub w7, w7, #32
	WORD $0x4e1c1cef // mov v15.s[3], w7
	WORD $0xbc404459 // ldr s25, [x2], #4
	WORD $0x7d40001a // ldr h26, [x0]
	WORD $0x1ee2435a // fcvt s26, h26
	WORD $0x1e390b5a // fmul s26, s26, s25
	WORD $0x91008063 // add x3, x3, #32
	WORD $0x4f00e41f // movi v31.16b, #0
	WORD $0x91002009 // add x9, x0, #8
	WORD $0x4cdf2122 // ld1 { v2.16b, v3.16b, v4.16b, v5.16b }, [x9], #64
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x4e3e1c46 // and v6.16b, v2.16b, v30.16b
	WORD $0x6f0c0447 // ushr v7.16b, v2.16b, #4
	WORD $0x4e060366 // tbl v6.16b, { v27.16b }, v6.16b
	WORD $0x4e070367 // tbl v7.16b, { v27.16b }, v7.16b
	WORD $0x0e30c0ca // smull v10.8h, v6.8b, v16.8b
	WORD $0x4e30c0cb // smull2 v11.8h, v6.16b, v16.16b
	WORD $0x4e60294c // saddlp v12.4s, v10.8h
	WORD $0x4e60696c // sadalp v12.4s, v11.8h
	WORD $0x0e31c0ea // smull v10.8h, v7.8b, v17.8b
	WORD $0x4e31c0eb // smull2 v11.8h, v7.16b, v17.16b
	WORD $0x4e60694c // sadalp v12.4s, v10.8h
	WORD $0x4e60696c // sadalp v12.4s, v11.8h
	WORD $0x6f8e019f // mla v31.4s, v12.4s, v14.s[0]
	WORD $0x4e3e1c66 // and v6.16b, v3.16b, v30.16b
	WORD $0x6f0c0467 // ushr v7.16b, v3.16b, #4
	WORD $0x4e060366 // tbl v6.16b, { v27.16b }, v6.16b
	WORD $0x4e070367 // tbl v7.16b, { v27.16b }, v7.16b
	WORD $0x0e32c0ca // smull v10.8h, v6.8b, v18.8b
	WORD $0x4e32c0cb // smull2 v11.8h, v6.16b, v18.16b
	WORD $0x4e60294c // saddlp v12.4s, v10.8h
	WORD $0x4e60696c // sadalp v12.4s, v11.8h
	WORD $0x0e33c0ea // smull v10.8h, v7.8b, v19.8b
	WORD $0x4e33c0eb // smull2 v11.8h, v7.16b, v19.16b
	WORD $0x4e60694c // sadalp v12.4s, v10.8h
	WORD $0x4e60696c // sadalp v12.4s, v11.8h
	WORD $0x6fae019f // mla v31.4s, v12.4s, v14.s[1]
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x4e3e1c86 // and v6.16b, v4.16b, v30.16b
	WORD $0x6f0c0487 // ushr v7.16b, v4.16b, #4
	WORD $0x4e060366 // tbl v6.16b, { v27.16b }, v6.16b
	WORD $0x4e070367 // tbl v7.16b, { v27.16b }, v7.16b
	WORD $0x0e30c0ca // smull v10.8h, v6.8b, v16.8b
	WORD $0x4e30c0cb // smull2 v11.8h, v6.16b, v16.16b
	WORD $0x4e60294c // saddlp v12.4s, v10.8h
	WORD $0x4e60696c // sadalp v12.4s, v11.8h
	WORD $0x0e31c0ea // smull v10.8h, v7.8b, v17.8b
	WORD $0x4e31c0eb // smull2 v11.8h, v7.16b, v17.16b
	WORD $0x4e60694c // sadalp v12.4s, v10.8h
	WORD $0x4e60696c // sadalp v12.4s, v11.8h
	WORD $0x6f8e099f // mla v31.4s, v12.4s, v14.s[2]
	WORD $0x4e3e1ca6 // and v6.16b, v5.16b, v30.16b
	WORD $0x6f0c04a7 // ushr v7.16b, v5.16b, #4
	WORD $0x4e060366 // tbl v6.16b, { v27.16b }, v6.16b
	WORD $0x4e070367 // tbl v7.16b, { v27.16b }, v7.16b
	WORD $0x0e32c0ca // smull v10.8h, v6.8b, v18.8b
	WORD $0x4e32c0cb // smull2 v11.8h, v6.16b, v18.16b
	WORD $0x4e60294c // saddlp v12.4s, v10.8h
	WORD $0x4e60696c // sadalp v12.4s, v11.8h
	WORD $0x0e33c0ea // smull v10.8h, v7.8b, v19.8b
	WORD $0x4e33c0eb // smull2 v11.8h, v7.16b, v19.16b
	WORD $0x4e60694c // sadalp v12.4s, v10.8h
	WORD $0x4e60696c // sadalp v12.4s, v11.8h
	WORD $0x6fae099f // mla v31.4s, v12.4s, v14.s[3]
	WORD $0x4cdf2122 // ld1 { v2.16b, v3.16b, v4.16b, v5.16b }, [x9], #64
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x4e3e1c46 // and v6.16b, v2.16b, v30.16b
	WORD $0x6f0c0447 // ushr v7.16b, v2.16b, #4
	WORD $0x4e060366 // tbl v6.16b, { v27.16b }, v6.16b
	WORD $0x4e070367 // tbl v7.16b, { v27.16b }, v7.16b
	WORD $0x0e30c0ca // smull v10.8h, v6.8b, v16.8b
	WORD $0x4e30c0cb // smull2 v11.8h, v6.16b, v16.16b
	WORD $0x4e60294c // saddlp v12.4s, v10.8h
	WORD $0x4e60696c // sadalp v12.4s, v11.8h
	WORD $0x0e31c0ea // smull v10.8h, v7.8b, v17.8b
	WORD $0x4e31c0eb // smull2 v11.8h, v7.16b, v17.16b
	WORD $0x4e60694c // sadalp v12.4s, v10.8h
	WORD $0x4e60696c // sadalp v12.4s, v11.8h
	WORD $0x6f8f019f // mla v31.4s, v12.4s, v15.s[0]
	WORD $0x4e3e1c66 // and v6.16b, v3.16b, v30.16b
	WORD $0x6f0c0467 // ushr v7.16b, v3.16b, #4
	WORD $0x4e060366 // tbl v6.16b, { v27.16b }, v6.16b
	WORD $0x4e070367 // tbl v7.16b, { v27.16b }, v7.16b
	WORD $0x0e32c0ca // smull v10.8h, v6.8b, v18.8b
	WORD $0x4e32c0cb // smull2 v11.8h, v6.16b, v18.16b
	WORD $0x4e60294c // saddlp v12.4s, v10.8h
	WORD $0x4e60696c // sadalp v12.4s, v11.8h
	WORD $0x0e33c0ea // smull v10.8h, v7.8b, v19.8b
	WORD $0x4e33c0eb // smull2 v11.8h, v7.16b, v19.16b
	WORD $0x4e60694c // sadalp v12.4s, v10.8h
	WORD $0x4e60696c // sadalp v12.4s, v11.8h
	WORD $0x6faf019f // mla v31.4s, v12.4s, v15.s[1]
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x4e3e1c86 // and v6.16b, v4.16b, v30.16b
	WORD $0x6f0c0487 // ushr v7.16b, v4.16b, #4
	WORD $0x4e060366 // tbl v6.16b, { v27.16b }, v6.16b
	WORD $0x4e070367 // tbl v7.16b, { v27.16b }, v7.16b
	WORD $0x0e30c0ca // smull v10.8h, v6.8b, v16.8b
	WORD $0x4e30c0cb // smull2 v11.8h, v6.16b, v16.16b
	WORD $0x4e60294c // saddlp v12.4s, v10.8h
	WORD $0x4e60696c // sadalp v12.4s, v11.8h
	WORD $0x0e31c0ea // smull v10.8h, v7.8b, v17.8b
	WORD $0x4e31c0eb // smull2 v11.8h, v7.16b, v17.16b
	WORD $0x4e60694c // sadalp v12.4s, v10.8h
	WORD $0x4e60696c // sadalp v12.4s, v11.8h
	WORD $0x6f8f099f // mla v31.4s, v12.4s, v15.s[2]
	WORD $0x4e3e1ca6 // and v6.16b, v5.16b, v30.16b
	WORD $0x6f0c04a7 // ushr v7.16b, v5.16b, #4
	WORD $0x4e060366 // tbl v6.16b, { v27.16b }, v6.16b
	WORD $0x4e070367 // tbl v7.16b, { v27.16b }, v7.16b
	WORD $0x0e32c0ca // smull v10.8h, v6.8b, v18.8b
	WORD $0x4e32c0cb // smull2 v11.8h, v6.16b, v18.16b
	WORD $0x4e60294c // saddlp v12.4s, v10.8h
	WORD $0x4e60696c // sadalp v12.4s, v11.8h
	WORD $0x0e33c0ea // smull v10.8h, v7.8b, v19.8b
	WORD $0x4e33c0eb // smull2 v11.8h, v7.16b, v19.16b
	WORD $0x4e60694c // sadalp v12.4s, v10.8h
	WORD $0x4e60696c // sadalp v12.4s, v11.8h
	WORD $0x6faf099f // mla v31.4s, v12.4s, v15.s[3]
	WORD $0x4e21dbff // scvtf v31.4s, v31.4s
	WORD $0x4f9a13e0 // fmla v0.4s, v31.4s, v26.s[0]
	WORD $0x91022000 // add x0, x0, #136
	WORD $0xf1000484 // subs x4, x4, #1
	WORD $0x54ffeba1 // b.ne 0x38
	WORD $0x4ea1d400 // fsub v0.4s, v0.4s, v1.4s
	WORD $0x6e20d400 // faddp v0.4s, v0.4s, v0.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	FMOVS F0, ret+40(FP)
	RET

// func dotQ4_1NEON(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32
TEXT ·dotQ4_1NEON(SB), NOSPLIT, $0-44
	MOVD w+0(FP), R0
	MOVD qs+8(FP), R1
	MOVD qd+16(FP), R2
	MOVD neg+24(FP), R3
	MOVD nb+32(FP), R4
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0xb40003a4 // cbz x4, 0x80
	WORD $0x3cc04002 // ldur q2, [x0, #4]
	WORD $0x4e3e1c43 // and v3.16b, v2.16b, v30.16b
	WORD $0x6f0c0444 // ushr v4.16b, v2.16b, #4
	WORD $0x4cdfa025 // ld1 { v5.16b, v6.16b }, [x1], #32
	WORD $0x0e25c06a // smull v10.8h, v3.8b, v5.8b
	WORD $0x4e25c06b // smull2 v11.8h, v3.16b, v5.16b
	WORD $0x4e60294c // saddlp v12.4s, v10.8h
	WORD $0x4e60696c // sadalp v12.4s, v11.8h
	WORD $0x0e26c08a // smull v10.8h, v4.8b, v6.8b
	WORD $0x4e26c08b // smull2 v11.8h, v4.16b, v6.16b
	WORD $0x4e60694c // sadalp v12.4s, v10.8h
	WORD $0x4e60696c // sadalp v12.4s, v11.8h
	WORD $0xbc404452 // ldr s18, [x2], #4
	WORD $0x7d400010 // ldr h16, [x0]
	WORD $0x1ee24210 // fcvt s16, h16
	WORD $0x1e320a10 // fmul s16, s16, s18
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4f901180 // fmla v0.4s, v12.4s, v16.s[0]
	WORD $0x7d400411 // ldr h17, [x0, #2]
	WORD $0x1ee24231 // fcvt s17, h17
	WORD $0x1e320a31 // fmul s17, s17, s18
	WORD $0xb9400069 // ldr w9, [x3]
	WORD $0x1e220133 // scvtf s19, w9
	WORD $0x1f130621 // fmadd s1, s17, s19, s1
	WORD $0x91001063 // add x3, x3, #4
	WORD $0x91005000 // add x0, x0, #20
	WORD $0xf1000484 // subs x4, x4, #1
	WORD $0x54fffca1 // b.ne 0x10
	WORD $0x4ea1d400 // fsub v0.4s, v0.4s, v1.4s
	WORD $0x6e20d400 // faddp v0.4s, v0.4s, v0.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	FMOVS F0, ret+40(FP)
	RET

// func dotQ5_1NEON(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32
TEXT ·dotQ5_1NEON(SB), NOSPLIT, $0-44
	MOVD w+0(FP), R0
	MOVD qs+8(FP), R1
	MOVD qd+16(FP), R2
	MOVD neg+24(FP), R3
	MOVD nb+32(FP), R4
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0xb4000684 // cbz x4, 0xdc
	WORD $0x4f00e418 // movi v24.16b, #0
	WORD $0xd280202a // mov x10, #257
	WORD $0xf2a0202a // movk x10, #257, lsl #16
	WORD $0xf2c0202a // movk x10, #257, lsl #32
	WORD $0xf2e0202a // movk x10, #257, lsl #48
	WORD $0x4e181d58 // mov v24.d[1], x10
	WORD $0x4f00e45a // movi v26.16b, #2
	WORD $0x4e38875a // add v26.16b, v26.16b, v24.16b
	WORD $0xd280402a // mov x10, #513
	WORD $0xf2a1008a // movk x10, #2052, lsl #16
	WORD $0xf2c4020a // movk x10, #8208, lsl #32
	WORD $0xf2f0080a // movk x10, #32832, lsl #48
	WORD $0x4e080d59 // dup v25.2d, x10
	WORD $0x4f00e61d // movi v29.16b, #16
	WORD $0x3cc08002 // ldur q2, [x0, #8]
	WORD $0x4e3e1c43 // and v3.16b, v2.16b, v30.16b
	WORD $0x6f0c0444 // ushr v4.16b, v2.16b, #4
	WORD $0xbd400407 // ldr s7, [x0, #4]
	WORD $0x4e1800e8 // tbl v8.16b, { v7.16b }, v24.16b
	WORD $0x4e1a00e9 // tbl v9.16b, { v7.16b }, v26.16b
	WORD $0x4e398d08 // cmtst v8.16b, v8.16b, v25.16b
	WORD $0x4e398d29 // cmtst v9.16b, v9.16b, v25.16b
	WORD $0x4e3d1d08 // and v8.16b, v8.16b, v29.16b
	WORD $0x4e3d1d29 // and v9.16b, v9.16b, v29.16b
	WORD $0x4ea81c63 // orr v3.16b, v3.16b, v8.16b
	WORD $0x4ea91c84 // orr v4.16b, v4.16b, v9.16b
	WORD $0x4cdfa025 // ld1 { v5.16b, v6.16b }, [x1], #32
	WORD $0x0e25c06a // smull v10.8h, v3.8b, v5.8b
	WORD $0x4e25c06b // smull2 v11.8h, v3.16b, v5.16b
	WORD $0x4e60294c // saddlp v12.4s, v10.8h
	WORD $0x4e60696c // sadalp v12.4s, v11.8h
	WORD $0x0e26c08a // smull v10.8h, v4.8b, v6.8b
	WORD $0x4e26c08b // smull2 v11.8h, v4.16b, v6.16b
	WORD $0x4e60694c // sadalp v12.4s, v10.8h
	WORD $0x4e60696c // sadalp v12.4s, v11.8h
	WORD $0xbc404452 // ldr s18, [x2], #4
	WORD $0x7d400010 // ldr h16, [x0]
	WORD $0x1ee24210 // fcvt s16, h16
	WORD $0x1e320a10 // fmul s16, s16, s18
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4f901180 // fmla v0.4s, v12.4s, v16.s[0]
	WORD $0x7d400411 // ldr h17, [x0, #2]
	WORD $0x1ee24231 // fcvt s17, h17
	WORD $0x1e320a31 // fmul s17, s17, s18
	WORD $0xb9400069 // ldr w9, [x3]
	WORD $0x1e220133 // scvtf s19, w9
	WORD $0x1f130621 // fmadd s1, s17, s19, s1
	WORD $0x91001063 // add x3, x3, #4
	WORD $0x91006000 // add x0, x0, #24
	WORD $0xf1000484 // subs x4, x4, #1
	WORD $0x54fffb81 // b.ne 0x48
	WORD $0x4ea1d400 // fsub v0.4s, v0.4s, v1.4s
	WORD $0x6e20d400 // faddp v0.4s, v0.4s, v0.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	FMOVS F0, ret+40(FP)
	RET

// func dotQ5_0NEON(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32
TEXT ·dotQ5_0NEON(SB), NOSPLIT, $0-44
	MOVD w+0(FP), R0
	MOVD qs+8(FP), R1
	MOVD qd+16(FP), R2
	MOVD neg+24(FP), R3
	MOVD nb+32(FP), R4
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0xb4000604 // cbz x4, 0xcc
	WORD $0x4f00e418 // movi v24.16b, #0
	WORD $0xd280202a // mov x10, #257
	WORD $0xf2a0202a // movk x10, #257, lsl #16
	WORD $0xf2c0202a // movk x10, #257, lsl #32
	WORD $0xf2e0202a // movk x10, #257, lsl #48
	WORD $0x4e181d58 // mov v24.d[1], x10
	WORD $0x4f00e45a // movi v26.16b, #2
	WORD $0x4e38875a // add v26.16b, v26.16b, v24.16b
	WORD $0xd280402a // mov x10, #513
	WORD $0xf2a1008a // movk x10, #2052, lsl #16
	WORD $0xf2c4020a // movk x10, #8208, lsl #32
	WORD $0xf2f0080a // movk x10, #32832, lsl #48
	WORD $0x4e080d59 // dup v25.2d, x10
	WORD $0x4f00e61d // movi v29.16b, #16
	WORD $0x3cc06002 // ldur q2, [x0, #6]
	WORD $0x4e3e1c43 // and v3.16b, v2.16b, v30.16b
	WORD $0x6f0c0444 // ushr v4.16b, v2.16b, #4
	WORD $0xbc402007 // ldur s7, [x0, #2]
	WORD $0x4e1800e8 // tbl v8.16b, { v7.16b }, v24.16b
	WORD $0x4e1a00e9 // tbl v9.16b, { v7.16b }, v26.16b
	WORD $0x4e398d08 // cmtst v8.16b, v8.16b, v25.16b
	WORD $0x4e398d29 // cmtst v9.16b, v9.16b, v25.16b
	WORD $0x4e3d1d08 // and v8.16b, v8.16b, v29.16b
	WORD $0x4e3d1d29 // and v9.16b, v9.16b, v29.16b
	WORD $0x4ea81c63 // orr v3.16b, v3.16b, v8.16b
	WORD $0x4ea91c84 // orr v4.16b, v4.16b, v9.16b
	WORD $0x6e3d8463 // sub v3.16b, v3.16b, v29.16b
	WORD $0x6e3d8484 // sub v4.16b, v4.16b, v29.16b
	WORD $0x4cdfa025 // ld1 { v5.16b, v6.16b }, [x1], #32
	WORD $0x0e25c06a // smull v10.8h, v3.8b, v5.8b
	WORD $0x4e25c06b // smull2 v11.8h, v3.16b, v5.16b
	WORD $0x4e60294c // saddlp v12.4s, v10.8h
	WORD $0x4e60696c // sadalp v12.4s, v11.8h
	WORD $0x0e26c08a // smull v10.8h, v4.8b, v6.8b
	WORD $0x4e26c08b // smull2 v11.8h, v4.16b, v6.16b
	WORD $0x4e60694c // sadalp v12.4s, v10.8h
	WORD $0x4e60696c // sadalp v12.4s, v11.8h
	WORD $0xbc404452 // ldr s18, [x2], #4
	WORD $0x7d400010 // ldr h16, [x0]
	WORD $0x1ee24210 // fcvt s16, h16
	WORD $0x1e320a10 // fmul s16, s16, s18
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4f901180 // fmla v0.4s, v12.4s, v16.s[0]
	WORD $0x91001063 // add x3, x3, #4
	WORD $0x91005800 // add x0, x0, #22
	WORD $0xf1000484 // subs x4, x4, #1
	WORD $0x54fffc01 // b.ne 0x48
	WORD $0x4ea1d400 // fsub v0.4s, v0.4s, v1.4s
	WORD $0x6e20d400 // faddp v0.4s, v0.4s, v0.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	FMOVS F0, ret+40(FP)
	RET

// func dotIQ4NLNEON(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32
TEXT ·dotIQ4NLNEON(SB), NOSPLIT, $0-44
	MOVD w+0(FP), R0
	MOVD qs+8(FP), R1
	MOVD qd+16(FP), R2
	MOVD neg+24(FP), R3
	MOVD nb+32(FP), R4
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0xb4000464 // cbz x4, 0x98
	WORD $0xd293102a // mov x10, #39041
	WORD $0xf2b7f5aa // movk x10, #49069, lsl #16
	WORD $0xf2dbb9ea // movk x10, #56783, lsl #32
	WORD $0xf2fedd4a // movk x10, #63210, lsl #48
	WORD $0x9e67015b // fmov d27, x10
	WORD $0xd281a02a // mov x10, #3329
	WORD $0xf2a4c32a // movk x10, #9753, lsl #16
	WORD $0xf2c8a6aa // movk x10, #17717, lsl #32
	WORD $0xf2ee2b2a // movk x10, #29017, lsl #48
	WORD $0x4e181d5b // mov v27.d[1], x10
	WORD $0x3cc02002 // ldur q2, [x0, #2]
	WORD $0x4e3e1c43 // and v3.16b, v2.16b, v30.16b
	WORD $0x6f0c0444 // ushr v4.16b, v2.16b, #4
	WORD $0x4e030363 // tbl v3.16b, { v27.16b }, v3.16b
	WORD $0x4e040364 // tbl v4.16b, { v27.16b }, v4.16b
	WORD $0x4cdfa025 // ld1 { v5.16b, v6.16b }, [x1], #32
	WORD $0x0e25c06a // smull v10.8h, v3.8b, v5.8b
	WORD $0x4e25c06b // smull2 v11.8h, v3.16b, v5.16b
	WORD $0x4e60294c // saddlp v12.4s, v10.8h
	WORD $0x4e60696c // sadalp v12.4s, v11.8h
	WORD $0x0e26c08a // smull v10.8h, v4.8b, v6.8b
	WORD $0x4e26c08b // smull2 v11.8h, v4.16b, v6.16b
	WORD $0x4e60694c // sadalp v12.4s, v10.8h
	WORD $0x4e60696c // sadalp v12.4s, v11.8h
	WORD $0xbc404452 // ldr s18, [x2], #4
	WORD $0x7d400010 // ldr h16, [x0]
	WORD $0x1ee24210 // fcvt s16, h16
	WORD $0x1e320a10 // fmul s16, s16, s18
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4f901180 // fmla v0.4s, v12.4s, v16.s[0]
	WORD $0x91001063 // add x3, x3, #4
	WORD $0x91004800 // add x0, x0, #18
	WORD $0xf1000484 // subs x4, x4, #1
	WORD $0x54fffd21 // b.ne 0x38
	WORD $0x4ea1d400 // fsub v0.4s, v0.4s, v1.4s
	WORD $0x6e20d400 // faddp v0.4s, v0.4s, v0.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	FMOVS F0, ret+40(FP)
	RET

// func quantizeQ8KNEON(x *float32, qs *int8, d *float32, bsums *int16, nb int)
// As quantize_row_q8_K_ref, except that where the largest magnitude is
// both a positive and a negative value, the positive one sets the sign of
// the scale (the quantized values are the same up to that sign).
TEXT ·quantizeQ8KNEON(SB), NOSPLIT, $0-40
	MOVD x+0(FP), R0
	MOVD qs+8(FP), R1
	MOVD d+16(FP), R2
	MOVD bsums+24(FP), R3
	MOVD nb+32(FP), R4
	WORD $0xb4000944 // cbz x4, 0x128
	WORD $0x4f0307fd // movi v29.4s, #127
	WORD $0x4f00e410 // movi v16.16b, #0
	WORD $0x4f00e411 // movi v17.16b, #0
	WORD $0x4f00e412 // movi v18.16b, #0
	WORD $0x4f00e413 // movi v19.16b, #0
	WORD $0x52b85fca // mov w10, #-1023541248
	WORD $0x1e27015c // fmov s28, w10
	WORD $0x3dc00004 // ldr q4, [x0]
	WORD $0x4ea41c85 // mov v5.16b, v4.16b
	WORD $0xaa0003e9 // mov x9, x0
	WORD $0xd280020b // mov x11, #16
	WORD $0x4cdf2920 // ld1 { v0.4s, v1.4s, v2.4s, v3.4s }, [x9], #64
	WORD $0x4e20f484 // fmax v4.4s, v4.4s, v0.4s
	WORD $0x4ea0f4a5 // fmin v5.4s, v5.4s, v0.4s
	WORD $0x4e21f484 // fmax v4.4s, v4.4s, v1.4s
	WORD $0x4ea1f4a5 // fmin v5.4s, v5.4s, v1.4s
	WORD $0x4e22f484 // fmax v4.4s, v4.4s, v2.4s
	WORD $0x4ea2f4a5 // fmin v5.4s, v5.4s, v2.4s
	WORD $0x4e23f484 // fmax v4.4s, v4.4s, v3.4s
	WORD $0x4ea3f4a5 // fmin v5.4s, v5.4s, v3.4s
	WORD $0xf100056b // subs x11, x11, #1
	WORD $0x54fffec1 // b.ne 0x30
	WORD $0x6e30f884 // fmaxv s4, v4.4s
	WORD $0x6eb0f8a5 // fminv s5, v5.4s
	WORD $0x1e2140a6 // fneg s6, s5
	WORD $0x1e262080 // fcmp s4, s6
	WORD $0x1e25ac87 // fcsel s7, s4, s5, ge
	WORD $0x1e26ac88 // fcsel s8, s4, s6, ge
	WORD $0x1e202108 // fcmp s8, #0.0
	WORD $0x54000101 // b.ne 0x98
	WORD $0xb800445f // str wzr, [x2], #4
	WORD $0x4c9f2030 // st1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x4c9f2030 // st1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x4c9f2030 // st1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x4c9f2030 // st1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x4c9fa070 // st1 { v16.16b, v17.16b }, [x3], #32
	WORD $0x14000022 // b 0x11c
	WORD $0x1e271b89 // fdiv s9, s28, s7
	WORD $0x1e2e100a // fmov s10, #1.00000000
	WORD $0x1e29194a // fdiv s10, s10, s9
	WORD $0xbc00444a // str s10, [x2], #4
	WORD $0xaa0003e9 // mov x9, x0
	WORD $0xd280020b // mov x11, #16
	WORD $0x4cdf2920 // ld1 { v0.4s, v1.4s, v2.4s, v3.4s }, [x9], #64
	WORD $0x4f899000 // fmul v0.4s, v0.4s, v9.s[0]
	WORD $0x4f899021 // fmul v1.4s, v1.4s, v9.s[0]
	WORD $0x4f899042 // fmul v2.4s, v2.4s, v9.s[0]
	WORD $0x4f899063 // fmul v3.4s, v3.4s, v9.s[0]
	WORD $0x4e21a800 // fcvtns v0.4s, v0.4s
	WORD $0x4e21a821 // fcvtns v1.4s, v1.4s
	WORD $0x4e21a842 // fcvtns v2.4s, v2.4s
	WORD $0x4e21a863 // fcvtns v3.4s, v3.4s
	WORD $0x4ebd6c00 // smin v0.4s, v0.4s, v29.4s
	WORD $0x4ebd6c21 // smin v1.4s, v1.4s, v29.4s
	WORD $0x4ebd6c42 // smin v2.4s, v2.4s, v29.4s
	WORD $0x4ebd6c63 // smin v3.4s, v3.4s, v29.4s
	WORD $0x4ea18414 // add v20.4s, v0.4s, v1.4s
	WORD $0x4ea38455 // add v21.4s, v2.4s, v3.4s
	WORD $0x4eb58694 // add v20.4s, v20.4s, v21.4s
	WORD $0x4eb1ba94 // addv s20, v20.4s
	WORD $0x7c002474 // str h20, [x3], #2
	WORD $0x0e614800 // sqxtn v0.4h, v0.4s
	WORD $0x4e614820 // sqxtn2 v0.8h, v1.4s
	WORD $0x0e614842 // sqxtn v2.4h, v2.4s
	WORD $0x4e614862 // sqxtn2 v2.8h, v3.4s
	WORD $0x0e214800 // sqxtn v0.8b, v0.8h
	WORD $0x4e214840 // sqxtn2 v0.16b, v2.8h
	WORD $0x4c9f7020 // st1 { v0.16b }, [x1], #16
	WORD $0xf100056b // subs x11, x11, #1
	WORD $0x54fffcc1 // b.ne 0xb0
	WORD $0x91100000 // add x0, x0, #1024
	WORD $0xf1000484 // subs x4, x4, #1
	WORD $0x54fff7e1 // b.ne 0x20
	RET

// func dotMXFP4NEON(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32
TEXT ·dotMXFP4NEON(SB), NOSPLIT, $0-44
	MOVD w+0(FP), R0
	MOVD qs+8(FP), R1
	MOVD qd+16(FP), R2
	MOVD neg+24(FP), R3
	MOVD nb+32(FP), R4
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0xb4000544 // cbz x4, 0xb4
	WORD $0xd280200a // mov x10, #256
	WORD $0xf2a0604a // movk x10, #770, lsl #16
	WORD $0xf2c0c08a // movk x10, #1540, lsl #32
	WORD $0xf2e1810a // movk x10, #3080, lsl #48
	WORD $0x9e67015b // fmov d27, x10
	WORD $0xd29fe00a // mov x10, #65280
	WORD $0xf2bfbfca // movk x10, #65022, lsl #16
	WORD $0xf2df5f8a // movk x10, #64252, lsl #32
	WORD $0xf2fe9f0a // movk x10, #62712, lsl #48
	WORD $0x4e181d5b // mov v27.d[1], x10
	WORD $0x3cc01002 // ldur q2, [x0, #1]
	WORD $0x4e3e1c43 // and v3.16b, v2.16b, v30.16b
	WORD $0x6f0c0444 // ushr v4.16b, v2.16b, #4
	WORD $0x4e030363 // tbl v3.16b, { v27.16b }, v3.16b
	WORD $0x4e040364 // tbl v4.16b, { v27.16b }, v4.16b
	WORD $0x4cdfa025 // ld1 { v5.16b, v6.16b }, [x1], #32
	WORD $0x0e25c06a // smull v10.8h, v3.8b, v5.8b
	WORD $0x4e25c06b // smull2 v11.8h, v3.16b, v5.16b
	WORD $0x4e60294c // saddlp v12.4s, v10.8h
	WORD $0x4e60696c // sadalp v12.4s, v11.8h
	WORD $0x0e26c08a // smull v10.8h, v4.8b, v6.8b
	WORD $0x4e26c08b // smull2 v11.8h, v4.16b, v6.16b
	WORD $0x4e60694c // sadalp v12.4s, v10.8h
	WORD $0x4e60696c // sadalp v12.4s, v11.8h
	WORD $0xbc404452 // ldr s18, [x2], #4
	WORD $0x39400009 // ldrb w9, [x0]
	WORD $0x7100093f // cmp w9, #2
	WORD $0x54000082 // b.hs 0x8c
	WORD $0x1100052a // add w10, w9, #1
	WORD $0x530b294a // lsl w10, w10, #21
	WORD $0x14000003 // b 0x94
	WORD $0x5100052a // sub w10, w9, #1
	WORD $0x5309214a // lsl w10, w10, #23
	WORD $0x1e270150 // fmov s16, w10
	WORD $0x1e320a10 // fmul s16, s16, s18
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4f901180 // fmla v0.4s, v12.4s, v16.s[0]
	WORD $0x91001063 // add x3, x3, #4
	WORD $0x91004400 // add x0, x0, #17
	WORD $0xf1000484 // subs x4, x4, #1
	WORD $0x54fffc41 // b.ne 0x38
	WORD $0x4ea1d400 // fsub v0.4s, v0.4s, v1.4s
	WORD $0x6e20d400 // faddp v0.4s, v0.4s, v0.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	FMOVS F0, ret+40(FP)
	RET

// func dotTQ2NEON(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32
TEXT ·dotTQ2NEON(SB), NOSPLIT, $0-44
	MOVD w+0(FP), R0
	MOVD qs+8(FP), R1
	MOVD qd+16(FP), R2
	MOVD bsums+24(FP), R3
	MOVD nb+32(FP), R4
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0xb4001004 // cbz x4, 0x20c
	WORD $0x4f00e47b // movi v27.16b, #3
	WORD $0x4f00e43d // movi v29.16b, #1
	WORD $0xbc404459 // ldr s25, [x2], #4
	WORD $0x7d40801a // ldr h26, [x0, #64]
	WORD $0x1ee2435a // fcvt s26, h26
	WORD $0x1e390b5a // fmul s26, s26, s25
	WORD $0x91008063 // add x3, x3, #32
	WORD $0x4f00e41f // movi v31.16b, #0
	WORD $0xad400c02 // ldp q2, q3, [x0]
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x4e3b1c48 // and v8.16b, v2.16b, v27.16b
	WORD $0x6e3d8508 // sub v8.16b, v8.16b, v29.16b
	WORD $0x0e30c10a // smull v10.8h, v8.8b, v16.8b
	WORD $0x4e30c10b // smull2 v11.8h, v8.16b, v16.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x4e3b1c69 // and v9.16b, v3.16b, v27.16b
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e31c12a // smull v10.8h, v9.8b, v17.8b
	WORD $0x4e31c12b // smull2 v11.8h, v9.16b, v17.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x6f0e0448 // ushr v8.16b, v2.16b, #2
	WORD $0x4e3b1d08 // and v8.16b, v8.16b, v27.16b
	WORD $0x6e3d8508 // sub v8.16b, v8.16b, v29.16b
	WORD $0x0e32c10a // smull v10.8h, v8.8b, v18.8b
	WORD $0x4e32c10b // smull2 v11.8h, v8.16b, v18.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x6f0e0469 // ushr v9.16b, v3.16b, #2
	WORD $0x4e3b1d29 // and v9.16b, v9.16b, v27.16b
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e33c12a // smull v10.8h, v9.8b, v19.8b
	WORD $0x4e33c12b // smull2 v11.8h, v9.16b, v19.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x6f0c0448 // ushr v8.16b, v2.16b, #4
	WORD $0x4e3b1d08 // and v8.16b, v8.16b, v27.16b
	WORD $0x6e3d8508 // sub v8.16b, v8.16b, v29.16b
	WORD $0x0e30c10a // smull v10.8h, v8.8b, v16.8b
	WORD $0x4e30c10b // smull2 v11.8h, v8.16b, v16.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x6f0c0469 // ushr v9.16b, v3.16b, #4
	WORD $0x4e3b1d29 // and v9.16b, v9.16b, v27.16b
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e31c12a // smull v10.8h, v9.8b, v17.8b
	WORD $0x4e31c12b // smull2 v11.8h, v9.16b, v17.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x6f0a0448 // ushr v8.16b, v2.16b, #6
	WORD $0x4e3b1d08 // and v8.16b, v8.16b, v27.16b
	WORD $0x6e3d8508 // sub v8.16b, v8.16b, v29.16b
	WORD $0x0e32c10a // smull v10.8h, v8.8b, v18.8b
	WORD $0x4e32c10b // smull2 v11.8h, v8.16b, v18.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x6f0a0469 // ushr v9.16b, v3.16b, #6
	WORD $0x4e3b1d29 // and v9.16b, v9.16b, v27.16b
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e33c12a // smull v10.8h, v9.8b, v19.8b
	WORD $0x4e33c12b // smull2 v11.8h, v9.16b, v19.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0xad410c02 // ldp q2, q3, [x0, #32]
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x4e3b1c48 // and v8.16b, v2.16b, v27.16b
	WORD $0x6e3d8508 // sub v8.16b, v8.16b, v29.16b
	WORD $0x0e30c10a // smull v10.8h, v8.8b, v16.8b
	WORD $0x4e30c10b // smull2 v11.8h, v8.16b, v16.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x4e3b1c69 // and v9.16b, v3.16b, v27.16b
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e31c12a // smull v10.8h, v9.8b, v17.8b
	WORD $0x4e31c12b // smull2 v11.8h, v9.16b, v17.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x6f0e0448 // ushr v8.16b, v2.16b, #2
	WORD $0x4e3b1d08 // and v8.16b, v8.16b, v27.16b
	WORD $0x6e3d8508 // sub v8.16b, v8.16b, v29.16b
	WORD $0x0e32c10a // smull v10.8h, v8.8b, v18.8b
	WORD $0x4e32c10b // smull2 v11.8h, v8.16b, v18.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x6f0e0469 // ushr v9.16b, v3.16b, #2
	WORD $0x4e3b1d29 // and v9.16b, v9.16b, v27.16b
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e33c12a // smull v10.8h, v9.8b, v19.8b
	WORD $0x4e33c12b // smull2 v11.8h, v9.16b, v19.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x6f0c0448 // ushr v8.16b, v2.16b, #4
	WORD $0x4e3b1d08 // and v8.16b, v8.16b, v27.16b
	WORD $0x6e3d8508 // sub v8.16b, v8.16b, v29.16b
	WORD $0x0e30c10a // smull v10.8h, v8.8b, v16.8b
	WORD $0x4e30c10b // smull2 v11.8h, v8.16b, v16.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x6f0c0469 // ushr v9.16b, v3.16b, #4
	WORD $0x4e3b1d29 // and v9.16b, v9.16b, v27.16b
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e31c12a // smull v10.8h, v9.8b, v17.8b
	WORD $0x4e31c12b // smull2 v11.8h, v9.16b, v17.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x6f0a0448 // ushr v8.16b, v2.16b, #6
	WORD $0x4e3b1d08 // and v8.16b, v8.16b, v27.16b
	WORD $0x6e3d8508 // sub v8.16b, v8.16b, v29.16b
	WORD $0x0e32c10a // smull v10.8h, v8.8b, v18.8b
	WORD $0x4e32c10b // smull2 v11.8h, v8.16b, v18.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x6f0a0469 // ushr v9.16b, v3.16b, #6
	WORD $0x4e3b1d29 // and v9.16b, v9.16b, v27.16b
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e33c12a // smull v10.8h, v9.8b, v19.8b
	WORD $0x4e33c12b // smull2 v11.8h, v9.16b, v19.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x4e21dbff // scvtf v31.4s, v31.4s
	WORD $0x4f9a13e0 // fmla v0.4s, v31.4s, v26.s[0]
	WORD $0x91010800 // add x0, x0, #66
	WORD $0xf1000484 // subs x4, x4, #1
	WORD $0x54fff081 // b.ne 0x18
	WORD $0x4ea1d400 // fsub v0.4s, v0.4s, v1.4s
	WORD $0x6e20d400 // faddp v0.4s, v0.4s, v0.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	FMOVS F0, ret+40(FP)
	RET

// func dotTQ1NEON(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32
TEXT ·dotTQ1NEON(SB), NOSPLIT, $0-44
	MOVD w+0(FP), R0
	MOVD qs+8(FP), R1
	MOVD qd+16(FP), R2
	MOVD bsums+24(FP), R3
	MOVD nb+32(FP), R4
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0xb40018e4 // cbz x4, 0x328
	WORD $0x4f00e475 // movi v21.16b, #3
	WORD $0x4f00e537 // movi v23.16b, #9
	WORD $0x4f00e778 // movi v24.16b, #27
	WORD $0x4f02e639 // movi v25.16b, #81
	WORD $0x4f00e43d // movi v29.16b, #1
	WORD $0xd280202a // mov x10, #257
	WORD $0xf2a0202a // movk x10, #257, lsl #16
	WORD $0xf2c0606a // movk x10, #771, lsl #32
	WORD $0xf2e0606a // movk x10, #771, lsl #48
	WORD $0x9e67015a // fmov d26, x10
	WORD $0xd281212a // mov x10, #2313
	WORD $0xf2a1212a // movk x10, #2313, lsl #16
	WORD $0xf2c3636a // movk x10, #6939, lsl #32
	WORD $0xf2e3636a // movk x10, #6939, lsl #48
	WORD $0x4e181d5a // mov v26.d[1], x10
	WORD $0xbc40445c // ldr s28, [x2], #4
	WORD $0x7d40681b // ldr h27, [x0, #52]
	WORD $0x1ee2437b // fcvt s27, h27
	WORD $0x1e3c0b7b // fmul s27, s27, s28
	WORD $0x91008063 // add x3, x3, #32
	WORD $0x4f00e41f // movi v31.16b, #0
	WORD $0xad400c02 // ldp q2, q3, [x0]
	WORD $0x3dc00804 // ldr q4, [x0, #32]
	WORD $0x9100c009 // add x9, x0, #48
	WORD $0x4d40c925 // ld1r { v5.4s }, [x9]
	WORD $0x4cdfa030 // ld1 { v16.16b, v17.16b }, [x1], #32
	WORD $0x2e35c054 // umull v20.8h, v2.8b, v21.8b
	WORD $0x6e35c056 // umull2 v22.8h, v2.16b, v21.16b
	WORD $0x0f088689 // shrn v9.8b, v20.8h, #8
	WORD $0x4f0886c9 // shrn2 v9.16b, v22.8h, #8
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e30c12a // smull v10.8h, v9.8b, v16.8b
	WORD $0x4e30c12b // smull2 v11.8h, v9.16b, v16.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x2e35c074 // umull v20.8h, v3.8b, v21.8b
	WORD $0x6e35c076 // umull2 v22.8h, v3.16b, v21.16b
	WORD $0x0f088689 // shrn v9.8b, v20.8h, #8
	WORD $0x4f0886c9 // shrn2 v9.16b, v22.8h, #8
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e31c12a // smull v10.8h, v9.8b, v17.8b
	WORD $0x4e31c12b // smull2 v11.8h, v9.16b, v17.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x4cdfa030 // ld1 { v16.16b, v17.16b }, [x1], #32
	WORD $0x4e359c48 // mul v8.16b, v2.16b, v21.16b
	WORD $0x2e35c114 // umull v20.8h, v8.8b, v21.8b
	WORD $0x6e35c116 // umull2 v22.8h, v8.16b, v21.16b
	WORD $0x0f088689 // shrn v9.8b, v20.8h, #8
	WORD $0x4f0886c9 // shrn2 v9.16b, v22.8h, #8
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e30c12a // smull v10.8h, v9.8b, v16.8b
	WORD $0x4e30c12b // smull2 v11.8h, v9.16b, v16.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x4e359c68 // mul v8.16b, v3.16b, v21.16b
	WORD $0x2e35c114 // umull v20.8h, v8.8b, v21.8b
	WORD $0x6e35c116 // umull2 v22.8h, v8.16b, v21.16b
	WORD $0x0f088689 // shrn v9.8b, v20.8h, #8
	WORD $0x4f0886c9 // shrn2 v9.16b, v22.8h, #8
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e31c12a // smull v10.8h, v9.8b, v17.8b
	WORD $0x4e31c12b // smull2 v11.8h, v9.16b, v17.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x4cdfa030 // ld1 { v16.16b, v17.16b }, [x1], #32
	WORD $0x4e379c48 // mul v8.16b, v2.16b, v23.16b
	WORD $0x2e35c114 // umull v20.8h, v8.8b, v21.8b
	WORD $0x6e35c116 // umull2 v22.8h, v8.16b, v21.16b
	WORD $0x0f088689 // shrn v9.8b, v20.8h, #8
	WORD $0x4f0886c9 // shrn2 v9.16b, v22.8h, #8
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e30c12a // smull v10.8h, v9.8b, v16.8b
	WORD $0x4e30c12b // smull2 v11.8h, v9.16b, v16.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x4e379c68 // mul v8.16b, v3.16b, v23.16b
	WORD $0x2e35c114 // umull v20.8h, v8.8b, v21.8b
	WORD $0x6e35c116 // umull2 v22.8h, v8.16b, v21.16b
	WORD $0x0f088689 // shrn v9.8b, v20.8h, #8
	WORD $0x4f0886c9 // shrn2 v9.16b, v22.8h, #8
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e31c12a // smull v10.8h, v9.8b, v17.8b
	WORD $0x4e31c12b // smull2 v11.8h, v9.16b, v17.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x4cdfa030 // ld1 { v16.16b, v17.16b }, [x1], #32
	WORD $0x4e389c48 // mul v8.16b, v2.16b, v24.16b
	WORD $0x2e35c114 // umull v20.8h, v8.8b, v21.8b
	WORD $0x6e35c116 // umull2 v22.8h, v8.16b, v21.16b
	WORD $0x0f088689 // shrn v9.8b, v20.8h, #8
	WORD $0x4f0886c9 // shrn2 v9.16b, v22.8h, #8
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e30c12a // smull v10.8h, v9.8b, v16.8b
	WORD $0x4e30c12b // smull2 v11.8h, v9.16b, v16.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x4e389c68 // mul v8.16b, v3.16b, v24.16b
	WORD $0x2e35c114 // umull v20.8h, v8.8b, v21.8b
	WORD $0x6e35c116 // umull2 v22.8h, v8.16b, v21.16b
	WORD $0x0f088689 // shrn v9.8b, v20.8h, #8
	WORD $0x4f0886c9 // shrn2 v9.16b, v22.8h, #8
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e31c12a // smull v10.8h, v9.8b, v17.8b
	WORD $0x4e31c12b // smull2 v11.8h, v9.16b, v17.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x4cdfa030 // ld1 { v16.16b, v17.16b }, [x1], #32
	WORD $0x4e399c48 // mul v8.16b, v2.16b, v25.16b
	WORD $0x2e35c114 // umull v20.8h, v8.8b, v21.8b
	WORD $0x6e35c116 // umull2 v22.8h, v8.16b, v21.16b
	WORD $0x0f088689 // shrn v9.8b, v20.8h, #8
	WORD $0x4f0886c9 // shrn2 v9.16b, v22.8h, #8
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e30c12a // smull v10.8h, v9.8b, v16.8b
	WORD $0x4e30c12b // smull2 v11.8h, v9.16b, v16.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x4e399c68 // mul v8.16b, v3.16b, v25.16b
	WORD $0x2e35c114 // umull v20.8h, v8.8b, v21.8b
	WORD $0x6e35c116 // umull2 v22.8h, v8.16b, v21.16b
	WORD $0x0f088689 // shrn v9.8b, v20.8h, #8
	WORD $0x4f0886c9 // shrn2 v9.16b, v22.8h, #8
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e31c12a // smull v10.8h, v9.8b, v17.8b
	WORD $0x4e31c12b // smull2 v11.8h, v9.16b, v17.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x4cdf7030 // ld1 { v16.16b }, [x1], #16
	WORD $0x2e35c094 // umull v20.8h, v4.8b, v21.8b
	WORD $0x6e35c096 // umull2 v22.8h, v4.16b, v21.16b
	WORD $0x0f088689 // shrn v9.8b, v20.8h, #8
	WORD $0x4f0886c9 // shrn2 v9.16b, v22.8h, #8
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e30c12a // smull v10.8h, v9.8b, v16.8b
	WORD $0x4e30c12b // smull2 v11.8h, v9.16b, v16.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x4cdf7030 // ld1 { v16.16b }, [x1], #16
	WORD $0x4e359c88 // mul v8.16b, v4.16b, v21.16b
	WORD $0x2e35c114 // umull v20.8h, v8.8b, v21.8b
	WORD $0x6e35c116 // umull2 v22.8h, v8.16b, v21.16b
	WORD $0x0f088689 // shrn v9.8b, v20.8h, #8
	WORD $0x4f0886c9 // shrn2 v9.16b, v22.8h, #8
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e30c12a // smull v10.8h, v9.8b, v16.8b
	WORD $0x4e30c12b // smull2 v11.8h, v9.16b, v16.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x4cdf7030 // ld1 { v16.16b }, [x1], #16
	WORD $0x4e379c88 // mul v8.16b, v4.16b, v23.16b
	WORD $0x2e35c114 // umull v20.8h, v8.8b, v21.8b
	WORD $0x6e35c116 // umull2 v22.8h, v8.16b, v21.16b
	WORD $0x0f088689 // shrn v9.8b, v20.8h, #8
	WORD $0x4f0886c9 // shrn2 v9.16b, v22.8h, #8
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e30c12a // smull v10.8h, v9.8b, v16.8b
	WORD $0x4e30c12b // smull2 v11.8h, v9.16b, v16.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x4cdf7030 // ld1 { v16.16b }, [x1], #16
	WORD $0x4e389c88 // mul v8.16b, v4.16b, v24.16b
	WORD $0x2e35c114 // umull v20.8h, v8.8b, v21.8b
	WORD $0x6e35c116 // umull2 v22.8h, v8.16b, v21.16b
	WORD $0x0f088689 // shrn v9.8b, v20.8h, #8
	WORD $0x4f0886c9 // shrn2 v9.16b, v22.8h, #8
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e30c12a // smull v10.8h, v9.8b, v16.8b
	WORD $0x4e30c12b // smull2 v11.8h, v9.16b, v16.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x4cdf7030 // ld1 { v16.16b }, [x1], #16
	WORD $0x4e399c88 // mul v8.16b, v4.16b, v25.16b
	WORD $0x2e35c114 // umull v20.8h, v8.8b, v21.8b
	WORD $0x6e35c116 // umull2 v22.8h, v8.16b, v21.16b
	WORD $0x0f088689 // shrn v9.8b, v20.8h, #8
	WORD $0x4f0886c9 // shrn2 v9.16b, v22.8h, #8
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e30c12a // smull v10.8h, v9.8b, v16.8b
	WORD $0x4e30c12b // smull2 v11.8h, v9.16b, v16.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x4cdf7030 // ld1 { v16.16b }, [x1], #16
	WORD $0x4e3a9ca8 // mul v8.16b, v5.16b, v26.16b
	WORD $0x2e35c114 // umull v20.8h, v8.8b, v21.8b
	WORD $0x6e35c116 // umull2 v22.8h, v8.16b, v21.16b
	WORD $0x0f088689 // shrn v9.8b, v20.8h, #8
	WORD $0x4f0886c9 // shrn2 v9.16b, v22.8h, #8
	WORD $0x6e3d8529 // sub v9.16b, v9.16b, v29.16b
	WORD $0x0e30c12a // smull v10.8h, v9.8b, v16.8b
	WORD $0x4e30c12b // smull2 v11.8h, v9.16b, v16.16b
	WORD $0x4e60695f // sadalp v31.4s, v10.8h
	WORD $0x4e60697f // sadalp v31.4s, v11.8h
	WORD $0x4e21dbff // scvtf v31.4s, v31.4s
	WORD $0x4f9b13e0 // fmla v0.4s, v31.4s, v27.s[0]
	WORD $0x9100d800 // add x0, x0, #54
	WORD $0xf1000484 // subs x4, x4, #1
	WORD $0x54ffe941 // b.ne 0x4c
	WORD $0x4ea1d400 // fsub v0.4s, v0.4s, v1.4s
	WORD $0x6e20d400 // faddp v0.4s, v0.4s, v0.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	FMOVS F0, ret+40(FP)
	RET

// func dotQ4KSDOT(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32
TEXT ·dotQ4KSDOT(SB), NOSPLIT, $0-44
	MOVD w+0(FP), R0
	MOVD qs+8(FP), R1
	MOVD qd+16(FP), R2
	MOVD bsums+24(FP), R3
	MOVD nb+32(FP), R4
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0xb4000c24 // cbz x4, 0x190
	WORD $0xb9400405 // ldr w5, [x0, #4]
	WORD $0xb9400806 // ldr w6, [x0, #8]
	WORD $0xb9400c07 // ldr w7, [x0, #12]
	WORD $0x53047ce8 // lsr w8, w7, #4
	WORD $0x1200cd08 // and w8, w8, #0xf0f0f0f
	WORD $0x53067cc9 // lsr w9, w6, #6
	WORD $0x1200c529 // and w9, w9, #0x3030303
	WORD $0x2a091108 // orr w8, w8, w9, lsl #4
	WORD $0x1200d4ca // and w10, w6, #0x3f3f3f3f
	WORD $0x1200cceb // and w11, w7, #0xf0f0f0f
	WORD $0x53067ca9 // lsr w9, w5, #6
	WORD $0x1200c529 // and w9, w9, #0x3030303
	WORD $0x2a09116b // orr w11, w11, w9, lsl #4
	WORD $0x1200d4a5 // and w5, w5, #0x3f3f3f3f
	WORD $0x1e2700af // fmov s15, w5
	WORD $0x4e0c1d6f // mov v15.s[1], w11
	WORD $0x2f08a5ef // ushll v15.8h, v15.8b, #0
	WORD $0x1e270154 // fmov s20, w10
	WORD $0x4e0c1d14 // mov v20.s[1], w8
	WORD $0x2f08a694 // ushll v20.8h, v20.8b, #0
	WORD $0x4cdfa475 // ld1 { v21.8h, v22.8h }, [x3], #32
	WORD $0x4e76beb5 // addp v21.8h, v21.8h, v22.8h
	WORD $0x0e75c297 // smull v23.4s, v20.4h, v21.4h
	WORD $0x4e758297 // smlal2 v23.4s, v20.8h, v21.8h
	WORD $0x4e21daf7 // scvtf v23.4s, v23.4s
	WORD $0xbc404459 // ldr s25, [x2], #4
	WORD $0x7d400418 // ldr h24, [x0, #2]
	WORD $0x1ee24318 // fcvt s24, h24
	WORD $0x1e390b18 // fmul s24, s24, s25
	WORD $0x4f9812e1 // fmla v1.4s, v23.4s, v24.s[0]
	WORD $0x7d40001a // ldr h26, [x0]
	WORD $0x1ee2435a // fcvt s26, h26
	WORD $0x1e390b5a // fmul s26, s26, s25
	WORD $0x4f00e41f // movi v31.16b, #0
	WORD $0x2f10a5ed // ushll v13.4s, v15.4h, #0
	WORD $0x6f10a5ee // ushll2 v14.4s, v15.8h, #0
	WORD $0x91004009 // add x9, x0, #16
	WORD $0x4cdf2122 // ld1 { v2.16b, v3.16b, v4.16b, v5.16b }, [x9], #64
	WORD $0x4e3e1c46 // and v6.16b, v2.16b, v30.16b
	WORD $0x4e3e1c67 // and v7.16b, v3.16b, v30.16b
	WORD $0x6f0c0448 // ushr v8.16b, v2.16b, #4
	WORD $0x6f0c0469 // ushr v9.16b, v3.16b, #4
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4e9094ca // sdot v10.4s, v6.16b, v16.16b
	WORD $0x4e9194ea // sdot v10.4s, v7.16b, v17.16b
	WORD $0x6f8d015f // mla v31.4s, v10.4s, v13.s[0]
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4e92950a // sdot v10.4s, v8.16b, v18.16b
	WORD $0x4e93952a // sdot v10.4s, v9.16b, v19.16b
	WORD $0x6fad015f // mla v31.4s, v10.4s, v13.s[1]
	WORD $0x4e3e1c86 // and v6.16b, v4.16b, v30.16b
	WORD $0x4e3e1ca7 // and v7.16b, v5.16b, v30.16b
	WORD $0x6f0c0488 // ushr v8.16b, v4.16b, #4
	WORD $0x6f0c04a9 // ushr v9.16b, v5.16b, #4
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4e9094ca // sdot v10.4s, v6.16b, v16.16b
	WORD $0x4e9194ea // sdot v10.4s, v7.16b, v17.16b
	WORD $0x6f8d095f // mla v31.4s, v10.4s, v13.s[2]
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4e92950a // sdot v10.4s, v8.16b, v18.16b
	WORD $0x4e93952a // sdot v10.4s, v9.16b, v19.16b
	WORD $0x6fad095f // mla v31.4s, v10.4s, v13.s[3]
	WORD $0x4cdf2122 // ld1 { v2.16b, v3.16b, v4.16b, v5.16b }, [x9], #64
	WORD $0x4e3e1c46 // and v6.16b, v2.16b, v30.16b
	WORD $0x4e3e1c67 // and v7.16b, v3.16b, v30.16b
	WORD $0x6f0c0448 // ushr v8.16b, v2.16b, #4
	WORD $0x6f0c0469 // ushr v9.16b, v3.16b, #4
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4e9094ca // sdot v10.4s, v6.16b, v16.16b
	WORD $0x4e9194ea // sdot v10.4s, v7.16b, v17.16b
	WORD $0x6f8e015f // mla v31.4s, v10.4s, v14.s[0]
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4e92950a // sdot v10.4s, v8.16b, v18.16b
	WORD $0x4e93952a // sdot v10.4s, v9.16b, v19.16b
	WORD $0x6fae015f // mla v31.4s, v10.4s, v14.s[1]
	WORD $0x4e3e1c86 // and v6.16b, v4.16b, v30.16b
	WORD $0x4e3e1ca7 // and v7.16b, v5.16b, v30.16b
	WORD $0x6f0c0488 // ushr v8.16b, v4.16b, #4
	WORD $0x6f0c04a9 // ushr v9.16b, v5.16b, #4
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4e9094ca // sdot v10.4s, v6.16b, v16.16b
	WORD $0x4e9194ea // sdot v10.4s, v7.16b, v17.16b
	WORD $0x6f8e095f // mla v31.4s, v10.4s, v14.s[2]
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4e92950a // sdot v10.4s, v8.16b, v18.16b
	WORD $0x4e93952a // sdot v10.4s, v9.16b, v19.16b
	WORD $0x6fae095f // mla v31.4s, v10.4s, v14.s[3]
	WORD $0x4e21dbff // scvtf v31.4s, v31.4s
	WORD $0x4f9a13e0 // fmla v0.4s, v31.4s, v26.s[0]
	WORD $0x91024000 // add x0, x0, #144
	WORD $0xf1000484 // subs x4, x4, #1
	WORD $0x54fff421 // b.ne 0x10
	WORD $0x4ea1d400 // fsub v0.4s, v0.4s, v1.4s
	WORD $0x6e20d400 // faddp v0.4s, v0.4s, v0.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	FMOVS F0, ret+40(FP)
	RET

// func dotQ6KSDOT(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32
TEXT ·dotQ6KSDOT(SB), NOSPLIT, $0-44
	MOVD w+0(FP), R0
	MOVD qs+8(FP), R1
	MOVD qd+16(FP), R2
	MOVD bsums+24(FP), R3
	MOVD nb+32(FP), R4
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0xb4001344 // cbz x4, 0x274
	WORD $0x4f01e61d // movi v29.16b, #48
	WORD $0x4f01e41c // movi v28.16b, #32
	WORD $0x3dc0300e // ldr q14, [x0, #192]
	WORD $0x4f08a5cf // sshll2 v15.8h, v14.16b, #0
	WORD $0x0f08a5ce // sshll v14.8h, v14.8b, #0
	WORD $0x0f10a5cc // sshll v12.4s, v14.4h, #0
	WORD $0x4f10a5cd // sshll2 v13.4s, v14.8h, #0
	WORD $0x0f10a5f5 // sshll v21.4s, v15.4h, #0
	WORD $0x4f10a5f6 // sshll2 v22.4s, v15.8h, #0
	WORD $0xbc404459 // ldr s25, [x2], #4
	WORD $0x7d41a01a // ldr h26, [x0, #208]
	WORD $0x1ee2435a // fcvt s26, h26
	WORD $0x1e390b5a // fmul s26, s26, s25
	WORD $0x91008063 // add x3, x3, #32
	WORD $0x4f00e41f // movi v31.16b, #0
	WORD $0xaa0003e9 // mov x9, x0
	WORD $0x4cdf2122 // ld1 { v2.16b, v3.16b, v4.16b, v5.16b }, [x9], #64
	WORD $0xad441c06 // ldp q6, q7, [x0, #128]
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x4e3e1c48 // and v8.16b, v2.16b, v30.16b
	WORD $0x4f0c54d4 // shl v20.16b, v6.16b, #4
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d08 // orr v8.16b, v8.16b, v20.16b
	WORD $0x6e3c8508 // sub v8.16b, v8.16b, v28.16b
	WORD $0x4e3e1c69 // and v9.16b, v3.16b, v30.16b
	WORD $0x4f0c54f4 // shl v20.16b, v7.16b, #4
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d29 // orr v9.16b, v9.16b, v20.16b
	WORD $0x6e3c8529 // sub v9.16b, v9.16b, v28.16b
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4e90950a // sdot v10.4s, v8.16b, v16.16b
	WORD $0x6f8c015f // mla v31.4s, v10.4s, v12.s[0]
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4e91952a // sdot v10.4s, v9.16b, v17.16b
	WORD $0x6fac015f // mla v31.4s, v10.4s, v12.s[1]
	WORD $0x4e3e1c88 // and v8.16b, v4.16b, v30.16b
	WORD $0x4f0a54d4 // shl v20.16b, v6.16b, #2
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d08 // orr v8.16b, v8.16b, v20.16b
	WORD $0x6e3c8508 // sub v8.16b, v8.16b, v28.16b
	WORD $0x4e3e1ca9 // and v9.16b, v5.16b, v30.16b
	WORD $0x4f0a54f4 // shl v20.16b, v7.16b, #2
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d29 // orr v9.16b, v9.16b, v20.16b
	WORD $0x6e3c8529 // sub v9.16b, v9.16b, v28.16b
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4e92950a // sdot v10.4s, v8.16b, v18.16b
	WORD $0x6f8c095f // mla v31.4s, v10.4s, v12.s[2]
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4e93952a // sdot v10.4s, v9.16b, v19.16b
	WORD $0x6fac095f // mla v31.4s, v10.4s, v12.s[3]
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x6f0c0448 // ushr v8.16b, v2.16b, #4
	WORD $0x4e3d1cd4 // and v20.16b, v6.16b, v29.16b
	WORD $0x4eb41d08 // orr v8.16b, v8.16b, v20.16b
	WORD $0x6e3c8508 // sub v8.16b, v8.16b, v28.16b
	WORD $0x6f0c0469 // ushr v9.16b, v3.16b, #4
	WORD $0x4e3d1cf4 // and v20.16b, v7.16b, v29.16b
	WORD $0x4eb41d29 // orr v9.16b, v9.16b, v20.16b
	WORD $0x6e3c8529 // sub v9.16b, v9.16b, v28.16b
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4e90950a // sdot v10.4s, v8.16b, v16.16b
	WORD $0x6f8d015f // mla v31.4s, v10.4s, v13.s[0]
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4e91952a // sdot v10.4s, v9.16b, v17.16b
	WORD $0x6fad015f // mla v31.4s, v10.4s, v13.s[1]
	WORD $0x6f0c0488 // ushr v8.16b, v4.16b, #4
	WORD $0x6f0e04d4 // ushr v20.16b, v6.16b, #2
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d08 // orr v8.16b, v8.16b, v20.16b
	WORD $0x6e3c8508 // sub v8.16b, v8.16b, v28.16b
	WORD $0x6f0c04a9 // ushr v9.16b, v5.16b, #4
	WORD $0x6f0e04f4 // ushr v20.16b, v7.16b, #2
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d29 // orr v9.16b, v9.16b, v20.16b
	WORD $0x6e3c8529 // sub v9.16b, v9.16b, v28.16b
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4e92950a // sdot v10.4s, v8.16b, v18.16b
	WORD $0x6f8d095f // mla v31.4s, v10.4s, v13.s[2]
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4e93952a // sdot v10.4s, v9.16b, v19.16b
	WORD $0x6fad095f // mla v31.4s, v10.4s, v13.s[3]
	WORD $0x4cdf2122 // ld1 { v2.16b, v3.16b, v4.16b, v5.16b }, [x9], #64
	WORD $0xad451c06 // ldp q6, q7, [x0, #160]
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x4e3e1c48 // and v8.16b, v2.16b, v30.16b
	WORD $0x4f0c54d4 // shl v20.16b, v6.16b, #4
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d08 // orr v8.16b, v8.16b, v20.16b
	WORD $0x6e3c8508 // sub v8.16b, v8.16b, v28.16b
	WORD $0x4e3e1c69 // and v9.16b, v3.16b, v30.16b
	WORD $0x4f0c54f4 // shl v20.16b, v7.16b, #4
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d29 // orr v9.16b, v9.16b, v20.16b
	WORD $0x6e3c8529 // sub v9.16b, v9.16b, v28.16b
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4e90950a // sdot v10.4s, v8.16b, v16.16b
	WORD $0x6f95015f // mla v31.4s, v10.4s, v21.s[0]
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4e91952a // sdot v10.4s, v9.16b, v17.16b
	WORD $0x6fb5015f // mla v31.4s, v10.4s, v21.s[1]
	WORD $0x4e3e1c88 // and v8.16b, v4.16b, v30.16b
	WORD $0x4f0a54d4 // shl v20.16b, v6.16b, #2
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d08 // orr v8.16b, v8.16b, v20.16b
	WORD $0x6e3c8508 // sub v8.16b, v8.16b, v28.16b
	WORD $0x4e3e1ca9 // and v9.16b, v5.16b, v30.16b
	WORD $0x4f0a54f4 // shl v20.16b, v7.16b, #2
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d29 // orr v9.16b, v9.16b, v20.16b
	WORD $0x6e3c8529 // sub v9.16b, v9.16b, v28.16b
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4e92950a // sdot v10.4s, v8.16b, v18.16b
	WORD $0x6f95095f // mla v31.4s, v10.4s, v21.s[2]
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4e93952a // sdot v10.4s, v9.16b, v19.16b
	WORD $0x6fb5095f // mla v31.4s, v10.4s, v21.s[3]
	WORD $0x4cdf2030 // ld1 { v16.16b, v17.16b, v18.16b, v19.16b }, [x1], #64
	WORD $0x6f0c0448 // ushr v8.16b, v2.16b, #4
	WORD $0x4e3d1cd4 // and v20.16b, v6.16b, v29.16b
	WORD $0x4eb41d08 // orr v8.16b, v8.16b, v20.16b
	WORD $0x6e3c8508 // sub v8.16b, v8.16b, v28.16b
	WORD $0x6f0c0469 // ushr v9.16b, v3.16b, #4
	WORD $0x4e3d1cf4 // and v20.16b, v7.16b, v29.16b
	WORD $0x4eb41d29 // orr v9.16b, v9.16b, v20.16b
	WORD $0x6e3c8529 // sub v9.16b, v9.16b, v28.16b
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4e90950a // sdot v10.4s, v8.16b, v16.16b
	WORD $0x6f96015f // mla v31.4s, v10.4s, v22.s[0]
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4e91952a // sdot v10.4s, v9.16b, v17.16b
	WORD $0x6fb6015f // mla v31.4s, v10.4s, v22.s[1]
	WORD $0x6f0c0488 // ushr v8.16b, v4.16b, #4
	WORD $0x6f0e04d4 // ushr v20.16b, v6.16b, #2
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d08 // orr v8.16b, v8.16b, v20.16b
	WORD $0x6e3c8508 // sub v8.16b, v8.16b, v28.16b
	WORD $0x6f0c04a9 // ushr v9.16b, v5.16b, #4
	WORD $0x6f0e04f4 // ushr v20.16b, v7.16b, #2
	WORD $0x4e3d1e94 // and v20.16b, v20.16b, v29.16b
	WORD $0x4eb41d29 // orr v9.16b, v9.16b, v20.16b
	WORD $0x6e3c8529 // sub v9.16b, v9.16b, v28.16b
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4e92950a // sdot v10.4s, v8.16b, v18.16b
	WORD $0x6f96095f // mla v31.4s, v10.4s, v22.s[2]
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4e93952a // sdot v10.4s, v9.16b, v19.16b
	WORD $0x6fb6095f // mla v31.4s, v10.4s, v22.s[3]
	WORD $0x4e21dbff // scvtf v31.4s, v31.4s
	WORD $0x4f9a13e0 // fmla v0.4s, v31.4s, v26.s[0]
	WORD $0x91034800 // add x0, x0, #210
	WORD $0xf1000484 // subs x4, x4, #1
	WORD $0x54ffed41 // b.ne 0x18
	WORD $0x4ea1d400 // fsub v0.4s, v0.4s, v1.4s
	WORD $0x6e20d400 // faddp v0.4s, v0.4s, v0.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	FMOVS F0, ret+40(FP)
	RET

