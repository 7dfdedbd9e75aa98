//go:build cgo

package wgpu

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/runtime/optest"
)

// The hardware rows' kernels (mmtile.wgsl, mv.wgsl with workgroups of
// 128-256 and subgroup reductions) run on lavapipe with a forced class,
// against the CPU.

// hwWeightTypes are the weight types the tiled and mat-vec kernels take.
var hwWeightTypes = []rt.DType{rt.F32, rt.F16, rt.BF16, rt.Q8_0, rt.Q4_0}

// compiledKernels returns the keys of d's pipelines of file.
func compiledKernels(d *Device, file string) []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	var keys []string
	for key := range d.pipes {
		if strings.HasPrefix(key, file+"|") {
			keys = append(keys, key)
		}
	}
	return keys
}

// requireKernels fails unless, for every weight type, a pipeline of file
// reading it (slot a) and having every flag was compiled.
func requireKernels(t *testing.T, d *Device, file string, flags ...string) {
	t.Helper()
	keys := compiledKernels(d, file)
	for _, w := range hwWeightTypes {
		found := false
		for _, k := range keys {
			parts := strings.Split(k, "|")
			ok := len(parts) > 2 && parts[2] == w.String()
			for _, f := range flags {
				ok = ok && slices.Contains(parts, f)
			}
			found = found || ok
		}
		if !found {
			t.Errorf("no %s variant for %v weights with %v among %d compiled", file, w, flags, len(keys))
		}
	}
}

// TestHardwareMatMul runs every MUL_MAT case of the tiled and mat-vec
// kernels' weight types with the NVIDIA row, whose tiles (128×64 and the
// narrow 128×32, 8×4 blocks, 256 and 128 invocations) lavapipe would never
// pick itself, and checks those kernels ran.
func TestHardwareMatMul(t *testing.T) {
	d := device(t)
	useTune(t, d, classNVIDIA)
	b := newBackend(t, d)
	sum := optest.RunT(t, b, optest.Filter{Ops: []rt.Op{rt.OpMulMat}, Name: regexp.MustCompile(`^MUL_MAT\(type_a=(f32|f16|bf16|q8_0|q4_0),`)})
	if sum.Failed > 0 || sum.Passed < 100 {
		t.Errorf("NVIDIA row: %s", sum)
	}
	requireKernels(t, d, "mmtile.wgsl", "BM=128", "BN=64", "TM=8") // N = 64, 129
	requireKernels(t, d, "mmtile.wgsl", "BM=128", "BN=32", "TM=8") // N = 17: the narrow tile
	if d.subgroupSizeLocked() > 0 {
		requireKernels(t, d, "mv.wgsl", "SGR", "WG=256")
	} else {
		requireKernels(t, d, "mv.wgsl", "WG=256")
	}
}

// TestHardwareMatVecColumns runs mv.wgsl with 2 and 4 columns per
// workgroup (N = 2, 5, 8: a partial group past N for 5) over two batches
// and a tail of rows, per weight type.
func TestHardwareMatVecColumns(t *testing.T) {
	d := device(t)
	useTune(t, d, classNVIDIA)
	for _, w := range hwWeightTypes {
		for _, n := range []int{2, 5, 8} {
			t.Run(fmt.Sprintf("%v/n=%d", w, n), func(t *testing.T) {
				compare(t, graphSpec{build: func(ctx *rt.Context) *rt.Tensor {
					a := ctx.NewTensor(w, 64, 37, 2).SetName("w")
					b := ctx.NewTensor(rt.F32, 64, n, 2).SetName("x")
					return ctx.MulMat(a, b)
				}}, 5e-4)
			})
		}
	}
	requireKernels(t, d, "mv.wgsl", "NC=2")
	requireKernels(t, d, "mv.wgsl", "NC=4")
}

// TestHardwareMatMulShapes runs the other rows' tile shapes, wide and
// narrow, on cases with tails in both dims (M, N not multiples of the
// tile) and broadcast batches.
func TestHardwareMatMulShapes(t *testing.T) {
	d := device(t)
	cases := regexp.MustCompile(`^MUL_MAT\(type_a=(f32|f16|bf16|q8_0|q4_0),m=(33,n=17,k=64,bs=\[2,1\],nr=\[2,2\]|128,n=129,k=256,bs=\[1,1\],nr=\[1,1\])\)$`)
	for _, class := range []adapterClass{classApple, classIntel} {
		t.Run(class.String(), func(t *testing.T) {
			useTune(t, d, class)
			sum := optest.RunT(t, newBackend(t, d), optest.Filter{Ops: []rt.Op{rt.OpMulMat}, Name: cases})
			if sum.Failed > 0 || sum.Passed != 2*len(hwWeightTypes) {
				t.Errorf("%v row: %s", class, sum)
			}
			// The narrow tile: N = 12, and a broadcast over 3 batches of b.
			for _, w := range hwWeightTypes {
				t.Run(fmt.Sprintf("%v/n=12", w), func(t *testing.T) {
					compare(t, graphSpec{build: func(ctx *rt.Context) *rt.Tensor {
						return ctx.MulMat(ctx.NewTensor(w, 64, 150, 1).SetName("w"), ctx.NewTensor(rt.F32, 64, 12, 3).SetName("x"))
					}}, 5e-4)
				})
			}
			for _, s := range []tileShape{d.tune.tile, d.tune.narrow} {
				requireKernels(t, d, "mmtile.wgsl", fmt.Sprintf("BM=%d", s.bm), fmt.Sprintf("BN=%d", s.bn), fmt.Sprintf("WG=%d", s.invocations()))
			}
		})
	}
}

// TestHardwareMatMulBlockTypes runs the other weight types' MUL_MAT cases
// of 5 to 33 columns with the NVIDIA row: the mat-vec kernel (N <= 8) and
// the tiled one dequantize them through their ld4 loaders.
func TestHardwareMatMulBlockTypes(t *testing.T) {
	d := device(t)
	useTune(t, d, classNVIDIA)
	sum := optest.RunT(t, newBackend(t, d), optest.Filter{Ops: []rt.Op{rt.OpMulMat},
		Name: regexp.MustCompile(`^MUL_MAT\(type_a=(q4_1|q5_0|q5_1|q2_K|q3_K|q4_K|q5_K|q6_K|iq4_nl|iq4_xs|mxfp4|tq1_0|tq2_0),m=\d+,n=(5|8|17|33),`)})
	if sum.Failed > 0 || sum.Passed < 13*3 {
		t.Errorf("NVIDIA row, block types: %s", sum)
	}
}

// TestHardwareMatVecNoSubgroups runs the mat-vec cases (N <= 8, every
// weight type) on a second device without the subgroup feature, so
// mv.wgsl reduces in workgroup memory.
func TestHardwareMatVecNoSubgroups(t *testing.T) {
	d := device(t)
	nd, err := openDevice(d.adapter, 1, openOptions{noSubgroups: true, class: classNVIDIA, forcedClass: true})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := nd.close(); err != nil {
			t.Error(err)
		}
	}()
	b, err := nd.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	sum := optest.RunT(t, b, optest.Filter{Ops: []rt.Op{rt.OpMulMat}, Name: regexp.MustCompile(`^MUL_MAT\(type_a=\w+,m=\d+,n=[1-8],`)})
	if sum.Failed > 0 || sum.Passed == 0 {
		t.Errorf("no subgroups: %s", sum)
	}
	for _, k := range compiledKernels(nd, "mv.wgsl") {
		if strings.Contains(k, "|SGR|") {
			t.Errorf("subgroup reduction compiled without subgroups: %s", k)
		}
	}
	requireKernels(t, nd, "mv.wgsl", "WG=256")
}

// TestHardwareFusedMatMulAdd runs the fusion cases with the NVIDIA row, so
// that the MUL_MAT+ADD chains run as mmtile.wgsl and mv.wgsl with ADDEND.
func TestHardwareFusedMatMulAdd(t *testing.T) {
	d := device(t)
	useTune(t, d, classNVIDIA)
	be := newBackend(t, d)
	cb, err := cpu.NewBackend(1)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close()
	for _, c := range fusionCases {
		t.Run(c.name, func(t *testing.T) {
			want := runOuts(t, cb, cpu.Device().BufferType(), c)
			before := be.FusedNodes()
			got := runOuts(t, be, d.BufferType(), c)
			if n := be.FusedNodes() - before; n != c.fused {
				t.Errorf("%d nodes fused, want %d", n, c.fused)
			}
			for i := range want {
				if e := nmse(got[i], want[i]); !(e <= c.nmse) {
					t.Errorf("output %d: NMSE %g against the CPU, want <= %g", i, e, c.nmse)
				}
			}
		})
	}
	// Weight types of their own, beyond the shared cases' F32 and Q8_0.
	for _, w := range hwWeightTypes {
		for _, n := range []int{1, 3, 40} {
			c := matMulAddCase(fmt.Sprintf("%v n=%d+residual", w, n), w, 64, 70, n, 2, true, 70, n, 2)
			t.Run(c.name, func(t *testing.T) {
				want := runOuts(t, cb, cpu.Device().BufferType(), c)
				before := be.FusedNodes()
				got := runOuts(t, be, d.BufferType(), c)
				if n := be.FusedNodes() - before; n != 1 {
					t.Errorf("%d nodes fused, want 1", n)
				}
				if e := nmse(got[0], want[0]); !(e <= c.nmse) {
					t.Errorf("NMSE %g against the CPU, want <= %g", e, c.nmse)
				}
			})
		}
	}
	for _, file := range []string{"mmtile.wgsl", "mv.wgsl"} {
		requireKernels(t, d, file, "ADDEND")
	}
}

// TestHardwareMatMulSplit lowers the NVIDIA row's work per submission so
// that a tiled product is cut by rows of a into dispatches of whole
// tiles, and checks the parts and the result.
func TestHardwareMatMulSplit(t *testing.T) {
	d := device(t)
	row := tuneFor(classNVIDIA, true, d.lim)
	row.batchWork = 2 * 64 * 16 * 300 // a little over one tile of rows' work
	swapTune(t, d, row)
	spec := graphSpec{build: func(ctx *rt.Context) *rt.Tensor {
		w := ctx.NewTensor(rt.Q4_0, 64, 300, 2).SetName("w")
		x := ctx.NewTensor(rt.F32, 64, 16, 2).SetName("x")
		return ctx.MulMat(w, x)
	}}
	compare(t, spec, 5e-4)

	ctx := rt.NewContext()
	mm := spec.build(ctx)
	buf, err := rt.AllocContextTensors(ctx, d.BufferType())
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Free()
	d.mu.Lock()
	ds, err := d.encMulMat(mm, mm.Src[0], mm.Src[1], nil)
	d.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	bm := row.plan(16).tile.bm
	if len(ds) != (300+bm-1)/bm {
		t.Fatalf("%d dispatches, want one per %d rows of 300", len(ds), bm)
	}
	for i, x := range ds {
		if x.p.n[1] != uint32(i*bm) || x.grid[0] != 1 || !strings.HasPrefix(x.pipe.k.file, "mmtile.wgsl") {
			t.Errorf("part %d: first row %d, grid %v, kernel %s", i, x.p.n[1], x.grid, x.pipe.k.file)
		}
	}
}

// TestHardwareSubmissionSize encodes a 4096×512×4096 product (Q4_0
// weights, so that it allocates 9 MiB) with the software and the NVIDIA
// rows: 16 submissions of 1 GFLOP on lavapipe's, one on NVIDIA's.
func TestHardwareSubmissionSize(t *testing.T) {
	d := device(t)
	ctx := rt.NewContext()
	mm := ctx.MulMat(ctx.NewTensor(rt.Q4_0, 4096, 4096), ctx.NewTensor(rt.F32, 4096, 512))
	buf, err := rt.AllocContextTensors(ctx, d.BufferType())
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Free()
	for _, c := range []struct {
		class       adapterClass
		submissions int
	}{{classSoftware, 16}, {classNVIDIA, 1}, {classOther, 1}} {
		t.Run(c.class.String(), func(t *testing.T) {
			useTune(t, d, c.class)
			d.mu.Lock()
			defer d.mu.Unlock()
			ds, err := d.encMulMat(mm, mm.Src[0], mm.Src[1], nil)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for rest := ds; len(rest) > 0; n++ {
				rest = rest[d.batchLen(rest):]
			}
			if n != c.submissions {
				t.Errorf("%d dispatches in %d submissions, want %d submissions", len(ds), n, c.submissions)
			}
		})
	}
}

// BenchmarkMulMatTune times MUL_MAT with the software row and with
// hardware rows on this device (on lavapipe a measure of the kernels' CPU
// cost only, not of their speed on a GPU). The rows of one shape run back
// to back, so that they see the same load on a shared machine.
func BenchmarkMulMatTune(b *testing.B) {
	d := device(b)
	for _, typ := range []rt.DType{rt.F32, rt.F16, rt.Q8_0, rt.Q4_0} {
		for _, n := range []int{1, 8, 64, 256} {
			for _, class := range []adapterClass{classSoftware, classNVIDIA, classOther} {
				b.Run(fmt.Sprintf("%v/1024x%dx1024/%v", typ, n, class), func(b *testing.B) {
					useTune(b, d, class)
					benchGraph(b, d, func(ctx *rt.Context) *rt.Tensor {
						w := ctx.NewTensor(typ, 1024, 1024).SetName("w")
						x := ctx.NewTensor(rt.F32, 1024, n).SetName("x")
						return ctx.MulMat(w, x)
					}, 2*1024*1024*float64(n))
				})
			}
		}
	}
}
