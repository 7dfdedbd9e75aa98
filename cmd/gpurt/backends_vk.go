//go:build cgo && !windows

package main

// The Vulkan backend loads the loader with dlopen, which Windows lacks.
import _ "github.com/gpurt/gpurt/vk"
