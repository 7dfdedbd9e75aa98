package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/internal/atomicfile"
	"github.com/gpurt/gpurt/llama"
	rt "github.com/gpurt/gpurt/runtime"
)

func init() {
	register("perplexity", "perplexity and KL divergence of a model on a text, as llama-perplexity", runPerplexity)
}

// perplexityFlags are the values of gpurt perplexity's flags.
type perplexityFlags struct {
	model, file, device, base, kvType string
	nCtx, nBatch, threads, gpuLayers  int
	tensorSplit                       string // -ts (splitflag.go)
	chunks                            int
	kld, noMmap, flashAttn            bool
}

func runPerplexity(args []string) int {
	var p perplexityFlags
	c := newCLI("perplexity", "-m MODEL -f TEXT [-c N] [-d DEVICE] [--kl-divergence-base FILE [--kl-divergence]]",
		"gpurt perplexity -m model-f16.gguf -f wiki.test.raw -c 512 --kl-divergence-base model-f16.kld",
		"gpurt perplexity -m model-q4_k_m.gguf --kl-divergence-base model-f16.kld --kl-divergence -d vulkan")
	model := c.String("m,model", "", "model `FILE` (GGUF); default: the embedded default model")
	file := c.String("f,file", "", "text `FILE` to score (- for stdin); not needed with --kl-divergence")
	nCtx := c.Int("c,ctx-size", 512, "chunk length in tokens (llama-perplexity's context)")
	nBatch := c.Int("b,batch-size", 0, "tokens per batch: batch/ctx chunks run together as sequences (0: one chunk; see docs/architecture.md)")
	chunks := c.Int("chunks", -1, "evaluate at most this many chunks (-1 or 0: all)")
	device := c.String("d,device", "auto", "auto, cpu, a family (vulkan, webgpu) or device names from gpurt devices; several as A,B")
	threads := c.Int("t,threads", 0, "CPU threads (0: all cores)")
	gpuLayers := c.Int("ngl,gpu-layers", -1, "blocks on the GPU devices, counted from the last (-1: all)")
	splitList := tensorSplitFlag(c)
	base := c.String("kl-divergence-base", "", "llama.cpp logits `FILE`: written, or read with --kl-divergence")
	kld := c.Bool("kl-divergence", false, "compare with the --kl-divergence-base file instead of writing it")
	noMmap := c.Bool("no-mmap", false, "copy the weights instead of using them in place from the file (CPU)")
	kv := c.String("kv", "f16", "KV cache dtype: f16, f32 or q8_0")
	flashAttn := c.Bool("fa,flash-attn", false, "attention with FLASH_ATTN_EXT (no score matrix in memory)")
	if code, ok := c.Parse(args); !ok {
		return code
	}
	p = perplexityFlags{model: *model, file: *file, device: *device, base: *base, kvType: *kv,
		nCtx: *nCtx, nBatch: *nBatch, threads: *threads, gpuLayers: *gpuLayers, tensorSplit: *splitList, chunks: *chunks,
		kld: *kld, noMmap: *noMmap, flashAttn: *flashAttn}
	if err := p.validate(); err != nil {
		return c.Usagef("%v", err)
	}
	if err := p.run(cliStdout, cliStderr); err != nil {
		if errors.Is(err, errUsage) {
			return c.Usagef("%v", err)
		}
		return c.Fail(err)
	}
	return exitOK
}

// validate checks every value before anything loads.
func (p *perplexityFlags) validate() error {
	switch {
	case p.nCtx < 4:
		return fmt.Errorf("-c %d: the context must be at least 4 tokens", p.nCtx)
	case p.chunks < -1:
		return fmt.Errorf("--chunks %d: use a positive count, or -1 (or 0) for all", p.chunks)
	case p.nBatch < 0:
		return fmt.Errorf("-b %d: the batch size cannot be negative", p.nBatch)
	case p.threads < 0:
		return fmt.Errorf("-t %d: threads cannot be negative", p.threads)
	case p.gpuLayers < -1:
		return fmt.Errorf("-ngl %d: use -1 for all blocks", p.gpuLayers)
	case p.kld && p.base == "":
		return errors.New("--kl-divergence needs --kl-divergence-base FILE")
	case !p.kld && p.file == "":
		return errors.New("-f TEXT is required (or --kl-divergence with a base file)")
	}
	if _, err := parseKVType(p.kvType); err != nil {
		return err
	}
	if _, err := parseTensorSplitFlag(p.tensorSplit); err != nil {
		return err
	}
	for _, path := range []string{p.model, p.file} {
		if path == "" || path == "-" {
			continue
		}
		if err := checkModelPath(path); err != nil {
			return err
		}
	}
	if p.kld {
		if _, err := os.Stat(p.base); err != nil {
			return err
		}
	}
	return nil
}

func parseKVType(s string) (rt.DType, error) {
	t, err := rt.ParseDType(s)
	if err != nil || (t != rt.F16 && t != rt.F32 && t != rt.Q8_0) {
		return 0, fmt.Errorf("--kv %s: the KV cache dtype is f16, f32 or q8_0", s)
	}
	return t, nil
}

func (p *perplexityFlags) run(stdout, stderr io.Writer) error {
	var base *llama.KLDBase
	if p.kld {
		r, err := os.Open(p.base)
		if err != nil {
			return err
		}
		base, err = llama.ReadKLDBase(r)
		r.Close()
		if err != nil {
			return err
		}
		base = base.FirstChunks(p.chunks)
		p.nCtx = base.NCtx
	}
	var text []byte
	if !p.kld {
		var err error
		if p.file == "-" {
			text, err = io.ReadAll(os.Stdin)
		} else {
			text, err = os.ReadFile(p.file)
		}
		if err != nil {
			return err
		}
	}
	var f *gguf.File
	var err error
	if p.model == "" {
		f, _, err = openDefaultModel()
	} else {
		f, err = gguf.Open(p.model)
	}
	if err != nil {
		return err
	}
	defer f.Close()
	kvType, _ := parseKVType(p.kvType)
	backends, err := selectBackends(p.device, p.threads)
	if err != nil {
		return err
	}
	defer closeBackends(backends)
	split, _ := parseTensorSplitFlag(p.tensorSplit)
	if err := checkTensorSplit(split, backends); err != nil {
		return err
	}
	// As llama-perplexity, batch/ctx chunks run together as sequences of
	// one cache, within the model's trained context.
	seqs := max(1, p.nBatch/p.nCtx)
	if arch, err := f.String("general.architecture"); err == nil {
		if trained, err := f.Int(arch + ".context_length"); err == nil && trained >= p.nCtx {
			seqs = min(seqs, trained/p.nCtx)
		}
	}
	start := time.Now()
	m, err := llama.Load(f, llama.Options{Backends: backends, GPULayers: p.gpuLayers, TensorSplit: split, KVType: kvType, NCtx: seqs * p.nCtx, NSeq: seqs, NoMmap: p.noMmap, FlashAttn: p.flashAttn, Progress: loadProgress(stderr)})
	if err != nil {
		return err
	}
	defer m.Close()
	fmt.Fprintf(stderr, "load:    %s (%s), %.2f s; %d weights used in place; placement: %s\n", m.Architecture(), filepath.Base(p.model), time.Since(start).Seconds(), m.MappedWeights(), strings.Join(m.Placement, "; "))
	if p.kld {
		fmt.Fprintf(stderr, "kl_divergence: %d chunks of %d tokens from %s\n", base.NChunk, base.NCtx, p.base)
		return printKLD(stdout, m, base)
	}
	tokens := m.Tok.Encode(string(text), true)
	if len(tokens) < 2*p.nCtx { // llama-perplexity's rule
		return fmt.Errorf("the text has %d tokens; a context of %d needs at least %d (-c)", len(tokens), p.nCtx, 2*p.nCtx)
	}
	if p.chunks > 0 && len(tokens) > p.chunks*p.nCtx {
		tokens = tokens[:p.chunks*p.nCtx]
	}
	fmt.Fprintf(stderr, "perplexity: %d tokens, %d chunks of %d\n", len(tokens), llama.ChunkCount(len(tokens), p.nCtx), p.nCtx)
	var res llama.PerplexityResult
	onChunk := func(c int, ppl float64) { fmt.Fprintf(stdout, "[%d]%.4f,", c+1, ppl) }
	if p.base != "" {
		err = atomicfile.Write(p.base, func(w io.Writer) error {
			res, err = m.Perplexity(tokens, p.nCtx, w, onChunk)
			return err
		}, atomicfile.Options{})
	} else {
		res, err = m.Perplexity(tokens, p.nCtx, nil, onChunk)
	}
	fmt.Fprintln(stdout)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Final estimate: PPL = %.4f +/- %.5f\n", res.PPL, res.PPLErr)
	return nil
}

// printKLD prints llama-perplexity --kl-divergence's table and statistics.
func printKLD(w io.Writer, m *llama.Model, base *llama.KLDBase) error {
	fmt.Fprintln(w, "chunk             PPL               ln(PPL(Q)/PPL(base))          KL Divergence              Δp RMS            Same top p")
	s, err := m.KLDivergence(base, func(c int, s *llama.KLDStats) {
		ppl, ln, kld, rms, same := s.Running()
		fmt.Fprintf(w, "%4d    %9.4f ± %9.4f    %10.5f ± %10.5f    %10.5f ± %10.5f    %6.3f ± %6.3f %%    %6.3f ± %6.3f %%\n",
			c+1, ppl.Value, ppl.Err, ln.Value, ln.Err, kld.Value, kld.Err, 100*rms.Value, 100*rms.Err, 100*same.Value, 100*same.Err)
	})
	if err != nil {
		return err
	}
	r := s.Summary()
	fmt.Fprintln(w)
	if r.Count < 100 {
		fmt.Fprintf(w, "(%d scored tokens: too few for statistics, as llama-perplexity)\n", r.Count)
		return nil
	}
	fmt.Fprintln(w, "====== Perplexity statistics ======")
	fmt.Fprintf(w, "Mean PPL(Q)                   : %10.6f ± %10.6f\n", r.PPL.Value, r.PPL.Err)
	fmt.Fprintf(w, "Mean PPL(base)                : %10.6f ± %10.6f\n", r.PPLBase.Value, r.PPLBase.Err)
	fmt.Fprintf(w, "Cor(ln(PPL(Q)), ln(PPL(base))): %6.2f%%\n", 100*r.CorLnPPL)
	fmt.Fprintf(w, "Mean ln(PPL(Q)/PPL(base))     : %10.6f ± %10.6f\n", r.LnPPLRatio.Value, r.LnPPLRatio.Err)
	fmt.Fprintf(w, "Mean PPL(Q)/PPL(base)         : %10.6f ± %10.6f\n", r.PPLRatio.Value, r.PPLRatio.Err)
	fmt.Fprintf(w, "Mean PPL(Q)-PPL(base)         : %10.6f ± %10.6f\n", r.PPLDiff.Value, r.PPLDiff.Err)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "====== KL divergence statistics ======")
	fmt.Fprintf(w, "Mean    KLD: %10.6f ± %10.6f\n", r.KLD.Value, r.KLD.Err)
	fmt.Fprintf(w, "Maximum KLD: %10.6f\n", r.KLDMax)
	for _, l := range llama.KLDPercentileLabels {
		if l == "10.0%" {
			fmt.Fprintf(w, "Median  KLD: %10.6f\n", r.KLDMedian)
		}
		fmt.Fprintf(w, "%s   KLD: %10.6f\n", l, r.KLDPercentiles[l])
	}
	fmt.Fprintf(w, "Minimum KLD: %10.6f\n", r.KLDMin)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "====== Token probability statistics ======")
	fmt.Fprintf(w, "Mean    Δp: %6.3f ± %5.3f %%\n", 100*r.PDiff.Value, 100*r.PDiff.Err)
	fmt.Fprintf(w, "Maximum Δp: %6.3f%%\n", 100*r.PDiffMax)
	for _, l := range llama.PDiffPercentileLabels {
		if l == "25.0%" {
			fmt.Fprintf(w, "Median  Δp: %6.3f%%\n", 100*r.PDiffMedian)
		}
		fmt.Fprintf(w, "%s   Δp: %6.3f%%\n", l, 100*r.PDiffPercentiles[l])
	}
	fmt.Fprintf(w, "Minimum Δp: %6.3f%%\n", 100*r.PDiffMin)
	fmt.Fprintf(w, "RMS Δp    : %6.3f ± %5.3f %%\n", 100*r.RMSPDiff.Value, 100*r.RMSPDiff.Err)
	fmt.Fprintf(w, "Same top p: %6.3f ± %5.3f %%\n", 100*r.SameTop.Value, 100*r.SameTop.Err)
	return nil
}
