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
// Environment:
//
//	GPURT_VK_DEVICES=0,2   only expose these physical devices (by index)
//	GPURT_VK_LOADER=path   load this Vulkan loader instead of libvulkan.so.1
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

// reg is the "vulkan" backend family. Discovery runs once, on first use.
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

// The Vulkan instance is process-wide: vulkan-go keeps its function pointers
// in globals, so there is exactly one.
var vkState struct {
	once     sync.Once
	instance vk.Instance
	devs     []*Device
	err      error
}

// Devices returns the Vulkan devices, or an error saying why there are none.
func Devices() ([]*Device, error) { return devices() }

func devices() ([]*Device, error) {
	vkState.once.Do(func() { vkState.devs, vkState.err = discover() })
	return vkState.devs, vkState.err
}

func discover() ([]*Device, error) {
	if err := openLoader(os.Getenv("GPURT_VK_LOADER")); err != nil {
		return nil, err
	}
	if err := vk.Init(); err != nil {
		return nil, fmt.Errorf("vulkan: %w", err)
	}
	inst, err := createInstance()
	if err != nil {
		return nil, err
	}
	vkState.instance = inst
	if err := vk.InitInstance(inst); err != nil {
		return nil, fmt.Errorf("vulkan: %w", err)
	}
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
	// Ask for Vulkan 1.2 (for driver properties); 1.0-only loaders reject
	// that, so fall back to 1.1, the minimum the shaders need.
	var lastErr error
	for _, api := range []uint32{vk.MakeVersion(1, 2, 0), vk.MakeVersion(1, 1, 0)} {
		app := &vk.ApplicationInfo{
			SType:            vk.StructureTypeApplicationInfo,
			PApplicationName: "gpurt\x00",
			PEngineName:      "gpurt\x00",
			ApiVersion:       api,
		}
		info := &vk.InstanceCreateInfo{
			SType:            vk.StructureTypeInstanceCreateInfo,
			PApplicationInfo: app,
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
