//go:build amd64 && !purego

#include "textflag.h"
#include "ymm_amd64.h"

// ROWFMA updates accumulators LO and HI (16 floats of one result row)
// with the broadcast x value at ADDR times the weight row in Y12, Y13.
#define ROWFMA(ADDR, T, LO, HI) \
	VBROADCASTSS ADDR, T \
	VFMADD231PS Y12, T, LO \
	VFMADD231PS Y13, T, HI

// ROWSTORE writes (or, when R9 != 0, adds to) one 16-float row at DX.
#define ROWSTORE(LO, HI) \
	TESTQ R9, R9 \
	JZ 3(PC) \
	VADDPS (DX), LO, LO \
	VADDPS 32(DX), HI, HI \
	VMOVUPS LO, (DX) \
	VMOVUPS HI, 32(DX) \
	ADDQ R8, DX

// LOADB_F32 and LOADB_F16 load the packed weight row of one k step (16
// values at DI) into Y12, Y13 and step DI past it: float32 panels, or f16
// panels converted as they are loaded (VCVTPH2PS runs beside the FMAs:
// the tile keeps its speed on half the panel bytes).
#define LOADB_F32 \
	VMOVUPS (DI), Y12 \
	VMOVUPS 32(DI), Y13 \
	ADDQ $64, DI

#define LOADB_F16 \
	VCVTPH2PS (DI), Y12 \
	VCVTPH2PS 16(DI), Y13 \
	ADDQ $32, DI

// GEMMARGS loads a strided tile's arguments: k steps in CX, x at SI, its
// row stride in R11 and step in R13, the weight panel at DI, C at DX with
// its row stride in bytes in R8, add in R9, and x row 3 at R12.
#define GEMMARGS \
	MOVQ k+0(FP), CX \
	MOVQ x+8(FP), SI \
	MOVQ rs+16(FP), R11 \
	MOVQ ks+24(FP), R13 \
	MOVQ b+32(FP), DI \
	MOVQ c+40(FP), DX \
	MOVQ ldc+48(FP), R8 \
	SHLQ $2, R8 \
	MOVQ add+56(FP), R9 \
	LEAQ (SI)(R11*2), R12 \
	ADDQ R11, R12

// CPREFETCH4 fetches the first 4 rows of the C tile at DX, ldc bytes (R8)
// apart, leaving AX at the fourth.
#define CPREFETCH4 \
	MOVQ DX, AX \
	PREFETCHT0 (AX) \
	ADDQ R8, AX \
	PREFETCHT0 (AX) \
	ADDQ R8, AX \
	PREFETCHT0 (AX) \
	ADDQ R8, AX \
	PREFETCHT0 (AX)

// FMA4ROWS is a k step's products for x rows 0-3 (the weights in Y12, Y13)
// and STORE4ROWS their stores, shared by the 6- and 4-row tiles.
#define FMA4ROWS \
	ROWFMA((SI), Y14, Y0, Y1) \
	ROWFMA((SI)(R11*1), Y15, Y2, Y3) \
	ROWFMA((SI)(R11*2), Y14, Y4, Y5) \
	ROWFMA((R12), Y15, Y6, Y7)

#define STORE4ROWS \
	ROWSTORE(Y0, Y1) \
	ROWSTORE(Y2, Y3) \
	ROWSTORE(Y4, Y5) \
	ROWSTORE(Y6, Y7)

// TILE6X16(LOADB) is the strided 6×16 tile with weight panels LOADB
// reads, on GEMMARGS's registers. x rows 3-5 are read from R12; the C
// tile is fetched early, as it is loaded or written only at the end. It
// leaves DX at the C row after the tile's last.
#define TILE6X16(LOADB) \
	CPREFETCH4 \
	ADDQ R8, AX \
	PREFETCHT0 (AX) \
	ADDQ R8, AX \
	PREFETCHT0 (AX) \
	ZERO12 \
	TESTQ CX, CX \
	JZ gs_store \
gs_loop: \
	LOADB \
	FMA4ROWS \
	ROWFMA((R12)(R11*1), Y14, Y8, Y9) \
	ROWFMA((R12)(R11*2), Y15, Y10, Y11) \
	ADDQ R13, SI \
	ADDQ R13, R12 \
	DECQ CX \
	JNZ gs_loop \
gs_store: \
	STORE4ROWS \
	ROWSTORE(Y8, Y9) \
	ROWSTORE(Y10, Y11)

// GEMM6X16(LOADB) is the body of gemm6x16StridedSIMD: one tile.
#define GEMM6X16(LOADB) \
	GEMMARGS \
	TILE6X16(LOADB) \
	VZEROUPPER \
	RET

// GEMM6X16RUN(LOADB) is the body of gemm6x16RunSIMD: n tiles (n >= 1) of
// consecutive 6-row panels of x (each 6·rs bytes past the last) against
// one weight panel, their C tiles one after another (TILE6X16 leaves DX
// at the next one's first row), in one call rather than n from Go.
#define GEMM6X16RUN(LOADB) \
	GEMMARGS \
	MOVQ n+64(FP), BX \
	MOVQ SI, R10 \
gr_panel: \
	TILE6X16(LOADB) \
	LEAQ (R11)(R11*2), AX \
	LEAQ (R10)(AX*2), R10 \
	MOVQ R10, SI \
	LEAQ (SI)(R11*2), R12 \
	ADDQ R11, R12 \
	MOVQ k+0(FP), CX \
	MOVQ b+32(FP), DI \
	DECQ BX \
	JNZ gr_panel \
	VZEROUPPER \
	RET

// func gemm6x16StridedSIMD(k int, x *float32, rs, ks int, b, c *float32, ldc int, add int)
// The 6×16 GEMM tile on YMM registers: x value (i, k) is at x + i·rs + k·ks
// bytes: rs 4 and ks 24 for a packed x panel, rs a row's stride and ks 4
// for x rows read in place (kernels.gemmRows), the same multiply-adds in
// the same order either way.
TEXT ·gemm6x16StridedSIMD(SB), NOSPLIT, $0-64
	GEMM6X16(LOADB_F32)

// func gemm6x16F16StridedSIMD(k int, x *float32, rs, ks int, b *byte, c *float32, ldc int, add int)
// gemm6x16StridedSIMD on f16 weight panels (32 bytes a k step): the
// same products, so the same bits, as on the panels converted to float32.
TEXT ·gemm6x16F16StridedSIMD(SB), NOSPLIT, $0-64
	GEMM6X16(LOADB_F16)

// func gemm6x16RunSIMD(k int, x *float32, rs, ks int, b, c *float32, ldc int, add int, n int)
// gemm6x16StridedSIMD on n consecutive x panels: the same tiles, so the
// same bits.
TEXT ·gemm6x16RunSIMD(SB), NOSPLIT, $0-72
	GEMM6X16RUN(LOADB_F32)

// func gemm6x16F16RunSIMD(k int, x *float32, rs, ks int, b *byte, c *float32, ldc int, add int, n int)
TEXT ·gemm6x16F16RunSIMD(SB), NOSPLIT, $0-72
	GEMM6X16RUN(LOADB_F16)

// GEMM4X16(LOADB) is GEMM6X16 for 4 x rows: each row's sums are the 6-row
// tile's (the same multiply-adds in the same order), for the last x rows
// of a product whose row count leaves 4 or 2 past its 6-row panels.
#define GEMM4X16(LOADB) \
	GEMMARGS \
	CPREFETCH4 \
	ZERO8 \
	TESTQ CX, CX \
	JZ g4_store \
g4_loop: \
	LOADB \
	FMA4ROWS \
	ADDQ R13, SI \
	ADDQ R13, R12 \
	DECQ CX \
	JNZ g4_loop \
g4_store: \
	STORE4ROWS \
	VZEROUPPER \
	RET

// func gemm4x16StridedSIMD(k int, x *float32, rs, ks int, b, c *float32, ldc int, add int)
TEXT ·gemm4x16StridedSIMD(SB), NOSPLIT, $0-64
	GEMM4X16(LOADB_F32)

// func gemm4x16F16StridedSIMD(k int, x *float32, rs, ks int, b *byte, c *float32, ldc int, add int)
TEXT ·gemm4x16F16StridedSIMD(SB), NOSPLIT, $0-64
	GEMM4X16(LOADB_F16)
