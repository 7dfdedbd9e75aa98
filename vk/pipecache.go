package vk

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"unsafe"

	"github.com/gpurt/gpurt/internal/atomicfile"
	rt "github.com/gpurt/gpurt/runtime"
	vk "github.com/vulkan-go/vulkan"
)

// A VkPipelineCache per device is loaded from the user's cache directory when
// the logical device is created and saved back, atomically, at release, so
// that a second start does not compile the pipelines again (drivers that
// compile in vkCreateComputePipelines, unlike lavapipe, which compiles at the
// first dispatch and keeps its own Mesa disk cache).
//
// GPURT_VK_PIPELINE_CACHE=off disables it; any other value is the directory
// to use instead of <user cache dir>/gpurt/vulkan.

// pipelineCacheDir is the directory of the cache files, or "" when disabled.
func pipelineCacheDir() string {
	switch v := os.Getenv("GPURT_VK_PIPELINE_CACHE"); v {
	case "off", "0":
		return ""
	case "":
		base, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		return filepath.Join(base, "gpurt", "vulkan")
	default:
		return v
	}
}

// pipelineCachePath names the file of this device and driver: the cache
// UUID changes with the driver build, so a driver update starts afresh.
func (d *Device) pipelineCachePath(dir string) string {
	return filepath.Join(dir, fmt.Sprintf("pipelines-%04x-%04x-%x.bin", d.vendorID, d.deviceID, d.cacheUUID))
}

// pipelineCacheHeaderSize is the size of VkPipelineCacheHeaderVersionOne.
const pipelineCacheHeaderSize = 32

// checkPipelineCacheData verifies the header of saved cache data against the
// device (some drivers crash on foreign or truncated data rather than ignore
// it).
func checkPipelineCacheData(data []byte, vendor, device uint32, uuid [16]byte) error {
	if len(data) < pipelineCacheHeaderSize {
		return fmt.Errorf("pipeline cache: %d bytes, shorter than its header: %w", len(data), rt.ErrCorruptFile)
	}
	le := binary.LittleEndian
	if n := le.Uint32(data); n < pipelineCacheHeaderSize || int(n) > len(data) {
		return fmt.Errorf("pipeline cache: header length %d: %w", n, rt.ErrCorruptFile)
	}
	if v := le.Uint32(data[4:]); v != 1 {
		return fmt.Errorf("pipeline cache: header version %d, want 1: %w", v, rt.ErrCorruptFile)
	}
	if v, dv := le.Uint32(data[8:]), le.Uint32(data[12:]); v != vendor || dv != device {
		return fmt.Errorf("pipeline cache: for device %04x:%04x, not %04x:%04x: %w", v, dv, vendor, device, rt.ErrInvalidArgument)
	}
	if !bytes.Equal(data[16:32], uuid[:]) {
		return fmt.Errorf("pipeline cache: for another driver build: %w", rt.ErrInvalidArgument)
	}
	return nil
}

// createPipelineCache creates the device's VkPipelineCache, seeded from the
// saved file when it is valid for this device.
func (d *Device) createPipelineCache() error {
	var initial []byte
	if dir := pipelineCacheDir(); dir != "" {
		if data, err := os.ReadFile(d.pipelineCachePath(dir)); err == nil {
			if checkPipelineCacheData(data, d.vendorID, d.deviceID, d.cacheUUID) == nil {
				initial = data
			}
		}
	}
	info := &vk.PipelineCacheCreateInfo{SType: vk.StructureTypePipelineCacheCreateInfo}
	if len(initial) > 0 {
		info.InitialDataSize = uint(len(initial))
		info.PInitialData = unsafe.Pointer(&initial[0])
	}
	var c vk.PipelineCache
	res := vk.CreatePipelineCache(d.dev, info, nil, &c)
	info.Free()
	if res != vk.Success && len(initial) > 0 {
		// Start empty rather than fail over a cache.
		info = &vk.PipelineCacheCreateInfo{SType: vk.StructureTypePipelineCacheCreateInfo}
		res = vk.CreatePipelineCache(d.dev, info, nil, &c)
		info.Free()
		initial = nil
	}
	if err := d.check(res, "create pipeline cache"); err != nil {
		return err
	}
	d.pipeCache = c
	d.pipeCacheLoaded = len(initial)
	return nil
}

// pipelineCacheData returns the cache's contents.
func (d *Device) pipelineCacheData() ([]byte, error) {
	var n uint
	if err := d.check(vk.GetPipelineCacheData(d.dev, d.pipeCache, &n, nil), "get pipeline cache size"); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, nil
	}
	data := make([]byte, n)
	if err := d.check(vk.GetPipelineCacheData(d.dev, d.pipeCache, &n, unsafe.Pointer(&data[0])), "get pipeline cache data"); err != nil {
		return nil, err
	}
	return data[:n], nil
}

// savePipelineCache writes the cache to dir, atomically.
func (d *Device) savePipelineCache(dir string) error {
	if d.pipeCache == vk.NullPipelineCache {
		return errors.New("pipeline cache: none created")
	}
	data, err := d.pipelineCacheData()
	if err != nil || len(data) == 0 {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("pipeline cache: %w", err)
	}
	return atomicfile.WriteFile(d.pipelineCachePath(dir), data, atomicfile.Options{})
}

// destroyPipelineCache saves (best effort: the cache only saves time) and
// destroys the device's pipeline cache.
func (d *Device) destroyPipelineCache() {
	if d.pipeCache == vk.NullPipelineCache {
		return
	}
	if dir := pipelineCacheDir(); dir != "" && d.pipes.created > 0 {
		d.pipeCacheSaveErr = d.savePipelineCache(dir)
	}
	vk.DestroyPipelineCache(d.dev, d.pipeCache, nil)
	d.pipeCache = vk.NullPipelineCache
}
