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
// GraphCompute fuses RMS_NORM+MUL (the norm weight), MUL_MAT+ADD (a
// bias or the residual) and ROPE+RESHAPE+SET_ROWS (the KV write) into one
// dispatch each when runtime.Fusion says the intermediates are seen by
// nobody else (fuse.go); each is a flag of the
// op's WGSL, so one more pipeline per kernel that runs fused.
// GPURT_WGPU_FUSION=0 (or Backend.SetFusion(false)) turns fusion off, to
// compare.
//
// Kernels and submission sizes come from a tuning row per adapter class
// (tune.go: nvidia, amd, intel, apple, software, other), chosen from the
// adapter's vendor and type; GPURT_WGPU_TUNE=class forces one
// (docs/gpu-kernels.md).
//
// Releasing: freeing a buffer releases it and the bind groups naming it;
// closing a backend releases its pending reads' staging buffers. Compiled
// pipelines, bind group and pipeline layouts, bind groups, the params arena
// and the download staging buffer stay cached per device until
// runtime.Release, which closes the family: it waits for queued
// work on each device, releases the caches, any buffers, backends and events
// still open (its error names them, e.g. "WebGPU0: 2 buffers, 1 backend
// still open"), the device, its adapter and the instance, and checks with
// wgpu-native's report that nothing of gpurt's is left. Devices, buffers,
// backends and events from before Release then return errors, except Free
// and Close, which do nothing; the next registry call discovers new devices.
//
// The package needs cgo. Without it, a stub registers the family with no
// devices and an error saying so.
package wgpu
