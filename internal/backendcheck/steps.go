package backendcheck

import (
	"testing"

	"github.com/gpurt/gpurt/internal/testmodels"
	"github.com/gpurt/gpurt/llama"
	rt "github.com/gpurt/gpurt/runtime"
)

// StepAllocations decodes stories260K with every layer on be (the CPU
// takes what be cannot run) and fails when warm steps make any allocation
// that made counts: issue 17 allows at most one host allocation per model
// step, and the staging pools and the graph allocator should make none.
// made returns the backend device's running count of allocations.
func StepAllocations(t *testing.T, be rt.Backend, made func() int64) {
	t.Helper()
	m := LoadModel(t, testmodels.StoriesPath(t), be)
	if made() == 0 {
		t.Fatal("loading the model made no allocation: the count does not count")
	}
	s, err := llama.NewSampler(llama.SamplerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	prompt := []int32{m.Tok.BOS()}
	if _, _, err := m.Generate(prompt, 4, s, nil); err != nil { // warm: the first graphs allocate
		t.Fatal(err)
	}
	m.ResetCache()
	const steps = 24
	before := made()
	toks, _, err := m.Generate(prompt, steps, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := made() - before
	t.Logf("%d warm steps (%d tokens): %d allocations", steps, len(toks), n)
	if n > 0 {
		t.Errorf("%d warm steps made %d allocations; want none", steps, n)
	}
}
