package llama

import (
	"os"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/gguf"
	rt "github.com/gpurt/gpurt/runtime"
)

const storiesPath = "../../shared/models/stories260K.gguf"

// storiesReference is how the reference implementation continues BOS greedily.
const storiesReference = "Once upon a time, there was a little girl named Lily. She loved to play outside in the park."

func openStories(t *testing.T) *gguf.File {
	t.Helper()
	if _, err := os.Stat(storiesPath); err != nil {
		t.Skipf("stories260K not present: %v", err)
	}
	f, err := gguf.Open(storiesPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func greedy(t *testing.T, m *Model, n int) []int32 {
	t.Helper()
	s, err := NewSampler(SamplerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	m.ResetCache()
	out, _, err := m.Generate([]int32{m.Tok.BOS()}, n, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestStoriesGreedyCPU(t *testing.T) {
	f := openStories(t)
	b, _ := cpu.NewBackend(0)
	m, err := Load(f, Options{Backends: []rt.Backend{b}})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if m.H.NEmbd != 64 || m.H.NLayer != 5 || m.H.NHead != 8 || m.H.NHeadKV != 4 || m.H.NVocab != 512 {
		t.Fatalf("hparams %+v", m.H)
	}
	toks := greedy(t, m, 200)
	text := m.Tok.Decode(toks)
	if !strings.HasPrefix(strings.TrimSpace(text), storiesReference) {
		t.Fatalf("greedy text does not start with the reference:\n%s", text)
	}
	// The tokenizer encodes the reference to the ids the model generated.
	enc := m.Tok.Encode(storiesReference, false)
	for i, id := range enc {
		if i >= len(toks) || toks[i] != id {
			t.Fatalf("encoded reference %v differs from generation %v at %d", enc, toks[:len(enc)], i)
		}
	}
}
