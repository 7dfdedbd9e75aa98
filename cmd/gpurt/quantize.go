package main

import (
	"fmt"
	"os"

	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/llama"
	rt "github.com/gpurt/gpurt/runtime"
)

func init() {
	register("quantize", "IN.gguf OUT.gguf q8_0|q4_0: quantize a model's 2-D weights", runQuantize)
}

func runQuantize(args []string) int {
	if len(args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gpurt quantize IN.gguf OUT.gguf q8_0|q4_0")
		return 2
	}
	if err := checkQuantizePaths(args[0], args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "gpurt quantize:", err)
		return 1
	}
	if err := quantizeFile(args[0], args[1], args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "gpurt quantize:", err)
		return 1
	}
	return 0
}

func quantizeFile(in, out, typeName string) error {
	dtype, err := rt.ParseDType(typeName)
	if err != nil {
		return err
	}
	f, err := gguf.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	w, n, err := llama.Quantize(f, dtype)
	if err != nil {
		return err
	}
	if err := w.WriteFile(out); err != nil {
		return err
	}
	fmt.Printf("%s: %d of %d tensors converted to %v\n", out, n, len(f.Tensors), dtype)
	return nil
}
