package cpu

import rt "github.com/gpurt/gpurt/runtime"

// supportsOp reports whether the CPU kernels handle t's op, dtypes and
// shapes: every node the runtime's op constructors can build.
func supportsOp(t *rt.Tensor) bool { return t != nil && rt.ValidateNode(t) == nil }

// validate checks t before its kernel runs; memory is checked later, by resolve.
func validate(t *rt.Tensor) error { return rt.ValidateNode(t) }
