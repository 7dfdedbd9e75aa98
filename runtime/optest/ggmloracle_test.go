package optest

import (
	"testing"

	"github.com/gpurt/gpurt/cpu"
)

// TestGGMLOracleCPU checks the CPU backend against upstream ggml: MUL_MAT
// of every weight type within test-backend-ops' NMSE, GET_ROWS bit-exact.
func TestGGMLOracleCPU(t *testing.T) {
	b, err := cpu.Device().NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	RunGGMLOracleT(t, b, "../../../shared/oracle/ggml", GGMLOracleOptions{})
}
