package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/gguf"
	rt "github.com/gpurt/gpurt/runtime"
)

func TestQuantizeCommand(t *testing.T) {
	in := "../../../shared/models/synth/llama-q8_0.gguf"
	if _, err := os.Stat(in); err != nil {
		t.Skipf("synthetic models not present (%v); skipping", err)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "out.gguf")
	tests := []struct {
		name string
		args []string
		code int
		out  string // substring of stdout
		err  string // substring of stderr
	}{
		// A q8_0 model to q4_0: every weight is dequantized and quantized
		// again (never a silent copy), output.weight becomes Q6_K.
		{"requantize", []string{"-t", "3", in, out, "Q4_0"}, 0, "16 of 21 tensors converted (5 f32, 15 q4_0, 1 q6_K)", ""},
		{"options", []string{"--pure", "--tensor-type", "ffn_.*=q8_0", "--output-tensor-type", "f16", in, out, "q4_k_m"}, 0,
			"10 of 21 tensors converted (5 f32, 1 f16, 6 q8_0, 9 q4_K)", ""},
		{"help", []string{"-h"}, 0, "", "example:"},
		{"unknown type", []string{in, out, "q9_k"}, 2, "", "gpurt quantize: unknown quantization type \"q9_k\""},
		{"bad tensor type", []string{"--tensor-type", "attn_v", in, out, "q4_0"}, 2, "", "want NAME=TYPE"},
		{"unquantizable tensor type", []string{"--tensor-type", "attn_v=iq2_xxs", in, out, "q4_0"}, 2, "", "cannot quantize to \"iq2_xxs\""},
		{"missing argument", []string{in, out}, 2, "", "want IN.gguf OUT.gguf TYPE, got 2 arguments"},
		{"negative threads", []string{"-t", "-2", in, out, "q4_0"}, 2, "", "-t -2 is negative"},
		{"extra argument", []string{in, out, "q4_0", "x"}, 2, "", "got 4 arguments"},
		{"missing input", []string{filepath.Join(dir, "none.gguf"), out, "q4_0"}, 1, "", "gpurt quantize: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var so, se bytes.Buffer
			if code := quantizeCmd(tc.args, &so, &se); code != tc.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, so.String(), se.String())
			}
			if !strings.Contains(so.String(), tc.out) || !strings.Contains(se.String(), tc.err) {
				t.Errorf("stdout %q, stderr %q; want %q and %q", so.String(), se.String(), tc.out, tc.err)
			}
		})
	}
	// The last successful run wrote the options' types.
	f, err := gguf.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for name, want := range map[string]rt.DType{"output.weight": rt.F16, "blk.0.ffn_up.weight": rt.Q8_0, "blk.1.attn_v.weight": rt.Q4_K} {
		if ti, ok := f.Tensor(name); !ok || ti.Type != want {
			t.Errorf("%s: %+v, want %v", name, ti, want)
		}
	}
}
