// Package qtables gives the GPU shaders the codebooks of the non-linear
// block types from the one definition the CPU uses: each table is read
// back from runtime.DequantizeRow of a block with unit scale whose codes
// are 0..15, so the shaders cannot drift from the runtime.
//
// # Tables
//
// IQ4NL is ggml's kvalues_iq4nl (IQ4_NL and IQ4_XS), MXFP4 its
// kvalues_mxfp4 (the E2M1 values doubled). The WebGPU backend emits them
// into its generated WGSL; the Vulkan tests compare dequant.glsl's copies
// with them, since that GLSL is compiled to committed SPIR-V.
package qtables
