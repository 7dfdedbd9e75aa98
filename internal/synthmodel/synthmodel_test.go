package synthmodel

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/llama"
	rt "github.com/gpurt/gpurt/runtime"
)

// llamaBench is llama.cpp's llama-bench in the shared tools, if present.
const llamaBench = "../../../shared/tools/llama.cpp/llama-bench"

func TestParseSpec(t *testing.T) {
	tests := []struct {
		in      string
		name    string
		wantErr error
	}{
		{"synth:155m:q4_k_m", "synth-155m-q4_k_m", nil},
		{"synth:tiny", "synth-tiny-f16", nil},
		{"7B:Q4_0", "synth-7b-q4_0", nil},
		{"synth:7b:q4_k_m", "", rt.ErrUnsupported},
		{"synth:13b:f16", "", rt.ErrInvalidArgument},
		{"synth:tiny:q9", "", rt.ErrInvalidArgument},
	}
	for _, tt := range tests {
		sp, err := ParseSpec(tt.in)
		if tt.wantErr != nil {
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("ParseSpec(%q): error %v, want %v", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || sp.Name() != tt.name {
			t.Errorf("ParseSpec(%q) = %q, %v; want %q", tt.in, sp.Name(), err, tt.name)
		}
	}
}

func TestPresetParams(t *testing.T) {
	// 7b has 8 KV heads (GQA), so fewer parameters than Llama-2 7B's 6.74e9.
	for name, want := range map[string]float64{"155m": 155e6, "7b": 5.93e9} {
		got := float64(Presets[name].Params())
		if math.Abs(got-want)/want > 0.02 {
			t.Errorf("%s: %.3g parameters, want about %.3g", name, got, want)
		}
	}
}

// TestTinyGeneratesLoadsAndRuns makes the tiny preset in F16 and Q4_K_M
// (quantized from it), checks the bytes do not depend on the thread count,
// and runs a few greedy tokens on each with llama.Load.
func TestTinyGeneratesLoadsAndRuns(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for _, typ := range []string{"f16", "q4_k_m"} {
		sp, err := ParseSpec("synth:tiny:" + typ)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Ensure(dir, sp, Options{Threads: 2})
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
		runTokens(t, p)
	}
	// Written directly in Q4_0, as the 7b preset is.
	direct := filepath.Join(t.TempDir(), "direct-q4_0.gguf")
	if err := Write(direct, Presets["tiny"], mustFileType("q4_0"), Options{}); err != nil {
		t.Fatal(err)
	}
	runTokens(t, direct)
	// Same bytes with one thread.
	one := filepath.Join(t.TempDir(), "one.gguf")
	if err := Write(one, Presets["tiny"], mustFileType("f16"), Options{Threads: 1, Name: "synth-tiny-f16"}); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(one)
	b, _ := os.ReadFile(paths[0])
	if !bytes.Equal(a, b) {
		t.Error("F16 file differs between 1 and 2 threads")
	}
	// Reused, not regenerated.
	st, _ := os.Stat(paths[1])
	sp, _ := ParseSpec("synth:tiny:q4_k_m")
	if _, err := Ensure(dir, sp, Options{}); err != nil {
		t.Fatal(err)
	}
	if st2, _ := os.Stat(paths[1]); !st2.ModTime().Equal(st.ModTime()) {
		t.Error("Ensure regenerated a cached file")
	}
	f, err := gguf.Open(paths[1])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if ti, _ := f.Tensor("blk.0.ffn_gate.weight"); ti.Type != rt.Q4_K {
		t.Errorf("q4_k_m ffn_gate is %v, want Q4_K", ti.Type)
	}
	if ti, _ := f.Tensor("output.weight"); ti.Type != rt.Q6_K {
		t.Errorf("q4_k_m output is %v, want Q6_K", ti.Type)
	}
}

func runTokens(t *testing.T, path string) {
	t.Helper()
	f, err := gguf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	be, err := cpu.NewBackend(0)
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	m, err := llama.Load(f, llama.Options{Backends: []rt.Backend{be}})
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(path), err)
	}
	defer m.Close()
	if m.H.NVocab != 1024 || len(m.Tok.Encode("Hello there", true)) < 2 {
		t.Errorf("%s: vocab %d, tokenizer does not encode", filepath.Base(path), m.H.NVocab)
	}
	logits, err := m.Eval(m.Tok.Encode("It is a truth", true), false)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		next := llama.Argmax(logits)
		if next == 2 {
			t.Errorf("%s: greedy picked EOS, whose output row is zero", filepath.Base(path))
		}
		for _, x := range logits {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				t.Fatalf("%s: logit %v", filepath.Base(path), x)
			}
		}
		if logits, err = m.Eval([]int32{next}, false); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLlamaCppLoadsTiny runs llama.cpp's llama-bench on a generated file.
func TestLlamaCppLoadsTiny(t *testing.T) {
	if _, err := os.Stat(llamaBench); err != nil {
		t.Skipf("llama.cpp's llama-bench not present at %s (%v); skipping the interoperability check", llamaBench, err)
	}
	sp, _ := ParseSpec("synth:tiny:q4_0")
	p, err := Ensure(t.TempDir(), sp, Options{Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, llamaBench, "-m", p, "-p", "16", "-n", "4", "-r", "1", "-t", "2", "-o", "csv").CombinedOutput()
	if err != nil {
		t.Fatalf("llama-bench: %v\n%s", err, out)
	}
	// The model_type column: llama.cpp read the architecture and the type.
	if !bytes.Contains(out, []byte(`"llama ?B Q4_0"`)) {
		t.Errorf("llama-bench printed no result for a llama Q4_0 model:\n%s", out)
	}
	t.Logf("llama-bench:\n%s", out)
}
