// Package wgpu is gpurt's WebGPU backend: compute kernels written in WGSL
// (shaders/wgsl) run through wgpu-native, via the
// github.com/oliverbestmann/webgpu binding, on Vulkan (Linux, Windows),
// Metal (macOS) or DX12 (Windows).
//
// Importing the package registers the "webgpu" family with priority 10.
// Adapters are discovered on first use; each usable one becomes a device
// named "WebGPU0", "WebGPU1", … (the high-performance adapter first). With
// no adapter the family has no devices and reports why; nothing panics.
//
// Each device has a device-local buffer type and, where the adapter can map
// storage buffers, a host-visible one (see bufferType). Kernels cover every
// op of the runtime's op set; MUL_MAT takes F32, F16, BF16, Q8_0 and Q4_0
// weights, reading the quantized ones in their GGUF block layout. F16 uses
// WGSL's shader-f16 when the adapter has it and packed u32 words otherwise.
//
// The package needs cgo. Without it, a stub registers the family with no
// devices and an error saying so.
package wgpu
