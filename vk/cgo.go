package vk

/*
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include "loader.h"
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

func cMalloc(n int) unsafe.Pointer { return C.malloc(C.size_t(n)) }
func cFree(p unsafe.Pointer)       { C.free(p) }

func unsafePointer(pc *pushConsts) unsafe.Pointer { return unsafe.Pointer(pc) }
