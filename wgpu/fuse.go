//go:build cgo

package wgpu

import (
	"os"

	rt "github.com/gpurt/gpurt/runtime"
)

// Fusion: GraphCompute encodes some chains of consecutive nodes as one
// dispatch when runtime.Fusion allows it (the intermediate is read by the
// next node only) and the shapes are the ones the fused kernel takes:
//
//	RMS_NORM, MUL   norm.wgsl with MULW: the norm times its F32 weight row
//	MUL_MAT, ADD    mv.wgsl, mm.wgsl or mulmat.wgsl with ADDEND: the product
//	                plus an F32 addend, a bias broadcast over columns or the
//	                residual
//	ROPE, RESHAPE,  rope.wgsl with ROWS, the KV write: each rotated row goes
//	SET_ROWS        straight to the F32 or F16 cache row its index names
//
// WGSL has no push constants, so each is a flag of the kernel's source
// (one more pipeline per kernel that runs fused, compiled on first use).
// SwiGLU is one GLU op and SOFT_MAX takes its scale and mask already.
// GPURT_WGPU_FUSION=0 turns fusion off for new backends (SetFusion per
// backend), to compare.

func fusionDefault() bool { return os.Getenv("GPURT_WGPU_FUSION") != "0" }

// SetFusion turns op fusion on or off for later GraphCompute calls.
func (b *Backend) SetFusion(on bool) {
	b.dev.mu.Lock()
	b.noFusion = !on
	b.dev.mu.Unlock()
}

// encodeChain encodes the chain of nodes starting at g.Nodes[i] as fused
// dispatches, returning them and the number of nodes they compute, or 0
// when no fusion applies there.
func (d *Device) encodeChain(f *rt.Fusion, g *rt.Graph, i int) ([]*dispatch, int, error) {
	n := g.Nodes[i]
	switch n.Op {
	case rt.OpRmsNorm:
		if f.CanFuse(i, rt.OpRmsNorm, rt.OpMul) {
			mul := g.Nodes[i+1]
			if w := d.fusableNormMul(n, mul); w != nil {
				a := n.Src[0]
				k := d.rowKernel("norm.wgsl", a.Ne[0], rowPasses(n.Op), mul.Type, a.Type, w.Type).with("RMS", "MULW")
				x, err := d.rowwise(k, a.Nrows(), 3*a.Ne[0], mul, a, w)
				if err != nil {
					return nil, 0, err
				}
				x.p.fp[0] = n.ParamF(0)
				return []*dispatch{x}, 2, nil
			}
		}
	case rt.OpMulMat:
		if f.CanFuse(i, rt.OpMulMat, rt.OpAdd) {
			add := g.Nodes[i+1]
			if e := d.fusableMatMulAdd(n, add); e != nil {
				ds, err := d.encMulMat(add, n.Src[0], n.Src[1], e)
				return ds, 2, err
			}
		}
	case rt.OpRope:
		if f.CanFuse(i, rt.OpRope, rt.OpReshape, rt.OpSetRows) {
			if set := g.Nodes[i+2]; d.fusableRopeRows(n, g.Nodes[i+1], set) {
				x, err := d.encRope(n, set)
				if err != nil {
					return nil, 0, err
				}
				return []*dispatch{x}, 3, nil
			}
		}
	}
	return nil, 0, nil
}

// fusableRopeRows reports whether rope.wgsl with ROWS computes rope =
// ROPE(x, pos), flat = RESHAPE(rope) and set = SET_ROWS(cache, flat, idx)
// as one dispatch: flat lays each token's heads side by side as one row
// (the rows ordered as the tokens), the cache is F32 or F16, there are no
// frequency factors (their slot is the error flag's then), and the
// cache's memory is apart from x, pos and idx, which the kernel reads
// while it writes.
func (d *Device) fusableRopeRows(rope, flat, set *rt.Tensor) bool {
	x, pos, idx := rope.Src[0], rope.Src[1], set.Src[1]
	if flat.Src[0] != rope || set.Src[0] != flat || !d.SupportsOp(rope) || !d.SupportsOp(set) {
		return false
	}
	if rope.Src[2] != nil || rope.Type != rt.F32 || !rope.IsContiguous() || (set.Type != rt.F32 && set.Type != rt.F16) {
		return false
	}
	if flat.Ne != [rt.MaxDims]int{rope.Ne[0] * rope.Ne[1], rope.Ne[2] * rope.Ne[3], 1, 1} || idx.Nelements() != flat.Ne[1] {
		return false
	}
	return !rt.Overlaps(set, x) && !rt.Overlaps(set, pos) && !rt.Overlaps(set, idx)
}

// fusableNormMul returns the weight w of norm = RMS_NORM(x) followed by
// mul = MUL(norm, w) when the fused kernel computes them: w one contiguous
// F32 row of the norm's width, mul's memory apart from w, and from x
// unless in place. Otherwise nil.
func (d *Device) fusableNormMul(norm, mul *rt.Tensor) *rt.Tensor {
	x, w := norm.Src[0], mul.Src[1]
	if mul.Src[0] != norm || w == norm || !d.SupportsOp(norm) || !d.SupportsOp(mul) {
		return nil
	}
	if norm.Type != rt.F32 || mul.Type != rt.F32 || w.Type != rt.F32 || !w.IsContiguous() ||
		w.Ne[0] != norm.Ne[0] || w.Nrows() != 1 || mul.Ne != norm.Ne {
		return nil
	}
	if rt.Overlaps(mul, w) || (rt.Overlaps(mul, x) && !rt.SameMemory(mul, x)) {
		return nil
	}
	return w
}

// fusableMatMulAdd returns the addend e of mm = MUL_MAT(a, b) followed by
// add = ADD(mm, e) or ADD(e, mm) when the fused kernels compute them:
// rt.AddendFits(e, mm), and add's memory apart from a and b, and from e
// unless in place. Otherwise nil.
func (d *Device) fusableMatMulAdd(mm, add *rt.Tensor) *rt.Tensor {
	e := add.Src[1]
	if e == mm {
		e = add.Src[0]
	}
	if e == mm || !d.SupportsOp(mm) || !d.SupportsOp(add) || !rt.AddendFits(e, mm) || add.Type != rt.F32 || add.Ne != mm.Ne {
		return nil
	}
	if rt.Overlaps(add, mm.Src[0]) || rt.Overlaps(add, mm.Src[1]) || (rt.Overlaps(add, e) && !rt.SameMemory(add, e)) {
		return nil
	}
	return e
}
