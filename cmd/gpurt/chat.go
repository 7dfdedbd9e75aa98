package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/server"
	"github.com/gpurt/gpurt/tokenizer"
)

func init() { register("chat", "an interactive chat in the terminal (multi-turn, streamed)", runChat) }

// chatStdin is where chat reads the user's lines (tests swap it).
var chatStdin io.Reader = os.Stdin

const chatHelp = `commands:
  /clear   forget the conversation (the system prompt stays)
  /exit    quit (or Ctrl-D)
  /help    this text
Ctrl-C stops the reply being written; at the prompt, twice in a row, it quits.`

func runChat(args []string) int {
	c := newCLI("chat", "[-m MODEL.gguf] [--system TEXT] [flags]",
		"gpurt chat",
		"gpurt chat -m model.gguf --system 'You are terse.' --temp 0.7",
		"printf 'Hello\\nTell me more\\n' | gpurt chat -m model.gguf --temp 0")
	model := c.String("m,model", "", "model `FILE` (GGUF); default: the embedded default model")
	system := c.String("system", "", "system prompt `TEXT`")
	tmpl := c.String("chat-template", "", "chat template: a built-in name (chatml, llama2, llama3, gemma, phi3, mistral) or a Jinja FILE; default: the model's")
	n := c.Int("n,n-predict", -1, "tokens per reply at most (-1: until the model ends its turn or the context is full)")
	temp := c.Float64("temp", 0.8, "sampling temperature, >= 0; 0 is greedy")
	topK := c.Int("top-k", 40, "keep the K most likely tokens (0: all)")
	topP := c.Float64("top-p", 0.95, "nucleus sampling threshold in [0, 1] (1: off)")
	minP := c.Float64("min-p", 0.05, "drop tokens less likely than this times the most likely, in [0, 1)")
	repeat := c.Float64("repeat-penalty", 1, "penalty > 0 for the last 64 tokens (1: off)")
	seed := c.Uint64("s,seed", 42, "random seed")
	device := c.String("d,device", "auto", "auto, cpu, a family (vulkan, webgpu) or device names from gpurt devices; several as A,B")
	threads := c.Int("t,threads", 0, "CPU threads (0: all cores)")
	gpuLayers := c.Int("ngl,gpu-layers", -1, "blocks to place on the GPU devices, counted from the last (-1: all)")
	splitList := tensorSplitFlag(c)
	ctxSize := c.Int("c,ctx-size", 0, "context size in tokens (0: the model's trained context, capped by a KV memory budget)")
	kv := c.String("kv", "f16", "KV cache dtype: f16 or f32")
	if code, ok := c.Parse(args); !ok {
		return code
	}
	for _, msg := range []string{
		checkNonNegative("-t/--threads", *threads),
		checkNonNegative("-c/--ctx-size", *ctxSize),
		checkNonNegative("--top-k", *topK),
		checkFinite("--temp", *temp, 0, 1e6),
		checkFinite("--top-p", *topP, 0, 1),
		checkFinite("--min-p", *minP, 0, 0.999999),
		checkFinite("--repeat-penalty", *repeat, 1e-6, 100),
	} {
		if msg != "" {
			return c.Usagef("%s", msg)
		}
	}
	if *n < -1 {
		return c.Usagef("-n %d: want -1 (no limit) or a count >= 0", *n)
	}
	split, kvType, msg := checkChatModelFlags(*model, *device, *gpuLayers, *splitList, *kv, *tmpl)
	if msg != "" {
		return c.Usagef("%s", msg)
	}
	lm, err := loadChatModel(chatLoadOptions{path: *model, devices: *device, threads: *threads, gpuLayers: *gpuLayers,
		tensorSplit: split, ctxSize: *ctxSize, kv: kvType, nSeq: 1})
	if err != nil {
		if errors.Is(err, errUsage) {
			return c.Usagef("%v", err)
		}
		return c.Fail(err)
	}
	defer lm.close()
	t, err := server.ChooseTemplate(*tmpl, lm.jinja, lm.tokenText(lm.m.Tok.BOS()), lm.tokenText(lm.m.Tok.EOS()), os.ReadFile)
	if err != nil {
		return c.Fail(err)
	}
	if t.Refused != nil {
		c.Infof("warning: the model's chat template is not used (%v): chats render as %s", t.Refused, t.Name)
	}
	e := server.NewEngine(lm.m, server.EngineOptions{Queue: 1}, nil)
	defer e.Close()
	s := &chatSession{
		e: e, t: t, system: *system, maxNew: *n, out: cliStdout, c: c,
		sampling: server.Sampling{Temp: float32(*temp), TopK: *topK, TopP: float32(*topP), MinP: float32(*minP),
			RepeatPenalty: float32(*repeat), RepeatLastN: 64, Seed: *seed},
	}
	interactive := false
	if f, ok := chatStdin.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			interactive = true
		}
	}
	if interactive {
		c.Infof("model %s, context %d, chat template %s; /help for commands", lm.name, lm.m.H.NCtx, t.Name)
	}
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	defer signal.Stop(interrupts)
	if err := s.loop(chatStdin, interactive, interrupts); err != nil {
		return c.Fail(err)
	}
	return exitOK
}

// chatSession is one conversation: its messages, and the tokens the
// engine's slot holds for them, so that each turn evaluates only its own
// text.
type chatSession struct {
	e        *server.Engine
	t        *server.Template
	system   string
	sampling server.Sampling
	maxNew   int
	out      io.Writer
	c        *cli

	msgs []server.Message
	// tokens is the conversation so far as the model saw it (prompts and
	// replies), and rendered the text those tokens stand for; nil after
	// a reply that did not end cleanly, when the next turn renders afresh.
	tokens   []int32
	rendered string
	// lastCached is how many prompt tokens of the last turn the cache
	// already held.
	lastCached int
}

func (s *chatSession) reset() {
	s.msgs, s.tokens, s.rendered = nil, nil, ""
	if s.system != "" {
		s.msgs = append(s.msgs, server.Message{Role: "system", Content: s.system})
	}
}

// loop reads lines from in and answers them until /exit, the end of in,
// or an interrupt at the prompt (the second in a row when interactive);
// an interrupt while a reply streams stops that reply.
func (s *chatSession) loop(in io.Reader, interactive bool, interrupts <-chan os.Signal) error {
	s.reset()
	lines := make(chan string)
	readErr := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		readErr <- sc.Err()
		close(lines)
	}()
	for {
		if interactive {
			fmt.Fprint(s.out, "> ")
		}
		var line string
		var ok bool
		interrupted := false
	wait:
		for {
			select {
			case line, ok = <-lines:
				break wait
			case <-interrupts:
				if !interactive || interrupted {
					if interactive {
						fmt.Fprintln(s.out)
					}
					return nil
				}
				interrupted = true
				fmt.Fprint(s.out, "\n(Ctrl-C again, /exit or Ctrl-D quits)\n> ")
			}
		}
		if !ok {
			if interactive {
				fmt.Fprintln(s.out)
			}
			return <-readErr
		}
		line = strings.TrimSpace(line)
		switch line {
		case "":
			continue
		case "/exit", "/quit":
			return nil
		case "/help":
			fmt.Fprintln(s.out, chatHelp)
			continue
		case "/clear":
			s.reset()
			fmt.Fprintln(s.out, "(conversation cleared)")
			continue
		}
		if strings.HasPrefix(line, "/") {
			fmt.Fprintf(s.out, "unknown command %s; /help lists them\n", line)
			continue
		}
		if err := s.turn(line, interrupts); err != nil {
			switch {
			case errors.Is(err, rt.ErrContextFull):
				fmt.Fprintln(s.out, "(the context is full: /clear starts a new conversation)")
				continue
			case errors.Is(err, rt.ErrInvalidArgument): // the template cannot render this message
				fmt.Fprintf(s.out, "(%v)\n", err)
				continue
			}
			return err
		}
	}
}

// turn sends one user message and streams the reply; an interrupt stops
// the reply where it is (the conversation keeps what was written).
func (s *chatSession) turn(text string, interrupts <-chan os.Signal) error {
	tok := s.e.Model().Tok.Tokenizer
	s.msgs = append(s.msgs, server.Message{Role: "user", Content: text})
	full, err := s.t.Render(s.msgs, true)
	if err != nil {
		s.msgs = s.msgs[:len(s.msgs)-1] // the turn did not happen
		return err
	}
	var prompt []int32
	if s.tokens != nil && strings.HasPrefix(full, s.rendered) {
		// Only the new text is tokenized; the earlier tokens are exactly
		// what the slot's cache holds.
		rest, err := tok.Encode(full[len(s.rendered):], tokenizer.EncodeOptions{ParseSpecial: true})
		if err != nil {
			return err
		}
		prompt = append(append([]int32(nil), s.tokens...), rest...)
	} else {
		var err error
		if prompt, err = tok.Encode(full, tokenizer.EncodeOptions{AddSpecial: true, ParseSpecial: true}); err != nil {
			return err
		}
	}
	if len(prompt) >= s.e.SlotContext() {
		s.msgs = s.msgs[:len(s.msgs)-1]
		return fmt.Errorf("%d tokens: %w", len(prompt), rt.ErrContextFull)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dec := tokenizer.NewStreamDecoder(tok, tokenizer.DecodeOptions{})
	var reply strings.Builder
	stopped := false
	job := &server.Job{Prompt: prompt, MaxNew: s.maxNew, Sampling: s.sampling, OnToken: func(id int32) bool {
		piece, _ := dec.Next(id)
		reply.WriteString(piece)
		for _, st := range s.t.Stops {
			if i := strings.Index(reply.String(), st); i >= 0 {
				stopped = true
				return false
			}
		}
		fmt.Fprint(s.out, piece)
		return true
	}}
	results, err := s.e.Submit(ctx, job)
	if err != nil {
		return err
	}
	var res server.Result
	select {
	case res = <-results:
	case <-interrupts:
		cancel()
		res = <-results
		fmt.Fprint(s.out, " [stopped]")
	}
	fmt.Fprintln(s.out)
	if res.Err != nil {
		return res.Err
	}
	content := reply.String() + dec.Flush()
	for _, st := range s.t.Stops {
		if i := strings.Index(content, st); i >= 0 {
			content = content[:i]
		}
	}
	s.msgs = append(s.msgs, server.Message{Role: "assistant", Content: content})
	s.lastCached = res.CachedTokens
	if !stopped {
		// The cache holds the prompt and the reply (all but its last
		// token), which render as the text so far; a reply cut at a stop
		// text has tokens past its content, so the next turn renders afresh.
		s.tokens = append(prompt, res.Tokens...)
		s.rendered = full + content
	} else {
		s.tokens, s.rendered = nil, ""
	}
	return nil
}
