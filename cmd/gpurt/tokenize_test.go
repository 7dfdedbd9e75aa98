package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

func TestTokenizeCommand(t *testing.T) {
	const vocab = "../../../shared/tokenizers/ggml-vocab-qwen2.gguf"
	if _, err := os.Stat(vocab); err != nil {
		t.Skipf("reference vocab absent (../shared/tokenizers): %v", err)
	}
	cases := []struct {
		name  string
		args  []string
		stdin string
		code  int
		out   string // stdout, exactly
		err   string // in stderr
	}{
		// ids as llama-tokenize prints them for the same arguments.
		{"ids", []string{"-m", vocab, "--ids", "-p", `Hello <|im_start|>user\n</s> \x41`}, "", 0,
			"[9707, 220, 151644, 872, 198, 128247, 362]\n", ""},
		{"no parse special", []string{"-m", vocab, "--ids", "--no-parse-special", "-p", "<|im_end|>"}, "", 0,
			"[27, 91, 318, 6213, 91, 29]\n", ""},
		{"no escape", []string{"-m", vocab, "--ids", "--no-escape", "-p", `a\n`}, "", 0, "[64, 1699]\n", ""},
		{"stdin", []string{"-m", vocab, "--ids"}, "Hello", 0, "[9707]\n", ""},
		{"pieces", []string{"-m", vocab, "-p", "Hi<|im_end|>", "--show-count"}, "", 0,
			" 13048 -> 'Hi'\n151645 -> '<|im_end|>'\nTotal number of tokens: 2\n", ""},
		{"help", []string{"-h"}, "", 0, "", ""},
		{"no model", []string{"-p", "x"}, "", 2, "", "gpurt tokenize: -m FILE is required"},
		{"extra arg", []string{"-m", vocab, "-p", "x", "y"}, "", 2, "", `unexpected argument "y"`},
		{"two sources", []string{"-m", vocab, "-p", "x", "-f", "y"}, "", 2, "", "mutually exclusive"},
		{"two outputs", []string{"-m", vocab, "-p", "x", "--ids", "--show-pieces"}, "", 2, "", "mutually exclusive"},
		{"bad flag", []string{"--bogus"}, "", 2, "", "gpurt tokenize: flag provided but not defined: -bogus"},
		{"missing model", []string{"-m", "/nonexistent.gguf", "-p", "x"}, "", 1, "", "gpurt tokenize: "},
		{"missing file", []string{"-m", vocab, "-f", "/nonexistent.txt"}, "", 1, "", "gpurt tokenize: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := tokenizeMain(c.args, strings.NewReader(c.stdin), &stdout, &stderr)
			if c.name == "help" && !strings.Contains(stdout.String(), "examples:") {
				t.Errorf("-h printed %q, want the usage with examples", stdout.String())
			}
			if code != c.code || stdout.String() != c.out && c.out != "" || !strings.Contains(stderr.String(), c.err) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr with %q",
					code, stdout.String(), stderr.String(), c.code, c.out, c.err)
			}
		})
	}
}
