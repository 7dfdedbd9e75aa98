//go:build cgo && !windows

package wgpu

// The Vulkan backend registers itself for TestSchedLlama's three-backend
// run; it does not build on Windows yet, where that run is skipped.
import _ "github.com/gpurt/gpurt/vk"
