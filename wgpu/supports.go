//go:build cgo

package wgpu

import (
	rt "github.com/gpurt/gpurt/runtime"
)

func plainFloat(t rt.DType) bool { return t == rt.F32 || t == rt.F16 || t == rt.BF16 }
func anyFloat(t rt.DType) bool   { return plainFloat(t) || shaderQuant(t) }

// shaderQuant reports whether the shaders decode quantized type t
// (dequant.wgsl and the Q8_0/Q4_0 loaders); a tensor of any other quantized
// type is left to the CPU.
func shaderQuant(t rt.DType) bool {
	switch t {
	case rt.Q4_0, rt.Q4_1, rt.Q5_0, rt.Q5_1, rt.Q8_0, rt.Q2_K, rt.Q3_K, rt.Q4_K, rt.Q5_K, rt.Q6_K,
		rt.IQ4_NL, rt.IQ4_XS, rt.MXFP4, rt.TQ1_0, rt.TQ2_0:
		return true
	}
	return false
}

// SupportsOp reports whether the kernels compute t: its op, the dtypes of
// its result and sources, and whether every tensor fits one storage binding
// with strides the kernels can address.
func (d *Device) SupportsOp(t *rt.Tensor) bool {
	if t == nil || !t.Type.Valid() {
		return false
	}
	for _, x := range append([]*rt.Tensor{t}, t.Src[:]...) {
		if x != nil && x.Type.IsQuantized() && !shaderQuant(x.Type) {
			return false
		}
	}
	if t.Op == rt.OpNone || t.Op.IsView() {
		return true
	}
	a, b := t.Src[0], t.Src[1]
	if a == nil || !d.addressable(t) || !d.addressable(a) || (b != nil && !d.addressable(b)) {
		return false
	}
	if d.loopBudget > 0 && d.loopIterations(t) > d.loopBudget {
		return false
	}
	need2 := func() bool { return b != nil }
	switch t.Op {
	case rt.OpDup, rt.OpCont:
		return a.Type == t.Type && t.Nelements() == a.Nelements()
	case rt.OpCpy:
		if !need2() || t.Nelements() != a.Nelements() {
			return false
		}
		if t.Type.IsQuantized() {
			// Quantizing needs a quantizer in the kernels; any block
			// type copies to itself.
			return a.Type != rt.I32 && t.IsContiguous() && (a.Type == t.Type || quantizable(t.Type))
		}
		return (a.Type == rt.I32) == (t.Type == rt.I32) || plainFloat(a.Type) || plainFloat(t.Type)
	case rt.OpGetRows:
		return need2() && b.Type == rt.I32 && (t.Type == rt.F32 || (t.Type == rt.I32 && a.Type == rt.I32) || (plainFloat(t.Type) && a.Type != rt.I32))
	case rt.OpSetRows:
		return need2() && b.Type == rt.I32 && a.Type != rt.I32 && (plainFloat(t.Type) || quantizable(t.Type)) && t.IsContiguousRows() &&
			b.Ne[1] > 0 && b.Ne[2] > 0
	case rt.OpConcat:
		return need2() && a.Type == b.Type && a.Type == t.Type && !t.Type.IsQuantized() &&
			t.ParamI(0) >= 0 && t.ParamI(0) < rt.MaxDims
	case rt.OpAdd, rt.OpSub, rt.OpMul, rt.OpDiv:
		return need2() && plainFloat(t.Type) && plainFloat(a.Type) && plainFloat(b.Type) && rt.CanRepeat(b, a) && b.Nelements() > 0
	case rt.OpGLU:
		return need2() && rt.ValidateNode(t) == nil && plainFloat(t.Type)
	case rt.OpFlashAttnExt:
		return d.supportsFlashAttn(t)
	case rt.OpScale, rt.OpSqr, rt.OpSqrt, rt.OpClamp, rt.OpSilu, rt.OpGelu, rt.OpGeluErf, rt.OpRelu, rt.OpTanh,
		rt.OpSigmoid, rt.OpExp, rt.OpNeg, rt.OpDiagMaskInf:
		return plainFloat(t.Type) && plainFloat(a.Type) && rt.SameShape(t, a)
	case rt.OpSum, rt.OpSumRows, rt.OpMean, rt.OpNorm, rt.OpRmsNorm:
		return plainFloat(t.Type) && anyFloat(a.Type)
	case rt.OpArgmax:
		return t.Type == rt.I32 && anyFloat(a.Type)
	case rt.OpSoftMax:
		return plainFloat(t.Type) && plainFloat(a.Type) && (b == nil || (plainFloat(b.Type) && b.Ne[2] > 0 && b.Ne[3] > 0))
	case rt.OpRope:
		if ff := t.Src[2]; ff != nil && (ff.Type != rt.F32 || !d.addressable(ff)) {
			return false
		}
		return need2() && rt.ValidateNode(t) == nil && plainFloat(t.Type) && plainFloat(a.Type) && b.Type == rt.I32 &&
			(t.ParamI(1) == rt.RopeNormal || t.ParamI(1) == rt.RopeNeox)
	case rt.OpMulMat:
		return need2() && anyFloat(a.Type) && plainFloat(b.Type) && t.Type == rt.F32 &&
			a.Ne[0] == b.Ne[0] && a.Ne[2] > 0 && a.Ne[3] > 0 && b.Ne[2]%a.Ne[2] == 0 && b.Ne[3]%a.Ne[3] == 0
	}
	return false
}

// addressable reports whether the kernels can address t: it fits one
// storage binding, and its strides and view offset are multiples of what
// the dtype's loads need (the element size; 2 bytes for quantized blocks,
// whose f16 scale is read as a half word, but 1 for MXFP4's 17-byte ones).
func (d *Device) addressable(t *rt.Tensor) bool {
	if !t.Type.Valid() {
		return false
	}
	// The bound range also covers the alignment slack before the tensor.
	if uint64(t.Nbytes())+uint64(d.lim.storageAlign) > d.lim.maxStorageBinding {
		return false
	}
	gran := t.Type.TypeSize()
	if t.Type.IsQuantized() {
		gran = 2
		if t.Type == rt.MXFP4 {
			gran = 1 // 17-byte blocks
		}
		if t.Nb[0] != t.Type.TypeSize() && t.Ne[0] > t.Type.BlockSize() {
			return false
		}
	}
	for i, nb := range t.Nb {
		if nb < 0 || (nb%gran != 0 && t.Ne[i] > 1) || uint64(nb) > 1<<32-1 {
			return false
		}
	}
	for _, n := range t.Ne {
		if uint64(n) > 1<<32-1 {
			return false
		}
	}
	if uint64(t.Nelements()) > 1<<32-1 {
		return false
	}
	return t.ViewOffs%gran == 0
}

// supportsFlashAttn reports whether flash.wgsl computes t: head sizes up
// to flashAttnMaxD, every operand addressable (the mask too), and a grid of
// (queries, heads, sequences) within the device's limits.
func (d *Device) supportsFlashAttn(t *rt.Tensor) bool {
	q, k, v, m := t.Src[0], t.Src[1], t.Src[2], t.Src[3]
	if k == nil || v == nil || rt.ValidateNode(t) != nil || !d.addressable(k) || !d.addressable(v) ||
		(m != nil && !d.addressable(m)) {
		return false
	}
	if !anyFloat(k.Type) || !anyFloat(v.Type) || q.Ne[0] > flashAttnMaxD || v.Ne[0] > flashAttnMaxD {
		return false
	}
	maxg := int(d.lim.maxWorkgroupsPerDim)
	return q.Ne[1] <= maxg && q.Ne[2] <= maxg && q.Ne[3] <= maxg
}
