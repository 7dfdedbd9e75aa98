package vk

import (
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/runtime/optest"
	vk "github.com/vulkan-go/vulkan"
)

func TestClassify(t *testing.T) {
	for _, c := range []struct {
		name    string
		vendor  uint32
		devType vk.PhysicalDeviceType
		want    deviceClass
	}{
		{"lavapipe", 0x10005, vk.PhysicalDeviceTypeCpu, classSoftware},
		{"SwiftShader", 0x1AE0, vk.PhysicalDeviceTypeCpu, classSoftware},
		{"a CPU driver with a GPU vendor's id", vendorNVIDIA, vk.PhysicalDeviceTypeCpu, classSoftware},
		{"NVIDIA discrete", vendorNVIDIA, vk.PhysicalDeviceTypeDiscreteGpu, classNVIDIA},
		{"NVIDIA Tegra", vendorNVIDIA, vk.PhysicalDeviceTypeIntegratedGpu, classNVIDIA},
		{"AMD discrete", vendorAMD, vk.PhysicalDeviceTypeDiscreteGpu, classAMD},
		{"AMD APU", vendorAMD, vk.PhysicalDeviceTypeIntegratedGpu, classAMD},
		{"Intel Arc", vendorIntel, vk.PhysicalDeviceTypeDiscreteGpu, classIntel},
		{"Intel integrated", vendorIntel, vk.PhysicalDeviceTypeIntegratedGpu, classIntel},
		{"Apple (MoltenVK)", vendorApple, vk.PhysicalDeviceTypeIntegratedGpu, classApple},
		{"Qualcomm Adreno", 0x5143, vk.PhysicalDeviceTypeIntegratedGpu, classOther},
		{"ARM Mali", 0x13B5, vk.PhysicalDeviceTypeIntegratedGpu, classOther},
		{"virtual GPU", 0x1AF4, vk.PhysicalDeviceTypeVirtualGpu, classOther},
	} {
		if got := classify(c.vendor, c.devType); got != c.want {
			t.Errorf("%s: classify(%#x, %d) = %v, want %v", c.name, c.vendor, c.devType, got, c.want)
		}
	}
}

func TestParseTune(t *testing.T) {
	for _, c := range []struct {
		in     string
		want   deviceClass
		forced bool
		bad    bool
	}{
		{in: ""}, {in: "auto"}, {in: " AUTO "},
		{in: "nvidia", want: classNVIDIA, forced: true},
		{in: "AMD", want: classAMD, forced: true},
		{in: "intel", want: classIntel, forced: true},
		{in: "apple", want: classApple, forced: true},
		{in: "software", want: classSoftware, forced: true},
		{in: "other", want: classOther, forced: true},
		{in: "nvdia", bad: true}, {in: "gpu", bad: true}, {in: "1", bad: true},
	} {
		got, forced, err := parseTune(c.in)
		if c.bad {
			if !errors.Is(err, rt.ErrInvalidArgument) || !strings.Contains(err.Error(), "GPURT_VK_TUNE") {
				t.Errorf("parseTune(%q): error %v, want an ErrInvalidArgument naming GPURT_VK_TUNE", c.in, err)
			}
			continue
		}
		if err != nil || got != c.want || forced != c.forced {
			t.Errorf("parseTune(%q) = %v, %v, %v; want %v, %v", c.in, got, forced, err, c.want, c.forced)
		}
	}
}

// tuneCapsCases are device limits the table must fit: each vendor's
// usual ones, lavapipe's, and the least Vulkan allows.
var tuneCapsCases = []struct {
	name  string
	class deviceClass
	caps  tuneCaps
}{
	{"NVIDIA", classNVIDIA, tuneCaps{subgroupSize: 32, subgroupArith: true, maxSharedBytes: 48 << 10, maxInvocations: 1024, maxGroupSizeX: 1024}},
	{"AMD", classAMD, tuneCaps{subgroupSize: 64, subgroupArith: true, maxSharedBytes: 64 << 10, maxInvocations: 1024, maxGroupSizeX: 1024}},
	{"Intel", classIntel, tuneCaps{subgroupSize: 32, subgroupArith: true, maxSharedBytes: 64 << 10, maxInvocations: 1024, maxGroupSizeX: 1024}},
	{"Apple", classApple, tuneCaps{subgroupSize: 32, subgroupArith: true, maxSharedBytes: 32 << 10, maxInvocations: 1024, maxGroupSizeX: 1024}},
	{"lavapipe", classSoftware, tuneCaps{subgroupSize: 8, subgroupArith: true, maxSharedBytes: 32 << 10, maxInvocations: 1024, maxGroupSizeX: 1024}},
	{"Vulkan minimum", classOther, tuneCaps{subgroupSize: 1, maxSharedBytes: 16 << 10, maxInvocations: 128, maxGroupSizeX: 128}},
}

// TestTuneTableInvariants fits every row to every set of limits and checks
// what the shaders assume: tile divisibility, workgroups and shared memory
// within the limits; and that each row fits its own class's limits as it
// stands, with 128-256 invocations in the hardware kernel.
func TestTuneTableInvariants(t *testing.T) {
	pow2 := func(n int) bool { return n > 0 && n&(n-1) == 0 }
	for _, dc := range deviceClasses {
		row, ok := tuneTable[dc.class]
		if !ok {
			t.Errorf("%v has no row", dc.class)
			continue
		}
		if row.class != dc.class {
			t.Errorf("row %v says class %v", dc.class, row.class)
		}
		if wg := row.mmTile.workgroup(); row.mmKernel == mmHardware && (wg < 128 || wg > 256) {
			t.Errorf("%v: hardware tile %+v has %d invocations, want 128-256", dc.class, row.mmTile, wg)
		}
		for _, c := range tuneCapsCases {
			got := tuningFor(dc.class, c.caps)
			m := got.mmTile
			where := dc.name + " on " + c.name
			if got.class != dc.class {
				t.Errorf("%s: class %v", where, got.class)
			}
			if c.class == dc.class && c.caps.subgroupArith && got.mmTile != row.mmTile {
				t.Errorf("%s: tile %+v changed to %+v on its own class's limits", where, row.mmTile, got.mmTile)
			}
			if m.bm%m.tm != 0 || m.bn%m.tn != 0 {
				t.Errorf("%s: tile %+v does not divide", where, m)
			}
			switch got.mmKernel {
			case mmHardware:
				if m.tm%4 != 0 || m.tn%4 != 0 || m.bk%8 != 0 || m.bk > 255 {
					t.Errorf("%s: hardware tile %+v: TM and TN must be multiples of 4, BK of 8 below 256", where, m)
				}
			case mmLavapipe:
				if m.bn/m.tn != 8 || m.tm%8 != 0 || m.bk%4 != 0 {
					t.Errorf("%s: lavapipe tile %+v: BN/TN must be 8 (a shuffle cluster), TM a multiple of 8", where, m)
				}
			}
			if wg := m.workgroup(); uint32(wg) > c.caps.maxInvocations || uint32(wg) > c.caps.maxGroupSizeX {
				t.Errorf("%s: tile %+v takes %d invocations, over the limits", where, m, wg)
			}
			if b := m.sharedBytes(got.mmKernel); uint32(b) > c.caps.maxSharedBytes {
				t.Errorf("%s: tile %+v takes %d bytes of shared memory, over %d", where, m, b, c.caps.maxSharedBytes)
			}
			for _, wg := range []int{got.wgMatVec, got.wgRows} {
				if !pow2(wg) || uint32(wg) > c.caps.maxInvocations {
					t.Errorf("%s: workgroup %d: want a power of two within the limit", where, wg)
				}
			}
			if got.nrMatVec < 1 || !pow2(got.ncMatVec) || got.submitEvery < 1 {
				t.Errorf("%s: mat-vec %dx%d, submit every %d", where, got.nrMatVec, got.ncMatVec, got.submitEvery)
			}
		}
	}
}

// TestSoftwareTuneIsUnchanged checks that the software row gives CPU
// drivers what they had before the table: one-subgroup reductions and
// mat-vecs of 16x8, and the lavapipe kernel's 256x64 tile; without subgroup
// arithmetic, the GPU shapes.
func TestSoftwareTuneIsUnchanged(t *testing.T) {
	caps := tuneCapsCases[4].caps
	for _, sg := range []uint32{4, 8, 16, 32, 64, 128} {
		caps.subgroupSize = sg
		want := tuning{class: classSoftware, mmKernel: mmLavapipe, mmTile: cpuTile, matVec: matVecPortable,
			wgMatVec: int(max(min(sg, 64), 4)), nrMatVec: 16, ncMatVec: 8, wgRows: int(max(min(sg, 64), 4)), submitEvery: 64}
		if got := tuningFor(classSoftware, caps); got != want {
			t.Errorf("subgroup %d: %+v, want %+v", sg, got, want)
		}
	}
	caps.subgroupArith = false
	want := tuning{class: classSoftware, mmKernel: mmLavapipe, mmTile: gpuTile, matVec: matVecPortable, wgMatVec: 32, nrMatVec: 4, ncMatVec: 4, wgRows: 128, submitEvery: 64}
	if got := tuningFor(classSoftware, caps); got != want {
		t.Errorf("without subgroup arithmetic: %+v, want %+v", got, want)
	}
}

// planKey plans the MUL_MAT of weights [k, m] of type wt by src1 [k, n]
// on dev and returns its pipeline key and grid.
func planKey(t *testing.T, dev *Device, wt rt.DType, m, n, k int) (pipelineKey, [3]uint32) {
	t.Helper()
	ctx := rt.NewContext()
	mm := ctx.MulMat(ctx.NewTensor(wt, k, m), ctx.NewTensor(rt.F32, k, n))
	alloc(t, ctx, dev.BufferType())
	ds, err := dev.plan(mm)
	if err != nil {
		t.Fatal(err)
	}
	return ds.key, ds.groups
}

// TestLavapipeTuning checks, on lavapipe without GPURT_VK_TUNE, that the
// device is of the software class with exactly the shapes and tiled
// MUL_MAT pipelines gpurt chose before the table.
func TestLavapipeTuning(t *testing.T) {
	dev, _ := testDevice(t)
	if !strings.Contains(dev.desc, "llvmpipe") {
		t.Skipf("not lavapipe: %s", dev.desc)
	}
	if v := os.Getenv("GPURT_VK_TUNE"); v != "" && v != "auto" {
		t.Skipf("GPURT_VK_TUNE=%s", v)
	}
	t.Log(dev.tuneReport())
	if dev.tune.class != classSoftware || dev.tuneForced || dev.tune.mmKernel != mmLavapipe {
		t.Fatalf("lavapipe tuned as %+v (forced %v)", dev.tune, dev.tuneForced)
	}
	sg := int(max(min(dev.lim.subgroupSize, 64), 4))
	if dev.wgRows != sg || dev.wgMatVec != sg || dev.nrMatVec != 16 || dev.ncMatVec != 8 || dev.mmTile != cpuTile || dev.tune.submitEvery != 64 {
		t.Errorf("shapes: rows %d, mat-vec %d %dx%d, tile %+v, submit every %d", dev.wgRows, dev.wgMatVec, dev.nrMatVec, dev.ncMatVec, dev.mmTile, dev.tune.submitEvery)
	}
	if !dev.subgroupShuffle {
		t.Skip("lavapipe without subgroup shuffles")
	}
	cpuSpec := [7]uint32{64, 256, 64, 16, 32, 8}
	for _, c := range []struct {
		wt      rt.DType
		m, n, k int
		variant string
		groups  [3]uint32
	}{
		{rt.F32, 128, 129, 256, "mul_mat_f32", [3]uint32{1, 3, 1}},
		{rt.F16, 300, 17, 64, "mul_mat_f16", [3]uint32{2, 1, 1}},
		{rt.BF16, 16, 9, 32, "mul_mat_bf16", [3]uint32{1, 1, 1}},
		{rt.Q8_0, 64, 64, 64, "mul_mat_q8_0", [3]uint32{1, 1, 1}},
		{rt.Q4_0, 513, 65, 256, "mul_mat_q4_0", [3]uint32{3, 2, 1}},
		{rt.Q4_K, 33, 33, 256, "mul_mat_q", [3]uint32{1, 1, 1}},
	} {
		key, groups := planKey(t, dev, c.wt, c.m, c.n, c.k)
		spec := cpuSpec
		if c.variant == "mul_mat_q" {
			spec[qtSpec] = uint32(c.wt)
		}
		if want := (pipelineKey{variant: c.variant, spec: spec}); key != want || groups != c.groups {
			t.Errorf("%v %dx%dx%d: %+v %v, want %+v %v", c.wt, c.m, c.n, c.k, key, groups, want, c.groups)
		}
	}
}

// useClass gives dev class c's row, fitted to dev, until the test ends.
func useClass(t testing.TB, dev *Device, c deviceClass) tuning {
	saved := struct {
		tune                                 tuning
		wgRows, wgMatVec, nrMatVec, ncMatVec int
		mmTile                               mmTile
	}{dev.tune, dev.wgRows, dev.wgMatVec, dev.nrMatVec, dev.ncMatVec, dev.mmTile}
	t.Cleanup(func() {
		dev.tune, dev.wgRows, dev.wgMatVec, dev.nrMatVec, dev.ncMatVec, dev.mmTile =
			saved.tune, saved.wgRows, saved.wgMatVec, saved.nrMatVec, saved.ncMatVec, saved.mmTile
	})
	row := tuningFor(c, dev.tuneCaps())
	dev.setTuning(row)
	return row
}

// TestHardwarePlan checks that the hardware classes plan the tiled
// products onto mul_mat_hw.comp, with 16-byte loads only where alignment
// allows, and the mat-vec sizes onto the hardware mat-vec.
func TestHardwarePlan(t *testing.T) {
	dev, _ := testDevice(t)
	row := useClass(t, dev, classNVIDIA)
	if row.mmKernel != mmHardware || !row.mmq {
		t.Fatalf("nvidia row on this device: %+v", row)
	}
	if dev.feat.integerDot && mmqEnv == mmqAuto {
		if key, _ := planKey(t, dev, rt.Q8_0, 64, 64, 64); key.variant != "mmq" {
			t.Errorf("q8_0 64x64x64 on the nvidia row: variant %s, want mmq (integer dot)", key.variant)
		}
	}
	// The float tiles below: the integer-dot path off.
	prevMMQ := dev.mmq
	dev.mmq = mmqOff
	defer func() { dev.mmq = prevMMQ }()
	for _, c := range []struct {
		wt      rt.DType
		m, n, k int
		variant string
		loads   uint32
	}{
		{rt.F32, 128, 129, 256, "mul_mat_hw_f32", hwLoadVecA | hwLoadVecB},
		{rt.F32, 33, 17, 17, "mul_mat_hw_f32", 0},
		{rt.F32, 33, 17, 36, "mul_mat_hw_f32", hwLoadVecA | hwLoadVecB},
		{rt.F16, 64, 17, 64, "mul_mat_hw_f16", hwLoadVecA | hwLoadVecB},
		{rt.F16, 64, 17, 36, "mul_mat_hw_f16", hwLoadVecB}, // 72-byte weight rows
		{rt.BF16, 16, 9, 32, "mul_mat_hw_bf16", hwLoadVecA | hwLoadVecB},
		{rt.Q8_0, 64, 64, 64, "mul_mat_hw_q8_0", hwLoadVecB},
		{rt.Q4_0, 33, 17, 256, "mul_mat_hw_q4_0", hwLoadVecB},
		{rt.Q6_K, 33, 33, 256, "mul_mat_hw_q", hwLoadVecB},
		{rt.F32, 64, 8, 64, "mul_mat_vec_hw", 0}, // the hardware rows' mat-vec (matvec_hw.go)
	} {
		key, groups := planKey(t, dev, c.wt, c.m, c.n, c.k)
		if key.variant != c.variant {
			t.Errorf("%v %dx%dx%d: variant %s, want %s", c.wt, c.m, c.n, c.k, key.variant, c.variant)
			continue
		}
		if !strings.HasPrefix(c.variant, "mul_mat_hw_") {
			continue
		}
		m := dev.mmTile
		want := m.spec()
		want[3] |= c.loads
		if c.variant == "mul_mat_hw_q" {
			want[qtSpec] = uint32(c.wt)
		}
		wantGroups := [3]uint32{uint32((c.m + m.bm - 1) / m.bm), uint32((c.n + m.bn - 1) / m.bn), 1}
		if key.spec != want || groups != wantGroups {
			t.Errorf("%v %dx%dx%d: spec %v groups %v, want %v %v", c.wt, c.m, c.n, c.k, key.spec, groups, want, wantGroups)
		}
	}
}

// hardwareClasses are the classes whose rows use mul_mat_hw.comp.
var hardwareClasses = []deviceClass{classNVIDIA, classAMD, classIntel, classApple, classOther}

// TestOpHarnessHardwareTiles runs every MUL_MAT case of the op harness
// with the NVIDIA row (mul_mat_hw.comp, its largest tile) and a sample
// with each other hardware row, against the CPU.
func TestOpHarnessHardwareTiles(t *testing.T) {
	dev, be := testDevice(t)
	for i, c := range hardwareClasses {
		t.Run(c.String(), func(t *testing.T) {
			row := useClass(t, dev, c)
			if row.mmKernel != mmHardware {
				t.Fatalf("row %+v does not use the hardware kernel here", row)
			}
			f := optest.Filter{Ops: []rt.Op{rt.OpMulMat}, Name: regexp.MustCompile(`n=(9|[1-9][0-9]+),`)}
			if i > 0 {
				f.Sample, f.MaxCost = 4, 1<<20
			}
			sum := optest.Run(be, f, func(r optest.Result) {
				if r.Status != optest.OK {
					t.Errorf("%s: %v: %v (nmse %.3g)", r.Case, r.Status, r.Err, r.NMSE)
				}
			})
			t.Logf("%v %+v: %v", c, row.mmTile, sum)
		})
	}
}

// TestGGMLOracleHardwareTiles runs ggml's MUL_MAT cases with the NVIDIA row.
func TestGGMLOracleHardwareTiles(t *testing.T) {
	dev, be := testDevice(t)
	useClass(t, dev, classNVIDIA)
	runOracleCases(t, be, "mul_mat")
}

// hwFusionCases are fused MUL_MAT+ADD products past the mat-vec sizes,
// one per weight variant, with batches.
var hwFusionCases = []fusionCase{
	matMulAddCase("f32 tiled+bias", rt.F32, 64, 40, 24, 1, false, 40),
	matMulAddCase("f32 odd K tiled+residual", rt.F32, 33, 20, 12, 1, true, 20, 12),
	matMulAddCase("f16 tiled+bias per batch", rt.F16, 64, 33, 17, 3, false, 33, 1, 3),
	matMulAddCase("bf16 tiled+residual batched", rt.BF16, 32, 16, 9, 2, false, 16, 9, 2),
	matMulAddCase("q8_0 tiled+residual batched", rt.Q8_0, 64, 33, 17, 2, true, 33, 17, 2),
	matMulAddCase("q4_0 tiled+bias", rt.Q4_0, 64, 130, 20, 1, false, 130),
	matMulAddCase("q4_K tiled+bias", rt.Q4_K, 256, 17, 10, 1, false, 17),
	matMulAddCase("f32 tiled+addend broadcast along rows (not fused)", rt.F32, 32, 20, 12, 1, false, 1, 12),
}

// TestFusedMatMulAddHardwareTiles runs the fused MUL_MAT+ADD cases on
// mul_mat_hw.comp, fused and not, against the CPU.
func TestFusedMatMulAddHardwareTiles(t *testing.T) {
	dev, be := testDevice(t)
	useClass(t, dev, classNVIDIA)
	cpuBe := cpuBackend(t)
	defer be.SetFusion(fusionDefault())
	for _, c := range hwFusionCases {
		t.Run(c.name, func(t *testing.T) {
			want := runOuts(t, cpuBe, cpu.BufferType(), c)
			for _, fuse := range []bool{true, false} {
				be.SetFusion(fuse)
				before := be.Stats()
				got := runOuts(t, be, dev.BufferType(), c)
				wantFused := c.fused
				if !fuse {
					wantFused = 0
				}
				if n := be.Stats().Fused - before.Fused; n != wantFused {
					t.Errorf("fusion %v: %d nodes fused, want %d", fuse, n, wantFused)
				}
				for i := range want {
					if e := optest.NMSE(got[i], want[i]); !(e <= c.nmse) {
						t.Errorf("fusion %v: output %d: NMSE %g against the CPU, want <= %g", fuse, i, e, c.nmse)
					}
				}
			}
		})
	}
}

// TestTuneEnv rediscovers the devices with GPURT_VK_TUNE set: a class
// name forces that row (and gpurt devices says so), a bad value fails
// device creation with ErrInvalidArgument.
func TestTuneEnv(t *testing.T) {
	testDevice(t)
	// Runs after t.Setenv's restore: the next test rediscovers as before.
	t.Cleanup(func() {
		if err := releaseShared(); err != nil {
			t.Error(err)
		}
	})
	if err := releaseShared(); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GPURT_VK_TUNE", "nvidia")
	dev, _ := testDevice(t)
	if dev.tune.class != classNVIDIA || !dev.tuneForced || dev.tune.mmKernel != mmHardware || dev.tune != tuningFor(classNVIDIA, dev.tuneCaps()) {
		t.Errorf("GPURT_VK_TUNE=nvidia: %+v (forced %v)", dev.tune, dev.tuneForced)
	}
	lines := strings.Join(dev.Features(), "\n")
	t.Log(dev.tuneReport())
	if !strings.Contains(lines, "tuning nvidia (forced by GPURT_VK_TUNE): tiled matmul hardware") {
		t.Errorf("Features() does not report the forced class:\n%s", lines)
	}
	if err := releaseShared(); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GPURT_VK_TUNE", "fastest")
	_, err := Devices()
	if !errors.Is(err, rt.ErrInvalidArgument) || !strings.Contains(err.Error(), `GPURT_VK_TUNE="fastest"`) {
		t.Errorf("GPURT_VK_TUNE=fastest: Devices() error %v, want ErrInvalidArgument naming the value", err)
	}
}
