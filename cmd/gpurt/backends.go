package main

// The backends this binary offers; each registers itself from init().
// Vulkan needs cgo (backends_vk.go); WebGPU reports its absence without it.
import (
	_ "github.com/gpurt/gpurt/cpu"
	_ "github.com/gpurt/gpurt/wgpu"
)
