//go:build amd64 && !purego

package cpu

import "unsafe"

//go:noescape
func gemm6x16RowsAVX512(k int, x *float32, ldx int, b, c *float32, ldc int, add int)

// gemmRowsFor is kernels.gemmRows on a 6×16 tile kernel that reads its x
// rows in place (gemm6x16RowsSIMD, gemm6x16RowsAVX512).
func gemmRowsFor(tile func(k int, x *float32, ldx int, b, c *float32, ldc int, add int)) func(int, []float32, int, []float32, []float32, int, bool) {
	return func(k int, x []float32, ldx int, b, c []float32, ldc int, add bool) {
		if k == 0 {
			if !add {
				for i := 0; i < gemmMR; i++ {
					clear(c[i*ldc : i*ldc+gemmNR])
				}
			}
			return
		}
		_, _ = x[(gemmMR-1)*ldx+k-1], b[:k*gemmNR]
		_ = c[(gemmMR-1)*ldc+gemmNR-1]
		flag := 0
		if add {
			flag = 1
		}
		tile(k, &x[0], ldx, unsafe.SliceData(b), &c[0], ldc, flag)
	}
}
