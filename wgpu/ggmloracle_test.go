//go:build cgo

package wgpu

import (
	"testing"

	"github.com/gpurt/gpurt/runtime/optest"
)

// TestGGMLOracle runs upstream ggml's MUL_MAT and GET_ROWS vectors on the
// WebGPU backend; the weight types the shaders do not decode yet skip.
func TestGGMLOracle(t *testing.T) {
	b := newBackend(t, device(t))
	optest.RunGGMLOracleT(t, b, "../../shared/oracle/ggml", optest.GGMLOracleOptions{GetRowsNMSE: 1e-7})
}
