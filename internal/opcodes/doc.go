// Package opcodes is the one definition of the numbers that gpurt's Go code
// and its shaders (GLSL for Vulkan, WGSL for WebGPU) must agree on: the op
// selector of each shader family, the mode bits the planners set, and the
// runtime dtype ids the shaders branch on.
//
// # The source of truth
//
// table.go lists every table. Edit it, then run `go generate
// ./internal/opcodes` (or `make shaders`), which writes three files from it:
//
//   - opcodes_gen.go: the Go constants (UnaryScale, BinaryAdd, ReduceRmsNorm, …);
//   - shaders/vk/opcodes.glsl: the same values as #defines (UNARY_SCALE, …),
//     included by common.glsl;
//   - shaders/wgsl/opcodes.wgsl: the same values as WGSL consts, which
//     wgpu's shader generator adds to every module.
//
// The dtype ids are not copied by hand either: the DT_* values come from
// runtime.DType.
//
// # Keeping them in step
//
// TestGeneratedUpToDate renders the three files in memory and fails when a
// committed one differs. A change to opcodes.glsl changes the SPIR-V, so
// run shaders/compile_spirv.sh after generating (shaders.TestSPIRVUpToDate
// checks it).
package opcodes

//go:generate go run ./gen
