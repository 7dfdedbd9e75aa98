package backendcheck

import (
	"os"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/llama"
	rt "github.com/gpurt/gpurt/runtime"
)

// LoadModel loads the GGUF model at path with every layer on be and a
// one-thread CPU backend for what be cannot run, in a 64-token context,
// closing it all when the test ends. It skips the test when the file is
// absent (../shared/models not mounted).
func LoadModel(t testing.TB, path string, be rt.Backend) *llama.Model {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		t.Skipf("model absent (%v): ../shared/models is not mounted", err)
	}
	f, err := gguf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	cpuB, err := cpu.NewBackend(1)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cpuB.Close() })
	m, err := llama.Load(f, llama.Options{Backends: []rt.Backend{be, cpuB}, GPULayers: -1, NCtx: 64})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}
