package vk

import (
	"fmt"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// BenchmarkMMQ times Q8_0, Q4_0, Q4_K and Q6_K MUL_MAT through the float kernels and
// through the integer-dot ones (the quantize dispatch included), on the
// first device, where it has integer dot products.
func BenchmarkMMQ(b *testing.B) {
	for _, wt := range []rt.DType{rt.Q8_0, rt.Q4_0, rt.Q4_K, rt.Q6_K} {
		for _, s := range [][3]int{{4096, 1, 4096}, {4096, 8, 4096}, {1024, 64, 1024}, {1024, 512, 1024}} {
			for _, mode := range []mmqMode{mmqOff, mmqOn} {
				name := fmt.Sprintf("%v/m=%d,n=%d,k=%d/%s", wt, s[0], s[1], s[2], map[mmqMode]string{mmqOff: "float", mmqOn: "mmq"}[mode])
				b.Run(name, func(b *testing.B) {
					dev, _ := benchDevice(b)
					if mode == mmqOn && !dev.feat.integerDot {
						b.Skipf("%s has no integer dot products", dev.name)
					}
					old := dev.mmq
					dev.mmq = mode
					defer func() { dev.mmq = old }()
					benchMulMat(b, wt, s[0], s[1], s[2])
				})
			}
		}
	}
}
