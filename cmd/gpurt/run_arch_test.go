package main

import (
	"strings"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// TestContextSizeEveryArchitecture: run's context budget reads the
// hyperparameters of any architecture (it once read llama.* keys only and
// refused every other model as corrupt), with the cache's real size.
func TestContextSizeEveryArchitecture(t *testing.T) {
	needSynth(t)
	for _, arch := range []string{"llama", "llama3", "qwen2", "qwen3", "gemma2", "gemma3", "phi3"} {
		f := openSynthModel(t, arch+"-f16.gguf")
		n, note, err := contextSize(f, 0, rt.F16, 1<<30)
		if err != nil || n != 512 {
			t.Errorf("%s: context %d (%s), %v", arch, n, note, err)
		}
		// A budget of 64 KiB: blocks x (K + V rows) x 2 bytes per token.
		n, note, err = contextSize(f, 0, rt.F16, 64<<10)
		if err != nil || n >= 512 || !strings.Contains(note, "capped") {
			t.Errorf("%s: with a 64 KiB budget: context %d (%s), %v", arch, n, note, err)
		}
	}
}
