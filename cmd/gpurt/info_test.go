package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/gguf"
	rt "github.com/gpurt/gpurt/runtime"
)

// unrunnableGGUF writes a file holding a Q4_K tensor, an IQ2_XXS one (known
// to gpurt, not runnable) and one of a type id gpurt does not know.
func unrunnableGGUF(t *testing.T) string {
	t.Helper()
	var h bytes.Buffer
	le := func(v any) { binary.Write(&h, binary.LittleEndian, v) }
	str := func(s string) { le(uint64(len(s))); h.WriteString(s) }
	h.WriteString("GGUF")
	le(uint32(3))
	le(uint64(3)) // tensors
	le(uint64(1)) // metadata keys
	str("general.architecture")
	le(uint32(8)) // string
	str("llama")
	for i, tt := range []struct {
		name string
		typ  uint32
	}{{"blk.0.attn_k.weight", uint32(rt.Q4_K)}, {"blk.0.attn_q.weight", uint32(rt.IQ2_XXS)}, {"blk.0.attn_v.weight", 99}} {
		str(tt.name)
		le(uint32(2))
		le(uint64(256))
		le(uint64(2))
		le(tt.typ)
		le(uint64(i * 320))
	}
	for h.Len()%32 != 0 {
		h.WriteByte(0)
	}
	h.Write(make([]byte, 3*320))
	path := filepath.Join(t.TempDir(), "mixed.gguf")
	if err := os.WriteFile(path, h.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestInfo(t *testing.T) {
	mixed := unrunnableGGUF(t)
	tests := []struct {
		name string
		args []string
		code int
		out  []string // substrings of stdout
		err  string   // substring of stderr
	}{
		{"unrunnable types are listed", []string{mixed}, 0, []string{
			"GGUF v3, 1 metadata keys, 3 tensors",
			"general.architecture", `"llama"`,
			"blk.0.attn_k.weight  q4_K", "[256, 2]", "288 B",
			"blk.0.attn_q.weight  iq2_xxs", "(gpurt cannot run this type)",
			"blk.0.attn_v.weight  dtype(99)",
			"parameters: 1.54 K (1536)", "2 tensors have types gpurt cannot run yet",
		}, ""},
		{"help", []string{"-h"}, 0, nil, "example:"},
		{"no file", nil, 2, nil, "gpurt info: want one FILE.gguf"},
		{"two files", []string{mixed, mixed}, 2, nil, "got 2 arguments"},
		{"negative items", []string{"--array-items", "-1", mixed}, 2, nil, "is negative"},
		{"missing file", []string{filepath.Join(t.TempDir(), "none.gguf")}, 1, nil, "gpurt info: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := infoCmd(tc.args, &out, &errb); code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, errb.String())
			}
			for _, s := range tc.out {
				if !strings.Contains(out.String(), s) {
					t.Errorf("stdout lacks %q:\n%s", s, out.String())
				}
			}
			if !strings.Contains(errb.String(), tc.err) {
				t.Errorf("stderr lacks %q:\n%s", tc.err, errb.String())
			}
		})
	}
}

func TestInfoSummarizesArrays(t *testing.T) {
	w := gguf.NewWriter()
	toks := make([]string, 100)
	for i := range toks {
		toks[i] = "t" + string(rune('a'+i%26))
	}
	w.Set("tokenizer.ggml.tokens", toks)
	w.Set("tokenizer.ggml.scores", make([]float32, 100))
	w.AddTensorF32("token_embd.weight", rt.Q8_0, []int{32, 4}, make([]float32, 128))
	path := filepath.Join(t.TempDir(), "a.gguf")
	if err := w.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := infoCmd([]string{"--array-items", "3", path}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, s := range []string{`["ta", "tb", "tc", … 97 more] (100)`, "[0, 0, 0, … 97 more] (100)", "q8_0", "parameters: 128 (128)"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("stdout lacks %q:\n%s", s, out.String())
		}
	}
}
