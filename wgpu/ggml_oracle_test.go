//go:build cgo

package wgpu

import (
	"errors"
	"testing"
	"time"

	"github.com/gpurt/gpurt/internal/ggmloracle"
	rt "github.com/gpurt/gpurt/runtime"
)

// TestGGMLOracle runs ggml's own MUL_MAT and GET_ROWS cases
// (../shared/oracle/ggml) for every weight type gpurt runs (NMSE <= 5e-4 and
// bit-exact), dequantizes ggml's quantizer rows by CPY to F32 and F16
// (bit-exact), and quantizes them by CPY from F32 where the kernels have the
// quantizer (ggml's bytes).
func TestGGMLOracle(t *testing.T) {
	d := device(t)
	b := newBackend(t, d)
	s, err := ggmloracle.Load("../../shared/oracle/ggml")
	if errors.Is(err, ggmloracle.ErrNoData) {
		t.Skipf("ggml oracle data absent: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	tg := ggmloracle.Target{Backend: b, BufferType: d.BufferType()}
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
