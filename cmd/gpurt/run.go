package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/llama"
	rt "github.com/gpurt/gpurt/runtime"
)

func init() { register("run", "generate text with a llama GGUF model", runModel) }

func runModel(args []string) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	modelPath := fs.String("m", "", "model `file` (GGUF); default: the embedded default model")
	prompt := fs.String("p", "", "prompt text (default: start from BOS alone)")
	n := fs.Int("n", 128, "number of tokens to generate")
	temp := fs.Float64("temp", 0.8, "sampling temperature; 0 is greedy")
	topK := fs.Int("top-k", 40, "keep the K most likely tokens (0: all)")
	topP := fs.Float64("top-p", 0.95, "nucleus sampling threshold (1: off)")
	seed := fs.Uint64("seed", 42, "random seed")
	device := fs.String("device", "auto", "vulkan|webgpu|cpu|auto, or a device name from gpurt devices")
	threads := fs.Int("threads", 0, "CPU threads (0: all)")
	gpuLayers := fs.Int("gpu-layers", -1, "blocks to place on the GPU, counted from the last (-1: all)")
	kv := fs.String("kv", "f16", "KV cache dtype: f16 or f32")
	rpcList := rpcFlag(fs) // rpc: --rpc host:port[,…] (rpcflag.go)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	endpoints, err := parseRPCList(*rpcList) // rpc
	if err != nil {
		fmt.Fprintln(os.Stderr, "gpurt run:", err)
		return 2
	}
	if *n < 0 {
		fmt.Fprintf(os.Stderr, "gpurt run: -n %d: the number of tokens cannot be negative\n", *n)
		return 2
	}
	if err := generate(*modelPath, *prompt, *n, llama.SamplerConfig{
		Temp: float32(*temp), TopK: *topK, TopP: float32(*topP), Seed: *seed,
	}, *device, *threads, *gpuLayers, *kv, endpoints); err != nil {
		fmt.Fprintln(os.Stderr, "gpurt run:", err)
		return 1
	}
	return 0
}

func generate(path, prompt string, n int, sc llama.SamplerConfig, device string, threads, gpuLayers int, kv string, endpoints []string) error {
	f, name, err := openModel(path)
	if err != nil {
		return err
	}
	defer f.Close()
	kvType, err := rt.ParseDType(kv)
	if err != nil {
		return fmt.Errorf("--kv: %w", err)
	}
	backends, err := selectBackends(device, threads)
	if err != nil {
		return err
	}
	defer closeBackends(backends)
	// rpc: remote devices go first (rpcflag.go); closeRPC also closes their backends.
	remote, closeRPC, err := rpcBackends(endpoints)
	if err != nil {
		return err
	}
	defer closeRPC()
	backends = append(remote, backends...)
	m, err := llama.Load(f, llama.Options{Backends: backends, GPULayers: gpuLayers, KVType: kvType})
	if err != nil {
		return err
	}
	defer m.Close()
	sampler, err := llama.NewSampler(sc)
	if err != nil {
		return err
	}
	tokens := m.Tok.Encode(prompt, true)
	out := bufio.NewWriter(os.Stdout)
	out.WriteString(prompt)
	out.Flush()
	prev := tokens[len(tokens)-1]
	_, st, err := m.Generate(tokens, n, sampler, func(id int32) error {
		out.Write(m.Tok.PieceAfter(prev, id))
		prev = id
		return out.Flush()
	})
	fmt.Fprintln(out)
	out.Flush()
	if err != nil {
		return err
	}
	var names []string
	for _, b := range backends {
		names = append(names, b.Name())
	}
	fmt.Fprintf(os.Stderr, "\nmodel:   %s (%d blocks, embedding %d, vocab %d)\n", name, m.H.NLayer, m.H.NEmbd, m.H.NVocab)
	fmt.Fprintf(os.Stderr, "devices: %s; placement: %s\n", strings.Join(names, ", "), strings.Join(m.Placement, "; "))
	fmt.Fprintf(os.Stderr, "splits:  %d per generated token\n", m.Splits())
	fmt.Fprintf(os.Stderr, "prompt:  %d tokens, %.1f tokens/s\n", st.PromptTokens, st.PromptTPS())
	fmt.Fprintf(os.Stderr, "gen:     %d tokens, %.1f tokens/s\n", st.GenTokens, st.GenTPS())
	return nil
}

// openModel opens path, or the embedded default model when path is empty.
func openModel(path string) (*gguf.File, string, error) {
	if path == "" {
		return openDefaultModel()
	}
	f, err := gguf.Open(path)
	return f, path, err
}
