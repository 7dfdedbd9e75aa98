//go:build cgo

package wgpu

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	wg "github.com/oliverbestmann/webgpu/wgpu"

	rt "github.com/gpurt/gpurt/runtime"
)

// With cgo, adapter discovery runs on the first Devices call, so importing
// the package costs nothing until it is used; Close (through
// runtime.Release) releases what discovery made and lets the next Devices
// call discover afresh.

func (reg) Devices() ([]rt.Device, error) {
	devs, err := discover()
	out := make([]rt.Device, len(devs))
	for i, d := range devs {
		out[i] = d
	}
	return out, err
}

// Close releases every device (see Device.close) with its adapter, then the
// instance. The error names what callers still held open.
func (reg) Close() error {
	discovery.mu.Lock()
	defer discovery.mu.Unlock()
	var errs []error
	for _, d := range discovery.devs {
		errs = append(errs, d.close())
		d.adapter.Release()
	}
	if discovery.inst != nil {
		// Whatever wgpu-native's hub still counts now was made by gpurt
		// and never released: a bug here, not the caller's.
		if live := countList(hubCounts(discovery.inst)); live != "" {
			errs = append(errs, fmt.Errorf("wgpu-native still holds %s after release", live))
		}
		discovery.inst.Release()
	}
	discovery.done, discovery.inst, discovery.devs, discovery.err = false, nil, nil, nil
	return errors.Join(errs...)
}

// discovery is what the last discovery made; the registry devices own their
// adapters.
var discovery struct {
	mu   sync.Mutex
	done bool
	inst *wg.Instance
	devs []*Device
	err  error
}

// count is a number of objects of one kind, e.g. 2 "buffer".
type count struct {
	n    uint64
	kind string
}

// countList writes the non-zero counts as "2 buffers, 1 backend".
func countList(cs []count) string {
	var parts []string
	for _, c := range cs {
		switch {
		case c.n == 1:
			parts = append(parts, "1 "+c.kind)
		case c.n > 1:
			parts = append(parts, fmt.Sprintf("%d %ss", c.n, c.kind))
		}
	}
	return strings.Join(parts, ", ")
}

// hubCounts is how many objects of each kind wgpu-native's hub holds for
// inst: every handle made and not yet released.
func hubCounts(inst *wg.Instance) []count {
	h := inst.GenerateReport().Hub
	return []count{
		{h.Adapters.NumAllocated, "adapter"}, {h.Devices.NumAllocated, "device"},
		{h.Buffers.NumAllocated, "buffer"}, {h.Textures.NumAllocated, "texture"},
		{h.TextureViews.NumAllocated, "texture view"}, {h.Samplers.NumAllocated, "sampler"},
		{h.BindGroupLayouts.NumAllocated, "bind group layout"}, {h.PipelineLayouts.NumAllocated, "pipeline layout"},
		{h.BindGroups.NumAllocated, "bind group"}, {h.ShaderModules.NumAllocated, "shader module"},
		{h.ComputePipelines.NumAllocated, "compute pipeline"}, {h.RenderPipelines.NumAllocated, "render pipeline"},
		{h.PipelineCaches.NumAllocated, "pipeline cache"}, {h.CommandBuffers.NumAllocated, "command buffer"},
		{h.RenderBundles.NumAllocated, "render bundle"}, {h.QuerySets.NumAllocated, "query set"},
	}
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
	discovery.mu.Lock()
	defer discovery.mu.Unlock()
	if !discovery.done {
		discovery.inst, discovery.devs, discovery.err = discoverOnce()
		discovery.done = true
	}
	return discovery.devs, discovery.err
}

// discoverOnce returns the instance and its devices, or neither and an
// error, having released whatever it made.
func discoverOnce() (_ *wg.Instance, _ []*Device, err error) {
	var (
		inst     *wg.Instance
		adapters []*wg.Adapter // not yet looked at
		devs     []*Device
	)
	defer func() {
		// The binding panics where wgpu-native reports failure without an
		// error value (e.g. no instance); no adapter must never crash.
		if r := recover(); r != nil {
			err = fmt.Errorf("webgpu: %v", r)
		}
		if err != nil {
			for _, d := range devs {
				d.close()
				d.adapter.Release()
			}
			for _, a := range adapters {
				a.Release()
			}
			inst.Release()
		}
	}()
	class, forced, err := tuneFromEnv()
	if err != nil {
		return nil, nil, fmt.Errorf("webgpu: %w", err)
	}
	quietEnv()
	inst = wg.CreateInstance(nil)
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
	for len(adapters) > 0 {
		a := adapters[0]
		adapters = adapters[1:]
		info := a.GetInfo()
		if !primaryBackend(info.BackendType) {
			a.Release()
			continue
		}
		d, err := openDevice(a, len(devs), openOptions{class: class, forcedClass: forced})
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
		return nil, nil, fmt.Errorf("webgpu: %w", errors.Join(errs...))
	}
	return inst, devs, nil
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
