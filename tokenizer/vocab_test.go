package tokenizer

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/gpurt/gpurt/gguf"
)

// sharedDir holds llama.cpp's vocab-only GGUF files with the ids its
// llama_tokenize gives for a set of inputs (see its README).
const sharedDir = "../../shared/tokenizers"

type expectation struct {
	Vocab  string `json:"vocab"`
	AddBOS bool   `json:"add_bos"`
	AddEOS bool   `json:"add_eos"`
	BOS    int32  `json:"bos"`
	EOS    int32  `json:"eos"`
	NVocab int    `json:"n_vocab"`
	Cases  []struct {
		Text    string  `json:"text"`
		Plain   []int32 `json:"ids_plain"`
		Special []int32 `json:"ids_special"`
	} `json:"cases"`
}

var (
	vocabMu    sync.Mutex
	vocabCache = map[string]*Tokenizer{}
)

// sharedVocab loads a vocab of ../shared/tokenizers once per test binary.
func sharedVocab(t testing.TB, name string) *Tokenizer {
	t.Helper()
	vocabMu.Lock()
	defer vocabMu.Unlock()
	if tok, ok := vocabCache[name]; ok {
		return tok
	}
	path := filepath.Join(sharedDir, "ggml-vocab-"+name+".gguf")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("reference vocab %s is absent (%v): it lives in ../shared/tokenizers", path, err)
	}
	f, err := gguf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tok, err := Open(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	vocabCache[name] = tok
	return tok
}

var sharedVocabs = []string{"gpt-2", "llama3", "qwen2", "deepseek-llm", "deepseek-coder", "falcon",
	"starcoder", "refact", "phi-3", "llama-spm", "gemma3"}

// TestLlamaCppIDs checks every vocab, case and mode against llama.cpp.
func TestLlamaCppIDs(t *testing.T) {
	for _, name := range sharedVocabs {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(sharedDir, "ggml-vocab-"+name+".json"))
			if err != nil {
				t.Skipf("expectations absent: %v", err)
			}
			var exp expectation
			if err := json.Unmarshal(data, &exp); err != nil {
				t.Fatal(err)
			}
			tok := sharedVocab(t, name)
			if tok.NVocab() != exp.NVocab || tok.BOS() != exp.BOS || tok.EOS() != exp.EOS ||
				tok.AddBOS() != exp.AddBOS || tok.AddEOS() != exp.AddEOS {
				t.Errorf("vocab %d BOS %d EOS %d add %v/%v, want %d %d %d %v/%v", tok.NVocab(), tok.BOS(), tok.EOS(),
					tok.AddBOS(), tok.AddEOS(), exp.NVocab, exp.BOS, exp.EOS, exp.AddBOS, exp.AddEOS)
			}
			for _, c := range exp.Cases {
				for _, mode := range []struct {
					name string
					opts EncodeOptions
					want []int32
				}{
					{"plain", EncodeOptions{}, c.Plain},
					{"special", EncodeOptions{AddSpecial: true, ParseSpecial: true}, c.Special},
				} {
					got, err := tok.Encode(c.Text, mode.opts)
					if err != nil {
						t.Errorf("%s %q: %v", mode.name, c.Text, err)
						continue
					}
					if !slices.Equal(got, mode.want) {
						t.Errorf("%s %q:\n got %v\nwant %v", mode.name, c.Text, got, mode.want)
					}
				}
			}
		})
	}
}
