//go:build amd64 && !purego

package cpu

import "unsafe"

// The 6×16 GEMM tiles (gemmrows_amd64.s, gemmrows512_amd64.s) take x
// value (i, k) at x + i·rs + k·ks bytes, so one kernel serves packed
// panels (gemm) and x rows read in place (gemmRows).

//go:noescape
func gemm6x16StridedSIMD(k int, x *float32, rs, ks int, b, c *float32, ldc int, add int)

//go:noescape
func gemm4x16StridedSIMD(k int, x *float32, rs, ks int, b, c *float32, ldc int, add int)

//go:noescape
func gemm4x16F16StridedSIMD(k int, x *float32, rs, ks int, b *byte, c *float32, ldc int, add int)

// gemmRows4Asm is kernels.gemmRows4 on the AVX2 4×16 tile.
func gemmRows4Asm(k int, x []float32, ldx int, b, c []float32, ldc int, add bool) {
	if k == 0 {
		clearRows(c, 4, ldc, add)
		return
	}
	_, _, _ = x[3*ldx+k-1], b[k*gemmNR-1], c[3*ldc+gemmNR-1]
	gemm4x16StridedSIMD(k, &x[0], 4*ldx, 4, &b[0], &c[0], ldc, addFlag(add))
}

// gemmF16Rows4Asm is kernels.gemmF16Rows4 on the AVX2 4×16 tile.
func gemmF16Rows4Asm(k int, x []float32, ldx int, b []byte, c []float32, ldc int, add bool) {
	if k == 0 {
		clearRows(c, 4, ldc, add)
		return
	}
	_, _, _ = x[3*ldx+k-1], b[2*gemmNR*k-1], c[3*ldc+gemmNR-1]
	gemm4x16F16StridedSIMD(k, &x[0], 4*ldx, 4, &b[0], &c[0], ldc, addFlag(add))
}

//go:noescape
func gemm6x16RunSIMD(k int, x *float32, rs, ks int, b, c *float32, ldc int, add int, n int)

//go:noescape
func gemm6x16F16RunSIMD(k int, x *float32, rs, ks int, b *byte, c *float32, ldc int, add int, n int)

// gemmRowsRunAsm is kernels.gemmRowsRun on the AVX2 6×16 tile.
func gemmRowsRunAsm(k int, x []float32, ldx, n int, b, c []float32, ldc int, add bool) {
	if k == 0 || n == 0 {
		clearRows(c, n*gemmMR, ldc, add)
		return
	}
	_, _, _ = x[(n*gemmMR-1)*ldx+k-1], b[k*gemmNR-1], c[(n*gemmMR-1)*ldc+gemmNR-1]
	gemm6x16RunSIMD(k, &x[0], 4*ldx, 4, &b[0], &c[0], ldc, addFlag(add), n)
}

// gemmF16RowsRunAsm is kernels.gemmF16RowsRun on the AVX2 6×16 tile.
func gemmF16RowsRunAsm(k int, x []float32, ldx, n int, b []byte, c []float32, ldc int, add bool) {
	if k == 0 || n == 0 {
		clearRows(c, n*gemmMR, ldc, add)
		return
	}
	_, _, _ = x[(n*gemmMR-1)*ldx+k-1], b[2*gemmNR*k-1], c[(n*gemmMR-1)*ldc+gemmNR-1]
	gemm6x16F16RunSIMD(k, &x[0], 4*ldx, 4, &b[0], &c[0], ldc, addFlag(add), n)
}

//go:noescape
func gemm6x16StridedAVX512(k int, x *float32, rs, ks int, b, c *float32, ldc int, add int)

// gemmPanel runs the AVX2 tile on packed panels (gemmAsm).
func gemmPanel(k int, a, b, c *float32, ldc, add int) {
	gemm6x16StridedSIMD(k, a, 4, 4*gemmMR, b, c, ldc, add)
}

// gemmRowsFor is kernels.gemmRows on a strided 6×16 tile kernel.
func gemmRowsFor(tile func(k int, x *float32, rs, ks int, b, c *float32, ldc int, add int)) func(int, []float32, int, []float32, []float32, int, bool) {
	return func(k int, x []float32, ldx int, b, c []float32, ldc int, add bool) {
		if k == 0 {
			clearTile(c, ldc, add)
			return
		}
		_, _ = x[(gemmMR-1)*ldx+k-1], b[:k*gemmNR]
		_ = c[(gemmMR-1)*ldc+gemmNR-1]
		tile(k, &x[0], 4*ldx, 4, unsafe.SliceData(b), &c[0], ldc, addFlag(add))
	}
}

//go:noescape
func gemm6x16F16StridedSIMD(k int, x *float32, rs, ks int, b *byte, c *float32, ldc int, add int)
