package cpu

import (
	"fmt"

	rt "github.com/gpurt/gpurt/runtime"
)

// supportsOp reports whether the CPU kernels handle t's op and dtypes.
func supportsOp(t *rt.Tensor) bool {
	return false // TODO(cpu helper)
}

// computeNode runs one node's kernel.
func (b *Backend) computeNode(n *rt.Tensor) error {
	return fmt.Errorf("op not implemented")
}
