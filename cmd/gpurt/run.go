package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/llama"
	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/tokenizer"
)

func init() { register("run", "generate text with a llama GGUF model", runModel) }

// runOptions are gpurt run's validated flags.
type runOptions struct {
	model, prompt string
	n             int
	sampler       llama.SamplerConfig
	devices       string
	threads       int
	gpuLayers     int
	tensorSplit   []float64 // -ts (splitflag.go)
	ctxSize       int
	kv            rt.DType
	noBOS         bool
	noMmap        bool
	parseSpecial  bool
	rpcEndpoints  []string // --rpc (rpcflag.go)
	profile       bool     // --profile (runprofile.go)
	cpuProfile    string   // --cpuprofile: a pprof CPU profile of generation
}

func runModel(args []string) int {
	c := newCLI("run", "[-m MODEL.gguf] [-p PROMPT | -f FILE] [-n N] [flags]",
		`gpurt run -p "It is a truth universally acknowledged" -n 120`,
		"gpurt run -m ../shared/models/stories260K.gguf --temp 0 -n 64 -d vulkan -ngl 3",
		"echo 'Once upon a time' | gpurt run -m model.gguf -f - -c 512",
		"gpurt run -m model.gguf --rpc 192.168.1.20:50052,192.168.1.21:50052 -ts 3,1")
	model := c.String("m,model", "", "model `FILE` (GGUF); default: the embedded default model")
	prompt := c.String("p,prompt", "", "prompt `TEXT` (default: start from BOS alone)")
	file := c.String("f,file", "", "read the prompt from `FILE` (- for standard input)")
	n := c.Int("n,n-predict", 128, "number of tokens to generate")
	temp := c.Float64("temp", 0.8, "sampling temperature, >= 0; 0 is greedy")
	topK := c.Int("top-k", 40, "keep the K most likely tokens (0: all)")
	topP := c.Float64("top-p", 0.95, "nucleus sampling threshold in [0, 1] (1: off)")
	seed := c.Uint64("s,seed", 42, "random seed")
	device := c.String("d,device", "auto", "auto, cpu, a family (vulkan, webgpu) or device names from gpurt devices; several as A,B")
	threads := c.Int("t,threads", 0, "CPU threads (0: all cores)")
	gpuLayers := c.Int("ngl,gpu-layers", -1, "blocks to place on the GPU devices, counted from the last (-1: all)")
	ctxSize := c.Int("c,ctx-size", 0, "context size in tokens (0: the model's trained context, capped by a KV memory budget)")
	kv := c.String("kv", "f16", "KV cache dtype: f16, f32 or q8_0")
	noBOS := c.Bool("no-bos", false, "do not start the prompt with the BOS token")
	noMmap := c.Bool("no-mmap", false, "copy the weights instead of using them in place from the file (CPU)")
	rpcList := rpcFlag(c)
	splitList := tensorSplitFlag(c)
	profile := c.Bool("profile", false, "after generating, print where each generated token's time went: per op type, per layer, the CPU pool's wait time and the phases outside ops")
	cpuProfile := c.String("cpuprofile", "", "write a pprof CPU profile of the generation (prompt and tokens, not loading) to `FILE`")
	noParseSpecial := c.Bool("no-parse-special", false, "tokenize special-token texts in the prompt (<|im_start|>, [INST], …) as plain text")
	if code, ok := c.Parse(args); !ok {
		return code
	}
	// Every value is checked before the model loads.
	for _, msg := range []string{
		checkNonNegative("-n", *n),
		checkNonNegative("-t/--threads", *threads),
		checkNonNegative("--top-k", *topK),
		checkNonNegative("-c/--ctx-size", *ctxSize),
		checkFinite("--temp", *temp, 0, 1e6),
		checkFinite("--top-p", *topP, 0, 1),
	} {
		if msg != "" {
			return c.Usagef("%s", msg)
		}
	}
	if *gpuLayers < -1 {
		return c.Usagef("-ngl/--gpu-layers %d: want -1 (all) or a block count >= 0", *gpuLayers)
	}
	kvType, err := rt.ParseDType(*kv)
	if err != nil || (kvType != rt.F16 && kvType != rt.F32 && kvType != rt.Q8_0) {
		return c.Usagef("--kv %s: want f16, f32 or q8_0", *kv)
	}
	if _, err := parseDevices(*device); err != nil {
		return c.Usagef("-d/--device %v", err)
	}
	endpoints, err := parseRPCList(*rpcList)
	if err != nil {
		return c.Usagef("%v", err)
	}
	split, err := parseTensorSplitFlag(*splitList)
	if err != nil {
		return c.Usagef("%v", err)
	}
	if c.Set("p,prompt") && c.Set("f,file") {
		return c.Usagef("give the prompt with -p or -f, not both")
	}
	if *model != "" {
		if err := checkModelPath(*model); err != nil {
			return c.Usagef("-m: %v", err)
		}
	}
	if *file != "" {
		text, err := readPrompt(*file)
		if err != nil {
			return c.Usagef("-f: %v", err)
		}
		*prompt = text
	}
	o := runOptions{
		model: *model, prompt: *prompt, n: *n, devices: *device, threads: *threads,
		gpuLayers: *gpuLayers, tensorSplit: split, ctxSize: *ctxSize, kv: kvType, noBOS: *noBOS, noMmap: *noMmap, parseSpecial: !*noParseSpecial, rpcEndpoints: endpoints, profile: *profile, cpuProfile: *cpuProfile,
		sampler: llama.SamplerConfig{Temp: float32(*temp), TopK: *topK, TopP: float32(*topP), Seed: *seed},
	}
	if _, err := llama.NewSampler(o.sampler); err != nil {
		return c.Usagef("%v", err)
	}
	if err := generate(c, o); err != nil {
		if errors.Is(err, errUsage) {
			return c.Usagef("%v", err)
		}
		return c.Fail(err)
	}
	return exitOK
}

// errUsage marks errors that are the user's choice of flags, found only
// once devices are known (exit code 2).
var errUsage = errors.New("usage")

func readPrompt(path string) (string, error) {
	var r io.Reader = os.Stdin
	if path != "-" {
		if err := checkModelPath(path); err != nil {
			return "", err
		}
		f, err := os.Open(path)
		if err != nil {
			return "", err
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, 64<<20))
	return strings.TrimRight(string(b), "\n"), err
}

// kvBudget is the most memory the default context's KV cache may take:
// a quarter of the first device's memory where it is reported, at most
// 2 GiB, and 1 GiB where nothing is known.
func kvBudget(backends []rt.Backend) uint64 {
	if total := backends[0].Device().Props().MemoryTotal; total > 0 {
		return min(total/4, 2<<30)
	}
	return 1 << 30
}

// contextSize picks the context: the user's -c, or the model's trained
// context capped so its KV cache fits the budget. note says how it was chosen.
func contextSize(f *gguf.File, requested int, kv rt.DType, budget uint64) (n int, note string, err error) {
	// Any architecture's hyperparameters, read and checked without loading.
	h, err := llama.ReadHparams(f)
	if err != nil {
		return 0, "", err
	}
	trained := h.NCtxTrain
	perToken := uint64(h.KVBytesPerToken(kv))
	if requested > 0 {
		if requested > trained {
			return trained, fmt.Sprintf("%d tokens (-c %d is beyond the trained context)", trained, requested), nil
		}
		return requested, fmt.Sprintf("%d tokens (-c; KV cache %s)", requested, sizeString(int64(perToken*uint64(requested)))), nil
	}
	n = trained
	if capN := budget / perToken; uint64(n) > capN {
		n = int(capN)
		return n, fmt.Sprintf("%d tokens (trained %d, capped by a KV budget of %s at %s per token; set -c for more)",
			n, trained, sizeString(int64(budget)), sizeString(int64(perToken))), nil
	}
	return n, fmt.Sprintf("%d tokens (trained; KV cache %s)", n, sizeString(int64(perToken*uint64(n)))), nil
}

func generate(c *cli, o runOptions) error {
	loadStart := time.Now()
	f, name, err := openModel(o.model)
	if err != nil {
		return err
	}
	defer f.Close()
	backends, err := selectBackends(o.devices, o.threads)
	if err != nil {
		return fmt.Errorf("%w: -d/--device %v", errUsage, err)
	}
	defer closeBackends(backends)
	// Remote devices go first; closeRPC also closes their backends.
	remote, closeRPC, err := rpcBackends(o.rpcEndpoints)
	if err != nil {
		return err
	}
	defer closeRPC()
	backends = append(remote, backends...)
	if err := checkTensorSplit(o.tensorSplit, backends); err != nil {
		return err
	}
	nCtx, ctxNote, err := contextSize(f, o.ctxSize, o.kv, kvBudget(backends))
	if err != nil {
		return err
	}
	prof := newRunProfile(o.profile, backends)
	m, err := llama.Load(f, llama.Options{Backends: backends, GPULayers: o.gpuLayers, TensorSplit: o.tensorSplit, KVType: o.kv, NCtx: nCtx,
		NoMmap: o.noMmap, Progress: loadProgress(cliStderr), Profile: prof.p})
	if err != nil {
		return err
	}
	defer m.Close()
	loadTime := time.Since(loadStart)
	sampler, err := llama.NewSampler(o.sampler)
	if err != nil {
		return err
	}
	// Special-token texts in the prompt are those tokens, as in llama-cli.
	tokens, err := m.Tok.Tokenizer.Encode(o.prompt, tokenizer.EncodeOptions{AddSpecial: !o.noBOS, ParseSpecial: o.parseSpecial})
	if err != nil {
		return err
	}
	if len(tokens) == 0 {
		return fmt.Errorf("%w: the prompt is empty and --no-bos leaves no token to start from", errUsage)
	}
	if len(tokens) > m.H.NCtx {
		return fmt.Errorf("the prompt has %d tokens, more than the context of %d (-c): %w", len(tokens), m.H.NCtx, rt.ErrContextFull)
	}

	// Warm up: one batch the size of the prompt and one single token
	// compile every pipeline the timed run uses, as llama.cpp's warm-up
	// run does; the cache is emptied afterwards.
	warmStart := time.Now()
	if _, err := m.Eval(tokens, false); err != nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	if m.NPast() < m.H.NCtx {
		if _, err := m.Eval(tokens[:1], false); err != nil {
			return fmt.Errorf("warm-up: %w", err)
		}
	}
	m.ResetCache()
	warmTime := time.Since(warmStart)

	out := bufio.NewWriter(c.stdout)
	out.WriteString(o.prompt)
	out.Flush()
	prev := tokens[len(tokens)-1]
	stopCPUProfile, err := startCPUProfile(o.cpuProfile)
	if err != nil {
		return err
	}
	_, st, err := m.Generate(tokens, o.n, sampler, func(id int32) error {
		prof.onToken()
		out.Write(m.Tok.PieceAfter(prev, id))
		prev = id
		return out.Flush()
	})
	fmt.Fprintln(out)
	out.Flush()
	if perr := stopCPUProfile(); err == nil {
		err = perr
	}
	if err != nil {
		return err
	}
	if st.ContextFull {
		c.Infof("stopped after %d of %d tokens: the context of %d tokens is full (raise -c)", st.GenTokens, o.n, m.H.NCtx)
	}
	var names []string
	for _, b := range backends {
		names = append(names, b.Name())
	}
	fmt.Fprintf(c.stderr, "\nmodel:   %s (%d blocks, embedding %d, vocab %d)\n", name, m.H.NLayer, m.H.NEmbd, m.H.NVocab)
	fmt.Fprintf(c.stderr, "devices: %s; placement: %s\n", strings.Join(names, ", "), strings.Join(m.Placement, "; "))
	fmt.Fprintf(c.stderr, "context: %s\n", ctxNote)
	fmt.Fprintf(c.stderr, "splits:  %d per generated token\n", m.Splits())
	fmt.Fprintf(c.stderr, "load:    %.0f ms; warm-up (pipeline compile): %.0f ms\n", ms(loadTime), ms(warmTime))
	fmt.Fprintf(c.stderr, "prompt:  %d tokens, %.1f tokens/s\n", st.PromptTokens, st.PromptTPS())
	fmt.Fprintf(c.stderr, "gen:     %d tokens, %.1f tokens/s\n", st.GenTokens, st.GenTPS())
	return prof.print(c)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// openModel opens path, or the embedded default model when path is empty.
func openModel(path string) (*gguf.File, string, error) {
	if path == "" {
		return openDefaultModel()
	}
	f, err := gguf.Open(path)
	return f, path, err
}
