package vk

import (
	"testing"

	"github.com/gpurt/gpurt/runtime/optest"
)

// TestGGMLOracle runs upstream ggml's MUL_MAT and GET_ROWS vectors on the
// Vulkan backend; the weight types the shaders do not decode yet skip.
func TestGGMLOracle(t *testing.T) {
	_, be := testDevice(t)
	optest.RunGGMLOracleT(t, be, "../../shared/oracle/ggml", optest.GGMLOracleOptions{GetRowsNMSE: 1e-7})
}
