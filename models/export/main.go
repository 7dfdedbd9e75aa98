// Command export writes gpurt's default model as a GGUF file with gpurt's
// own writer, from the raw weights and vocabulary that models/train.py
// leaves in a directory (model.json plus one little-endian f32 file per
// tensor).
//
//	go run ./models/export -in /tmp/austen -out models/austen.gguf
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/runtime"
)

// trained is model.json as train.py writes it.
type trained struct {
	Name   string `json:"name"`
	Config struct {
		Dim      int     `json:"dim"`
		NLayers  int     `json:"n_layers"`
		NHeads   int     `json:"n_heads"`
		NKVHeads int     `json:"n_kv_heads"`
		FFN      int     `json:"ffn"`
		Vocab    int     `json:"vocab"`
		Ctx      int     `json:"ctx"`
		Eps      float32 `json:"eps"`
		RopeBase float32 `json:"rope_base"`
		HeadDim  int     `json:"head_dim"`
	} `json:"config"`
	Tokens     []string  `json:"tokens"`
	Scores     []float32 `json:"scores"`
	TokenTypes []int32   `json:"token_types"`
	BOS        uint32    `json:"bos"`
	EOS        uint32    `json:"eos"`
	UNK        uint32    `json:"unk"`
	Tensors    []struct {
		Name string `json:"name"`
		Ne   []int  `json:"ne"`
		File string `json:"file"`
	} `json:"tensors"`
}

func main() {
	in := flag.String("in", "", "directory written by models/train.py")
	out := flag.String("out", "models/austen.gguf", "GGUF file to write")
	flag.Parse()
	if *in == "" {
		fmt.Fprintln(os.Stderr, "export: -in is required")
		os.Exit(2)
	}
	if err := export(*in, *out); err != nil {
		fmt.Fprintln(os.Stderr, "export:", err)
		os.Exit(1)
	}
}

func export(in, out string) error {
	raw, err := os.ReadFile(filepath.Join(in, "model.json"))
	if err != nil {
		return err
	}
	var m trained
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("model.json: %w", err)
	}
	c := m.Config
	if c.Vocab != len(m.Tokens) || len(m.Scores) != len(m.Tokens) || len(m.TokenTypes) != len(m.Tokens) {
		return fmt.Errorf("model.json: vocab %d, %d tokens, %d scores, %d types", c.Vocab, len(m.Tokens), len(m.Scores), len(m.TokenTypes))
	}

	w := gguf.NewWriter()
	// The keys and types llama.cpp reads for a llama model.
	kvs := []struct {
		key   string
		value any
	}{
		{"general.architecture", "llama"},
		{"general.name", m.Name},
		{"general.alignment", uint32(gguf.DefaultAlignment)},
		{"llama.context_length", uint32(c.Ctx)},
		{"llama.embedding_length", uint32(c.Dim)},
		{"llama.block_count", uint32(c.NLayers)},
		{"llama.feed_forward_length", uint32(c.FFN)},
		{"llama.attention.head_count", uint32(c.NHeads)},
		{"llama.attention.head_count_kv", uint32(c.NKVHeads)},
		{"llama.rope.dimension_count", uint32(c.HeadDim)},
		{"llama.rope.freq_base", c.RopeBase},
		{"llama.attention.layer_norm_rms_epsilon", c.Eps},
		{"llama.vocab_size", uint32(c.Vocab)},
		{"tokenizer.ggml.model", "llama"},
		{"tokenizer.ggml.tokens", m.Tokens},
		{"tokenizer.ggml.scores", m.Scores},
		{"tokenizer.ggml.token_type", m.TokenTypes},
		{"tokenizer.ggml.bos_token_id", m.BOS},
		{"tokenizer.ggml.eos_token_id", m.EOS},
		{"tokenizer.ggml.unknown_token_id", m.UNK},
		{"tokenizer.ggml.add_bos_token", true},
		{"tokenizer.ggml.add_eos_token", false},
	}
	for _, kv := range kvs {
		if err := w.Set(kv.key, kv.value); err != nil {
			return err
		}
	}
	for _, t := range m.Tensors {
		data, err := os.ReadFile(filepath.Join(in, t.File))
		if err != nil {
			return err
		}
		if err := w.AddTensor(t.Name, runtime.F32, t.Ne, data); err != nil {
			return err
		}
	}
	if err := w.WriteFile(out); err != nil {
		return err
	}
	st, err := os.Stat(out)
	if err != nil {
		return err
	}
	fmt.Printf("wrote %s: %d tensors, %d bytes\n", out, len(m.Tensors), st.Size())
	return nil
}
