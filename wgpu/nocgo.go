//go:build !cgo

package wgpu

import (
	"errors"

	rt "github.com/gpurt/gpurt/runtime"
)

// RegName is the backend family's name in the runtime registry.
const RegName = "webgpu"

func init() { rt.Register(reg{}, 10) }

// reg stands in for the WebGPU family in builds without cgo, which the
// wgpu-native binding needs: it has no devices and says why.
type reg struct{}

func (reg) Name() string { return RegName }

func (reg) Devices() ([]rt.Device, error) {
	return nil, errors.New("webgpu: this build has no cgo (CGO_ENABLED=0), which wgpu-native needs")
}
