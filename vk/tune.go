package vk

import (
	"fmt"
	"os"
	"strings"

	rt "github.com/gpurt/gpurt/runtime"
	vk "github.com/vulkan-go/vulkan"
)

// deviceClass names a row of the tuning table: a GPU vendor, software
// drivers (lavapipe, SwiftShader), or any other device.
type deviceClass int

const (
	classOther deviceClass = iota
	classNVIDIA
	classAMD
	classIntel
	classApple
	classSoftware
)

// deviceClasses are the classes GPURT_VK_TUNE names, in its spelling.
var deviceClasses = []struct {
	class deviceClass
	name  string
}{
	{classNVIDIA, "nvidia"}, {classAMD, "amd"}, {classIntel, "intel"}, {classApple, "apple"},
	{classSoftware, "software"}, {classOther, "other"},
}

func (c deviceClass) String() string {
	for _, dc := range deviceClasses {
		if dc.class == c {
			return dc.name
		}
	}
	return fmt.Sprintf("class(%d)", int(c))
}

// PCI vendor ids of the GPU vendors with a row of their own.
const (
	vendorNVIDIA = 0x10DE
	vendorAMD    = 0x1002
	vendorIntel  = 0x8086
	vendorApple  = 0x106B // MoltenVK
)

// classify picks the class of a device from its type and vendor: every CPU
// driver is software, whoever wrote it.
func classify(vendorID uint32, devType vk.PhysicalDeviceType) deviceClass {
	if devType == vk.PhysicalDeviceTypeCpu {
		return classSoftware
	}
	switch vendorID {
	case vendorNVIDIA:
		return classNVIDIA
	case vendorAMD:
		return classAMD
	case vendorIntel:
		return classIntel
	case vendorApple:
		return classApple
	}
	return classOther
}

// tuneEnv reads GPURT_VK_TUNE: a class name forces that class (forced
// true), "" or "auto" leaves it to classify.
func tuneEnv() (c deviceClass, forced bool, err error) {
	return parseTune(os.Getenv("GPURT_VK_TUNE"))
}

func parseTune(v string) (deviceClass, bool, error) {
	name := strings.ToLower(strings.TrimSpace(v))
	if name == "" || name == "auto" {
		return classOther, false, nil
	}
	names := []string{"auto"}
	for _, dc := range deviceClasses {
		if dc.name == name {
			return dc.class, true, nil
		}
		names = append(names, dc.name)
	}
	return classOther, false, fmt.Errorf("vulkan: GPURT_VK_TUNE=%q is not one of %s: %w", v, strings.Join(names, ", "), rt.ErrInvalidArgument)
}

// mmKernel is a family of tiled MUL_MAT kernels.
type mmKernel int

const (
	// mmLavapipe: mul_mat.comp, large register blocks that share weights
	// by subgroup shuffle, for drivers where every memory access costs the
	// same (CPU drivers).
	mmLavapipe mmKernel = iota
	// mmHardware: mul_mat_hw.comp, padded double-buffered shared memory
	// and 16-byte loads, 128-256 invocations.
	mmHardware
)

func (k mmKernel) String() string {
	if k == mmHardware {
		return "hardware"
	}
	return "lavapipe"
}

// tuning is one row of the table: the shader shapes for a device class.
type tuning struct {
	class deviceClass
	// The tiled MUL_MAT's kernel family and tile.
	mmKernel mmKernel
	mmTile   mmTile
	// matVec is the mat-vec kernel (matvec_hw.go): the coalesced one on
	// GPUs, the one-block-per-lane one on CPU drivers.
	matVec matVecKernel
	// mmq runs Q8_0, Q4_0, Q4_K and Q6_K products on packed int8 dot
	// products (mmq.go) where the device has them; off on CPU drivers,
	// whose float kernels suit them.
	mmq bool
	// Mat-vec workgroup size, rows and src1 columns per workgroup; 0 for
	// wgMatVec means one subgroup (see subgroupWG).
	wgMatVec, nrMatVec, ncMatVec int
	// Row reductions' workgroup size; 0 means one subgroup.
	wgRows int
	// submitEvery is the number of dispatches after which GraphCompute
	// submits its command buffer.
	submitEvery int
}

// hwTile shapes for the hardware kernel: (bm/tm)*(bn/tn) invocations, a
// bm x bn tile, bk deep, tm x tn per invocation.
var (
	// 256 invocations of 8x8; two 8-deep slices of 132-float rows take
	// 16.5 KiB, within NVIDIA's 48 KiB, leaving room for two workgroups.
	hwTile128x128 = mmTile{bm: 128, bn: 128, bk: 8, tm: 8, tn: 8}
	// AMD's 64 KiB LDS holds 16-deep slices (33 KiB), halving the
	// barriers per product.
	hwTile128x128k16 = mmTile{bm: 128, bn: 128, bk: 16, tm: 8, tn: 8}
	// 256 invocations of 8x4 in 25 KiB, within Apple's 32 KiB.
	hwTile128x64 = mmTile{bm: 128, bn: 64, bk: 16, tm: 8, tn: 4}
	// 128 invocations of 8x4, 17 KiB: Intel's smaller execution units.
	hwTile64x64 = mmTile{bm: 64, bn: 64, bk: 16, tm: 8, tn: 4}
	// 128 invocations in 8.5 KiB: fits the 16 KiB every Vulkan device has.
	hwTile64x64k8 = mmTile{bm: 64, bn: 64, bk: 8, tm: 8, tn: 4}
)

// tuneTable has one row per class. The mat-vec and reduction shapes of the
// GPU rows are those gpurt used on every GPU before the table existed; the
// software row is exactly what it used on CPU drivers.
var tuneTable = map[deviceClass]tuning{
	classNVIDIA: {class: classNVIDIA, mmKernel: mmHardware, mmTile: hwTile128x128, matVec: matVecHW, mmq: true,
		wgMatVec: 32, nrMatVec: 4, ncMatVec: 4, wgRows: 128, submitEvery: submitEvery},
	classAMD: {class: classAMD, mmKernel: mmHardware, mmTile: hwTile128x128k16, matVec: matVecHW, mmq: true,
		wgMatVec: 32, nrMatVec: 4, ncMatVec: 4, wgRows: 128, submitEvery: submitEvery},
	classIntel: {class: classIntel, mmKernel: mmHardware, mmTile: hwTile64x64, matVec: matVecHW, mmq: true,
		wgMatVec: 32, nrMatVec: 4, ncMatVec: 4, wgRows: 128, submitEvery: submitEvery},
	classApple: {class: classApple, mmKernel: mmHardware, mmTile: hwTile128x64, matVec: matVecHW, mmq: true,
		wgMatVec: 32, nrMatVec: 4, ncMatVec: 4, wgRows: 128, submitEvery: submitEvery},
	// On a CPU driver every memory access costs a few nanoseconds and
	// barriers switch coroutines: a workgroup of one subgroup reduces
	// without barriers, and more rows per mat-vec workgroup share each
	// src1 load.
	classSoftware: {class: classSoftware, mmKernel: mmLavapipe, mmTile: cpuTile, matVec: matVecPortable,
		wgMatVec: 0, nrMatVec: 16, ncMatVec: 8, wgRows: 0, submitEvery: submitEvery},
	classOther: {class: classOther, mmKernel: mmHardware, mmTile: hwTile64x64k8, matVec: matVecHW, mmq: true,
		wgMatVec: 32, nrMatVec: 4, ncMatVec: 4, wgRows: 128, submitEvery: submitEvery},
}

// softwareNoSubgroups replaces the software row's one-subgroup shapes on a
// CPU driver without subgroup arithmetic, which reduces through shared
// memory: the shapes gpurt used there before the table.
var softwareNoSubgroups = tuning{class: classSoftware, mmKernel: mmLavapipe, mmTile: gpuTile, matVec: matVecPortable,
	wgMatVec: 32, nrMatVec: 4, ncMatVec: 4, wgRows: 128, submitEvery: submitEvery}

// tuneCaps are the device properties a row is fitted to.
type tuneCaps struct {
	subgroupSize   uint32
	subgroupArith  bool
	maxSharedBytes uint32
	maxInvocations uint32
	maxGroupSizeX  uint32
}

// tuneCaps returns d's limits, for tuningFor.
func (d *Device) tuneCaps() tuneCaps {
	return tuneCaps{
		subgroupSize: d.lim.subgroupSize, subgroupArith: d.subgroupArith,
		maxSharedBytes: d.lim.maxSharedMemory, maxInvocations: d.lim.maxInvocations, maxGroupSizeX: d.lim.maxGroupSize[0],
	}
}

// setTuning makes row t the device's: the fields the planners read.
func (d *Device) setTuning(t tuning) {
	d.tune = t
	d.wgRows, d.wgMatVec, d.nrMatVec, d.ncMatVec, d.mmTile = t.wgRows, t.wgMatVec, t.nrMatVec, t.ncMatVec, t.mmTile
}

// subgroupWG is a workgroup of one subgroup, as reductions without
// barriers need, kept between 4 and 64 invocations.
func subgroupWG(sg uint32) int { return int(max(min(sg, 64), 4)) }

// workgroup is the tile's invocation count.
func (t mmTile) workgroup() int { return (t.bm / t.tm) * (t.bn / t.tn) }

// sharedBytes is the shared memory the tile's kernel declares.
func (t mmTile) sharedBytes(k mmKernel) int {
	if k == mmHardware {
		return 4 * 2 * t.bk * (t.bm + 4 + t.bn + 4) // two padded buffers
	}
	return 4 * t.bk * (t.bm + t.bn)
}

// fits reports whether the tile's kernel can run within c's limits.
func (t mmTile) fits(k mmKernel, c tuneCaps) bool {
	wg := t.workgroup()
	return uint32(t.sharedBytes(k)) <= c.maxSharedBytes && uint32(wg) <= c.maxInvocations && uint32(wg) <= c.maxGroupSizeX
}

// tuningFor returns class c's row fitted to the device: one-subgroup
// workgroups sized, and a tile too large for its shared memory or
// workgroup limits shrunk (first its depth, then its height), down to
// gpuTile on the lavapipe kernel if nothing else fits.
func tuningFor(c deviceClass, caps tuneCaps) tuning {
	t, ok := tuneTable[c]
	if !ok {
		t = tuneTable[classOther]
	}
	if c == classSoftware && !caps.subgroupArith {
		t = softwareNoSubgroups
	}
	sg := subgroupWG(caps.subgroupSize)
	if t.wgMatVec == 0 {
		t.wgMatVec = sg
	}
	if t.wgRows == 0 {
		t.wgRows = sg
	}
	for !t.mmTile.fits(t.mmKernel, caps) {
		switch tile := &t.mmTile; {
		case t.mmKernel == mmHardware && tile.bk > 8:
			tile.bk /= 2
		case t.mmKernel == mmHardware && tile.bm/2 >= tile.tm:
			tile.bm /= 2
		case t.mmKernel == mmLavapipe && *tile != gpuTile:
			*tile = gpuTile
		default:
			// gpuTile takes 64 invocations and 8 KiB: every Vulkan
			// device has that much.
			t.mmKernel, t.mmTile = mmLavapipe, gpuTile
			return t
		}
	}
	return t
}

// tuneReport describes the chosen row for gpurt devices.
func (d *Device) tuneReport() string {
	t := d.tune
	how := "auto"
	if d.tuneForced {
		how = "forced by GPURT_VK_TUNE"
	}
	m := d.mmTile
	mv := fmt.Sprintf("mat-vec portable %d invocations, %dx%d", d.wgMatVec, d.nrMatVec, d.ncMatVec)
	if d.hwMatVec() {
		mv = fmt.Sprintf("mat-vec hardware %d invocations, %dx%d", d.hwMatVecWG(), hwMatVecRows, hwMatVecMaxCols)
	}
	mmq := "off"
	if t.mmq {
		mmq = "on"
		if !d.feat.integerDot {
			mmq = "on, but the device has no integer dot product"
		}
	}
	return fmt.Sprintf("tuning %s (%s): tiled matmul %s %dx%dx%d, %dx%d per invocation, %d invocations; %s; rows %d invocations; integer-dot matmul %s",
		t.class, how, t.mmKernel, m.bm, m.bn, m.bk, m.tm, m.tn, m.workgroup(), mv, d.wgRows, mmq)
}
