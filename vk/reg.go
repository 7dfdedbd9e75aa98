// Package vk is gpurt's Vulkan backend. It registers the backend family
// "vulkan" with one runtime device per Vulkan physical device ("Vulkan0",
// "Vulkan1", …), found on first use; without a loader, a driver or a working
// instance it registers none and reports why.
//
// Buffers are VkBuffers suballocated from large device-memory blocks:
// device-local (the default type; staged transfers, or direct copies when
// the memory is also host-visible as on UMA devices) and host-visible
// (persistently mapped, usable by the CPU backend). A Backend records graph
// nodes as compute dispatches into a ring of command buffers, with barriers
// only between dependent nodes, and submits without waiting. Shaders are
// precompiled SPIR-V (package shaders); every op and dtype combination is a
// specialization of a few pipelines, created on first use per device.
//
// Transfers to memory the host cannot map (a discrete GPU's device memory)
// run on the device's transfer stream, which shares the compute queue.
// Uploads, fills and device copies return without waiting: the bytes are
// copied first (inline into the command buffer up to 64 KiB, else into
// pooled staging buffers, in 4 MiB chunks that pipeline with the device's
// copies), and the commands are batched until a download, another stream's
// submission, a buffer's Free or 1 MiB of data submits them, so every reader
// is ordered after them on the queue. A download submits the batch with its
// copy and waits once. With BAR memory (device-local and host-visible:
// ReBAR, or a small window for buffers up to 4 MiB) device buffers are
// placed there and written by the host directly; reads still go through
// staging, as the host reads BAR memory uncached. A transfer-only queue
// family is found and reported but not used yet: copies would need
// semaphores between the queues, which lavapipe (one queue) cannot test.
//
// GraphCompute fuses RMS_NORM+MUL (the norm weight), MUL_MAT+ADD (a
// bias or the residual) and ROPE+RESHAPE+SET_ROWS (the KV write) into one
// dispatch each when runtime.Fusion says the intermediates are seen by
// nobody else (fuse.go); the fusions are push-constant flags of the unfused
// ops' pipelines, and Stats.Fused counts the nodes saved.
//
// Driver resources (the instance, logical devices, pipelines, memory blocks)
// are held until runtime.Release, which destroys them all, including those of
// buffers, backends and events still open, and names what was. Objects from
// before the release refuse use with an error; the next registry call
// discovers the devices afresh.
//
// The Vulkan loader is opened at run time and vkmin.h declares what the C
// shim uses, so building needs no Vulkan headers (nor, except on macOS, where
// vulkan-go links MoltenVK, any Vulkan library). The loader is libvulkan.so.1
// on Linux, vulkan-1.dll on Windows, and on macOS the LunarG or Homebrew
// loader (libvulkan.1.dylib) or else MoltenVK (libMoltenVK.dylib) on its own.
//
// Environment:
//
//	GPURT_VK_DEVICES=0,2   only expose these physical devices (by index)
//	GPURT_VK_LOADER=path   load this Vulkan loader instead of the default one
//	GPURT_VK_DISCRETE=1    treat device-local memory as unmappable, as on a
//	                       discrete GPU: every transfer goes through staging
//	                       (tests use it to run that path on lavapipe)
//	GPURT_VK_DISCRETE=rebar treat it as BAR memory: host writes direct,
//	                       reads through staging
//	GPURT_VK_FUSION=0      one dispatch per node: no fused kernels (for
//	                       comparison; Backend.SetFusion per backend)
//	GPURT_VK_TUNE=class    use this tuning row (nvidia, amd, intel, apple,
//	                       software, other; auto by default): tiles,
//	                       workgroups and kernels (docs/gpu-kernels.md)
//	GPURT_VK_MATVEC=hw|portable force a mat-vec kernel
//	GPURT_VK_MMQ=1|0       force the integer-dot matmul on or off
package vk

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/gpurt/gpurt/runtime"
	vk "github.com/vulkan-go/vulkan"
)

func init() { runtime.Register(reg{}, 20) }

// reg is the "vulkan" backend family. Discovery runs on first use, and again
// after Close.
type reg struct{}

func (reg) Name() string { return "vulkan" }

func (reg) Devices() ([]runtime.Device, error) {
	devs, err := devices()
	out := make([]runtime.Device, len(devs))
	for i, d := range devs {
		out[i] = d
	}
	return out, err
}

// Close destroys every logical device and their objects, then the instance
// (runtime.Release calls it). The error names the buffers, backends and
// events that were still open; they are released all the same.
func (reg) Close() error {
	vkState.mu.Lock()
	defer vkState.mu.Unlock()
	if !vkState.loaded {
		return nil
	}
	var errs []error
	for _, d := range vkState.devs {
		errs = append(errs, d.release())
	}
	if vkState.instance != nil {
		vk.DestroyInstance(vkState.instance, nil)
	}
	vkState.loaded, vkState.instance, vkState.devs, vkState.err = false, nil, nil, nil
	return errors.Join(errs...)
}

// There is one Vulkan instance at a time: vulkan-go keeps its function
// pointers in globals.
var vkState struct {
	mu       sync.Mutex
	loaded   bool
	instance vk.Instance
	devs     []*Device
	err      error
}

// The loader library is opened once per process; each instance then
// resolves the function pointers afresh.
var vkLoader struct {
	once sync.Once
	err  error
}

// Devices returns the Vulkan devices, or an error saying why there are none.
// It asks the runtime registry, so that runtime.Release releases them.
func Devices() ([]*Device, error) {
	rdevs, err := runtime.FamilyDevices(reg{}.Name())
	devs := make([]*Device, len(rdevs))
	for i, d := range rdevs {
		devs[i] = d.(*Device)
	}
	return devs, err
}

func devices() ([]*Device, error) {
	vkState.mu.Lock()
	defer vkState.mu.Unlock()
	if !vkState.loaded {
		vkState.devs, vkState.err = discover()
		vkState.loaded = true
	}
	return vkState.devs, vkState.err
}

func openLoaderOnce() error {
	vkLoader.once.Do(func() {
		if err := openLoader(os.Getenv("GPURT_VK_LOADER")); err != nil {
			vkLoader.err = err
			return
		}
		if err := vk.Init(); err != nil {
			vkLoader.err = fmt.Errorf("vulkan: %w", err)
		}
	})
	return vkLoader.err
}

// discover creates the instance and the devices; it keeps the instance in
// vkState only when there are devices.
func discover() ([]*Device, error) {
	if err := openLoaderOnce(); err != nil {
		return nil, err
	}
	inst, err := createInstance()
	if err != nil {
		return nil, err
	}
	if err := vk.InitInstance(inst); err != nil {
		// Without the instance's function pointers it cannot be destroyed.
		return nil, fmt.Errorf("vulkan: %w", err)
	}
	devs, err := physicalDevices(inst)
	if err != nil {
		vk.DestroyInstance(inst, nil)
		return nil, err
	}
	vkState.instance = inst
	return devs, nil
}

func physicalDevices(inst vk.Instance) ([]*Device, error) {
	if err := loadShim(inst); err != nil {
		return nil, err
	}
	var n uint32
	if res := vk.EnumeratePhysicalDevices(inst, &n, nil); res != vk.Success {
		return nil, fmt.Errorf("vulkan: enumerate physical devices: %w", vk.Error(res))
	}
	if n == 0 {
		return nil, errors.New("vulkan: no physical devices (is a Vulkan driver/ICD installed?)")
	}
	pds := make([]vk.PhysicalDevice, n)
	if res := vk.EnumeratePhysicalDevices(inst, &n, pds); res != vk.Success && res != vk.Incomplete {
		return nil, fmt.Errorf("vulkan: enumerate physical devices: %w", vk.Error(res))
	}
	pds = pds[:n]
	keep, err := parseDeviceFilter(os.Getenv("GPURT_VK_DEVICES"), len(pds))
	if err != nil {
		return nil, err
	}
	var devs []*Device
	var errs []error
	for _, i := range keep {
		d, err := newDevice(inst, pds[i], i, len(devs))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		devs = append(devs, d)
	}
	if len(devs) == 0 {
		if len(errs) > 0 {
			return nil, errors.Join(errs...)
		}
		return nil, fmt.Errorf("vulkan: GPURT_VK_DEVICES=%q selects no device", os.Getenv("GPURT_VK_DEVICES"))
	}
	return devs, nil
}

// parseDeviceFilter turns "0,2" into physical device indices; "" keeps all.
func parseDeviceFilter(s string, n int) ([]int, error) {
	var keep []int
	if strings.TrimSpace(s) == "" {
		for i := 0; i < n; i++ {
			keep = append(keep, i)
		}
		return keep, nil
	}
	seen := map[int]bool{}
	for _, f := range strings.Split(s, ",") {
		i, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || i < 0 {
			return nil, fmt.Errorf("vulkan: GPURT_VK_DEVICES=%q: %q is not a device index", s, f)
		}
		if i >= n {
			return nil, fmt.Errorf("vulkan: GPURT_VK_DEVICES=%q: device %d does not exist (%d physical devices)", s, i, n)
		}
		if !seen[i] {
			seen[i] = true
			keep = append(keep, i)
		}
	}
	return keep, nil
}

func createInstance() (vk.Instance, error) {
	// Ask for Vulkan 1.3 (its feature structures), else 1.2 (driver
	// properties); 1.0-only loaders reject both, so fall back to 1.1, the
	// minimum the shaders need.
	var lastErr error
	for _, api := range []uint32{vk.MakeVersion(1, 3, 0), vk.MakeVersion(1, 2, 0), vk.MakeVersion(1, 1, 0)} {
		app := &vk.ApplicationInfo{
			SType:            vk.StructureTypeApplicationInfo,
			PApplicationName: "gpurt\x00",
			PEngineName:      "gpurt\x00",
			ApiVersion:       api,
		}
		exts, flags := instancePortability(func(name string) bool { return hasExtension(nil, nil, name) })
		info := &vk.InstanceCreateInfo{
			SType:                   vk.StructureTypeInstanceCreateInfo,
			Flags:                   flags,
			PApplicationInfo:        app,
			EnabledExtensionCount:   uint32(len(exts)),
			PpEnabledExtensionNames: exts,
		}
		var inst vk.Instance
		res := vk.CreateInstance(info, nil, &inst)
		info.Free()
		app.Free()
		if res == vk.Success {
			instanceAPI = api
			return inst, nil
		}
		lastErr = fmt.Errorf("vulkan: create instance (API %s): %w", vk.Version(api), vk.Error(res))
		if res != vk.ErrorIncompatibleDriver {
			break
		}
		lastErr = fmt.Errorf("vulkan: no compatible Vulkan driver (ICD) found: create instance (API %s): %w", vk.Version(api), vk.Error(res))
	}
	return nil, lastErr
}

// instanceAPI is the API version the instance was created with.
var instanceAPI uint32
