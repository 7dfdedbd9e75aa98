package vk

import (
	"math"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/cpu"

	rt "github.com/gpurt/gpurt/runtime"
)

// TestBarriersOnlyOnDependencies checks that independent nodes share a
// barrier-free stretch and a dependent chain gets one barrier per link.
func TestBarriersOnlyOnDependencies(t *testing.T) {
	dev, _ := testDevice(t)
	beI, err := dev.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	be := beI.(*Backend)
	defer be.Close()

	run := func(build func(ctx *rt.Context, x *rt.Tensor) []*rt.Tensor) (Stats, []*rt.Tensor) {
		ctx := rt.NewContext()
		x := ctx.NewTensor(rt.F32, 256).SetName("x")
		outs := build(ctx, x)
		g, err := ctx.BuildGraph(outs...)
		if err != nil {
			t.Fatal(err)
		}
		alloc(t, ctx, dev.BufferType())
		vals := make([]float32, 256)
		for i := range vals {
			vals[i] = float32(i)
		}
		if err := rt.TensorSetF32(x, vals); err != nil {
			t.Fatal(err)
		}
		before := be.Stats()
		if err := be.GraphCompute(g); err != nil {
			t.Fatal(err)
		}
		if err := be.Synchronize(); err != nil {
			t.Fatal(err)
		}
		after := be.Stats()
		return Stats{Dispatches: after.Dispatches - before.Dispatches, Barriers: after.Barriers - before.Barriers, Submits: after.Submits - before.Submits}, outs
	}

	st, outs := run(func(ctx *rt.Context, x *rt.Tensor) []*rt.Tensor {
		var outs []*rt.Tensor
		for i := 0; i < 10; i++ {
			outs = append(outs, ctx.Scale(x, float32(i), 0))
		}
		return outs
	})
	if st.Dispatches != 10 || st.Barriers != 0 {
		t.Errorf("10 independent ops: %+v, want 10 dispatches and no barrier", st)
	}
	for i, o := range outs {
		v, _ := rt.TensorGetF32(o)
		if v[3] != float32(3*i) {
			t.Errorf("independent op %d: %v", i, v[3])
		}
	}

	st, outs = run(func(ctx *rt.Context, x *rt.Tensor) []*rt.Tensor {
		y := x
		for i := 0; i < 100; i++ {
			y = ctx.Scale(y, 1, 1)
		}
		return []*rt.Tensor{y}
	})
	// A new command buffer (every submitEvery dispatches) starts with its
	// own barrier, which the count does not include.
	if st.Dispatches != 100 || st.Barriers != 99-(st.Submits-1) || st.Submits < 2 {
		t.Errorf("chain of 100: %+v, want 100 dispatches, %d barriers, >= 2 submits", st, 99-(st.Submits-1))
	}
	v, _ := rt.TensorGetF32(outs[0])
	if v[5] != 105 {
		t.Errorf("chain result %v, want 105", v[5])
	}
}

// TestOddOffsets runs ops on views at offsets that are not multiples of the
// buffer alignment (nor of 4 bytes for F16), which shaders address in bytes.
func TestOddOffsets(t *testing.T) {
	// F32 views 4 bytes into a leaf; an F16 view at an odd element.
	checkAgainstCPU(t, func(ctx *rt.Context) *rt.Tensor {
		base := ctx.NewTensor(rt.F32, 200).SetName("base")
		a := ctx.View2D(base, 13, 5, 13*4, 4)
		b := ctx.View1D(base, 13, 4*77)
		return ctx.Add(a, b)
	}, nil, 1e-6)

	checkAgainstCPU(t, func(ctx *rt.Context) *rt.Tensor {
		base := ctx.NewTensor(rt.F16, 99).SetName("base16")
		a := ctx.View2D(base, 7, 3, 7*2, 2*5) // element 5: byte 10, half a word
		s := ctx.Sqr(a)
		// Convert into an F16 destination view at an odd element too.
		dstBase := ctx.NewTensor(rt.F16, 64).SetName("dst16")
		d := ctx.View2D(dstBase, 7, 3, 7*2, 2*3)
		return ctx.Cpy(s, d)
	}, nil, 1e-3)

	// MUL_MAT with src1 a view at a 4-byte offset and permuted (non-contiguous).
	checkAgainstCPU(t, func(ctx *rt.Context) *rt.Tensor {
		w := ctx.NewTensor(rt.F32, 33, 17).SetName("w")
		base := ctx.NewTensor(rt.F32, 1+33*9).SetName("x")
		x := ctx.View2D(base, 9, 33, 9*4, 4) // [9, 33]
		xt := ctx.Transpose(x)               // [33, 9], dim 0 strided
		return ctx.MulMat(w, xt)
	}, nil, 1e-5)

	// Quantized weights: GET_ROWS and MUL_MAT on a view of a Q8_0 tensor
	// whose rows start at 2-byte (not 4-byte) offsets.
	checkAgainstCPU(t, func(ctx *rt.Context) *rt.Tensor {
		w := ctx.NewTensor(rt.Q8_0, 64, 7).SetName("wq")
		rows := ctx.View2D(w, 32, 7, w.Nb[1], 34) // the second block of each row
		x := ctx.NewTensor(rt.F32, 32, 3).SetName("xq")
		return ctx.MulMat(rows, x)
	}, nil, 1e-2) // the CPU may round src1 to q8_0 for the dot products
}

// TestChainedGraphsAsync queues several graphs and async transfers without
// synchronizing in between; the order must be kept.
func TestChainedGraphsAsync(t *testing.T) {
	dev, _ := testDevice(t)
	staged := &BufferType{dev: dev, memType: dev.localType, staged: true}
	for _, bt := range []*BufferType{dev.localBT, staged} {
		beI, err := dev.NewBackend()
		if err != nil {
			t.Fatal(err)
		}
		be := beI.(*Backend)
		ctx := rt.NewContext()
		x := ctx.NewTensor(rt.F32, 1000).SetName("x")
		y := ctx.Scale(x, 2, 0)
		g, err := ctx.BuildGraph(y)
		if err != nil {
			t.Fatal(err)
		}
		alloc(t, ctx, bt)
		results := make([][]byte, 5)
		for i := range results {
			vals := make([]float32, 1000)
			for j := range vals {
				vals[j] = float32(i*1000 + j)
			}
			raw := make([]byte, 4000)
			rt.QuantizeRow(rt.F32, vals, raw)
			if err := rt.TensorSetAsync(be, x, raw, 0); err != nil {
				t.Fatal(err)
			}
			if err := be.GraphCompute(g); err != nil {
				t.Fatal(err)
			}
			results[i] = make([]byte, 4000)
			if err := rt.TensorGetAsync(be, y, results[i], 0); err != nil {
				t.Fatal(err)
			}
		}
		if err := be.Synchronize(); err != nil {
			t.Fatal(err)
		}
		for i, raw := range results {
			out := make([]float32, 1000)
			rt.DequantizeRow(rt.F32, raw, out)
			for j, v := range out {
				if v != 2*float32(i*1000+j) {
					t.Fatalf("%s: round %d element %d = %v", bt.Name(), i, j, v)
				}
			}
		}
		if err := be.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestEventsAcrossBackends orders two backends of the device with an event
// and copies a tensor between them asynchronously.
func TestEventsAcrossBackends(t *testing.T) {
	dev, _ := testDevice(t)
	b1, _ := dev.NewBackend()
	b2, _ := dev.NewBackend()
	defer b1.Close()
	defer b2.Close()
	ctx := rt.NewContext()
	x := ctx.NewTensor(rt.F32, 4096).SetName("x")
	y := ctx.Exp(ctx.Scale(x, 0.001, 0))
	z := ctx.NewTensor(rt.F32, 4096).SetName("z")
	g, err := ctx.BuildGraph(y)
	if err != nil {
		t.Fatal(err)
	}
	alloc(t, ctx, dev.BufferType())
	vals := make([]float32, 4096)
	for i := range vals {
		vals[i] = float32(i)
	}
	rt.TensorSetF32(x, vals)
	ev, err := dev.NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Free()
	if err := b1.GraphCompute(g); err != nil {
		t.Fatal(err)
	}
	if err := ev.Record(b1); err != nil {
		t.Fatal(err)
	}
	if err := ev.Wait(b2); err != nil {
		t.Fatal(err)
	}
	if err := rt.TensorCopyAsync(b1, b2, y, z); err != nil {
		t.Fatal(err)
	}
	if err := b2.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if err := ev.Synchronize(); err != nil {
		t.Fatal(err)
	}
	got, _ := rt.TensorGetF32(z)
	for i, v := range got {
		want := float32(math.Exp(float64(i) * 0.001))
		if math.Abs(float64(v-want)) > 1e-5*float64(want) {
			t.Fatalf("z[%d] = %v, want %v", i, v, want)
		}
	}
	// Waiting on a backend of another kind synchronizes on the host.
	if err := ev.Wait(cpuBackend(t)); err != nil {
		t.Fatal(err)
	}
}

// TestGraphComputeErrors checks that bad graphs give errors naming the
// device and the op, not panics.
func TestGraphComputeErrors(t *testing.T) {
	dev, be := testDevice(t)
	if err := be.GraphCompute(nil); err == nil {
		t.Error("nil graph accepted")
	}

	// A node in CPU memory.
	ctx := rt.NewContext()
	a := ctx.NewTensor(rt.F32, 8).SetName("a")
	c := ctx.Neg(a).SetName("c")
	g, err := ctx.BuildGraph(c)
	if err != nil {
		t.Fatal(err)
	}
	alloc(t, ctx, cpu.BufferType())
	err = be.GraphCompute(g)
	if err == nil || !strings.Contains(err.Error(), "Vulkan0") || !strings.Contains(err.Error(), "NEG") {
		t.Errorf("tensor in CPU memory: %v", err)
	}

	// An op the device does not take (an I32 unary, built by hand).
	ctx = rt.NewContext()
	x := ctx.NewTensor(rt.I32, 8).SetName("x")
	bad := &rt.Tensor{Type: rt.I32, Ne: x.Ne, Nb: x.Nb, Op: rt.OpExp, Name: "bad"}
	bad.Src[0] = x
	if dev.SupportsOp(bad) {
		t.Error("SupportsOp accepts EXP on i32")
	}
	alloc(t, ctx, dev.BufferType())
	if err := rt.AllocTensor(x.Buffer, bad, 0); err != nil {
		t.Fatal(err)
	}
	g = rt.NewGraph()
	g.Add(bad)
	if err := be.GraphCompute(g); err == nil || !strings.Contains(err.Error(), "EXP") {
		t.Errorf("unsupported op: %v", err)
	}
	if err := be.Synchronize(); err != nil {
		t.Fatal(err)
	}
}
