// Package ggmloracle runs the quantizer rows of ../shared/oracle/ggml —
// values, quantized bytes and dequantized values computed by upstream ggml
// — through a backend's copies, for the GPU backends' tests. (The oracle's
// MUL_MAT and GET_ROWS cases run through runtime/optest.RunGGMLOracleCase.)
//
// # Checks
//
// Dequantizing copies (CPY of ggml's bytes to F32 and F16) must give ggml's
// values to the bit; quantizing copies (CPY from F32) ggml's bytes; copies
// to the same type the bytes they copy.
//
// # Data
//
// The directory is shared reference data, read in place and never copied;
// when it is absent, Load reports ErrNoData and tests skip.
package ggmloracle
