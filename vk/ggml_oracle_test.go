package vk

import (
	"errors"
	"testing"
	"time"

	"github.com/gpurt/gpurt/internal/ggmloracle"
	rt "github.com/gpurt/gpurt/runtime"
)

// oracleDir is upstream ggml's reference data (../shared/oracle/ggml).
const oracleDir = "../../shared/oracle/ggml"

func loadOracle(t *testing.T) *ggmloracle.Set {
	t.Helper()
	s, err := ggmloracle.Load(oracleDir)
	if errors.Is(err, ggmloracle.ErrNoData) {
		t.Skipf("ggml oracle data absent: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestGGMLOracle runs ggml's own MUL_MAT and GET_ROWS cases for every
// weight type gpurt runs (NMSE <= 5e-4 and bit-exact), dequantizes ggml's
// quantizer rows by CPY to F32 and F16 (bit-exact), and quantizes them by
// CPY from F32 where the shaders have the quantizer (ggml's bytes).
func TestGGMLOracle(t *testing.T) {
	dev, be := testDevice(t)
	s := loadOracle(t)
	tg := ggmloracle.Target{Backend: be, BufferType: dev.BufferType()}
	ran := 0
	for _, c := range s.Cases {
		if wt, err := rt.ParseDType(c.WType); err != nil || !wt.Valid() {
			continue
		}
		start := time.Now()
		r := s.RunCase(tg, c)
		if r.Err != nil {
			t.Errorf("%s: %v", r.Name, r.Err)
		}
		t.Logf("%s: nmse %.3g, %v", r.Name, r.NMSE, time.Since(start).Round(time.Millisecond))
		ran++
	}
	for _, r := range s.Rows {
		wt, err := rt.ParseDType(r.Type)
		if err != nil || !wt.Valid() || !wt.IsQuantized() {
			continue
		}
		if res := s.RunQuantize(tg, r); res.Err != nil && !errors.Is(res.Err, rt.ErrUnsupported) {
			t.Errorf("%s: %v", res.Name, res.Err)
		} else if res.Err == nil {
			ran++
		}
		for _, dst := range []rt.DType{rt.F32, rt.F16} {
			if res := s.RunDequant(tg, r, dst); res.Err != nil {
				t.Errorf("%s: %v", res.Name, res.Err)
			}
			ran++
		}
	}
	t.Logf("%d cases", ran)
}

// TestGGMLOracleMulMatBuilds runs the MUL_MAT cases through the shader
// builds for devices without subgroup operations and with GPU tiles.
func TestGGMLOracleMulMatBuilds(t *testing.T) {
	dev, be := testDevice(t)
	s := loadOracle(t)
	arith, shuffle, tile := dev.subgroupArith, dev.subgroupShuffle, dev.mmTile
	dev.subgroupArith, dev.subgroupShuffle, dev.mmTile = false, false, gpuTile
	defer func() { dev.subgroupArith, dev.subgroupShuffle, dev.mmTile = arith, shuffle, tile }()
	tg := ggmloracle.Target{Backend: be, BufferType: dev.BufferType()}
	for _, c := range s.Cases {
		if wt, err := rt.ParseDType(c.WType); err != nil || !wt.Valid() || c.Kind != "mul_mat" {
			continue
		}
		if r := s.RunCase(tg, c); r.Err != nil {
			t.Errorf("%s: %v", r.Name, r.Err)
		}
	}
}
