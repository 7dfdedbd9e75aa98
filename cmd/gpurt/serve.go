package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/llama"
	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/server"
)

func init() {
	register("serve", "an OpenAI-compatible HTTP server (/v1/chat/completions, /v1/completions) with a web chat page", runServe)
}

func runServe(args []string) int {
	c := newCLI("serve", "[-m MODEL.gguf] [--host 127.0.0.1] [--port 8080] [--api-key KEY] [flags]",
		"gpurt serve --port 8080",
		"gpurt serve -m ../shared/models/stories260K.gguf --api-key secret --chat-template chatml")
	model := c.String("m,model", "", "model `FILE` (GGUF); default: the embedded default model")
	host := c.String("host", "127.0.0.1", "address to listen on (0.0.0.0 for every interface)")
	port := c.Int("port", 8080, "TCP port (0: a free one, printed)")
	parallel := c.Int("np,parallel", 1, "slots generating together in one batched forward pass; each gets ctx-size/N tokens")
	queue := c.Int("queue", 16, "requests that may wait for a slot; more get 503")
	apiKey := c.String("api-key", "", "require Authorization: Bearer KEY on every endpoint but /health and the page")
	cors := c.String("cors", "", "allow browsers on ORIGIN (or *) to call the API; off by default")
	tmpl := c.String("chat-template", "", "chat template: a built-in name (chatml, llama2, llama3, gemma, phi3, mistral) or a Jinja FILE; default: the model's")
	timeout := c.Int("timeout", 600, "seconds a request may run at most")
	device := c.String("d,device", "auto", "auto, cpu, a family (vulkan, webgpu) or device names from gpurt devices; several as A,B")
	threads := c.Int("t,threads", 0, "CPU threads (0: all cores)")
	gpuLayers := c.Int("ngl,gpu-layers", -1, "blocks to place on the GPU devices, counted from the last (-1: all)")
	splitList := tensorSplitFlag(c)
	ctxSize := c.Int("c,ctx-size", 0, "context size in tokens (0: the model's trained context, capped by a KV memory budget)")
	kv := c.String("kv", "f16", "KV cache dtype: f16 or f32")
	verbose := c.Bool("v,verbose", false, "log every request on stderr")
	if code, ok := c.Parse(args); !ok {
		return code
	}
	for _, msg := range []string{
		checkNonNegative("-t/--threads", *threads),
		checkNonNegative("-c/--ctx-size", *ctxSize),
		checkNonNegative("--queue", *queue),
	} {
		if msg != "" {
			return c.Usagef("%s", msg)
		}
	}
	if *parallel < 1 || *parallel > 256 {
		return c.Usagef("-np/--parallel %d: want 1..256 slots", *parallel)
	}
	if *port < 0 || *port > 65535 {
		return c.Usagef("--port %d: want 0..65535", *port)
	}
	if *timeout <= 0 {
		return c.Usagef("--timeout %d: want seconds > 0", *timeout)
	}
	split, kvType, msg := checkChatModelFlags(*model, *device, *gpuLayers, *splitList, *kv, *tmpl)
	if msg != "" {
		return c.Usagef("%s", msg)
	}
	addr := net.JoinHostPort(*host, strconv.Itoa(*port))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return c.Fail(err)
	}
	defer ln.Close()

	lm, err := loadChatModel(chatLoadOptions{path: *model, devices: *device, threads: *threads, gpuLayers: *gpuLayers,
		tensorSplit: split, ctxSize: *ctxSize, kv: kvType, nSeq: *parallel})
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
	metrics := &server.Metrics{}
	e := server.NewEngine(lm.m, server.EngineOptions{Queue: max(*queue, 1), Slots: *parallel}, metrics)
	if e.SlotContext() < 8 {
		e.Close()
		return c.Usagef("-np/--parallel %d: a context of %d leaves %d tokens per slot (raise -c)", *parallel, lm.m.H.NCtx, e.SlotContext())
	}
	defer e.Close()
	opts := server.Options{ModelName: lm.name, APIKey: *apiKey, CORSOrigin: *cors, Template: t, RequestTimeout: time.Duration(*timeout) * time.Second}
	if *verbose {
		opts.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	srv := server.New(e, opts).HTTPServer(addr)
	c.Infof("model %s, context %d (%d slots of %d), chat template %s; listening on http://%s (Ctrl-C stops)",
		lm.name, lm.m.H.NCtx, *parallel, e.SlotContext(), t.Name, ln.Addr())

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return c.Fail(err)
		}
	case <-ctx.Done():
		c.Infof("shutting down")
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}
	return exitOK
}

// chatModel is a loaded model with what serve and chat need around it.
type chatModel struct {
	m        *llama.Model
	file     *gguf.File // open while m lives: the CPU uses its weights in place from the file's memory map
	name     string
	jinja    string // tokenizer.chat_template, if any
	backends []rt.Backend
}

func (lm *chatModel) close() {
	lm.m.Close()
	closeBackends(lm.backends)
	lm.file.Close()
}

// chatLoadOptions are the flags loadChatModel needs.
type chatLoadOptions struct {
	path, devices      string
	threads, gpuLayers int
	tensorSplit        []float64
	ctxSize            int
	kv                 rt.DType
	nSeq               int
}

// loadChatModel opens and loads a model (the default one for path "")
// with a context picked as gpurt run does.
func loadChatModel(o chatLoadOptions) (*chatModel, error) {
	f, name, err := openModel(o.path)
	if err != nil {
		return nil, err
	}
	backends, err := selectBackends(o.devices, o.threads)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%w: -d/--device %v", errUsage, err)
	}
	fail := func(err error) (*chatModel, error) {
		closeBackends(backends)
		f.Close()
		return nil, err
	}
	if err := checkTensorSplit(o.tensorSplit, backends); err != nil {
		return fail(err)
	}
	nCtx, _, err := contextSize(f, o.ctxSize, o.kv, kvBudget(backends))
	if err != nil {
		return fail(err)
	}
	m, err := llama.Load(f, llama.Options{Backends: backends, GPULayers: o.gpuLayers, TensorSplit: o.tensorSplit, KVType: o.kv, NCtx: nCtx, NSeq: o.nSeq})
	if err != nil {
		return fail(err)
	}
	jinja, _ := f.String("tokenizer.chat_template")
	return &chatModel{m: m, file: f, name: name, jinja: jinja, backends: backends}, nil
}

// tokenText is a special token's text ("" for none), for templates.
func (lm *chatModel) tokenText(id int32) string {
	if id < 0 || int(id) >= lm.m.H.NVocab {
		return ""
	}
	return lm.m.Tok.TokenText(id)
}
