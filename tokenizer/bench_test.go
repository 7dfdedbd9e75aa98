package tokenizer_test

import (
	"os"
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
