package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/internal/testmodels"
	"github.com/gpurt/gpurt/models"
	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/server"
)

// TestChatLines: with standard input not a terminal, chat reads line by
// line, answers each message, obeys the commands, and each turn after the
// first reuses the cache of the turns before it.
func TestChatLines(t *testing.T) {
	old := chatStdin
	defer func() { chatStdin = old }()
	chatStdin = strings.NewReader("Hello there\n/help\nAnd then?\n/frob\n/clear\nGood day\n/exit\nnever read\n")
	code, out, errOut := runCLI(t, "chat", "--temp", "0", "-n", "12", "--system", "You are Miss Bates.")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"/clear   forget", "unknown command /frob", "(conversation cleared)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	replies := 0
	for _, l := range strings.Split(out, "\n") {
		if l != "" && !strings.HasPrefix(l, "(") && !strings.HasPrefix(l, "unknown") && !strings.Contains(chatHelp, l) {
			replies++
		}
	}
	if replies != 3 {
		t.Errorf("%d replies, want 3:\n%s", replies, out)
	}
}

// TestChatKeepsCache: the second turn's prompt starts with the tokens of
// the first turn, which the cache holds, so only the new text is evaluated.
func TestChatKeepsCache(t *testing.T) {
	lm, err := loadChatModel(chatLoadOptions{devices: "cpu", threads: 1, gpuLayers: -1, kv: rt.F16, nSeq: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer lm.close()
	tmpl, _ := server.BuiltinTemplate("chatml")
	e := server.NewEngine(lm.m, server.EngineOptions{Queue: 1}, nil)
	defer e.Close()
	var out strings.Builder
	s := &chatSession{e: e, t: tmpl, system: "Be kind.", maxNew: 10, out: &out, sampling: server.Sampling{RepeatPenalty: 1}}
	s.reset()
	if err := s.turn("Hello", nil); err != nil {
		t.Fatal(err)
	}
	if s.lastCached != 0 || s.tokens == nil {
		t.Fatalf("first turn: %d cached, tokens %v", s.lastCached, s.tokens)
	}
	first := len(s.tokens)
	if err := s.turn("Tell me more", nil); err != nil {
		t.Fatal(err)
	}
	if s.lastCached != first-1 {
		t.Errorf("second turn: %d prompt tokens were cached, want the first turn's %d less its unevaluated last token", s.lastCached, first)
	}
	if len(s.msgs) != 5 || s.msgs[4].Role != "assistant" {
		t.Errorf("messages: %+v", s.msgs)
	}
}

// TestServeChatUsage: bad values exit 2 before the model loads.
func TestServeChatUsage(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "-np", "0"},
		{"serve", "--port", "70000"},
		{"serve", "--timeout", "0"},
		{"serve", "--chat-template", "/no/such/template.jinja"},
		{"serve", "extra"},
		{"chat", "--min-p", "1"},
		{"chat", "-n", "-2"},
		{"chat", "--repeat-penalty", "0"},
		{"chat", "extra"},
	} {
		code, _, errOut := runCLI(t, args...)
		if code != 2 || !strings.HasPrefix(errOut, "gpurt "+args[0]+":") {
			t.Errorf("gpurt %v: exit %d, %q", args, code, errOut)
		}
	}
}

func TestServeChatHelp(t *testing.T) {
	for _, name := range []string{"serve", "chat"} {
		code, out, _ := runCLI(t, name, "-h")
		if code != 0 || !strings.Contains(out, "usage: gpurt "+name) || !strings.Contains(out, "examples:") || !strings.Contains(out, "-m, --model") {
			t.Errorf("gpurt %s -h: exit %d:\n%s", name, code, out)
		}
	}
}

// TestChatFileModel: chat on a model file (not the embedded one) keeps the
// file open while the model uses its weights in place from the memory map;
// closing it after loading gave NaN logits or a fault.
func TestChatFileModel(t *testing.T) {
	path := testmodels.StoriesPath(t)
	old := chatStdin
	defer func() { chatStdin = old }()
	chatStdin = strings.NewReader("Once upon a time\nThen?\n")
	code, out, errOut := runCLI(t, "chat", "-m", path, "-d", "cpu", "--temp", "0", "-n", "16")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if lines := strings.Count(out, "\n"); lines < 2 || len(strings.TrimSpace(out)) < 10 {
		t.Errorf("want two replies, got:\n%s", out)
	}
}

// TestChatHostileTemplate: a chat template that recurses without end is
// refused before the model loads (exit 2, naming the limit); one that runs
// away only on messages longer than a letter fails those turns with a
// message, and the chat goes on to answer the next.
func TestChatHostileTemplate(t *testing.T) {
	dir := t.TempDir()
	recursive := filepath.Join(dir, "recursive.jinja")
	runaway := filepath.Join(dir, "runaway.jinja")
	if err := os.WriteFile(recursive, []byte(`{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}{% for m in messages %}{{ m.content }}{% endfor %}`), 0o644); err != nil {
		t.Fatal(err)
	}
	src := `{% for m in messages %}{% if m.content|length > 1 %}{{ m.content * 100000000 }}{% else %}<|im_start|>{{ m.role }}
{{ m.content }}<|im_end|>
{% endif %}{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant
{% endif %}`
	if err := os.WriteFile(runaway, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI(t, "chat", "--chat-template", recursive)
	if code != 2 || !strings.Contains(errOut, "render limit") {
		t.Errorf("a recursive template: exit %d, %q", code, errOut)
	}
	old := chatStdin
	defer func() { chatStdin = old }()
	chatStdin = strings.NewReader("h\nhello\n/clear\nh\n")
	code, out, errOut := runCLI(t, "chat", "--chat-template", runaway, "--temp", "0", "-n", "6")
	if code != 0 {
		t.Fatalf("a runaway template: exit %d: %s", code, errOut)
	}
	replies := 0
	for _, l := range strings.Split(out, "\n") {
		if l != "" && !strings.HasPrefix(l, "(") {
			replies++
		}
	}
	if !strings.Contains(out, "render limit") || strings.Count(out, "(conversation cleared)") != 1 || replies != 2 {
		t.Errorf("a runaway template: want the failed turn reported between two replies:\n%s", out)
	}
}

// TestChatModelTemplateRefused: a model file whose own chat template
// recurses without end still chats, on the built-in its markers name,
// and says on stderr why its template is not used.
func TestChatModelTemplateRefused(t *testing.T) {
	f, err := gguf.Parse(models.Default)
	if err != nil {
		t.Fatal(err)
	}
	w := gguf.NewWriter()
	for _, kv := range f.KVs {
		if err := w.Set(kv.Key, kv.Value.Interface()); err != nil {
			t.Fatal(err)
		}
	}
	hostile := `{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}{% for x in messages %}<|im_start|>{{ x.content }}{% endfor %}`
	if err := w.Set("tokenizer.chat_template", hostile); err != nil {
		t.Fatal(err)
	}
	for _, ti := range f.Tensors {
		data, err := f.TensorData(ti.Name)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.AddTensor(ti.Name, ti.Type, ti.Shape(), data); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "hostile.gguf")
	if err := w.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	old := chatStdin
	defer func() { chatStdin = old }()
	chatStdin = strings.NewReader("Hello\n")
	code, out, errOut := runCLI(t, "chat", "-m", path, "-d", "cpu", "--temp", "0", "-n", "6")
	if code != 0 || strings.TrimSpace(out) == "" {
		t.Fatalf("exit %d, reply %q: %s", code, out, errOut)
	}
	if !strings.Contains(errOut, "warning: the model's chat template is not used") || !strings.Contains(errOut, "render limit") || !strings.Contains(errOut, "as chatml") {
		t.Errorf("stderr does not say why the model's template is not used:\n%s", errOut)
	}
}
