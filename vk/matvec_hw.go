package vk

import (
	"os"
	"sync"

	rt "github.com/gpurt/gpurt/runtime"
)

// The hardware mat-vec (shaders/vk/mul_mat_vec_hw.comp): MUL_MAT with at
// most matVecMaxN src1 columns, laid out so that neighbouring lanes read
// neighbouring words of a weight row, for GPUs. CPU drivers (lavapipe)
// keep mul_mat_vec.comp, whose one-block-per-lane layout suits them.

// matVecKernel chooses between the two mat-vec shaders; tests and
// benchmarks force one through Device.matVec.
type matVecKernel int

const (
	matVecAuto     matVecKernel = iota // the hardware kernel on GPUs, the portable one on CPU drivers
	matVecPortable                     // mul_mat_vec.comp
	matVecHW                           // mul_mat_vec_hw.comp
)

// parseMatVecKernel reads GPURT_VK_MATVEC: "hw" or "portable" force a
// kernel on every device; anything else leaves the choice to the device.
func parseMatVecKernel(v string) matVecKernel {
	switch v {
	case "hw":
		return matVecHW
	case "portable":
		return matVecPortable
	}
	return matVecAuto
}

// matVecFromEnv is GPURT_VK_MATVEC, read once (plans run per node).
var matVecFromEnv = sync.OnceValue(func() matVecKernel { return parseMatVecKernel(os.Getenv("GPURT_VK_MATVEC")) })

// hwMatVec reports whether mat-vec products use the hardware kernel:
// Device.matVec, else GPURT_VK_MATVEC, else on every device but CPU drivers.
func (d *Device) hwMatVec() bool {
	k := d.matVec
	if k == matVecAuto {
		k = matVecFromEnv()
	}
	switch k {
	case matVecPortable:
		return false
	case matVecHW:
		return true
	}
	return !d.software
}

const (
	// hwMatVecRows is the rows per workgroup: two keeps thousands of
	// workgroups in flight for model-sized M while every src1 load serves
	// two rows.
	hwMatVecRows = 2
	// hwMatVecMaxCols is the most src1 columns one workgroup computes.
	hwMatVecMaxCols = 8
	// hwMatVecMinSubgroup is the smallest subgroup the subgroup build's
	// shared array (one slot per 4 invocations) allows.
	hwMatVecMinSubgroup = 4
)

// hwMatVecWG is the workgroup size: 128 (four 32-wide or two 64-wide
// subgroups), within 64..256 and the device's limits, a power of two
// (the shared-memory tree halves it). 0 when the device allows less than 64.
func (d *Device) hwMatVecWG() int {
	limit := 256
	if d.lim.maxInvocations > 0 {
		limit = min(limit, int(d.lim.maxInvocations))
	}
	if d.lim.maxGroupSize[0] > 0 {
		limit = min(limit, int(d.lim.maxGroupSize[0]))
	}
	wg := 128
	if sg := int(d.lim.subgroupSize); sg > 64 {
		wg = 256 // at least two subgroups of a wide-subgroup device
	}
	for wg > limit {
		wg /= 2
	}
	if wg < 64 {
		return 0
	}
	return wg
}

// hwMatVecVariant is the subgroup or shared-memory build of the kernel.
func (d *Device) hwMatVecVariant() string {
	sg := d.feat.minSubgroupSize
	if sg == 0 {
		sg = d.lim.subgroupSize
	}
	if d.subgroupArith && sg >= hwMatVecMinSubgroup {
		return "mul_mat_vec_hw"
	}
	return "mul_mat_vec_hw_nosg"
}

// planMatVecHW plans MUL_MAT(a, b) (b with at most matVecMaxN columns) on
// the hardware kernel, after planMatMul has set the push constants. It
// reports false, planning nothing, where the device cannot run it.
func (d *Device) planMatVecHW(ds *dispatch, a, b *rt.Tensor, offs [rt.MaxSrc]uint32) bool {
	wg := d.hwMatVecWG()
	if wg == 0 || !(a.Type == rt.F32 || a.Type == rt.F16 || a.Type == rt.BF16 || a.Type.IsQuantized()) {
		return false
	}
	n := b.Ne[1]
	nc := 1 // a power of two covering n
	for nc < n && nc < hwMatVecMaxCols {
		nc *= 2
	}
	nr := hwMatVecRows
	variant := d.hwMatVecVariant()
	slots := wg / hwMatVecMinSubgroup
	if variant == "mul_mat_vec_hw_nosg" {
		slots = wg
	}
	if d.lim.maxSharedMemory > 0 && nr*nc*slots*4 > int(d.lim.maxSharedMemory) {
		return false
	}
	batches := b.Ne[2] * b.Ne[3]
	groups := (n + nc - 1) / nc * batches
	if groups > maxGroups {
		return false
	}
	// src1 16 bytes at a time where it is contiguous and its columns
	// aligned; float weights also need aligned rows and whole words.
	vec4 := b.Nb[0] == 4 && allMultiples(16, int(offs[1]), b.Nb[1], b.Nb[2], b.Nb[3])
	switch a.Type {
	case rt.F32:
		vec4 = vec4 && a.Ne[0]%4 == 0 && allMultiples(16, int(offs[0]), a.Nb[1], a.Nb[2], a.Nb[3])
	case rt.F16, rt.BF16:
		vec4 = vec4 && a.Ne[0]%8 == 0 && allMultiples(16, int(offs[0]), a.Nb[1], a.Nb[2], a.Nb[3])
	}
	var v4 uint32
	if vec4 {
		v4 = 1
	}
	ds.key = pipelineKey{variant: variant, spec: [7]uint32{uint32(wg), uint32(nr), uint32(nc), v4}}
	ds.key.spec[qtSpec] = uint32(a.Type)
	g := grid1D(a.Ne[1], nr)
	g[2] = uint32(groups)
	ds.groups = g
	return true
}
