//go:build cgo

package wgpu

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/gpurt/gpurt/internal/ggmloracle"
	"github.com/gpurt/gpurt/runtime/optest"
)

const oracleDir = "../../shared/oracle/ggml"

// TestGGMLOracle runs ggml's own MUL_MAT (NMSE <= 5e-4) and GET_ROWS
// (bit-exact) cases (../shared/oracle/ggml) for every weight type, each of
// which must run here; dequantizes ggml's quantizer rows by CPY to F32 and
// F16 (bit-exact); and quantizes them by CPY from F32 where the kernels
// have the quantizer (ggml's bytes); and copies them block for block.
func TestGGMLOracle(t *testing.T) {
	d := device(t)
	b := newBackend(t, d)
	cases, err := optest.LoadGGMLOracle(oracleDir)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("ggml oracle data absent: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		optest.CheckGGMLOracleCase(t, b, oracleDir, c)
	}
	s, err := ggmloracle.Load(oracleDir)
	if err != nil {
		t.Fatal(err)
	}
	tg := ggmloracle.Target{Backend: b, BufferType: d.BufferType()}
	ran := s.RunRows(tg, func(name string, err error) { t.Errorf("%s: %v", name, err) })
	t.Logf("%d ggml cases, %d quantizer-row copies", len(cases), ran)
}
