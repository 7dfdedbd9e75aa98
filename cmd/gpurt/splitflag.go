package main

import (
	"fmt"
	"strings"

	"github.com/gpurt/gpurt/llama"
	rt "github.com/gpurt/gpurt/runtime"
)

// The -ts/--tensor-split flag, as llama.cpp spells it: the proportion of
// the offloaded blocks each non-CPU device receives, in the order of the
// placement (the --rpc devices first, then -d's).

// tensorSplitFlag registers -ts/--tensor-split on a subcommand's flags.
func tensorSplitFlag(c *cli) *string {
	return c.String("ts,tensor-split", "", "share of the offloaded blocks per non-CPU device, in order, as `A,B,…` (3,1: three quarters on the first); default: even")
}

// parseTensorSplitFlag validates -ts before anything loads.
func parseTensorSplitFlag(s string) ([]float64, error) {
	split, err := llama.ParseTensorSplit(s)
	if err != nil {
		return nil, fmt.Errorf("-ts/--tensor-split %q: %v", s, strings.TrimPrefix(err.Error(), "llama: "))
	}
	return split, nil
}

// checkTensorSplit checks the split against the backends (the CPU last)
// once they are known, before the model loads.
func checkTensorSplit(split []float64, backends []rt.Backend) error {
	if len(split) == 0 {
		return nil
	}
	var names []string
	for _, b := range backends[:len(backends)-1] {
		names = append(names, b.Name())
	}
	if len(split) > len(names) {
		return fmt.Errorf("%w: -ts/--tensor-split has %d proportions but there are %d non-CPU devices (%s)", errUsage, len(split), len(names), strings.Join(names, ", "))
	}
	return nil
}
