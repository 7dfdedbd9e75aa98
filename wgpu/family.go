package wgpu

import rt "github.com/gpurt/gpurt/runtime"

// RegName is the backend family's name in the runtime registry.
const RegName = "webgpu"

func init() { rt.Register(reg{}, 10) }

// reg is the "webgpu" family; its Devices (and, with cgo, Close) live in
// reg.go, or in nocgo.go for builds without cgo.
type reg struct{}

func (reg) Name() string { return RegName }
