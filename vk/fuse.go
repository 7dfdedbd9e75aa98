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
//	ROPE, RESHAPE,  the KV write: each rotated row goes straight to the
//	SET_ROWS        F32 or F16 cache row its index names (rope.comp with a
//	                nonzero rows_stride; the indices at binding 4)
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
	case rt.OpRope:
		if f.CanFuse(i, rt.OpRope, rt.OpReshape, rt.OpSetRows) {
			if set := g.Nodes[i+2]; fusableRopeRows(n, g.Nodes[i+1], set) {
				ds, err := d.planRopeRows(n, set)
				return ds, 3, err
			}
		}
	}
	return nil, 0, nil
}

// fusableRopeRows reports whether rope.comp computes rope = ROPE(x, pos),
// flat = RESHAPE(rope) and set = SET_ROWS(cache, flat, idx) as one
// dispatch: flat lays each token's heads side by side as one row (the
// rows ordered as the tokens), the cache is F32 or F16, there are no
// frequency factors (their binding is the error flag's then), and the
// cache's memory is apart from x, pos and idx, which the kernel reads
// while it writes.
func fusableRopeRows(rope, flat, set *rt.Tensor) bool {
	x, pos, idx := rope.Src[0], rope.Src[1], set.Src[1]
	if flat.Src[0] != rope || set.Src[0] != flat || check(rope) != nil || check(set) != nil {
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

// planRopeRows plans rope.comp for ROPE node rope writing its rows into
// the cache rows of set = SET_ROWS(cache, RESHAPE(rope), idx): x and pos at
// bindings 0 and 1, the error flag at 2 (out-of-range indices), the cache
// at 3, idx at 4.
func (d *Device) planRopeRows(rope, set *rt.Tensor) (*dispatch, error) {
	idx := set.Src[1]
	ds := &dispatch{errFlag: true}
	dst, offd, err := operand(set, d)
	if err != nil {
		return nil, err
	}
	ds.binds[dstBinding] = dst
	var offs [rt.MaxSrc]uint32
	for i, s := range []*rt.Tensor{rope.Src[0], rope.Src[1]} {
		if ds.binds[srcBinding(i)], offs[i], err = operand(s, d); err != nil {
			return nil, err
		}
	}
	ds.binds[2] = ds.binds[0] // record binds the error flag here
	idxBind, offIdx, err := operand(idx, d)
	if err != nil {
		return nil, err
	}
	ds.binds[srcBinding(3)] = idxBind
	p := ropeParams(rope, set.Type, offs, offd)
	// Head i1 of token row r lands at i1*ne0 elements into cache row idx[r].
	p.Nb = [4]uint32{uint32(set.Nb[0]), uint32(rope.Ne[0] * set.Nb[0]), uint32(idx.Nb[0]), uint32(set.Ne[1])}
	p.RowsStride, p.RowsOff = uint32(set.Nb[1]), offIdx
	setRope(ds, rope, &p)
	return ds, nil
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
