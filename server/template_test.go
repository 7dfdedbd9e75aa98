package server

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/internal/jinja"
	rt "github.com/gpurt/gpurt/runtime"
)

var chatFixture = []Message{
	{Role: "system", Content: "You are terse."},
	{Role: "user", Content: "Hello"},
	{Role: "assistant", Content: "Hi."},
	{Role: "user", Content: "Who are you?"},
}

func TestBuiltinTemplates(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"chatml", "<|im_start|>system\nYou are terse.<|im_end|>\n<|im_start|>user\nHello<|im_end|>\n<|im_start|>assistant\nHi.<|im_end|>\n<|im_start|>user\nWho are you?<|im_end|>\n<|im_start|>assistant\n"},
		{"llama3", "<|start_header_id|>system<|end_header_id|>\n\nYou are terse.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nHello<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\nHi.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nWho are you?<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"},
		{"gemma", "<start_of_turn>user\nYou are terse.\n\nHello<end_of_turn>\n<start_of_turn>model\nHi.<end_of_turn>\n<start_of_turn>user\nWho are you?<end_of_turn>\n<start_of_turn>model\n"},
		{"phi3", "<|system|>\nYou are terse.<|end|>\n<|user|>\nHello<|end|>\n<|assistant|>\nHi.<|end|>\n<|user|>\nWho are you?<|end|>\n<|assistant|>\n"},
		{"llama2", "[INST] <<SYS>>\nYou are terse.\n<</SYS>>\n\nHello [/INST] Hi. </s><s>[INST] Who are you? [/INST]"},
		{"mistral", "[INST] You are terse.\n\nHello [/INST] Hi.</s>[INST] Who are you? [/INST]"},
	} {
		tmpl, err := BuiltinTemplate(c.name)
		if err != nil {
			t.Fatal(err)
		}
		if got := mustRender(t, tmpl, chatFixture); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
	if _, err := BuiltinTemplate("nope"); err == nil {
		t.Error("an unknown built-in was accepted")
	}
}

// TestJinjaTemplates renders real templates: those of llama.cpp's vocab
// files (read in place from ../shared) and two fixtures from llama.cpp's
// models/templates. Where a built-in writes the same format, both agree.
func TestJinjaTemplates(t *testing.T) {
	type source struct {
		name, jinja, bos, eos string
		builtin               string // the built-in expected to give the same text, or ""
		want                  []string
	}
	var sources []source
	for _, c := range []struct{ vocab, builtin string }{
		{"qwen2", "chatml"}, {"llama3", "llama3"}, {"gemma3", "gemma"}, {"phi-3", ""},
	} {
		path := filepath.Join("..", "..", "shared", "tokenizers", "ggml-vocab-"+c.vocab+".gguf")
		f, err := gguf.Open(path)
		if err != nil {
			t.Logf("skipping %s: %v (../shared absent?)", c.vocab, err)
			continue
		}
		j, _ := f.String("tokenizer.chat_template")
		tokens, _ := f.StringArray("tokenizer.ggml.tokens")
		text := func(key string) string {
			id, err := f.Int(key)
			if err != nil || id < 0 || id >= len(tokens) {
				return ""
			}
			return tokens[id]
		}
		sources = append(sources, source{name: c.vocab, jinja: j, bos: text("tokenizer.ggml.bos_token_id"), eos: text("tokenizer.ggml.eos_token_id"), builtin: c.builtin})
		f.Close()
	}
	for _, fx := range []struct{ file, bos, eos string }{
		{"llama-cpp-microsoft-Phi-4-mini-instruct.jinja", "<|endoftext|>", "<|endoftext|>"},
		{"deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja", "<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>"},
	} {
		b, err := os.ReadFile(filepath.Join("testdata", "templates", fx.file))
		if err != nil {
			t.Fatal(err)
		}
		sources = append(sources, source{name: fx.file, jinja: string(b), bos: fx.bos, eos: fx.eos})
	}
	wants := map[string]string{
		"llama3": "<|start_header_id|>user<|end_header_id|>\n\nWho are you?<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n",
		"gemma3": "<start_of_turn>user\nWho are you?<end_of_turn>\n<start_of_turn>model\n",
		"phi-3":  "<|user|>\nWho are you?<|end|>\n<|assistant|>\n",
		"llama-cpp-microsoft-Phi-4-mini-instruct.jinja":  "<|system|>You are terse.<|end|><|user|>Hello<|end|><|assistant|>Hi.<|end|><|user|>Who are you?<|end|><|assistant|>",
		"deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja": "You are terse.<｜User｜>Hello<｜Assistant｜>Hi.<｜end▁of▁sentence｜><｜User｜>Who are you?<｜Assistant｜><think>\n",
	}
	for _, s := range sources {
		tmpl, err := JinjaTemplate(s.name, s.jinja, s.bos, s.eos)
		if err != nil {
			t.Errorf("%s: %v", s.name, err)
			continue
		}
		got := mustRender(t, tmpl, chatFixture)
		if s.bos != "" && strings.HasPrefix(got, s.bos) {
			t.Errorf("%s: the BOS text was not dropped: %q", s.name, got)
		}
		if s.builtin != "" {
			b, _ := BuiltinTemplate(s.builtin)
			if want := mustRender(t, b, chatFixture); got != want {
				t.Errorf("%s: jinja gives\n%q\nthe %s built-in\n%q", s.name, got, s.builtin, want)
			}
		}
		if w, ok := wants[s.name]; ok && !strings.HasSuffix(got, w) {
			t.Errorf("%s: %q does not end with %q", s.name, got, w)
		}
		if !strings.Contains(got, "Hello") || !strings.Contains(got, "Hi.") {
			t.Errorf("%s: %q lacks the conversation", s.name, got)
		}
		t.Logf("%s: %q", s.name, got)
	}
}

func TestChooseTemplate(t *testing.T) {
	read := func(string) ([]byte, error) { return nil, os.ErrNotExist }
	for _, c := range []struct {
		choice, jinja, want string
		ok                  bool
	}{
		{"", "", "chatml", true},
		{"", "{% for m in messages %}<|start_header_id|>{{ m.role }}<|end_header_id|>{{ m.content }}{% endfor %}", "the model's (jinja)", true},
		{"", "{% for m in messages %}<|start_header_id|>{{ m.role }}<|end_header_id|>{% endfor %}", "llama3", true}, // renders no content: the markers decide
		{"", "{% broken", "chatml", true},
		{"", "{% broken <start_of_turn>", "gemma", true},
		{"llama2", "", "llama2", true},
		{"/nonexistent.jinja", "", "", false},
	} {
		tmpl, err := ChooseTemplate(c.choice, c.jinja, "<s>", "</s>", read)
		if (err == nil) != c.ok || (err == nil && tmpl.Name != c.want) {
			name := ""
			if tmpl != nil {
				name = tmpl.Name
			}
			t.Errorf("ChooseTemplate(%q, %q): %q %v, want %q ok=%v", c.choice, c.jinja, name, err, c.want, c.ok)
		}
	}
}

func mustRender(t *testing.T, tmpl *Template, msgs []Message) string {
	t.Helper()
	out, err := tmpl.Render(msgs, true)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// hostileTemplate renders the probe's one-letter messages, but makes a
// 100 MB string of any longer one: a model file's template that a request
// can make run away.
const hostileTemplate = `{% for m in messages %}{% if m.content|length > 1 %}{{ m.content * 100000000 }}{% else %}<{{ m.role }}>{{ m.content }}{% endif %}{% endfor %}`

// TestHostileJinjaTemplates: a model's template that recurses forever or
// loops without end is refused when loaded (ChooseTemplate then takes the
// built-in its markers name); one that runs away only on some messages
// fails those renders with an error wrapping rt.ErrInvalidArgument and
// jinja.ErrLimit, and renders the next chat.
func TestHostileJinjaTemplates(t *testing.T) {
	for _, src := range []string{
		`{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}<|im_start|>{% for m in messages %}{{ m.content }}{% endfor %}`,
		`{% for i in range(100000000000) %}{% endfor %}<|im_start|>{% for m in messages %}{{ m.content }}{% endfor %}`,
	} {
		if _, err := JinjaTemplate("hostile", src, "", ""); !errors.Is(err, rt.ErrUnsupported) || !errors.Is(err, jinja.ErrLimit) {
			t.Errorf("%.30q: %v, want an error wrapping ErrUnsupported and ErrLimit", src, err)
		}
		tmpl, err := ChooseTemplate("", src, "", "", nil)
		if err != nil || tmpl.Name != "chatml" || !errors.Is(tmpl.Refused, jinja.ErrLimit) {
			t.Errorf("%.30q: chose %v (%v), want the chatml built-in its markers name, saying why", src, tmpl, err)
		}
		if builtins["chatml"].Refused != nil {
			t.Error("the shared chatml built-in was marked")
		}
	}
	tmpl, err := JinjaTemplate("hostile", hostileTemplate, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tmpl.Render([]Message{{Role: "user", Content: "hello"}}, true); !errors.Is(err, rt.ErrInvalidArgument) || !errors.Is(err, jinja.ErrLimit) {
		t.Fatalf("a runaway render: %v, want an error wrapping ErrInvalidArgument and ErrLimit", err)
	}
	if got := mustRender(t, tmpl, []Message{{Role: "user", Content: "h"}}); got != "<user>h" {
		t.Fatalf("the next render: %q", got)
	}
}
