package llama

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/internal/testmodels"
	rt "github.com/gpurt/gpurt/runtime"
)

// storiesReference is how the reference implementation continues BOS greedily.
const storiesReference = "Once upon a time, there was a little girl named Lily. She loved to play outside in the park."

func openStories(t testing.TB) *gguf.File {
	t.Helper()
	f, err := gguf.Open(testmodels.StoriesPath(t))
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

// loadQuantized quantizes stories260K in memory and loads it on the CPU.
func loadQuantized(t *testing.T, f *gguf.File, dtype rt.DType) *Model {
	t.Helper()
	ft, err := ParseFileType(dtype.String())
	if err != nil {
		t.Fatal(err)
	}
	w, rep, err := Quantize(f, QuantizeOptions{FileType: ft, Pure: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Converted() == 0 {
		t.Fatal("no tensor was quantized")
	}
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	qf, err := gguf.Parse(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := cpu.NewBackend(0)
	m, err := Load(qf, Options{Backends: []rt.Backend{b}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// meanLogProb is the average log-probability m gives each token of seq
// (teacher-forced after BOS).
func meanLogProb(t *testing.T, m *Model, seq []int32) float64 {
	t.Helper()
	m.ResetCache()
	in := append([]int32{m.Tok.BOS()}, seq[:len(seq)-1]...)
	logits, err := m.Eval(in, true)
	if err != nil {
		t.Fatal(err)
	}
	nv := m.H.NVocab
	sum := 0.0
	for i, tok := range seq {
		row := logits[i*nv : (i+1)*nv]
		mx := row[0]
		for _, v := range row {
			mx = max(mx, v)
		}
		z := 0.0
		for _, v := range row {
			z += math.Exp(float64(v - mx))
		}
		sum += float64(row[tok]-mx) - math.Log(z)
	}
	return sum / float64(len(seq))
}

func TestStoriesQuantized(t *testing.T) {
	f := openStories(t)
	b, _ := cpu.NewBackend(0)
	ref, err := Load(f, Options{Backends: []rt.Backend{b}})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	want := greedy(t, ref, 100)
	refLP := meanLogProb(t, ref, want)

	q8 := loadQuantized(t, f, rt.Q8_0)
	if got := greedy(t, q8, 20); !slices.Equal(got, want[:20]) {
		t.Errorf("q8_0 greedy tokens %v differ from f32 %v", got, want[:20])
	}
	// Q4_0 may pick other tokens, but must still find the f32 continuation
	// likely: its mean log-probability may drop by at most 0.5 nats.
	q4LP := meanLogProb(t, loadQuantized(t, f, rt.Q4_0), want)
	t.Logf("mean log-prob of the f32 greedy continuation: f32 %.3f, q4_0 %.3f", refLP, q4LP)
	if q4LP < refLP-0.5 {
		t.Errorf("q4_0 mean log-prob %.3f is more than 0.5 below f32's %.3f", q4LP, refLP)
	}
}
