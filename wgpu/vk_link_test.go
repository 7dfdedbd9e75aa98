//go:build cgo && !386 && !arm

package wgpu

// The Vulkan backend registers itself for TestSchedLlama's three-backend
// run; like vulkan-go, it builds only for 64-bit targets.
import _ "github.com/gpurt/gpurt/vk"
