//go:build cgo

package wgpu

import (
	"slices"
	"strings"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

func TestDeviceProps(t *testing.T) {
	d := device(t)
	p := d.Props()
	t.Logf("%s: %s (type %v, software %v)", p.Name, p.Description, p.Type, p.Software)
	if p.Name != "WebGPU0" {
		t.Errorf("name %q, want WebGPU0", p.Name)
	}
	if !p.Caps.Async || !p.Caps.Events || p.Caps.BufferFromHostPtr {
		t.Errorf("caps %+v", p.Caps)
	}
	if p.Caps.HostBuffer != (d.HostBufferType() != nil) {
		t.Errorf("HostBuffer cap %v but host type %v", p.Caps.HostBuffer, d.HostBufferType())
	}
	if got, err := rt.DeviceByName("webgpu0"); err != nil || got != rt.Device(d) {
		t.Errorf("DeviceByName: %v, %v", got, err)
	}
	if d.BufferType().Alignment() != int(d.lim.storageAlign) || d.BufferType().MaxSize() <= 0 {
		t.Errorf("alignment %d, max size %d", d.BufferType().Alignment(), d.BufferType().MaxSize())
	}
}

func TestSmokeAdd(t *testing.T) {
	compare(t, graphSpec{build: func(ctx *rt.Context) *rt.Tensor {
		a := ctx.NewTensor(rt.F32, 37, 5).SetName("a")
		b := ctx.NewTensor(rt.F32, 37, 1).SetName("b")
		return ctx.Add(a, b)
	}}, 1e-10)
}

// TestVecKernels runs contiguous elementwise ops whose sizes allow the
// four-elements-per-invocation variants, and checks those were used.
func TestVecKernels(t *testing.T) {
	d := device(t)
	for _, typ := range []rt.DType{rt.F32, rt.F16} {
		compare(t, graphSpec{build: func(ctx *rt.Context) *rt.Tensor {
			a := ctx.NewTensor(typ, 64, 5).SetName("a")
			b := ctx.NewTensor(typ, 64, 5).SetName("b")
			row := ctx.NewTensor(rt.F32, 64).SetName("row")
			x := ctx.Mul(ctx.Add(a, b), row)
			x = ctx.Gelu(ctx.Scale(x, 0.5, 0.25))
			return ctx.Cast(ctx.Cast(x, rt.F32), rt.F16)
		}}, 1e-6)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	var vec []string
	for key := range d.pipes {
		if strings.Contains(key, "|VEC|") {
			vec = append(vec, strings.Split(key, "|")[0])
		}
	}
	for _, f := range []string{"binary.wgsl", "unary.wgsl", "copy.wgsl"} {
		if !slices.Contains(vec, f) {
			t.Errorf("no VEC variant of %s was used (VEC variants: %v)", f, vec)
		}
	}
}

// TestMulMatSplit lowers the work per submission so that a product is
// split by rows into several dispatches and submissions.
func TestMulMatSplit(t *testing.T) {
	d := device(t)
	d.mu.Lock()
	row := d.tune
	row.batchWork = 20000
	d.mu.Unlock()
	swapTune(t, d, row)
	compare(t, graphSpec{build: func(ctx *rt.Context) *rt.Tensor {
		w := ctx.NewTensor(rt.Q8_0, 64, 300, 2).SetName("w")
		x := ctx.NewTensor(rt.F32, 64, 5, 2).SetName("x")
		return ctx.MulMat(w, x)
	}}, 5e-4)
}

// TestSubgroupMatMul checks the matmul variants whose subgroups share the
// column loads, where the device has subgroups (lavapipe does).
func TestSubgroupMatMul(t *testing.T) {
	d := device(t)
	d.mu.Lock()
	sg := d.subgroupSizeLocked()
	d.mu.Unlock()
	if !d.software() || sg == 0 {
		t.Skipf("%s: software %v, subgroup size %d: no subgroup variants", d.name, d.software(), sg)
	}
	t.Logf("subgroup size %d", sg)
	for _, typ := range []rt.DType{rt.F32, rt.F16, rt.Q8_0, rt.Q4_0} {
		compare(t, graphSpec{build: func(ctx *rt.Context) *rt.Tensor {
			w := ctx.NewTensor(typ, 64, 37, 2).SetName("w")
			x := ctx.NewTensor(rt.F32, 64, 21, 2).SetName("x")
			return ctx.MulMat(w, x)
		}}, 5e-4)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	n := 0
	for key := range d.pipes {
		if strings.HasPrefix(key, "mm.wgsl|") && strings.Contains(key, "|SG|") {
			n++
		}
	}
	if n < 4 {
		t.Errorf("%d subgroup matmul variants compiled, want at least 4", n)
	}
}
