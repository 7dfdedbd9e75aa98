//go:build cgo

package wgpu

import (
	"fmt"
	"os"
	"strings"

	wg "github.com/oliverbestmann/webgpu/wgpu"

	rt "github.com/gpurt/gpurt/runtime"
)

// Kernel shapes and submission sizes per adapter class. The class comes
// from the adapter info (vendor id, adapter type, backend); each class has
// one row of tuneTable, fitted to the device's limits by tuneFor.
// GPURT_WGPU_TUNE=nvidia|amd|intel|apple|software|other forces a class
// (auto, or unset, classifies).

// adapterClass is a family of adapters that share kernel shapes.
type adapterClass int

const (
	classOther adapterClass = iota
	classNVIDIA
	classAMD
	classIntel
	classApple
	classSoftware
)

var classNames = [...]string{
	classOther: "other", classNVIDIA: "nvidia", classAMD: "amd", classIntel: "intel",
	classApple: "apple", classSoftware: "software",
}

func (c adapterClass) String() string {
	if c < 0 || int(c) >= len(classNames) {
		return fmt.Sprintf("class(%d)", int(c))
	}
	return classNames[c]
}

// PCI vendor ids of the adapter info.
const (
	vendorNVIDIA = 0x10DE
	vendorAMD    = 0x1002
	vendorIntel  = 0x8086
	vendorApple  = 0x106B
)

// classify picks the class of an adapter: a CPU adapter (lavapipe,
// SwiftShader, WARP) is software whatever its vendor id; otherwise the
// vendor id decides, and a Metal adapter of no known vendor is Apple's.
func classify(vendor uint32, typ wg.AdapterType, backend wg.BackendType) adapterClass {
	if typ == wg.AdapterTypeCPU {
		return classSoftware
	}
	switch vendor {
	case vendorNVIDIA:
		return classNVIDIA
	case vendorAMD:
		return classAMD
	case vendorIntel:
		return classIntel
	case vendorApple:
		return classApple
	}
	if backend == wg.BackendTypeMetal {
		return classApple
	}
	return classOther
}

// tuneEnvVar forces an adapter class.
const tuneEnvVar = "GPURT_WGPU_TUNE"

// parseTune reads a GPURT_WGPU_TUNE value: a class name forces it, "auto"
// or "" classifies each adapter.
func parseTune(s string) (class adapterClass, forced bool, err error) {
	v := strings.ToLower(strings.TrimSpace(s))
	if v == "" || v == "auto" {
		return classOther, false, nil
	}
	for c, name := range classNames {
		if v == name {
			return adapterClass(c), true, nil
		}
	}
	return classOther, false, fmt.Errorf("%s=%q: not an adapter class (want nvidia, amd, intel, apple, software, other or auto): %w",
		tuneEnvVar, s, rt.ErrInvalidArgument)
}

func tuneFromEnv() (adapterClass, bool, error) { return parseTune(os.Getenv(tuneEnvVar)) }

// matmulKernel is the kernel of products too wide for the mat-vec one.
type matmulKernel int

const (
	// matmulRegisters: mm.wgsl, register blocks without workgroup memory
	// (registerPlan), the fastest on SIMD CPUs.
	matmulRegisters matmulKernel = iota
	// matmulTiled: mmtile.wgsl, workgroup-memory tiles of a and b.
	matmulTiled
)

// tileShape is mmtile.wgsl's geometry: a workgroup computes a bm×bn block
// of the product stepping K by bk; each invocation a tm×tn register block.
// Tile rows of workgroup memory are padded by pad floats.
type tileShape struct {
	bm, bn, bk, tm, tn, pad int
}

// invocations is the workgroup size.
func (s tileShape) invocations() int { return (s.bm / s.tm) * (s.bn / s.tn) }

// sharedBytes is the workgroup memory of the a and b tiles.
func (s tileShape) sharedBytes() int { return 4 * s.bk * (s.bm + s.pad + s.bn + s.pad) }

func (s tileShape) String() string {
	return fmt.Sprintf("%dx%dx%d tiles, %dx%d per invocation, %d invocations", s.bm, s.bn, s.bk, s.tm, s.tn, s.invocations())
}

// tune is one row of the table: how matmuls run and how much goes into
// one submission.
type tune struct {
	class  adapterClass
	forced bool // chosen by GPURT_WGPU_TUNE

	matmul matmulKernel
	// For matmulTiled: tile, and narrow for products of at most narrow.bn
	// columns (fewer idle columns in the last tile).
	tile, narrow tileShape
	// Products of at most mvMaxN columns use mv.wgsl (0: never) with
	// workgroups of mvWG invocations computing mvRows rows of up to
	// mvCols columns each.
	mvMaxN, mvWG, mvRows, mvCols int

	batchWork       float64 // most work (flops or element visits) per submission
	batchDispatches int     // most dispatches per submission, at most maxBatchDispatches
}

// maxBatchDispatches bounds every row's dispatches per submission; the
// params arena has room for that many.
const maxBatchDispatches = 1024

// tuneTable has the row of each class before fitting to the limits.
//
// software (lavapipe): today's register-blocked kernels (see registerPlan)
// for every N, short submissions (a blocking poll on a long one is fragile
// there; it runs one submission at a time anyway).
//
// Hardware rows: mmtile.wgsl with 128-256 invocations; 8×4 blocks where
// the register file is large (NVIDIA, AMD), 4×4 elsewhere; a tile half as
// wide (twice as tall where that keeps 128 invocations) for products of
// up to its width; the split-K mv.wgsl for up to 8 columns, 4 per
// workgroup (as ggml's GPU backends, which use their mat-vec kernels up to
// 8 columns: a product that narrow is bound by reading the weights, which
// a 64-column tile would read once but at 8x the arithmetic). Submissions carry 16-128 GFLOP and up to
// 1024 dispatches, so that a large product runs in one and a forward pass
// in a few (the software row's 1 GFLOP cut a 4096×512×4096 product in 16);
// the cap keeps each under tens of milliseconds, well inside driver
// watchdogs.
var tuneTable = [...]tune{
	classSoftware: {matmul: matmulRegisters, batchWork: 1 << 30, batchDispatches: 128},
	classNVIDIA:   bigTiles(1<<37, 1024),
	classAMD:      bigTiles(1<<37, 1024),
	classIntel:    smallTiles(1<<35, 512),
	classApple: {matmul: matmulTiled,
		tile:   tileShape{bm: 64, bn: 64, bk: 16, tm: 4, tn: 4, pad: 4},
		narrow: tileShape{bm: 128, bn: 32, bk: 16, tm: 4, tn: 4, pad: 4},
		mvMaxN: 8, mvWG: 256, mvRows: 4, mvCols: 4, batchWork: 1 << 36, batchDispatches: 512},
	classOther: smallTiles(1<<34, 256),
}

// bigTiles is the row of GPUs with 8x4 register blocks (NVIDIA, AMD).
func bigTiles(batchWork float64, batchDispatches int) tune {
	return tune{matmul: matmulTiled,
		tile:   tileShape{bm: 128, bn: 64, bk: 16, tm: 8, tn: 4, pad: 4},
		narrow: tileShape{bm: 128, bn: 32, bk: 16, tm: 8, tn: 4, pad: 4},
		mvMaxN: 8, mvWG: 256, mvRows: 4, mvCols: 4, batchWork: batchWork, batchDispatches: batchDispatches}
}

// smallTiles is the row of GPUs with 4x4 register blocks (Intel, others).
func smallTiles(batchWork float64, batchDispatches int) tune {
	return tune{matmul: matmulTiled,
		tile:   tileShape{bm: 64, bn: 32, bk: 16, tm: 4, tn: 4, pad: 4},
		narrow: tileShape{bm: 128, bn: 16, bk: 16, tm: 4, tn: 4, pad: 4},
		mvMaxN: 8, mvWG: 128, mvRows: 4, mvCols: 4, batchWork: batchWork, batchDispatches: batchDispatches}
}

// tuneFor returns class's row fitted to the device limits: tiles and the
// mat-vec workgroup halve (the tile's longer side first, then its depth)
// until their invocations and workgroup memory fit.
func tuneFor(class adapterClass, forced bool, lim limits) tune {
	t := tuneTable[class]
	t.class, t.forced = class, forced
	maxInv := int(min(lim.maxInvocations, lim.maxWorkgroupSize[0]))
	if t.matmul == matmulTiled {
		fitTile(&t.tile, maxInv, int(lim.maxWorkgroupStorage))
		fitTile(&t.narrow, maxInv, int(lim.maxWorkgroupStorage))
	}
	if t.mvWG > 0 {
		for t.mvWG > t.mvRows*t.mvCols && (t.mvWG > maxInv || 4*t.mvWG*t.mvRows*t.mvCols > int(lim.maxWorkgroupStorage)) {
			t.mvWG /= 2
		}
	}
	return t
}

// fitTile halves s (its longer side first, then its depth) until its
// invocations and workgroup memory fit.
func fitTile(s *tileShape, maxInv, maxShared int) {
	for s.invocations() > maxInv || s.sharedBytes() > maxShared {
		switch {
		case s.bn > s.tn && s.bn >= s.bm/2:
			s.bn /= 2
		case s.bm > s.tm:
			s.bm /= 2
		case s.bn > s.tn:
			s.bn /= 2
		case s.bk > 4:
			s.bk /= 2
		default:
			return // one invocation over 4 of K: nothing smaller
		}
	}
}

// String describes the row for the device description.
func (t tune) String() string {
	s := "tuning " + t.class.String()
	if t.forced {
		s += " (" + tuneEnvVar + ")"
	}
	return s
}

// software reports whether kernels are chosen for a SIMD CPU (lavapipe)
// rather than a GPU: the software row.
func (d *Device) software() bool { return d.tune.class == classSoftware }
