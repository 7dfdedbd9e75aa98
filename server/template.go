package server

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gpurt/gpurt/internal/jinja"
	rt "github.com/gpurt/gpurt/runtime"
)

// Message is one turn of a chat.
type Message struct {
	Role    string `json:"role"` // system, user or assistant
	Content string `json:"content"`
}

// Template renders a chat into the prompt text a model was trained on.
type Template struct {
	// Name is the built-in's name (chatml, llama2, llama3, gemma, phi3,
	// mistral).
	Name string
	// Stops are texts that end an assistant turn, for models whose
	// vocabulary lacks them as end-of-generation tokens.
	Stops []string
	// Refused is why ChooseTemplate did not take the model's own Jinja
	// template (it does not compile, cannot render a short chat, or goes
	// past a render limit), when it chose this one instead; else nil.
	Refused error
	render  func(msgs []Message, addAssistant bool) (string, error)
}

// Render returns the prompt for msgs; with addAssistant it ends with the
// header of the assistant's reply, so the model writes it next. A BOS
// token is not included: it comes from the tokenizer's AddSpecial. It
// fails (wrapping rt.ErrInvalidArgument) only where a model's Jinja
// template goes past a render limit on these messages (internal/jinja).
func (t *Template) Render(msgs []Message, addAssistant bool) (string, error) {
	return t.render(msgs, addAssistant)
}

// infallible is a built-in format's render function, which cannot fail.
func infallible(render func(msgs []Message, gen bool) string) func([]Message, bool) (string, error) {
	return func(msgs []Message, gen bool) (string, error) { return render(msgs, gen), nil }
}

// TemplateNames lists the built-in templates.
func TemplateNames() []string {
	names := make([]string, 0, len(builtins))
	for n := range builtins {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// BuiltinTemplate returns the built-in template called name.
func BuiltinTemplate(name string) (*Template, error) {
	t, ok := builtins[name]
	if !ok {
		return nil, fmt.Errorf("server: %w: no built-in chat template %q (have %s)", rt.ErrInvalidArgument, name, strings.Join(TemplateNames(), ", "))
	}
	return t, nil
}

// DetectTemplate picks the built-in whose format a model's own Jinja
// template (tokenizer.chat_template) writes, by the markers it contains,
// as llama.cpp's llm_chat_detect_template does. It returns nil when none
// matches.
func DetectTemplate(jinja string) *Template {
	has := func(s ...string) bool {
		for _, x := range s {
			if !strings.Contains(jinja, x) {
				return false
			}
		}
		return true
	}
	switch {
	case jinja == "":
		return nil
	case has("<|im_start|>"):
		return builtins["chatml"]
	case has("<|start_header_id|>", "<|end_header_id|>"):
		return builtins["llama3"]
	case has("<start_of_turn>"):
		return builtins["gemma"]
	case has("<|assistant|>", "<|end|>"):
		return builtins["phi3"]
	case has("[INST]", "<<SYS>>"):
		return builtins["llama2"]
	case has("[INST]"):
		return builtins["mistral"]
	}
	return nil
}

var builtins = map[string]*Template{
	"chatml": {Name: "chatml", Stops: []string{"<|im_end|>", "<|im_start|>"}, render: infallible(func(msgs []Message, gen bool) string {
		var b strings.Builder
		for _, m := range msgs {
			fmt.Fprintf(&b, "<|im_start|>%s\n%s<|im_end|>\n", m.Role, m.Content)
		}
		if gen {
			b.WriteString("<|im_start|>assistant\n")
		}
		return b.String()
	})},
	"llama3": {Name: "llama3", Stops: []string{"<|eot_id|>", "<|start_header_id|>"}, render: infallible(func(msgs []Message, gen bool) string {
		var b strings.Builder
		for _, m := range msgs {
			fmt.Fprintf(&b, "<|start_header_id|>%s<|end_header_id|>\n\n%s<|eot_id|>", m.Role, strings.TrimSpace(m.Content))
		}
		if gen {
			b.WriteString("<|start_header_id|>assistant<|end_header_id|>\n\n")
		}
		return b.String()
	})},
	"gemma": {Name: "gemma", Stops: []string{"<end_of_turn>", "<start_of_turn>"}, render: infallible(func(msgs []Message, gen bool) string {
		// Gemma has no system role: the system text opens the first user turn.
		var b strings.Builder
		system := ""
		for _, m := range msgs {
			switch m.Role {
			case "system":
				system += m.Content + "\n\n"
				continue
			case "assistant":
				fmt.Fprintf(&b, "<start_of_turn>model\n%s<end_of_turn>\n", strings.TrimSpace(m.Content))
			default:
				fmt.Fprintf(&b, "<start_of_turn>%s\n%s%s<end_of_turn>\n", m.Role, system, strings.TrimSpace(m.Content))
				system = ""
			}
		}
		if gen {
			b.WriteString("<start_of_turn>model\n")
		}
		return b.String()
	})},
	"phi3": {Name: "phi3", Stops: []string{"<|end|>", "<|user|>"}, render: infallible(func(msgs []Message, gen bool) string {
		var b strings.Builder
		for _, m := range msgs {
			fmt.Fprintf(&b, "<|%s|>\n%s<|end|>\n", m.Role, m.Content)
		}
		if gen {
			b.WriteString("<|assistant|>\n")
		}
		return b.String()
	})},
	"llama2": {Name: "llama2", Stops: []string{"[INST]"}, render: infallible(func(msgs []Message, gen bool) string {
		// The system prompt goes inside the first [INST] in <<SYS>> markers;
		// later rounds start with their own BOS.
		var b strings.Builder
		system, open := "", false
		for _, m := range msgs {
			switch m.Role {
			case "system":
				system = "<<SYS>>\n" + m.Content + "\n<</SYS>>\n\n"
			case "assistant":
				fmt.Fprintf(&b, " %s </s>", strings.TrimSpace(m.Content))
				open = true
			default:
				if open {
					b.WriteString("<s>")
				}
				fmt.Fprintf(&b, "[INST] %s%s [/INST]", system, strings.TrimSpace(m.Content))
				system = ""
			}
		}
		return b.String()
	})},
	"mistral": {Name: "mistral", Stops: []string{"[INST]"}, render: infallible(func(msgs []Message, gen bool) string {
		// Mistral's v1 format: no system role, its text opens the first
		// user turn.
		var b strings.Builder
		system := ""
		for _, m := range msgs {
			switch m.Role {
			case "system":
				system += m.Content + "\n\n"
			case "assistant":
				fmt.Fprintf(&b, " %s</s>", strings.TrimSpace(m.Content))
			default:
				fmt.Fprintf(&b, "[INST] %s%s [/INST]", system, strings.TrimSpace(m.Content))
				system = ""
			}
		}
		return b.String()
	})},
}

// ChooseTemplate resolves --chat-template: a built-in name is that
// built-in; anything else names a Jinja file, rendered with JinjaTemplate.
// Empty takes the model's own Jinja template (modelJinja), else the
// built-in its markers name, else chatml. bos and eos are the vocabulary's
// BOS and EOS texts.
func ChooseTemplate(choice, modelJinja, bos, eos string, readFile func(string) ([]byte, error)) (*Template, error) {
	switch {
	case choice == "":
		var refused error
		if modelJinja != "" {
			t, err := JinjaTemplate("the model's (jinja)", modelJinja, bos, eos)
			if err == nil {
				return t, nil
			}
			refused = err
		}
		t := DetectTemplate(modelJinja)
		if t == nil {
			t = builtins["chatml"]
		}
		if refused != nil {
			fallback := *t // the built-ins are shared
			fallback.Refused = refused
			return &fallback, nil
		}
		return t, nil
	case builtins[choice] != nil:
		return builtins[choice], nil
	}
	b, err := readFile(choice)
	if err != nil {
		return nil, fmt.Errorf("server: %w: chat template %q is neither a built-in (%s) nor a readable file: %v", rt.ErrInvalidArgument, choice, strings.Join(TemplateNames(), ", "), err)
	}
	return JinjaTemplate(choice, string(b), bos, eos)
}

// JinjaTemplate compiles a model's own chat template (Jinja, as
// tokenizer.chat_template holds it) with github.com/gpurt/gpurt/internal/jinja.
// bos and eos are the texts of the vocabulary's BOS and EOS tokens, the
// template's bos_token and eos_token. A leading BOS text in the output is
// dropped (the tokenizer adds BOS), and the stop texts are those of the
// built-in format the template's markers name, if any. It fails when the
// template does not compile or cannot render a short conversation.
func JinjaTemplate(name, source, bos, eos string) (*Template, error) {
	tmpl, err := jinja.Compile(source)
	if err != nil {
		return nil, fmt.Errorf("server: %w: chat template %s: %v", rt.ErrUnsupported, name, err)
	}
	t := &Template{Name: name}
	if b := DetectTemplate(source); b != nil {
		t.Stops = b.Stops
	}
	render := func(msgs []Message, gen bool) (string, error) {
		list := make([]any, len(msgs))
		for i, m := range msgs {
			list[i] = map[string]any{"role": m.Role, "content": m.Content}
		}
		out, err := tmpl.Render(map[string]any{
			"messages": list, "add_generation_prompt": gen, "bos_token": bos, "eos_token": eos,
		})
		if bos != "" {
			out = strings.TrimPrefix(out, bos)
		}
		return out, err
	}
	probe := []Message{{Role: "system", Content: "S"}, {Role: "user", Content: "U"}, {Role: "assistant", Content: "A"}, {Role: "user", Content: "V"}}
	out, err := render(probe, true)
	if err == nil && (!strings.Contains(out, "U") || !strings.Contains(out, "V")) {
		err = fmt.Errorf("the messages do not appear in its output %q", out)
	}
	if err != nil {
		return nil, fmt.Errorf("server: %w: chat template %s: %w", rt.ErrUnsupported, name, err)
	}
	t.render = func(msgs []Message, gen bool) (string, error) {
		out, err := render(msgs, gen)
		switch {
		case errors.Is(err, jinja.ErrLimit):
			// These messages make the template run away (a hostile
			// model file): no prompt.
			return "", fmt.Errorf("server: %w: chat template %s: %w", rt.ErrInvalidArgument, name, err)
		case err != nil:
			// The probe rendered, so this is the conversation's fault (a
			// template that refuses a role order): chatml renders anything.
			return builtins["chatml"].render(msgs, gen)
		}
		return out, nil
	}
	return t, nil
}
