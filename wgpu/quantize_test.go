//go:build cgo

package wgpu

import (
	"testing"

	"github.com/gpurt/gpurt/internal/ggmloracle"
	rt "github.com/gpurt/gpurt/runtime"
)

// quantizerTypes are the block types quantize_k.wgsl encodes.
var quantizerTypes = []rt.DType{rt.Q4_K, rt.Q6_K, rt.Q5_K, rt.IQ4_NL, rt.Q3_K, rt.Q2_K, rt.IQ4_XS, rt.TQ2_0, rt.TQ1_0, rt.MXFP4}

// TestQuantizeBytes quantizes random and edge-case rows into each type of
// quantize_k.wgsl by CPY and by SET_ROWS and requires the CPU reference's
// bytes (runtime.QuantizeRowCPU), and SET_ROWS's out-of-range flag.
func TestQuantizeBytes(t *testing.T) {
	d := device(t)
	b := newBackend(t, d)
	tg := ggmloracle.Target{Backend: b, BufferType: d.BufferType()}
	for _, dt := range quantizerTypes {
		t.Run(dt.String(), func(t *testing.T) {
			if !quantizable(dt) {
				t.Fatalf("%v: quantizable says no", dt)
			}
			ggmloracle.RunQuantizeBytes(tg, dt, 1, func(name string, err error) { t.Errorf("%s: %v", name, err) })
		})
	}
}
