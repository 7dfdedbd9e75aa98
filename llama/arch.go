package llama

import (
	"fmt"
	"slices"
	"strings"

	rt "github.com/gpurt/gpurt/runtime"
)

// An Architecture is what a general.architecture name maps to: its
// defaults, its weights and its transformer block.
type Architecture struct {
	Name string
	// RopeMode is rt.RopeNormal (adjacent pairs) or rt.RopeNeox (halves).
	RopeMode int
	// Configure sets the architecture's own hyperparameters after the
	// shared keys are read (e.g. gemma's embedding scale).
	Configure func(h *Hparams, k *keys)
	// NewLayer returns a pointer to a new block's weight struct, whose
	// `gguf` tags name the tensors (see bindWeights).
	NewLayer func() any
	// Block builds layer il on x (the residual stream, [NEmbd, n]).
	Block func(g *graph, il int, layer any, x *rt.Tensor) *rt.Tensor
}

var architectures = map[string]*Architecture{}

// register adds an architecture; each arch_*.go file registers its own.
func register(a *Architecture) {
	if _, dup := architectures[a.Name]; dup {
		panic("llama: architecture registered twice: " + a.Name)
	}
	architectures[a.Name] = a
}

// Architectures lists the supported general.architecture names, sorted.
func Architectures() []string {
	names := make([]string, 0, len(architectures))
	for n := range architectures {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// lookupArch returns the architecture called name, or an error listing the
// supported ones.
func lookupArch(name string) (*Architecture, error) {
	if a, ok := architectures[name]; ok {
		return a, nil
	}
	return nil, fmt.Errorf("llama: %w: architecture %q (supported: %s)", rt.ErrUnsupported, name, strings.Join(Architectures(), ", "))
}
