//go:build cgo

package wgpu

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	wg "github.com/oliverbestmann/webgpu/wgpu"

	rt "github.com/gpurt/gpurt/runtime"
)

// GPURT_WGPU_MM=TMxTNxWGxMV makes every matmul use that plan (MV 1: the
// split-K matrix-vector kernel, TM rows per workgroup), for exploring
// tilings with `go test -bench MulMat`.
func init() {
	if s := os.Getenv("GPURT_WGPU_MM"); s != "" {
		var p mmPlan
		var mv int
		if _, err := fmt.Sscanf(s, "%dx%dx%dx%d", &p.tm, &p.tn, &p.wg, &mv); err != nil {
			fmt.Fprintf(os.Stderr, "GPURT_WGPU_MM=%q: %v\n", s, err)
			os.Exit(2)
		}
		p.mv = mv == 1
		tuning.plan = func(int) mmPlan { return p }
	}
}

// useTune makes d use class's row of the tuning table (as
// GPURT_WGPU_TUNE=class would) until the test ends.
func useTune(t testing.TB, d *Device, class adapterClass) {
	t.Helper()
	swapTune(t, d, tuneFor(class, true, d.lim))
}

// swapTune makes d use row until the test ends.
func swapTune(t testing.TB, d *Device, row tune) {
	t.Helper()
	d.mu.Lock()
	old := d.tune
	d.tune = row
	d.mu.Unlock()
	t.Cleanup(func() {
		d.mu.Lock()
		d.tune = old
		d.mu.Unlock()
	})
}

func TestClassify(t *testing.T) {
	const (
		vulkan = wg.BackendTypeVulkan
		metal  = wg.BackendTypeMetal
		dx12   = wg.BackendTypeD3D12
	)
	for _, c := range []struct {
		name    string
		vendor  uint32
		typ     wg.AdapterType
		backend wg.BackendType
		want    adapterClass
	}{
		{"lavapipe (Mesa vendor id)", 0x10005, wg.AdapterTypeCPU, vulkan, classSoftware},
		{"SwiftShader (Google)", 0x1AE0, wg.AdapterTypeCPU, vulkan, classSoftware},
		{"WARP on DX12 (Microsoft)", 0x1414, wg.AdapterTypeCPU, dx12, classSoftware},
		{"a CPU adapter with a GPU vendor id", vendorNVIDIA, wg.AdapterTypeCPU, vulkan, classSoftware},
		{"NVIDIA discrete, Vulkan", vendorNVIDIA, wg.AdapterTypeDiscreteGPU, vulkan, classNVIDIA},
		{"NVIDIA discrete, DX12", vendorNVIDIA, wg.AdapterTypeDiscreteGPU, dx12, classNVIDIA},
		{"AMD discrete", vendorAMD, wg.AdapterTypeDiscreteGPU, vulkan, classAMD},
		{"AMD integrated", vendorAMD, wg.AdapterTypeIntegratedGPU, vulkan, classAMD},
		{"AMD on Metal (Intel Mac)", vendorAMD, wg.AdapterTypeDiscreteGPU, metal, classAMD},
		{"Intel integrated", vendorIntel, wg.AdapterTypeIntegratedGPU, vulkan, classIntel},
		{"Intel discrete (Arc)", vendorIntel, wg.AdapterTypeDiscreteGPU, dx12, classIntel},
		{"Apple by vendor id", vendorApple, wg.AdapterTypeIntegratedGPU, metal, classApple},
		{"Metal without a vendor id", 0, wg.AdapterTypeIntegratedGPU, metal, classApple},
		{"Qualcomm Adreno", 0x5143, wg.AdapterTypeIntegratedGPU, vulkan, classOther},
		{"ARM Mali", 0x13B5, wg.AdapterTypeIntegratedGPU, vulkan, classOther},
		{"unknown type and vendor", 0, wg.AdapterTypeUnknown, vulkan, classOther},
	} {
		if got := classify(c.vendor, c.typ, c.backend); got != c.want {
			t.Errorf("%s: class %v, want %v", c.name, got, c.want)
		}
	}
}

func TestParseTune(t *testing.T) {
	for _, c := range []struct {
		in     string
		class  adapterClass
		forced bool
		bad    bool
	}{
		{"", classOther, false, false},
		{"auto", classOther, false, false},
		{" AUTO ", classOther, false, false},
		{"nvidia", classNVIDIA, true, false},
		{"NVIDIA", classNVIDIA, true, false},
		{"amd", classAMD, true, false},
		{"intel", classIntel, true, false},
		{"apple", classApple, true, false},
		{"software", classSoftware, true, false},
		{"other", classOther, true, false},
		{"cuda", 0, false, true},
		{"nvidia,amd", 0, false, true},
		{"0x10de", 0, false, true},
	} {
		class, forced, err := parseTune(c.in)
		if c.bad {
			if !errors.Is(err, rt.ErrInvalidArgument) || !strings.Contains(err.Error(), tuneEnvVar) || !strings.Contains(err.Error(), "nvidia") {
				t.Errorf("parseTune(%q): error %v, want an ErrInvalidArgument naming %s and the classes", c.in, err, tuneEnvVar)
			}
			continue
		}
		if err != nil || class != c.class || forced != c.forced {
			t.Errorf("parseTune(%q) = %v, %v, %v; want %v, %v", c.in, class, forced, err, c.class, c.forced)
		}
	}
}

// TestTuneBadEnv checks that discovery refuses a bad GPURT_WGPU_TUNE with
// an error instead of opening devices with a guessed class.
func TestTuneBadEnv(t *testing.T) {
	t.Setenv(tuneEnvVar, "geforce")
	inst, devs, err := discoverOnce()
	if err == nil || !errors.Is(err, rt.ErrInvalidArgument) || inst != nil || devs != nil {
		t.Fatalf("discovery with %s=geforce: %v, %d devices, %v", tuneEnvVar, inst, len(devs), err)
	}
	if !strings.Contains(err.Error(), `"geforce"`) {
		t.Errorf("error %q does not name the value", err)
	}
}

// Limits of real adapters and WebGPU's defaults, for the table's
// invariants.
var tuneTestLimits = []struct {
	name string
	lim  limits
}{
	{"WebGPU defaults", limits{maxInvocations: 256, maxWorkgroupSize: [3]uint32{256, 256, 64}, maxWorkgroupStorage: 16384}},
	{"lavapipe", limits{maxInvocations: 1024, maxWorkgroupSize: [3]uint32{1024, 1024, 1024}, maxWorkgroupStorage: 32768}},
	{"NVIDIA Vulkan", limits{maxInvocations: 1024, maxWorkgroupSize: [3]uint32{1024, 1024, 64}, maxWorkgroupStorage: 49152}},
	{"Metal", limits{maxInvocations: 1024, maxWorkgroupSize: [3]uint32{1024, 1024, 1024}, maxWorkgroupStorage: 32768}},
	{"small (128 invocations, 8 KiB)", limits{maxInvocations: 128, maxWorkgroupSize: [3]uint32{128, 128, 64}, maxWorkgroupStorage: 8192}},
	{"tiny (64 invocations, 2 KiB)", limits{maxInvocations: 64, maxWorkgroupSize: [3]uint32{64, 64, 64}, maxWorkgroupStorage: 2048}},
}

func pow2(n int) bool { return n > 0 && n&(n-1) == 0 }

// TestTuneTable checks every row, fitted to each set of limits: shapes
// the kernels take, within the limits, and the hardware rows' promises
// (workgroups of 128-256 where the limits allow, larger submissions).
func TestTuneTable(t *testing.T) {
	for c := range classNames {
		class := adapterClass(c)
		for _, l := range tuneTestLimits {
			r := tuneFor(class, false, l.lim)
			where := fmt.Sprintf("%v on %s", class, l.name)
			maxInv := int(min(l.lim.maxInvocations, l.lim.maxWorkgroupSize[0]))
			if r.class != class || r.batchDispatches < 1 || r.batchDispatches > maxBatchDispatches || r.batchWork < 1<<30 {
				t.Errorf("%s: class %v, %d dispatches, %g work per submission", where, r.class, r.batchDispatches, r.batchWork)
			}
			if class == classSoftware {
				continue // TestTuneSoftwareRow
			}
			if r.matmul != matmulTiled {
				t.Errorf("%s: matmul kernel %v, want the tiled one", where, r.matmul)
			}
			for _, s := range []tileShape{r.tile, r.narrow} {
				for _, v := range []int{s.bm, s.bn, s.bk, s.tm, s.tn} {
					if !pow2(v) {
						t.Errorf("%s: %v: sizes must be powers of two", where, s)
					}
				}
				// vec4 reads of the tiles: register blocks and padding in whole vectors.
				if s.tm%4 != 0 || s.tn%4 != 0 || s.pad%4 != 0 || s.bk%4 != 0 || s.bm%s.tm != 0 || s.bn%s.tn != 0 {
					t.Errorf("%s: %v, pad %d: not a shape mmtile.wgsl takes", where, s, s.pad)
				}
				if s.invocations() > maxInv || s.sharedBytes() > int(l.lim.maxWorkgroupStorage) {
					t.Errorf("%s: %v, %d bytes of workgroup memory: over the limits", where, s, s.sharedBytes())
				}
				if maxInv >= 256 && l.lim.maxWorkgroupStorage >= 16384 && (s.invocations() < 128 || s.invocations() > 256) {
					t.Errorf("%s: %v: want 128-256 invocations", where, s)
				}
			}
			if raw := tuneTable[class]; raw.narrow.bn >= raw.tile.bn || raw.narrow.bn <= raw.mvMaxN {
				t.Errorf("%v: narrow tile %v, tile %v: not narrower, or not past the mat-vec width %d", class, raw.narrow, raw.tile, raw.mvMaxN)
			}
			if r.mvMaxN < 1 || !pow2(r.mvWG) || !pow2(r.mvCols) || r.mvWG > maxInv || r.mvRows < 1 ||
				r.mvRows*r.mvCols > r.mvWG || 4*r.mvWG*r.mvRows*r.mvCols > int(l.lim.maxWorkgroupStorage) {
				t.Errorf("%s: mat-vec up to N=%d, %d invocations, %d rows, %d columns: not within the limits", where, r.mvMaxN, r.mvWG, r.mvRows, r.mvCols)
			}
			if maxInv >= 256 && (r.mvWG < 128 || r.mvWG > 256) {
				t.Errorf("%s: mat-vec workgroup %d, want 128-256", where, r.mvWG)
			}
			if sw := tuneTable[classSoftware]; r.batchWork < 16*sw.batchWork || r.batchDispatches <= sw.batchDispatches {
				t.Errorf("%s: %g work and %d dispatches per submission: not above the software row's", where, r.batchWork, r.batchDispatches)
			}
			for _, n := range []int{1, 4, 5, 8, 9, 16, 17, 32, 33, 64, 512} {
				p := r.plan(n)
				if p.mv != (n <= r.mvMaxN) || p.tiled == p.mv || (p.mv && (p.tn < min(n, r.mvCols) || p.tn > r.mvCols)) ||
					(p.tiled && p.tile != r.tile && (p.tile != r.narrow || n > r.narrow.bn)) {
					t.Errorf("%s: N=%d: plan %+v", where, n, p)
				}
			}
		}
	}
}

// TestTuneSoftwareRow pins the software row to the choices lavapipe made
// before the table existed: register blocks for every N, 1<<30 work and
// 128 dispatches per submission.
func TestTuneSoftwareRow(t *testing.T) {
	for _, l := range tuneTestLimits {
		r := tuneFor(classSoftware, false, l.lim)
		if r.matmul != matmulRegisters || r.mvMaxN != 0 || r.batchWork != 1<<30 || r.batchDispatches != 128 {
			t.Errorf("%s: software row %+v", l.name, r)
		}
		for _, c := range []struct {
			n    int
			want mmPlan
		}{
			{1, mmPlan{tm: 4, tn: 1, wg: 64}}, {2, mmPlan{tm: 4, tn: 2, wg: 64}}, {3, mmPlan{tm: 4, tn: 4, wg: 64}},
			{4, mmPlan{tm: 4, tn: 4, wg: 64}}, {5, mmPlan{tm: 16, tn: 8, wg: 8}}, {15, mmPlan{tm: 16, tn: 8, wg: 8}},
			{16, mmPlan{tm: 16, tn: 16, wg: 8}}, {17, mmPlan{tm: 16, tn: 16, wg: 8}}, {512, mmPlan{tm: 16, tn: 16, wg: 8}},
		} {
			if got := r.plan(c.n); got != c.want {
				t.Errorf("%s: N=%d: plan %+v, want %+v", l.name, c.n, got, c.want)
			}
		}
	}
}

// TestTuneDescription checks that the device names its tuning row, and
// that a forced class says so.
func TestTuneDescription(t *testing.T) {
	d := device(t)
	want := "tuning " + classify(d.info.VendorId, d.info.AdapterType, d.info.BackendType).String()
	if os.Getenv(tuneEnvVar) != "" && os.Getenv(tuneEnvVar) != "auto" {
		want = "tuning " + d.tune.class.String() + " (" + tuneEnvVar + ")"
	}
	if desc := d.Props().Description; !strings.HasSuffix(desc, want) {
		t.Errorf("description %q does not end in %q", desc, want)
	}
	nd, err := openDevice(d.adapter, 1, openOptions{class: classAMD, forcedClass: true})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := nd.close(); err != nil {
			t.Error(err)
		}
	}()
	if desc := nd.Props().Description; !strings.HasSuffix(desc, "tuning amd ("+tuneEnvVar+")") || nd.tune.class != classAMD || nd.software() {
		t.Errorf("forced amd: description %q, class %v", desc, nd.tune.class)
	}
}
