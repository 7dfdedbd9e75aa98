package vk

/*
#cgo linux LDFLAGS: -ldl
#include <stdlib.h>
#include "loader.h"
#include "shim.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"
)

// openLoader loads the Vulkan loader library (path "" means the default
// names) and hands its vkGetInstanceProcAddr to vulkan-go.
func openLoader(path string) error {
	var cpath *C.char
	if path != "" {
		cpath = C.CString(path)
		defer C.free(unsafe.Pointer(cpath))
	}
	var errbuf [512]C.char
	p := C.gpurt_vk_open(cpath, &errbuf[0], C.int(len(errbuf)))
	if p == nil {
		return fmt.Errorf("vulkan: cannot load the Vulkan loader: %s", C.GoString(&errbuf[0]))
	}
	vk.SetGetInstanceProcAddr(p)
	return nil
}

// props2 holds the Vulkan 1.1/1.2 properties vulkan-go does not wrap.
type props2 struct {
	maxAllocationSize uint64
	driverID          uint32
	driverName        string
	driverInfo        string
	subgroupSize      uint32
	subgroupOps       uint32
	subgroupStages    uint32
}

func queryProps2(inst vk.Instance, pd vk.PhysicalDevice, api uint32) (props2, bool) {
	var out C.gpurt_vk_props2
	ok := C.gpurt_vk_query_props2(unsafe.Pointer(inst), unsafe.Pointer(pd), C.uint32_t(api), &out)
	if ok == 0 {
		return props2{}, false
	}
	return props2{
		maxAllocationSize: uint64(out.max_memory_allocation_size),
		driverID:          uint32(out.driver_id),
		driverName:        C.GoString(&out.driver_name[0]),
		driverInfo:        C.GoString(&out.driver_info[0]),
		subgroupSize:      uint32(out.subgroup_size),
		subgroupOps:       uint32(out.subgroup_ops),
		subgroupStages:    uint32(out.subgroup_stages),
	}, true
}

// hasExtension reports whether the loader (pd nil) or physical device pd
// offers the named extension.
func hasExtension(inst vk.Instance, pd vk.PhysicalDevice, name string) bool {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	return C.gpurt_vk_has_extension(unsafe.Pointer(inst), unsafe.Pointer(pd), cname) != 0
}

func unsafePointer(pc *pushConsts) unsafe.Pointer { return unsafe.Pointer(pc) }

// Direct Vulkan calls (see shim.h for why vulkan-go is bypassed here).

func loadShim(inst vk.Instance) error {
	if C.gpurt_vk_load_fns(unsafe.Pointer(inst)) == 0 {
		return fmt.Errorf("vulkan: the loader lacks core Vulkan 1.0 entry points")
	}
	return nil
}

func queueSubmit(q vk.Queue, cmd vk.CommandBuffer, fence vk.Fence) vk.Result {
	return vk.Result(C.gpurt_queue_submit(unsafe.Pointer(q), unsafe.Pointer(cmd), unsafe.Pointer(fence)))
}

func cmdBarrier(cmd vk.CommandBuffer, src, dst vk.PipelineStageFlags, srcAccess, dstAccess vk.AccessFlags) {
	C.gpurt_cmd_barrier(unsafe.Pointer(cmd), C.uint32_t(src), C.uint32_t(dst), C.uint32_t(srcAccess), C.uint32_t(dstAccess))
}

func cmdCopyBuffer(cmd vk.CommandBuffer, src, dst vk.Buffer, srcOff, dstOff, size uint64) {
	C.gpurt_cmd_copy_buffer(unsafe.Pointer(cmd), unsafe.Pointer(src), unsafe.Pointer(dst), C.uint64_t(srcOff), C.uint64_t(dstOff), C.uint64_t(size))
}

// cmdUpdateBuffer records data (a multiple of 4 bytes, at most 64 KiB) into
// the command buffer, to be written to dst at off.
func cmdUpdateBuffer(cmd vk.CommandBuffer, dst vk.Buffer, off uint64, data []byte) {
	C.gpurt_cmd_update_buffer(unsafe.Pointer(cmd), unsafe.Pointer(dst), C.uint64_t(off), C.uint64_t(len(data)), unsafe.Pointer(&data[0]))
}

// waitFence blocks until the fence signals (without vulkan-go's C copy of
// a fence slice per call).
func waitFence(dev vk.Device, fence vk.Fence) vk.Result {
	return vk.Result(C.gpurt_wait_fence(unsafe.Pointer(dev), unsafe.Pointer(fence)))
}

func allocSet(dev vk.Device, pool vk.DescriptorPool, layout vk.DescriptorSetLayout) (vk.DescriptorSet, vk.Result) {
	var set unsafe.Pointer
	res := C.gpurt_alloc_set(unsafe.Pointer(dev), unsafe.Pointer(pool), unsafe.Pointer(layout), &set)
	return vk.DescriptorSet(set), vk.Result(res)
}

// writeSet points the set's bindings at the given buffer ranges.
func writeSet(dev vk.Device, set vk.DescriptorSet, binds *[numBindings]binding) {
	var bufs [numBindings]unsafe.Pointer
	var offs, ranges [numBindings]C.uint64_t
	for i, b := range binds {
		bufs[i] = unsafe.Pointer(b.buf.buf)
		offs[i] = C.uint64_t(b.base)
		ranges[i] = C.uint64_t(b.size)
	}
	C.gpurt_write_set_ranges(unsafe.Pointer(dev), unsafe.Pointer(set), &bufs[0], &offs[0], &ranges[0], numBindings)
}

func createComputePipeline(dev vk.Device, cache vk.PipelineCache, layout vk.PipelineLayout, mod vk.ShaderModule, spec []uint32, stageFlags uint32) (vk.Pipeline, vk.Result) {
	var cspec [16]C.uint32_t
	for i, v := range spec {
		cspec[i] = C.uint32_t(v)
	}
	var p unsafe.Pointer
	res := C.gpurt_create_compute_pipeline(unsafe.Pointer(dev), unsafe.Pointer(cache), unsafe.Pointer(layout), unsafe.Pointer(mod), &cspec[0], C.uint32_t(len(spec)), C.uint32_t(stageFlags), &p)
	return vk.Pipeline(p), vk.Result(res)
}
