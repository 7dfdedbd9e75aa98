package cpu

import (
	"fmt"

	rt "github.com/gpurt/gpurt/runtime"
)

var srcNames = [rt.MaxSrc]string{"source 0", "source 1", "source 2", "source 3"}

// computeNode checks n, finds its memory and runs its kernel.
func (b *Backend) computeNode(n *rt.Tensor) error {
	if err := validate(n); err != nil {
		return err
	}
	var dst hostTensor
	if err := resolveInto(&dst, n, "result"); err != nil {
		return err
	}
	b.prepared.written(&dst)
	if wb, ok := dst.buf.(*weightBuffer); ok && wb.Usage() == rt.UsageWeights {
		wb.Written(n) // a graph writing into weights: their repacked copies are stale
	}
	var src [rt.MaxSrc]hostTensor
	for i, s := range n.Src {
		if s == nil {
			continue
		}
		if err := resolveInto(&src[i], s, srcNames[i]); err != nil {
			return err
		}
	}
	if b.kern != nil {
		if done, err := b.tryFast(n, &src, &dst); done {
			return err
		}
	}
	switch n.Op {
	case rt.OpDup, rt.OpCont, rt.OpCpy:
		return b.copyStream(src[0], dst)
	case rt.OpGetRows:
		return b.getRows(src[0], src[1], dst)
	case rt.OpSetRows:
		return b.setRows(src[0], src[1], dst)
	case rt.OpConcat:
		return b.concat(src[0], src[1], dst, int(n.Params[0]))
	case rt.OpAdd, rt.OpSub, rt.OpMul, rt.OpDiv:
		return b.binary(n.Op, src[0], src[1], dst)
	case rt.OpSum:
		return b.sum(src[0], dst)
	case rt.OpSumRows, rt.OpMean, rt.OpArgmax:
		return b.rowReduce(n.Op, src[0], dst)
	case rt.OpNorm, rt.OpRmsNorm:
		return b.norm(n.Op, n.ParamF(0), src[0], dst)
	case rt.OpMulMat:
		if b.kern == nil {
			return b.mulMat(src[0], src[1], dst)
		}
		return b.mulMatFast(src[0], src[1], dst)
	case rt.OpRope:
		return b.rope(n, src[0], src[1], dst)
	case rt.OpGLU:
		return b.glu(int(n.Params[0]), src[0], src[1], dst)
	case rt.OpFlashAttnExt:
		return b.flashAttn(n, &src, dst)
	case rt.OpSoftMax:
		var mask *hostTensor
		if n.Src[1] != nil {
			m := src[1] // a copy, so that src itself stays on the stack
			mask = &m
		}
		return b.softMax(n.ParamF(0), n.ParamF(1), src[0], mask, dst)
	case rt.OpDiagMaskInf:
		return b.diagMaskInf(int(n.Params[0]), src[0], dst)
	}
	if f := elementwise(n); f != nil {
		return b.mapRows(src[0], dst, f)
	}
	return fmt.Errorf("op not implemented")
}
