package vk

import (
	"fmt"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// BenchmarkMulMatClasses times mid-size tiled MUL_MATs with the software
// row (mul_mat.comp) and hardware rows (mul_mat_hw.comp) on the same
// device. On lavapipe this says how the kernels suit a CPU driver, not how
// they run on a GPU.
func BenchmarkMulMatClasses(b *testing.B) {
	for _, c := range []deviceClass{classSoftware, classNVIDIA, classIntel} {
		for _, s := range []struct {
			wt      rt.DType
			m, n, k int
		}{{rt.F32, 1024, 64, 1024}, {rt.F16, 1024, 64, 1024}, {rt.Q8_0, 1024, 64, 1024}} {
			b.Run(fmt.Sprintf("%v/%v_%dx%dx%d", c, s.wt, s.m, s.n, s.k), func(b *testing.B) {
				dev, _ := benchDevice(b)
				useClass(b, dev, c)
				benchMulMat(b, s.wt, s.m, s.n, s.k)
			})
		}
	}
}
