package shaders

import (
	"slices"
	"strings"
	"testing"
)

func TestWGSL(t *testing.T) {
	names := WGSLNames()
	for _, want := range []string{"common.wgsl", "binary.wgsl", "mm.wgsl", "quant.wgsl"} {
		if !slices.Contains(names, want) {
			t.Errorf("WGSLNames() = %v, missing %s", names, want)
		}
	}
	for _, n := range names {
		src, err := WGSL(n)
		if err != nil || strings.TrimSpace(src) == "" {
			t.Errorf("WGSL(%q): %d bytes, %v", n, len(src), err)
		}
		// common.wgsl, reduce.wgsl, dequant.wgsl, quantize.wgsl,
		// opcodes.wgsl and quantize_k.wgsl are appended to kernels, not kernels.
		if !slices.Contains([]string{"common.wgsl", "reduce.wgsl", "dequant.wgsl", "quantize.wgsl", "opcodes.wgsl", "quantize_k.wgsl"}, n) && !strings.Contains(src, "fn main(") {
			t.Errorf("%s has no main entry point", n)
		}
	}
	a, err1 := WGSL("binary")
	b, err2 := WGSL("binary.wgsl")
	if err1 != nil || err2 != nil || a != b {
		t.Errorf("WGSL with and without extension differ: %v, %v", err1, err2)
	}
	if _, err := WGSL("nope"); err == nil || !strings.Contains(err.Error(), "nope.wgsl") {
		t.Errorf("unknown shader: %v", err)
	}
}
