package tokenizer_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gpurt/gpurt/bench"
	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/tokenizer"
)

// BenchmarkEncode tokenizes bench's 1 MB mixed text (English, code,
// Chinese) with a cold word cache, per shared vocab.
func BenchmarkEncode(b *testing.B) {
	text := string(bench.MixedText(bench.DefaultTokenizeBytes))
	for _, name := range []string{"llama3", "qwen2", "llama-spm", "gemma3"} {
		b.Run(name, func(b *testing.B) {
			path := "../../shared/tokenizers/ggml-vocab-" + name + ".gguf"
			if _, err := os.Stat(path); err != nil {
				b.Skipf("reference vocab absent: %v", err)
			}
			f, err := gguf.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			tok, err := tokenizer.Open(f)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				tok.ResetCache()
				if _, err := tok.Encode(text, tokenizer.EncodeOptions{AddSpecial: true, ParseSpecial: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestMatchesLlamaTokenize tokenizes 64 KB of bench's mixed text with
// llama.cpp's llama-tokenize (../shared/tools/llama.cpp; skipped where
// absent) and with this package: the ids must be the same.
func TestMatchesLlamaTokenize(t *testing.T) {
	const tool = "../../shared/tools/llama.cpp/llama-tokenize"
	if _, err := os.Stat(tool); err != nil {
		t.Skipf("llama-tokenize absent (../shared/tools/llama.cpp): %v", err)
	}
	if testing.Short() {
		t.Skip("runs llama-tokenize")
	}
	text := bench.MixedText(64 << 10)
	file := filepath.Join(t.TempDir(), "text")
	if err := os.WriteFile(file, text, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"llama3"} {
		path := "../../shared/tokenizers/ggml-vocab-" + name + ".gguf"
		if _, err := os.Stat(path); err != nil {
			t.Skipf("reference vocab absent: %v", err)
		}
		out, err := exec.Command(tool, "-m", path, "-f", file, "--ids", "--log-disable", "--no-escape").Output()
		if err != nil {
			t.Fatalf("llama-tokenize: %v", err)
		}
		var want []int32
		if err := json.Unmarshal(out, &want); err != nil {
			t.Fatalf("llama-tokenize printed %.100q: %v", out, err)
		}
		f, err := gguf.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		tok, err := tokenizer.Open(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		got, err := tok.Encode(string(text), tokenizer.EncodeOptions{AddSpecial: true, ParseSpecial: true})
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%s: %d ids (%v), llama-tokenize %d", name, len(got), err, len(want))
		}
	}
}
