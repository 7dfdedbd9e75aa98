//go:build cgo && !386 && !arm

package main

// The Vulkan backend needs cgo (it opens the Vulkan loader at run time, with
// no Vulkan headers or libraries needed to build) and a 64-bit target, as
// vulkan-go's handle types are pointers only there.
import _ "github.com/gpurt/gpurt/vk"
