package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/llama"
	rt "github.com/gpurt/gpurt/runtime"
)

func init() {
	register("perplexity", "perplexity and KL divergence of a model on a text, as llama-perplexity", runPerplexity)
}

const perplexityExample = `examples:
  gpurt perplexity -m model-f16.gguf -f wiki.test.raw -c 512 --kl-divergence-base model-f16.kld
  gpurt perplexity -m model-q4_k_m.gguf --kl-divergence-base model-f16.kld --kl-divergence -d vulkan`

// perplexityFlags are the values of gpurt perplexity's flags.
type perplexityFlags struct {
	model, file, device, base, kvType string
	nCtx, nBatch, threads, gpuLayers  int
	kld, noMmap, flashAttn            bool
}

func runPerplexity(args []string) int {
	const name = "gpurt perplexity"
	var p perplexityFlags
	fs := flag.NewFlagSet("perplexity", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	both := func(short, long string, set func(n string)) { set(short); set(long) }
	both("m", "model", func(n string) {
		fs.StringVar(&p.model, n, "", "model `file` (GGUF); default: the embedded default model")
	})
	both("f", "file", func(n string) {
		fs.StringVar(&p.file, n, "", "text `file` to score (- for stdin); not needed with --kl-divergence")
	})
	both("c", "ctx-size", func(n string) { fs.IntVar(&p.nCtx, n, 512, "chunk length in tokens (llama-perplexity's context)") })
	both("b", "batch-size", func(n string) {
		fs.IntVar(&p.nBatch, n, 0, "tokens per batch: batch/ctx chunks run together, one sequence each (0: one chunk;\n"+
			"llama-perplexity's 2048 is slower here, as every token attends over the whole shared cache)")
	})
	both("d", "device", func(n string) {
		fs.StringVar(&p.device, n, "auto", "vulkan|webgpu|cpu|auto, or a device name from gpurt devices")
	})
	both("t", "threads", func(n string) { fs.IntVar(&p.threads, n, 0, "CPU threads (0: all)") })
	both("ngl", "gpu-layers", func(n string) { fs.IntVar(&p.gpuLayers, n, -1, "blocks on the GPU, counted from the last (-1: all)") })
	fs.StringVar(&p.base, "kl-divergence-base", "", "llama.cpp logits `file`: written, or read with --kl-divergence")
	fs.BoolVar(&p.kld, "kl-divergence", false, "compare with the --kl-divergence-base file instead of writing it")
	fs.BoolVar(&p.noMmap, "no-mmap", false, "copy the weights instead of using them in place from the file (CPU)")
	fs.StringVar(&p.kvType, "kv", "f16", "KV cache dtype: f16, f32 or q8_0")
	both("fa", "flash-attn", func(n string) {
		fs.BoolVar(&p.flashAttn, n, false, "attention with FLASH_ATTN_EXT (no score matrix in memory)")
	})
	usage := func(w io.Writer) {
		fmt.Fprintf(w, "usage: %s -m MODEL -f TEXT [-c N] [-d DEVICE] [--kl-divergence-base FILE [--kl-divergence]]\n\n", name)
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
		fmt.Fprintln(w, "\n"+perplexityExample)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(os.Stdout)
			return 0
		}
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		usage(os.Stderr)
		return 2
	}
	if err := p.validate(fs.Args()); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		return 2
	}
	if err := p.run(os.Stdout, os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		return 1
	}
	return 0
}

// validate checks every value before anything loads.
func (p *perplexityFlags) validate(extra []string) error {
	switch {
	case len(extra) > 0:
		return fmt.Errorf("unexpected arguments %q", extra)
	case p.nCtx < 4:
		return fmt.Errorf("-c %d: the context must be at least 4 tokens", p.nCtx)
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
	for _, path := range []string{p.model, p.file} {
		if path == "" || path == "-" {
			continue
		}
		if st, err := os.Stat(path); err != nil {
			return err
		} else if !st.Mode().IsRegular() {
			return fmt.Errorf("%s is not a regular file", path)
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
	// As llama-perplexity, batch/ctx chunks run together as sequences of
	// one cache, within the model's trained context.
	seqs := max(1, p.nBatch/p.nCtx)
	if arch, err := f.String("general.architecture"); err == nil {
		if trained, err := f.Int(arch + ".context_length"); err == nil && trained >= p.nCtx {
			seqs = min(seqs, trained/p.nCtx)
		}
	}
	start := time.Now()
	m, err := llama.Load(f, llama.Options{Backends: backends, GPULayers: p.gpuLayers, KVType: kvType, NCtx: seqs * p.nCtx, NSeq: seqs, NoMmap: p.noMmap, FlashAttn: p.flashAttn, Progress: loadProgress(stderr)})
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
	fmt.Fprintf(stderr, "perplexity: %d tokens, %d chunks of %d\n", len(tokens), llama.ChunkCount(len(tokens), p.nCtx), p.nCtx)
	var res llama.PerplexityResult
	onChunk := func(c int, ppl float64) { fmt.Fprintf(stdout, "[%d]%.4f,", c+1, ppl) }
	if p.base != "" {
		err = writeFileAtomic(p.base, func(w io.Writer) error {
			res, err = m.Perplexity(tokens, p.nCtx, w, onChunk)
			return err
		})
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

// writeFileAtomic writes path through a temporary file in the same
// directory, synced and renamed over path, so an interrupted run never
// leaves a truncated file where a good one stood.
func writeFileAtomic(path string, write func(w io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := write(tmp); err != nil {
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	done = true
	return nil
}
