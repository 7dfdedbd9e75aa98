// Package testmodels locates the shared test models and describes the
// llama GGUF layout, for tests across packages. The models are read in
// place from ../shared/models beside the repository, never copied into it.
package testmodels

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// StoriesPath returns the path of stories260K.gguf, or skips the test when
// the shared models are not beside this checkout.
func StoriesPath(tb testing.TB) string {
	tb.Helper()
	root, err := repoRoot()
	if err != nil {
		tb.Fatal(err)
	}
	p := filepath.Join(root, "..", "shared", "models", "stories260K.gguf")
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("stories260K not present: %v", err)
	}
	return p
}

// repoRoot walks up from the working directory to the folder with go.mod.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("testmodels: no go.mod above the working directory")
		}
		dir = parent
	}
}

// LlamaShapes is the name → shape (ggml order) table of a llama GGUF's
// tensors with separate output weights.
func LlamaShapes(blocks, dim, ff, vocab, kvDim int) map[string][]int {
	want := map[string][]int{
		"token_embd.weight":  {dim, vocab},
		"output_norm.weight": {dim},
		"output.weight":      {dim, vocab},
	}
	for i := 0; i < blocks; i++ {
		b := fmt.Sprintf("blk.%d.", i)
		want[b+"attn_norm.weight"] = []int{dim}
		want[b+"attn_q.weight"] = []int{dim, dim}
		want[b+"attn_k.weight"] = []int{dim, kvDim}
		want[b+"attn_v.weight"] = []int{dim, kvDim}
		want[b+"attn_output.weight"] = []int{dim, dim}
		want[b+"ffn_norm.weight"] = []int{dim}
		want[b+"ffn_gate.weight"] = []int{dim, ff}
		want[b+"ffn_up.weight"] = []int{dim, ff}
		want[b+"ffn_down.weight"] = []int{ff, dim}
	}
	return want
}
