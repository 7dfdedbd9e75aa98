//go:build arm64 && !purego

#include "textflag.h"

// NEON dot kernels for the K-quants (kquants.go), ARMv8.0 baseline: the
// weight quants are unpacked to bytes, multiplied with the Q8_K
// activations by SMULL/SMULL2 into 16-bit sums (at most 4 products of
// |q| <= 63 and |y| <= 127 each), weighted by their sub-block scales with
// SMLAL by element into int32, and the offsets (the mins) applied through
// the activations' 16-value sums (bsums). The bodies are WORD-encoded
// (Go's assembler lacks most of these instructions); each line's comment
// is the instruction. Registers: x0 weights, x1 activation quants, x2
// activation scales, x3 bsums, x4 super-blocks (>= 1).

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

