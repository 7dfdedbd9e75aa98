package vk

import (
	"os"
	"regexp"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/runtime/optest"
)

// TestOpHarness runs the op test harness (runtime/optest) on the Vulkan
// backend against the CPU backend. The default filter keeps the run short
// on lavapipe; GPURT_VK_OPTEST=all runs every case, and GPURT_VK_OPTEST set
// to a regular expression runs the matching cases.
func TestOpHarness(t *testing.T) {
	_, be := testDevice(t)
	f := optest.Filter{MaxCost: 1 << 22}
	switch v := os.Getenv("GPURT_VK_OPTEST"); v {
	case "":
	case "all":
		f = optest.Filter{}
	default:
		f = optest.Filter{Name: regexp.MustCompile(v)}
	}
	sum := optest.Run(be, f, func(r optest.Result) {
		switch r.Status {
		case optest.Fail:
			t.Errorf("%s: %v (nmse %.3g, max %.3g)", r.Case, r.Err, r.NMSE, r.MaxNMSE)
		case optest.NotSupported:
			if noShaderQuantizer(r) {
				t.Logf("%s: left to the CPU: %v", r.Case, r.Err)
				return
			}
			t.Errorf("%s: not supported: %v", r.Case, r.Err)
		}
	})
	t.Logf("op harness: %v", sum)
}

var quantDst = regexp.MustCompile(`(type_dst|type)=(\w+)`)

// noShaderQuantizer reports whether r writes values into a block type the
// shaders cannot quantize to (CPY names it type_dst, SET_ROWS type; see
// quantizable): the one kind of case this backend leaves to the CPU.
func noShaderQuantizer(r optest.Result) bool {
	if r.Op != rt.OpCpy && r.Op != rt.OpSetRows {
		return false
	}
	want := "type"
	if r.Op == rt.OpCpy {
		want = "type_dst"
	}
	for _, m := range quantDst.FindAllStringSubmatch(r.Case, -1) {
		if m[1] == want {
			dt, err := rt.ParseDType(m[2])
			return err == nil && dt.IsQuantized() && !quantizable(dt)
		}
	}
	return false
}

// TestOpHarnessNoSubgroups runs the reductions and products through the
// shader builds for devices without subgroup operations.
func TestOpHarnessNoSubgroups(t *testing.T) {
	dev, be := testDevice(t)
	arith, shuffle := dev.subgroupArith, dev.subgroupShuffle
	dev.subgroupArith, dev.subgroupShuffle = false, false
	defer func() { dev.subgroupArith, dev.subgroupShuffle = arith, shuffle }()
	runSampled(t, be, "without subgroups")
}

// TestOpHarnessGPUTiles runs the products with the tiled MUL_MAT shaped
// for GPUs (lavapipe otherwise uses the CPU-driver tile).
func TestOpHarnessGPUTiles(t *testing.T) {
	dev, be := testDevice(t)
	tile := dev.mmTile
	dev.mmTile = gpuTile
	defer func() { dev.mmTile = tile }()
	runSampled(t, be, "with GPU tiles")
}

func runSampled(t *testing.T, be *Backend, what string) {
	f := optest.Filter{
		Ops:     []rt.Op{rt.OpMulMat, rt.OpSoftMax, rt.OpRmsNorm, rt.OpArgmax, rt.OpSum},
		MaxCost: 1 << 20,
		Sample:  3,
	}
	sum := optest.Run(be, f, func(r optest.Result) {
		if r.Status != optest.OK && !(r.Status == optest.NotSupported && noShaderQuantizer(r)) {
			t.Errorf("%s: %v: %v", r.Case, r.Status, r.Err)
		}
	})
	t.Logf("op harness %s: %v", what, sum)
}
