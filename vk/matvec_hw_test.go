package vk

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/internal/backendcheck"
	"github.com/gpurt/gpurt/llama"
	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/runtime/optest"
)

// matVecTypes are every weight dtype the Vulkan MUL_MAT decodes.
var matVecTypes = []rt.DType{rt.F32, rt.F16, rt.BF16, rt.Q8_0, rt.Q4_0,
	rt.Q4_1, rt.Q5_0, rt.Q5_1, rt.Q2_K, rt.Q3_K, rt.Q4_K, rt.Q5_K, rt.Q6_K,
	rt.IQ4_NL, rt.IQ4_XS, rt.MXFP4, rt.TQ1_0, rt.TQ2_0}

// matVecCase is MUL_MAT(w, x) with x of at most matVecMaxN columns,
// optionally plus an addend the backend fuses into the product.
type matVecCase struct {
	name  string
	build func(ctx *rt.Context) *rt.Tensor
	// scalarB: src1 must be read element by element (VEC4 off).
	scalarB bool
	// fused is how many nodes run inside the product's dispatch.
	fused int
}

// matVecCases are the mat-vec shapes for weight dtype w: N = 1..8 (every
// column-group width), odd M, batch broadcast, non-contiguous and
// misaligned src1, a K that is no multiple of 4 or 8 (float weights), and
// the fused ADD of a bias and of a residual.
func matVecCases(w rt.DType) []matVecCase {
	k := 512 // two super-blocks a row
	if w.BlockSize() == 32 || !w.IsQuantized() {
		k = 96
	}
	plain := func(m, n, k int) matVecCase {
		return matVecCase{name: fmt.Sprintf("m=%d,n=%d,k=%d", m, n, k), build: func(ctx *rt.Context) *rt.Tensor {
			a := ctx.NewTensor(w, k, m).SetName("a")
			b := ctx.NewTensor(rt.F32, k, n).SetName("b")
			return ctx.MulMat(a, b)
		}}
	}
	cs := []matVecCase{
		plain(33, 1, k), plain(17, 2, k), plain(9, 3, k), plain(16, 4, k),
		plain(5, 5, k), plain(3, 6, k), plain(11, 7, k), plain(7, 8, k),
		plain(1, 1, k), plain(2, 1, 4096), plain(3, 2, 1024),
		{name: "broadcast a[3,2] b[6,2] n=1", build: func(ctx *rt.Context) *rt.Tensor {
			a := ctx.NewTensor(w, k, 9, 3, 2).SetName("a")
			b := ctx.NewTensor(rt.F32, k, 1, 6, 2).SetName("b")
			return ctx.MulMat(a, b)
		}},
		{name: "broadcast a[2,1] b[2,3] n=3", build: func(ctx *rt.Context) *rt.Tensor {
			a := ctx.NewTensor(w, k, 5, 2, 1).SetName("a")
			b := ctx.NewTensor(rt.F32, k, 3, 2, 3).SetName("b")
			return ctx.MulMat(a, b)
		}},
		{name: "b transposed n=3", scalarB: true, build: func(ctx *rt.Context) *rt.Tensor {
			a := ctx.NewTensor(w, k, 13).SetName("a")
			b := ctx.NewTensor(rt.F32, 3, k).SetName("b")
			return ctx.MulMat(a, ctx.Transpose(b))
		}},
		{name: "b permuted (columns strided) n=2 batch 3", build: func(ctx *rt.Context) *rt.Tensor {
			a := ctx.NewTensor(w, k, 6, 3).SetName("a")
			b := ctx.NewTensor(rt.F32, k, 3, 2).SetName("b")
			return ctx.MulMat(a, ctx.Permute(b, 0, 2, 1, 3))
		}},
		{name: "b at a 4-byte offset n=2", build: func(ctx *rt.Context) *rt.Tensor {
			a := ctx.NewTensor(w, k, 10).SetName("a")
			big := ctx.NewTensor(rt.F32, k+1, 2).SetName("b")
			return ctx.MulMat(a, ctx.View2D(big, k, 2, big.Nb[1], 4))
		}},
		{name: "a at a row offset n=1", build: func(ctx *rt.Context) *rt.Tensor {
			big := ctx.NewTensor(w, k, 12).SetName("a")
			b := ctx.NewTensor(rt.F32, k, 1).SetName("b")
			return ctx.MulMat(ctx.View2D(big, k, 11, big.Nb[1], big.Nb[1]), b)
		}},
		{name: "fused bias n=1", fused: 1, build: func(ctx *rt.Context) *rt.Tensor {
			a := ctx.NewTensor(w, k, 19).SetName("a")
			b := ctx.NewTensor(rt.F32, k, 1).SetName("b")
			return ctx.Add(ctx.MulMat(a, b), ctx.NewTensor(rt.F32, 19).SetName("bias"))
		}},
		{name: "fused residual n=5 batch 2", fused: 1, build: func(ctx *rt.Context) *rt.Tensor {
			a := ctx.NewTensor(w, k, 9, 2).SetName("a")
			b := ctx.NewTensor(rt.F32, k, 5, 2).SetName("b")
			return ctx.Add(ctx.NewTensor(rt.F32, 9, 5, 2).SetName("residual"), ctx.MulMat(a, b))
		}},
	}
	if !w.IsQuantized() {
		cs = append(cs, plain(33, 1, 259), plain(6, 3, 100), plain(4, 8, 37))
	}
	return cs
}

// matVecNMSE is ggml's MUL_MAT bound, and a tight one for F32 weights.
func matVecNMSE(w rt.DType) float64 {
	if w == rt.F32 {
		return 1e-6
	}
	return 5e-4
}

// forceMatVec sets the mat-vec kernel (and, for the shared-memory build,
// turns subgroups off) for one test.
func forceMatVec(t *testing.T, dev *Device, k matVecKernel, subgroups bool) {
	old, arith := dev.matVec, dev.subgroupArith
	dev.matVec = k
	dev.subgroupArith = arith && subgroups
	t.Cleanup(func() { dev.matVec, dev.subgroupArith = old, arith })
}

// checkMatVecPlan requires every MUL_MAT of g to be planned on variant.
func checkMatVecPlan(t *testing.T, dev *Device, g *rt.Graph, variant string, scalarB bool) {
	t.Helper()
	for _, n := range g.Nodes {
		if n.Op != rt.OpMulMat {
			continue
		}
		var ds dispatch
		dev.planMatMul(&ds, n, [rt.MaxSrc]uint32{}, 0, 0)
		if ds.key.variant != variant {
			t.Errorf("MUL_MAT planned on %q, want %q", ds.key.variant, variant)
		}
		if scalarB && ds.key.spec[3] != 0 {
			t.Errorf("MUL_MAT with src1 strides %v planned with 16-byte src1 loads", n.Src[1].Nb)
		}
	}
}

// runMatVecCase builds c, hands the graph to check (when given), computes
// it on be and returns the output.
func runMatVecCase(t *testing.T, be rt.Backend, bt rt.BufferType, c matVecCase, check func(g *rt.Graph)) []float32 {
	t.Helper()
	ctx := rt.NewContext()
	out := c.build(ctx)
	g, err := ctx.BuildGraph(out)
	if err != nil {
		t.Fatal(err)
	}
	if check != nil {
		check(g)
	}
	return runBuilt(t, be, bt, ctx, g, out)
}

// runBuilt allocates ctx in bt, fills g's leaves and computes it on be.
func runBuilt(t *testing.T, be rt.Backend, bt rt.BufferType, ctx *rt.Context, g *rt.Graph, out *rt.Tensor) []float32 {
	t.Helper()
	alloc(t, ctx, bt)
	fillLeaves(t, g, nil)
	return computeF32(t, be, g, out)
}

// testMatVecKernel runs every dtype's mat-vec cases on the forced kernel
// against the CPU backend.
func testMatVecKernel(t *testing.T, types []rt.DType, subgroups bool) {
	dev, be := testDevice(t)
	forceMatVec(t, dev, matVecHW, subgroups)
	variant := dev.hwMatVecVariant()
	if subgroups && variant != "mul_mat_vec_hw" {
		t.Skipf("no subgroup arithmetic: the device runs %s", variant)
	}
	be.SetFusion(true)
	defer be.SetFusion(fusionDefault())
	cpuBe := cpuBackend(t)
	for _, w := range types {
		for _, c := range matVecCases(w) {
			t.Run(w.String()+"/"+c.name, func(t *testing.T) {
				want := runMatVecCase(t, cpuBe, cpu.BufferType(), c, nil)
				before := be.Stats()
				got := runMatVecCase(t, be, dev.BufferType(), c, func(g *rt.Graph) {
					checkMatVecPlan(t, dev, g, variant, c.scalarB)
				})
				if fused := be.Stats().Fused - before.Fused; fused != c.fused {
					t.Errorf("%d nodes fused into the product, want %d", fused, c.fused)
				}
				if e := optest.NMSE(got, want); !(e <= matVecNMSE(w)) {
					t.Errorf("NMSE %g against the CPU, want <= %g", e, matVecNMSE(w))
				}
			})
		}
	}
}

// TestMatVecHW runs the hardware mat-vec (subgroup build) for every weight
// dtype on lavapipe, where it is not the default.
func TestMatVecHW(t *testing.T) {
	testMatVecKernel(t, matVecTypes, true)
}

// TestMatVecHWNoSubgroups runs the shared-memory build.
func TestMatVecHWNoSubgroups(t *testing.T) {
	testMatVecKernel(t, matVecTypes, false)
}

// TestMatVecHWGGMLOracle runs ggml's own mat-vec MUL_MAT cases (N <=
// matVecMaxN) on the hardware kernel, both builds.
func TestMatVecHWGGMLOracle(t *testing.T) {
	dev, be := testDevice(t)
	cases, err := optest.LoadGGMLOracle(oracleDir)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("ggml oracle data absent: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, subgroups := range []bool{true, false} {
		t.Run(fmt.Sprintf("subgroups=%v", subgroups), func(t *testing.T) {
			forceMatVec(t, dev, matVecHW, subgroups)
			ran := 0
			for _, c := range cases {
				if c.Kind != "mul_mat" || len(c.Inputs) < 2 || c.Inputs[1].Ne[1] > matVecMaxN {
					continue
				}
				optest.CheckGGMLOracleCase(t, be, oracleDir, c)
				ran++
			}
			if ran == 0 {
				t.Fatal("no mat-vec cases in the oracle")
			}
			t.Logf("%d ggml mat-vec cases on %s", ran, dev.hwMatVecVariant())
		})
	}
}

// TestMatVecHWModel decodes the synthetic qwen2 (Q8_0 weights, fused
// biases) with each mat-vec kernel: the greedy tokens must agree.
func TestMatVecHWModel(t *testing.T) {
	dev, _ := testDevice(t)
	beI, err := dev.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { beI.Close() }) // after the model's cleanup
	m := backendcheck.LoadModel(t, qwen2Synth, beI)
	generate := func(k matVecKernel) []int32 {
		forceMatVec(t, dev, k, true)
		m.ResetCache()
		s, err := llama.NewSampler(llama.SamplerConfig{})
		if err != nil {
			t.Fatal(err)
		}
		toks, _, err := m.Generate([]int32{m.Tok.BOS()}, 8, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		return toks
	}
	portable, hw := generate(matVecPortable), generate(matVecHW)
	if !hasPipeline(dev, dev.hwMatVecVariant()) {
		t.Errorf("no %s pipeline was created", dev.hwMatVecVariant())
	}
	if !slices.Equal(hw, portable) {
		t.Errorf("tokens differ:\n      hw %v\nportable %v", hw, portable)
	}
}

// hasPipeline reports whether dev has created a pipeline of variant.
func hasPipeline(dev *Device, variant string) bool {
	dev.pipes.mu.Lock()
	defer dev.pipes.mu.Unlock()
	for k := range dev.pipes.m {
		if k.variant == variant {
			return true
		}
	}
	return false
}

// TestMatVecKernelChoice checks which mat-vec kernel runs by default:
// the hardware one on the GPU rows of the tuning table, mul_mat_vec.comp on
// the software row (lavapipe).
func TestMatVecKernelChoice(t *testing.T) {
	for _, c := range []struct {
		software bool
		force    matVecKernel
		want     bool
	}{
		{false, matVecAuto, true},
		{true, matVecAuto, false},
		{true, matVecHW, true},
		{false, matVecPortable, false},
	} {
		if c.force == matVecAuto && matVecFromEnv() != matVecAuto {
			continue // GPURT_VK_MATVEC decides
		}
		class := classNVIDIA
		if c.software {
			class = classSoftware
		}
		d := &Device{matVec: c.force}
		d.setTuning(tuneTable[class])
		if got := d.hwMatVec(); got != c.want {
			t.Errorf("software %v, forced %d: hwMatVec() = %v, want %v", c.software, c.force, got, c.want)
		}
	}
	for v, want := range map[string]matVecKernel{"hw": matVecHW, "portable": matVecPortable, "": matVecAuto, "HW": matVecAuto, "tiled": matVecAuto} {
		if got := parseMatVecKernel(v); got != want {
			t.Errorf("GPURT_VK_MATVEC=%q: kernel %d, want %d", v, got, want)
		}
	}
	dev, _ := testDevice(t)
	if matVecFromEnv() != matVecAuto {
		return
	}
	ctx := rt.NewContext()
	out := ctx.MulMat(ctx.NewTensor(rt.Q4_0, 64, 8), ctx.NewTensor(rt.F32, 64, 1))
	var ds dispatch
	dev.planMatMul(&ds, out, [rt.MaxSrc]uint32{}, 0, 0)
	if want := dev.variant("mul_mat_vec_q4_0"); dev.software && ds.key.variant != want {
		t.Errorf("lavapipe's default mat-vec is %q, want %q", ds.key.variant, want)
	}
}

// TestMatVecHWWorkgroup checks the workgroup sizes the hardware kernel
// picks from device limits.
func TestMatVecHWWorkgroup(t *testing.T) {
	for _, c := range []struct {
		inv, x, sg uint32
		want       int
	}{
		{1024, 1024, 32, 128},
		{1024, 1024, 64, 128},
		{1024, 1024, 128, 256},
		{128, 1024, 32, 128},
		{1024, 64, 16, 64},
		{32, 32, 8, 0},
	} {
		d := &Device{lim: limits{maxInvocations: c.inv, maxGroupSize: [3]uint32{c.x, 1, 1}, subgroupSize: c.sg}}
		if got := d.hwMatVecWG(); got != c.want {
			t.Errorf("limits %d/%d, subgroup %d: workgroup %d, want %d", c.inv, c.x, c.sg, got, c.want)
		}
	}
}

// BenchmarkMatVec4096 times the two mat-vec kernels on a 4096x4096
// weight and one src1 column (lavapipe's figures say little about GPUs).
func BenchmarkMatVec4096(b *testing.B) {
	for _, w := range []rt.DType{rt.Q4_0, rt.Q8_0, rt.F16} {
		for _, k := range []struct {
			name   string
			kernel matVecKernel
		}{{"portable", matVecPortable}, {"hw", matVecHW}} {
			b.Run(w.String()+"/"+k.name, func(b *testing.B) {
				dev, _ := benchDevice(b)
				old := dev.matVec
				dev.matVec = k.kernel
				defer func() { dev.matVec = old }()
				benchGraph(b, func(ctx *rt.Context) []*rt.Tensor {
					return []*rt.Tensor{ctx.MulMat(ctx.NewTensor(w, 4096, 4096), ctx.NewTensor(rt.F32, 4096, 1))}
				})
			})
		}
	}
}
