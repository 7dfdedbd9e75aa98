package vk

import (
	"os"

	"github.com/gpurt/gpurt/internal/opcodes"
	rt "github.com/gpurt/gpurt/runtime"
)

// Fusion: GraphCompute runs some chains of consecutive nodes as one
// dispatch, as ggml-vulkan does, when runtime.Fusion allows it (the
// intermediate is read by the next node only) and the shapes are the ones
// the fused kernel takes. Each fusion is a push-constant flag of the first
// node's shader (opcodes.Fuse*), so a fused dispatch uses the pipeline of
// the unfused op and adds no shader variant:
//
//	RMS_NORM, MUL   the norm times its F32 weight row (reduce.comp, FUSE_MUL)
//	MUL_MAT, ADD    the product plus an F32 addend: a bias broadcast over
//	                columns, or the residual (mul_mat.comp and
//	                mul_mat_vec.comp, FUSE_ADD)
//
// SwiGLU is one GLU op and SOFT_MAX takes its scale and mask already.
// GPURT_VK_FUSION=0 turns fusion off for new backends (SetFusion per
// backend), to compare.

// fusionDefault is whether new backends fuse: yes unless
// GPURT_VK_FUSION=0.
func fusionDefault() bool { return os.Getenv("GPURT_VK_FUSION") != "0" }

// SetFusion turns op fusion on or off for later GraphCompute calls.
func (b *Backend) SetFusion(on bool) {
	b.mu.Lock()
	b.noFusion = !on
	b.mu.Unlock()
}

// planChain plans the chain of nodes starting at g.Nodes[i] as one fused
// dispatch, returning it and the number of nodes it computes, or 0 when
// no fusion applies there.
func (d *Device) planChain(f *rt.Fusion, g *rt.Graph, i int) (*dispatch, int, error) {
	n := g.Nodes[i]
	switch n.Op {
	case rt.OpRmsNorm:
		if f.CanFuse(i, rt.OpRmsNorm, rt.OpMul) {
			if t := fusedNormMul(n, g.Nodes[i+1]); t != nil {
				ds, err := d.planFused(t, opcodes.FuseMul)
				return ds, 2, err
			}
		}
	case rt.OpMulMat:
		if f.CanFuse(i, rt.OpMulMat, rt.OpAdd) {
			if t := fusedMatMulAdd(n, g.Nodes[i+1]); t != nil {
				ds, err := d.planFused(t, opcodes.FuseAdd)
				return ds, 2, err
			}
		}
	}
	return nil, 0, nil
}

// fusedNormMul is the node reduce.comp computes for norm = RMS_NORM(x)
// followed by mul = MUL(norm, w): the norm, with mul's destination and the
// weight as source 1; nil when the shapes are not the fused kernel's (w
// one contiguous F32 row of the norm's width) or when mul's memory aliases
// w, or x other than in place.
func fusedNormMul(norm, mul *rt.Tensor) *rt.Tensor {
	x, w := norm.Src[0], mul.Src[1]
	if mul.Src[0] != norm || w == norm || check(norm) != nil || check(mul) != nil {
		return nil
	}
	if norm.Type != rt.F32 || mul.Type != rt.F32 || w.Type != rt.F32 || !w.IsContiguous() ||
		w.Ne[0] != norm.Ne[0] || w.Nrows() != 1 || mul.Ne != norm.Ne {
		return nil
	}
	if rt.Overlaps(mul, w) || (rt.Overlaps(mul, x) && !rt.SameMemory(mul, x)) {
		return nil
	}
	return fusedNode(norm, mul, 1, w)
}

// fusedMatMulAdd is the node the MUL_MAT kernels compute for mm =
// MUL_MAT(a, b) followed by add = ADD(mm, e) or ADD(e, mm): the product,
// with add's destination and the addend e as source 2; nil unless
// rt.AddendFits(e, mm) and add's memory is apart from a and b, and from e
// unless in place.
func fusedMatMulAdd(mm, add *rt.Tensor) *rt.Tensor {
	e := add.Src[1]
	if add.Src[1] == mm {
		e = add.Src[0]
	}
	if e == mm || check(mm) != nil || check(add) != nil || !rt.AddendFits(e, mm) || add.Type != rt.F32 || add.Ne != mm.Ne {
		return nil
	}
	if rt.Overlaps(add, mm.Src[0]) || rt.Overlaps(add, mm.Src[1]) || (rt.Overlaps(add, e) && !rt.SameMemory(add, e)) {
		return nil
	}
	return fusedNode(mm, add, 2, e)
}

// fusedNode is a copy of first that writes last's memory and reads extra
// as source slot.
func fusedNode(first, last *rt.Tensor, slot int, extra *rt.Tensor) *rt.Tensor {
	t := *first
	t.Name = last.Name
	t.Buffer, t.Offset, t.Nb = last.Buffer, last.Offset, last.Nb
	t.Src[slot] = extra
	return &t
}
