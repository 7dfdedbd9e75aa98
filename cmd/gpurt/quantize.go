package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/llama"
	rt "github.com/gpurt/gpurt/runtime"
)

func init() {
	register("quantize", "IN.gguf OUT.gguf TYPE: quantize a model as llama-quantize does (q4_k_m, q8_0, …)", runQuantize)
}

func runQuantize(args []string) int { return quantizeCmd(args, os.Stdout, os.Stderr) }

// tensorTypeFlags collects repeated --tensor-type NAME=TYPE rules.
type tensorTypeFlags []llama.TensorTypeRule

func (t *tensorTypeFlags) String() string { return "" }

func (t *tensorTypeFlags) Set(s string) error {
	r, err := llama.ParseTensorTypeRule(s)
	if err != nil {
		return err
	}
	*t = append(*t, r)
	return nil
}

// dtypeFlag is an optional tensor dtype.
type dtypeFlag struct{ t *rt.DType }

func (d *dtypeFlag) String() string {
	if d.t == nil {
		return ""
	}
	return d.t.String()
}

func (d *dtypeFlag) Set(s string) error {
	t, err := llama.ParseQuantType(s)
	if err != nil {
		return err
	}
	d.t = &t
	return nil
}

func quantizeCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("quantize", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var names []string
	for _, ft := range llama.FileTypes {
		names = append(names, ft.Name)
	}
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gpurt quantize [--pure] [--tensor-type NAME=TYPE]… [--output-tensor-type TYPE] [--token-embedding-type TYPE] [-t N] IN.gguf OUT.gguf TYPE")
		fmt.Fprintln(stderr, "\nQuantizes IN.gguf to OUT.gguf with llama-quantize's per-tensor rules and ggml's reference")
		fmt.Fprintln(stderr, "quantizers (no importance matrix). Tensors already quantized to another type are")
		fmt.Fprintln(stderr, "dequantized and quantized again.")
		fmt.Fprintf(stderr, "\nTYPE (case-insensitive): %s (q3_k, q4_k, q5_k: the _m mixes)\n\nflags:\n", strings.Join(names, ", "))
		fs.PrintDefaults()
		fmt.Fprintln(stderr, "\nexample:\n  gpurt quantize model-f16.gguf model-q4_k_m.gguf q4_k_m")
	}
	pure := fs.Bool("pure", false, "give every quantizable tensor TYPE's default type, without the mix's per-tensor rules")
	var rules tensorTypeFlags
	fs.Var(&rules, "tensor-type", "NAME=TYPE: quantize tensors whose name matches the regular expression NAME as TYPE (repeatable; the first match wins)")
	var outType, embdType dtypeFlag
	fs.Var(&outType, "output-tensor-type", "type of output.weight (or of tied token embeddings)")
	fs.Var(&embdType, "token-embedding-type", "type of token_embd.weight")
	threads := fs.Int("t", 0, "threads that quantize rows in parallel (0: one per CPU)")
	fs.IntVar(threads, "threads", 0, "same as -t")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 3 {
		fmt.Fprintf(stderr, "gpurt quantize: want IN.gguf OUT.gguf TYPE, got %d arguments\n", fs.NArg())
		fs.Usage()
		return 2
	}
	if *threads < 0 {
		fmt.Fprintf(stderr, "gpurt quantize: -t %d is negative\n", *threads)
		return 2
	}
	in, out := fs.Arg(0), fs.Arg(1)
	ft, err := llama.ParseFileType(fs.Arg(2))
	if err != nil {
		fmt.Fprintf(stderr, "gpurt quantize: %v\n", err)
		return 2
	}
	opt := llama.QuantizeOptions{FileType: ft, Pure: *pure, TensorTypes: rules, OutputType: outType.t, TokenEmbeddingType: embdType.t, Threads: *threads}
	if err := quantizeFile(in, out, opt, stdout); err != nil {
		fmt.Fprintf(stderr, "gpurt quantize: %v\n", err)
		return 1
	}
	return 0
}

func quantizeFile(in, out string, opt llama.QuantizeOptions, stdout io.Writer) error {
	f, err := gguf.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	w, rep, err := llama.Quantize(f, opt)
	if err != nil {
		return err
	}
	if err := w.WriteFile(out); err != nil {
		return err
	}
	counts := map[rt.DType]int{}
	requant, fallback := 0, 0
	for _, t := range rep.Tensors {
		counts[t.To]++
		if t.Requantized {
			requant++
		}
		if t.Fallback {
			fallback++
		}
	}
	var mix []string
	for _, t := range rt.KnownDTypes {
		if counts[t] > 0 {
			mix = append(mix, fmt.Sprintf("%d %v", counts[t], t))
		}
	}
	fmt.Fprintf(stdout, "%s: %s, %d of %d tensors converted (%s); %.2f MiB -> %.2f MiB\n", out, opt.FileType.Name,
		rep.Converted(), len(rep.Tensors), strings.Join(mix, ", "), float64(rep.BytesIn)/(1<<20), float64(rep.BytesOut)/(1<<20))
	if requant > 0 {
		fmt.Fprintf(stdout, "%d tensors were already quantized: dequantized and quantized again, which loses more than quantizing the original\n", requant)
	}
	if fallback > 0 {
		fmt.Fprintf(stdout, "%d tensors have rows that are not whole blocks of their type and took llama.cpp's fallback type\n", fallback)
	}
	return nil
}
