//go:build !cgo

package wgpu

import (
	"errors"

	rt "github.com/gpurt/gpurt/runtime"
)

// Without cgo, which the wgpu-native binding needs, the WebGPU family has
// no devices and says why.
func (reg) Devices() ([]rt.Device, error) {
	return nil, errors.New("webgpu: this build has no cgo (CGO_ENABLED=0), which wgpu-native needs")
}
