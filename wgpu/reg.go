//go:build cgo

package wgpu

import (
	"errors"
	"fmt"
	"os"
	"sync"

	wg "github.com/oliverbestmann/webgpu/wgpu"

	rt "github.com/gpurt/gpurt/runtime"
)

// RegName is the backend family's name in the runtime registry.
const RegName = "webgpu"

func init() { rt.Register(reg{}, 10) }

// reg is the "webgpu" family. Adapter discovery runs once, on the first
// Devices call, so importing the package costs nothing until it is used.
type reg struct{}

func (reg) Name() string { return RegName }

func (reg) Devices() ([]rt.Device, error) {
	devs, err := discover()
	out := make([]rt.Device, len(devs))
	for i, d := range devs {
		out[i] = d
	}
	return out, err
}

var discovery struct {
	once sync.Once
	inst *wg.Instance
	devs []*Device
	err  error
}

// quietEnv keeps wgpu and the loaders off the user's stderr: wgpu logs only
// errors, and Mesa's drivers warn when XDG_RUNTIME_DIR is unset.
func quietEnv() {
	if os.Getenv("XDG_RUNTIME_DIR") == "" {
		_ = os.Setenv("XDG_RUNTIME_DIR", os.TempDir())
	}
	wg.SetLogLevel(wg.LogLevelError)
}

// discover opens a device on each usable adapter: the high-performance one
// first, then the rest. Only primary backends (Vulkan, Metal, DX12) count;
// wgpu's OpenGL backend lacks what the kernels need. With no adapter there
// are no devices and an error that says why.
func discover() ([]*Device, error) {
	discovery.once.Do(func() {
		discovery.devs, discovery.err = discoverOnce()
	})
	return discovery.devs, discovery.err
}

func discoverOnce() (devs []*Device, err error) {
	defer func() {
		// The binding panics where wgpu-native reports failure without an
		// error value (e.g. no instance); no adapter must never crash.
		if r := recover(); r != nil {
			devs, err = nil, fmt.Errorf("webgpu: %v", r)
		}
	}()
	quietEnv()
	inst := wg.CreateInstance(nil)
	discovery.inst = inst
	var adapters []*wg.Adapter
	if a, err := inst.RequestAdapter(&wg.RequestAdapterOptions{PowerPreference: wg.PowerPreferenceHighPerformance}); err == nil && a != nil {
		adapters = append(adapters, a)
	}
	for _, a := range inst.EnumerateAdapters(nil) {
		if !containsAdapter(adapters, a) {
			adapters = append(adapters, a)
		} else {
			a.Release()
		}
	}
	var errs []error
	for _, a := range adapters {
		info := a.GetInfo()
		if !primaryBackend(info.BackendType) {
			a.Release()
			continue
		}
		d, err := openDevice(a, len(devs), openOptions{})
		if err != nil {
			errs = append(errs, fmt.Errorf("adapter %q (%s): %w", info.Device, backendName(info.BackendType), err))
			a.Release()
			continue
		}
		devs = append(devs, d)
	}
	if len(devs) == 0 {
		if len(errs) == 0 {
			errs = append(errs, errors.New("no WebGPU adapter on a Vulkan, Metal or DX12 driver"))
		}
		return nil, fmt.Errorf("webgpu: %w", errors.Join(errs...))
	}
	return devs, nil
}

func containsAdapter(list []*wg.Adapter, a *wg.Adapter) bool {
	ai := a.GetInfo()
	for _, b := range list {
		bi := b.GetInfo()
		if ai.BackendType == bi.BackendType && ai.VendorId == bi.VendorId && ai.DeviceId == bi.DeviceId && ai.Device == bi.Device && ai.Description == bi.Description {
			return true
		}
	}
	return false
}

func primaryBackend(t wg.BackendType) bool {
	return t == wg.BackendTypeVulkan || t == wg.BackendTypeMetal || t == wg.BackendTypeD3D12
}

func backendName(t wg.BackendType) string {
	switch t {
	case wg.BackendTypeVulkan:
		return "Vulkan"
	case wg.BackendTypeMetal:
		return "Metal"
	case wg.BackendTypeD3D12:
		return "DX12"
	case wg.BackendTypeD3D11:
		return "DX11"
	case wg.BackendTypeOpenGL:
		return "OpenGL"
	case wg.BackendTypeOpenGLES:
		return "OpenGL ES"
	}
	return fmt.Sprintf("backend %d", t)
}
