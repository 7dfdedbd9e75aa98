package vk

/*
#include <stdlib.h>
#include "devfeatures.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"
)

// features are the optional device features gpurt enables when the device
// offers them. The shaders read 16-bit and 8-bit data as 32-bit words today,
// so these do not change results; they make the capabilities visible (gpurt
// devices) and available to shader variants that use them.
type features struct {
	shaderInt16, shaderInt64            bool
	storage16, uniformStorage16, push16 bool
	storage8, uniformStorage8, push8    bool
	shaderFloat16, shaderInt8           bool
	subgroupSizeControl, fullSubgroups  bool
	integerDot                          bool
	cooperativeMatrix                   bool // offered; not enabled (no shader uses it yet)
	minSubgroupSize, maxSubgroupSize    uint32
	memoryBudget                        bool // VK_EXT_memory_budget
	computeOnlyQueue                    bool
}

func queryFeatures(inst vk.Instance, pd vk.PhysicalDevice, api uint32) features {
	coopmat := hasExtension(inst, pd, "VK_KHR_cooperative_matrix")
	var out C.gpurt_vk_features
	cm := C.int(0)
	if coopmat {
		cm = 1
	}
	if C.gpurt_vk_query_features(unsafe.Pointer(inst), unsafe.Pointer(pd), C.uint32_t(api), cm, &out) == 0 {
		return features{}
	}
	return features{
		shaderInt16:         out.shader_int16 != 0,
		shaderInt64:         out.shader_int64 != 0,
		storage16:           out.storage16 != 0,
		uniformStorage16:    out.uniform_storage16 != 0,
		push16:              out.push_constant16 != 0,
		storage8:            out.storage8 != 0,
		uniformStorage8:     out.uniform_storage8 != 0,
		push8:               out.push_constant8 != 0,
		shaderFloat16:       out.shader_float16 != 0,
		shaderInt8:          out.shader_int8 != 0,
		subgroupSizeControl: out.subgroup_size_control != 0,
		fullSubgroups:       out.compute_full_subgroups != 0,
		integerDot:          out.integer_dot_product != 0,
		cooperativeMatrix:   out.cooperative_matrix != 0,
		minSubgroupSize:     uint32(out.min_subgroup_size),
		maxSubgroupSize:     uint32(out.max_subgroup_size),
		memoryBudget:        hasExtension(inst, pd, "VK_EXT_memory_budget"),
	}
}

// featureChain returns the vkCreateDevice pNext chain enabling f (every
// field of which the device offers), to be freed with freeFeatureChain.
func featureChain(api uint32, f features) unsafe.Pointer {
	b := func(v bool) C.uint32_t {
		if v {
			return 1
		}
		return 0
	}
	want := C.gpurt_vk_features{
		shader_int16:           b(f.shaderInt16),
		shader_int64:           b(f.shaderInt64),
		storage16:              b(f.storage16),
		uniform_storage16:      b(f.uniformStorage16),
		push_constant16:        b(f.push16),
		storage8:               b(f.storage8),
		uniform_storage8:       b(f.uniformStorage8),
		push_constant8:         b(f.push8),
		shader_float16:         b(f.shaderFloat16),
		shader_int8:            b(f.shaderInt8),
		subgroup_size_control:  b(f.subgroupSizeControl),
		compute_full_subgroups: b(f.fullSubgroups),
		integer_dot_product:    b(f.integerDot),
	}
	return C.gpurt_vk_feature_chain(C.uint32_t(api), &want)
}

func freeFeatureChain(p unsafe.Pointer) { C.gpurt_vk_free_chain(p) }

// memoryBudget returns the driver's budget and usage of each heap from
// VK_EXT_memory_budget, or false when the device does not offer it.
func (d *Device) memoryBudget() (budget, usage []uint64, ok bool) {
	if !d.feat.memoryBudget {
		return nil, nil, false
	}
	var b, u [16]C.uint64_t
	n := int(C.gpurt_vk_memory_budget(unsafe.Pointer(d.inst), unsafe.Pointer(d.phys), &b[0], &u[0]))
	if n == 0 {
		return nil, nil, false
	}
	budget, usage = make([]uint64, n), make([]uint64, n)
	for i := 0; i < n; i++ {
		budget[i], usage[i] = uint64(b[i]), uint64(u[i])
	}
	return budget, usage, true
}

// Features lists the device's limits and optional features, for gpurt
// devices: what is enabled, what is only offered, and what is missing.
func (d *Device) Features() []string {
	f := d.feat
	yes := func(v bool) string {
		if v {
			return "yes"
		}
		return "no"
	}
	sg := fmt.Sprintf("subgroup %d", d.lim.subgroupSize)
	if f.maxSubgroupSize != 0 {
		sg += fmt.Sprintf(" (%d-%d)", f.minSubgroupSize, f.maxSubgroupSize)
	}
	queue := fmt.Sprintf("queue family %d", d.family)
	if f.computeOnlyQueue {
		queue += " (compute-only)"
	}
	if d.transferFamily >= 0 {
		queue += fmt.Sprintf(", transfer-only family %d (not used yet)", d.transferFamily)
	}
	return []string{
		sg,
		fmt.Sprintf("subgroup-arith=%s subgroup-shuffle=%s", yes(d.subgroupArith), yes(d.subgroupShuffle)),
		fmt.Sprintf("storage16=%s storage8=%s fp16=%s int8=%s int16=%s int64=%s",
			yes(f.storage16), yes(f.storage8), yes(f.shaderFloat16), yes(f.shaderInt8), yes(f.shaderInt16), yes(f.shaderInt64)),
		fmt.Sprintf("subgroup-size-control=%s full-subgroups=%s integer-dot=%s cooperative-matrix=%s (not used yet)",
			yes(f.subgroupSizeControl), yes(f.fullSubgroups), yes(f.integerDot), yes(f.cooperativeMatrix)),
		fmt.Sprintf("max shared %d B, max workgroup %d, max storage range %d MiB, max push constants %d B",
			d.lim.maxSharedMemory, d.lim.maxInvocations, d.lim.maxStorageRange>>20, d.lim.maxPushConstants),
		fmt.Sprintf("%s, memory-budget=%s, bar=%s, discrete-mode=%s", queue, yes(f.memoryBudget), d.barReport(), d.discreteReport()),
		d.tuneReport(),
	}
}

// barReport describes the BAR memory type and what goes there.
func (d *Device) barReport() string {
	switch {
	case d.barType < 0:
		return "none"
	case d.bar.all:
		return fmt.Sprintf("rebar (type %d, every device buffer)", d.barType)
	}
	return fmt.Sprintf("window (type %d, buffers up to %d MiB)", d.barType, d.bar.maxBuffer>>20)
}

// discreteReport says which GPURT_VK_DISCRETE mode is on.
func (d *Device) discreteReport() string {
	switch bt := d.localBT; {
	case bt != nil && bt.staged:
		return "staged"
	case bt != nil && bt.stagedReads:
		return "rebar"
	}
	return "off"
}
