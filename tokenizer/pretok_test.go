package tokenizer

import (
	"encoding/json"
	"os"
	"slices"
	"sort"
	"testing"
)

// TestPreTokenizersAgainstLlamaCpp runs every pre-tokenizer llama.cpp knows
// on Qwen2's vocabulary and merges (testdata/pretokenizers.json holds what
// llama-tokenize gave with tokenizer.ggml.pre set to each name), so that
// the splits of pre-tokenizers without a shared vocab are checked too.
func TestPreTokenizersAgainstLlamaCpp(t *testing.T) {
	data, err := os.ReadFile("testdata/pretokenizers.json")
	if err != nil {
		t.Fatal(err)
	}
	var exp struct {
		Texts []string             `json:"texts"`
		IDs   map[string][][]int32 `json:"ids"`
	}
	if err := json.Unmarshal(data, &exp); err != nil {
		t.Fatal(err)
	}
	base := sharedVocab(t, "qwen2")
	names := make([]string, 0, len(exp.IDs))
	for n := range exp.IDs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		pre, err := lookupPre(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		// The qwen2 tokenizer with another pre-tokenizer; the vocab and merge
		// tables are shared.
		tok := *base
		m := &bpeModel{t: &tok, pre: pre, merges: base.bpe.merges, strs: base.bpe.strs,
			byteSym: base.bpe.byteSym, ignoreMerges: pre.ignoreMerges}
		m.sessions.New = func() any { return new(bpeSession) }
		tok.bpe = m
		for i, text := range exp.Texts {
			got, err := tok.Encode(text, EncodeOptions{})
			if want := exp.IDs[name][i]; err != nil || !slices.Equal(got, want) {
				n := 0
				for n < len(got) && n < len(want) && got[n] == want[n] {
					n++
				}
				t.Errorf("%s text %d: differs at id %d of %d/%d: got %v..., want %v...", name, i, n, len(got), len(want),
					got[n:min(n+8, len(got))], want[n:min(n+8, len(want))])
			}
		}
	}
}
