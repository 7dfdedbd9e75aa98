package vk

import (
	"errors"
	"io/fs"
	"slices"
	"testing"

	"github.com/gpurt/gpurt/internal/ggmloracle"
	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/runtime/optest"
)

// oracleDir is upstream ggml's reference data (../shared/oracle/ggml).
const oracleDir = "../../shared/oracle/ggml"

// runOracleCases runs ggml's MUL_MAT (NMSE <= 5e-4) and GET_ROWS
// (bit-exact) cases of the kinds given; every one must run here.
func runOracleCases(t *testing.T, be rt.Backend, kinds ...string) {
	t.Helper()
	cases, err := optest.LoadGGMLOracle(oracleDir)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("ggml oracle data absent: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, c := range cases {
		if !slices.Contains(kinds, c.Kind) {
			continue
		}
		optest.CheckGGMLOracleCase(t, be, oracleDir, c)
		ran++
	}
	t.Logf("%d ggml cases", ran)
}

// TestGGMLOracle runs ggml's own MUL_MAT and GET_ROWS cases for every
// weight type, dequantizes ggml's quantizer rows by CPY to F32 and F16
// (bit-exact), and quantizes them by CPY from F32 where the shaders have
// the quantizer (ggml's bytes), and copies them block for block.
func TestGGMLOracle(t *testing.T) {
	dev, be := testDevice(t)
	runOracleCases(t, be, "mul_mat", "get_rows")
	s, err := ggmloracle.Load(oracleDir)
	if err != nil {
		t.Fatal(err)
	}
	tg := ggmloracle.Target{Backend: be, BufferType: dev.BufferType()}
	ran := s.RunRows(tg, func(name string, err error) { t.Errorf("%s: %v", name, err) })
	t.Logf("%d quantizer-row copies", ran)
}

// TestGGMLOracleMulMatBuilds runs the MUL_MAT cases through the shader
// builds for devices without subgroup operations and with GPU tiles.
func TestGGMLOracleMulMatBuilds(t *testing.T) {
	dev, be := testDevice(t)
	arith, shuffle, tile := dev.subgroupArith, dev.subgroupShuffle, dev.mmTile
	dev.subgroupArith, dev.subgroupShuffle, dev.mmTile = false, false, gpuTile
	defer func() { dev.subgroupArith, dev.subgroupShuffle, dev.mmTile = arith, shuffle, tile }()
	runOracleCases(t, be, "mul_mat")
}
