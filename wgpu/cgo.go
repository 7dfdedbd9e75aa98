//go:build cgo

package wgpu

// The binding's Adapter.RequestDevice cannot install an uncaptured-error
// callback, and wgpu-native aborts the process on any device error that no
// error scope catches. So the device is requested here, in C, with an
// uncaptured-error handler and a device-lost handler that feed the device's
// Go error sink; the result is then wrapped as a binding *Device.
//
// webgpu.h is the header of the wgpu-native release the binding links
// (v29, identical on every platform); the symbols come from the binding's
// static library.

/*
#include <stdlib.h>
#include <string.h>
#include "webgpu.h"

extern void gpurtUncapturedError(int typ, char *msg, size_t n, uintptr_t sink);
extern void gpurtDeviceLost(int reason, char *msg, size_t n, uintptr_t sink);

static size_t gpurt_sv_len(WGPUStringView s) {
	if (s.data == NULL) return 0;
	return s.length == WGPU_STRLEN ? strlen(s.data) : s.length;
}

static void gpurt_uncaptured_cb(WGPUDevice const *dev, WGPUErrorType type, WGPUStringView msg, void *u1, void *u2) {
	gpurtUncapturedError((int)type, (char *)msg.data, gpurt_sv_len(msg), (uintptr_t)u1);
}

static void gpurt_lost_cb(WGPUDevice const *dev, WGPUDeviceLostReason reason, WGPUStringView msg, void *u1, void *u2) {
	gpurtDeviceLost((int)reason, (char *)msg.data, gpurt_sv_len(msg), (uintptr_t)u1);
}

typedef struct {
	int status;
	WGPUDevice device;
	char msg[1024];
} gpurt_request;

static void gpurt_request_cb(WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView msg, void *u1, void *u2) {
	gpurt_request *r = (gpurt_request *)u1;
	r->status = (int)status;
	r->device = device;
	size_t n = gpurt_sv_len(msg);
	if (n > sizeof(r->msg) - 1) n = sizeof(r->msg) - 1;
	if (n) memcpy(r->msg, msg.data, n);
	r->msg[n] = 0;
}

// gpurt_request_device asks for a device with every limit the adapter
// offers (the defaults are much lower) and the given features. wgpu-native
// calls the request callback before returning.
static void gpurt_request_device(void *adapter, uint32_t *features, size_t nfeatures, uintptr_t sink, gpurt_request *r) {
	r->status = -1;
	r->device = NULL;
	r->msg[0] = 0;
	WGPULimits limits = WGPU_LIMITS_INIT;
	if (wgpuAdapterGetLimits((WGPUAdapter)adapter, &limits) != WGPUStatus_Success) {
		strcpy(r->msg, "cannot read the adapter's limits");
		return;
	}
	WGPUDeviceDescriptor desc = WGPU_DEVICE_DESCRIPTOR_INIT;
	desc.requiredLimits = &limits;
	desc.requiredFeatureCount = nfeatures;
	desc.requiredFeatures = (WGPUFeatureName const *)features;
	desc.deviceLostCallbackInfo.mode = WGPUCallbackMode_AllowSpontaneous;
	desc.deviceLostCallbackInfo.callback = gpurt_lost_cb;
	desc.deviceLostCallbackInfo.userdata1 = (void *)sink;
	desc.uncapturedErrorCallbackInfo.callback = gpurt_uncaptured_cb;
	desc.uncapturedErrorCallbackInfo.userdata1 = (void *)sink;
	WGPURequestDeviceCallbackInfo cb = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
	cb.mode = WGPUCallbackMode_AllowSpontaneous;
	cb.callback = gpurt_request_cb;
	cb.userdata1 = r;
	wgpuAdapterRequestDevice((WGPUAdapter)adapter, &desc, cb);
}

typedef struct {
	uint64_t maxBufferSize, maxStorageBufferBindingSize, maxUniformBufferBindingSize;
	uint32_t minStorageBufferOffsetAlignment, minUniformBufferOffsetAlignment;
	uint32_t maxStorageBuffersPerShaderStage, maxBindGroups;
	uint32_t maxComputeWorkgroupSizeX, maxComputeWorkgroupSizeY, maxComputeWorkgroupSizeZ;
	uint32_t maxComputeInvocationsPerWorkgroup, maxComputeWorkgroupStorageSize;
	uint32_t maxComputeWorkgroupsPerDimension;
} gpurt_limits;

// gpurt_device_limits reads the limits the device really has.
static int gpurt_device_limits(void *device, gpurt_limits *out) {
	WGPULimits l = WGPU_LIMITS_INIT;
	if (wgpuDeviceGetLimits((WGPUDevice)device, &l) != WGPUStatus_Success) return -1;
	out->maxBufferSize = l.maxBufferSize;
	out->maxStorageBufferBindingSize = l.maxStorageBufferBindingSize;
	out->maxUniformBufferBindingSize = l.maxUniformBufferBindingSize;
	out->minStorageBufferOffsetAlignment = l.minStorageBufferOffsetAlignment;
	out->minUniformBufferOffsetAlignment = l.minUniformBufferOffsetAlignment;
	out->maxStorageBuffersPerShaderStage = l.maxStorageBuffersPerShaderStage;
	out->maxBindGroups = l.maxBindGroups;
	out->maxComputeWorkgroupSizeX = l.maxComputeWorkgroupSizeX;
	out->maxComputeWorkgroupSizeY = l.maxComputeWorkgroupSizeY;
	out->maxComputeWorkgroupSizeZ = l.maxComputeWorkgroupSizeZ;
	out->maxComputeInvocationsPerWorkgroup = l.maxComputeInvocationsPerWorkgroup;
	out->maxComputeWorkgroupStorageSize = l.maxComputeWorkgroupStorageSize;
	out->maxComputeWorkgroupsPerDimension = l.maxComputeWorkgroupsPerDimension;
	return 0;
}

// gpurt_invalid_buffer makes a buffer larger than any device allows with no
// error scope open, so the error reaches the uncaptured-error handler.
static void gpurt_invalid_buffer(void *device) {
	WGPUBufferDescriptor bd = WGPU_BUFFER_DESCRIPTOR_INIT;
	bd.size = UINT64_MAX / 2;
	bd.usage = WGPUBufferUsage_Storage;
	WGPUBuffer b = wgpuDeviceCreateBuffer((WGPUDevice)device, &bd);
	if (b != NULL) wgpuBufferRelease(b);
}
*/
import "C"

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"

	wg "github.com/oliverbestmann/webgpu/wgpu"
)

// limits are the device limits gpurt uses.
type limits struct {
	maxBufferSize       uint64
	maxStorageBinding   uint64
	maxUniformBinding   uint64
	storageAlign        uint32
	uniformAlign        uint32
	maxStorageBuffers   uint32
	maxWorkgroupSize    [3]uint32
	maxInvocations      uint32
	maxWorkgroupStorage uint32
	maxWorkgroupsPerDim uint32
}

// errorSink collects device errors reported outside any error scope. The
// callbacks can fire on wgpu's threads and inside calls made with the device
// mutex held, so the sink has a lock of its own.
type errorSink struct {
	mu   sync.Mutex
	errs []error
	lost error
}

func (s *errorSink) add(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.errs) < 16 {
		s.errs = append(s.errs, err)
	}
}

// take returns and clears the collected errors; a lost device stays lost.
func (s *errorSink) take() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	err := errors.Join(s.errs...)
	s.errs = nil
	if s.lost != nil {
		return errors.Join(s.lost, err)
	}
	return err
}

// sinks maps the integer handed to C as callback userdata to its sink; C
// must not hold Go pointers.
var sinks struct {
	mu   sync.Mutex
	next uintptr
	m    map[uintptr]*errorSink
}

func newSink() (uintptr, *errorSink) {
	sinks.mu.Lock()
	defer sinks.mu.Unlock()
	if sinks.m == nil {
		sinks.m = map[uintptr]*errorSink{}
	}
	sinks.next++
	s := &errorSink{}
	sinks.m[sinks.next] = s
	return sinks.next, s
}

func dropSink(id uintptr) {
	sinks.mu.Lock()
	defer sinks.mu.Unlock()
	delete(sinks.m, id)
}

func lookupSink(id C.uintptr_t) *errorSink {
	sinks.mu.Lock()
	defer sinks.mu.Unlock()
	return sinks.m[uintptr(id)]
}

var errorTypeNames = map[C.int]string{
	C.WGPUErrorType_Validation:  "validation error",
	C.WGPUErrorType_OutOfMemory: "out of memory",
	C.WGPUErrorType_Internal:    "internal error",
	C.WGPUErrorType_Unknown:     "unknown error",
}

//export gpurtUncapturedError
func gpurtUncapturedError(typ C.int, msg *C.char, n C.size_t, sink C.uintptr_t) {
	s := lookupSink(sink)
	if s == nil {
		return
	}
	name, ok := errorTypeNames[typ]
	if !ok {
		name = fmt.Sprintf("error type %d", int(typ))
	}
	s.add(fmt.Errorf("uncaptured %s: %s", name, C.GoStringN(msg, C.int(n))))
}

//export gpurtDeviceLost
func gpurtDeviceLost(reason C.int, msg *C.char, n C.size_t, sink C.uintptr_t) {
	s := lookupSink(sink)
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lost == nil {
		s.lost = fmt.Errorf("device lost (reason %d): %s", int(reason), C.GoStringN(msg, C.int(n)))
	}
}

// The binding keeps each object's C handle in its first field. These checks
// pin the layout this file relies on; a binding upgrade that changes it
// makes requestDevice fail with an error instead of misbehaving.
const (
	adapterSize = unsafe.Sizeof(wg.Adapter{})
	deviceSize  = unsafe.Sizeof(wg.Device{})
)

// requestDevice opens a device on adapter with the adapter's full limits and
// the given features, reporting uncaptured errors to the sink with id sinkID.
func requestDevice(a *wg.Adapter, features []wg.FeatureName, sinkID uintptr) (*wg.Device, limits, error) {
	var lim limits
	if adapterSize != 2*unsafe.Sizeof(uintptr(0)) || deviceSize != 2*unsafe.Sizeof(uintptr(0)) {
		return nil, lim, fmt.Errorf("unexpected layout of the webgpu binding's Adapter/Device (sizes %d, %d)", adapterSize, deviceSize)
	}
	cAdapter := *(*unsafe.Pointer)(unsafe.Pointer(a))
	if cAdapter == nil {
		return nil, lim, errors.New("adapter is released")
	}
	feats := (*C.uint32_t)(C.calloc(C.size_t(len(features)+1), 4))
	defer C.free(unsafe.Pointer(feats))
	for i, f := range features {
		unsafe.Slice(feats, len(features))[i] = C.uint32_t(f)
	}
	r := (*C.gpurt_request)(C.calloc(1, C.size_t(unsafe.Sizeof(C.gpurt_request{}))))
	defer C.free(unsafe.Pointer(r))
	C.gpurt_request_device(cAdapter, feats, C.size_t(len(features)), C.uintptr_t(sinkID), r)
	if r.status != C.WGPURequestDeviceStatus_Success || r.device == nil {
		msg := C.GoString(&r.msg[0])
		if msg == "" {
			msg = fmt.Sprintf("status %d", int(r.status))
		}
		return nil, lim, fmt.Errorf("request device: %s", msg)
	}
	var cl C.gpurt_limits
	if C.gpurt_device_limits(unsafe.Pointer(r.device), &cl) != 0 {
		C.wgpuDeviceRelease(r.device)
		return nil, lim, errors.New("cannot read the device's limits")
	}
	lim = limits{
		maxBufferSize:       uint64(cl.maxBufferSize),
		maxStorageBinding:   uint64(cl.maxStorageBufferBindingSize),
		maxUniformBinding:   uint64(cl.maxUniformBufferBindingSize),
		storageAlign:        uint32(cl.minStorageBufferOffsetAlignment),
		uniformAlign:        uint32(cl.minUniformBufferOffsetAlignment),
		maxStorageBuffers:   uint32(cl.maxStorageBuffersPerShaderStage),
		maxWorkgroupSize:    [3]uint32{uint32(cl.maxComputeWorkgroupSizeX), uint32(cl.maxComputeWorkgroupSizeY), uint32(cl.maxComputeWorkgroupSizeZ)},
		maxInvocations:      uint32(cl.maxComputeInvocationsPerWorkgroup),
		maxWorkgroupStorage: uint32(cl.maxComputeWorkgroupStorageSize),
		maxWorkgroupsPerDim: uint32(cl.maxComputeWorkgroupsPerDimension),
	}
	// The binding's Device has no finalizer when built this way; Release
	// frees it explicitly.
	d := new(wg.Device)
	*(*unsafe.Pointer)(unsafe.Pointer(d)) = unsafe.Pointer(r.device)
	return d, lim, nil
}

// provokeUncapturedError makes the device report a validation error outside
// any error scope. Tests use it to check the uncaptured-error path.
func (d *Device) provokeUncapturedError() {
	d.mu.Lock()
	defer d.mu.Unlock()
	C.gpurt_invalid_buffer(*(*unsafe.Pointer)(unsafe.Pointer(d.dev)))
}
