// Package optest checks backends op by op against the CPU backend, in the
// way of llama.cpp's test-backend-ops.
//
// The catalogue (Cases) holds several hundred cases; each builds a small
// graph around one op with its parameters: odd sizes (1, 3, 17, 33), dims 2
// and 3 larger than 1, broadcasting, every dtype the op takes, permuted and
// transposed inputs, views at non-zero offsets, outputs computed in place
// over their source, and the op's own parameters (eps, scale, rope mode,
// masks, clamp bounds, concat dim, n_past…). Views are checked through a
// CONT that reads them.
//
// A Runner builds a case's graph once, copies it for the reference
// backend, places each copy in one buffer of its backend's default type
// (each tensor followed by a gap), fills the inputs with the same seeded
// random data on both sides, computes, and then
//   - fails the case if any byte outside the outputs changed (an input, or
//     a gap: an out-of-bounds write),
//   - fails it on any NaN, or an infinity the other side does not match,
//   - compares the outputs: integers exactly, floats by normalized mean
//     squared error against the case's MaxNMSE.
//
// A case whose graph holds a node the backend's device rejects (SupportsOp)
// is NotSupported, never passed. GPU backends run the harness from their
// tests with RunT, and `gpurt test-ops` runs it from the command line.
package optest
