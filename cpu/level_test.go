package cpu

import (
	"errors"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

func TestCheckLevelEnv(t *testing.T) {
	for _, c := range []struct {
		value string
		ok    bool
	}{
		{"", true}, {"avx512", true}, {"avx2", true}, {"go", true},
		{"AVX2", true}, {"sse", false}, {"avx-512", false},
	} {
		t.Setenv(cpuLevelEnv, c.value)
		err := CheckLevelEnv()
		if c.ok != (err == nil) {
			t.Errorf("%s=%q: %v, want ok = %v", cpuLevelEnv, c.value, err, c.ok)
		}
		if err != nil && !errors.Is(err, rt.ErrInvalidArgument) {
			t.Errorf("%s=%q: %v does not wrap ErrInvalidArgument", cpuLevelEnv, c.value, err)
		}
	}
	if KernelSet() != defaultKernels().name {
		t.Errorf("KernelSet() = %q, want %q", KernelSet(), defaultKernels().name)
	}
}
