package cpu

import (
	"fmt"
	"math"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// packed returns contiguous strides for dtype t and shape ne.
func packed(t rt.DType, ne [4]int) [4]int {
	nb := [4]int{t.TypeSize()}
	nb[1] = nb[0] * ne[0] / t.BlockSize()
	nb[2] = nb[1] * ne[1]
	nb[3] = nb[2] * ne[2]
	return nb
}

// handNode builds an op node directly, bypassing the constructors' checks.
func handNode(op rt.Op, typ rt.DType, ne [4]int, src ...*rt.Tensor) *rt.Tensor {
	n := &rt.Tensor{Op: op, Type: typ, Ne: ne, Nb: packed(typ, ne)}
	copy(n.Src[:], src)
	return n
}

// TestSupportsOpMatchesConstructors tries every dtype combination for each
// op: where the constructor accepts it, supportsOp must too; where the
// constructor rejects it, the same node built by hand must be unsupported.
func TestSupportsOpMatchesConstructors(t *testing.T) {
	type spec struct {
		op    rt.Op
		nsrc  int
		build func(c *rt.Context, s []*rt.Tensor) *rt.Tensor
		hand  func(s []*rt.Tensor) *rt.Tensor
	}
	// Shapes that fit every dtype (ne0 = 32, a whole block).
	// Every plain dtype and one quantized type of each layout family keep
	// the combinations (up to three sources) few.
	supportTestTypes := []rt.DType{rt.F32, rt.F16, rt.BF16, rt.Q8_0, rt.Q4_0, rt.Q4_K, rt.IQ4_NL, rt.I32}
	leaf := func(c *rt.Context, typ rt.DType, role string) *rt.Tensor {
		switch role {
		case "idx":
			return c.NewTensor(typ, 256)
		case "rows":
			return c.NewTensor(typ, 256, 32)
		case "ropex":
			return c.NewTensor(typ, 256, 2, 32)
		}
		return c.NewTensor(typ, 256, 2, 3)
	}
	same := func(op rt.Op) func(s []*rt.Tensor) *rt.Tensor {
		return func(s []*rt.Tensor) *rt.Tensor { return handNode(op, s[0].Type, s[0].Ne, s...) }
	}
	rows := [4]int{1, 2, 3, 1}
	var specs []spec
	for _, op := range []rt.Op{rt.OpSqr, rt.OpSqrt, rt.OpSilu, rt.OpGelu, rt.OpRelu, rt.OpTanh, rt.OpSigmoid, rt.OpExp, rt.OpNeg} {
		specs = append(specs, spec{op, 1, func(c *rt.Context, s []*rt.Tensor) *rt.Tensor { return c.Unary(op, s[0]) }, same(op)})
	}
	for _, op := range []rt.Op{rt.OpAdd, rt.OpSub, rt.OpMul, rt.OpDiv} {
		specs = append(specs, spec{op, 2, func(c *rt.Context, s []*rt.Tensor) *rt.Tensor {
			return map[rt.Op]func(a, b *rt.Tensor) *rt.Tensor{rt.OpAdd: c.Add, rt.OpSub: c.Sub, rt.OpMul: c.Mul, rt.OpDiv: c.Div}[op](s[0], s[1])
		}, same(op)})
	}
	specs = append(specs,
		spec{rt.OpScale, 1, func(c *rt.Context, s []*rt.Tensor) *rt.Tensor { return c.Scale(s[0], 2, 1) }, same(rt.OpScale)},
		spec{rt.OpClamp, 1, func(c *rt.Context, s []*rt.Tensor) *rt.Tensor { return c.Clamp(s[0], 0, 1) }, same(rt.OpClamp)},
		spec{rt.OpDup, 1, func(c *rt.Context, s []*rt.Tensor) *rt.Tensor { return c.Dup(s[0]) }, same(rt.OpDup)},
		spec{rt.OpCont, 1, func(c *rt.Context, s []*rt.Tensor) *rt.Tensor { return c.Cont(s[0]) }, same(rt.OpCont)},
		spec{rt.OpSum, 1, func(c *rt.Context, s []*rt.Tensor) *rt.Tensor { return c.Sum(s[0]) },
			func(s []*rt.Tensor) *rt.Tensor { return handNode(rt.OpSum, rt.F32, [4]int{1, 1, 1, 1}, s...) }},
		spec{rt.OpSumRows, 1, func(c *rt.Context, s []*rt.Tensor) *rt.Tensor { return c.SumRows(s[0]) },
			func(s []*rt.Tensor) *rt.Tensor { return handNode(rt.OpSumRows, rt.F32, rows, s...) }},
		spec{rt.OpMean, 1, func(c *rt.Context, s []*rt.Tensor) *rt.Tensor { return c.Mean(s[0]) },
			func(s []*rt.Tensor) *rt.Tensor { return handNode(rt.OpMean, rt.F32, rows, s...) }},
		spec{rt.OpArgmax, 1, func(c *rt.Context, s []*rt.Tensor) *rt.Tensor { return c.Argmax(c.View2D(s[0], 32, 2, s[0].Nb[1], 0)) },
			func(s []*rt.Tensor) *rt.Tensor {
				m := &rt.Tensor{Type: s[0].Type, Ne: [4]int{32, 2, 1, 1}, Nb: s[0].Nb}
				return handNode(rt.OpArgmax, rt.I32, [4]int{2, 1, 1, 1}, m)
			}},
		spec{rt.OpNorm, 1, func(c *rt.Context, s []*rt.Tensor) *rt.Tensor { return c.Norm(s[0], 1e-5) },
			func(s []*rt.Tensor) *rt.Tensor { return handNode(rt.OpNorm, rt.F32, s[0].Ne, s...) }},
		spec{rt.OpRmsNorm, 1, func(c *rt.Context, s []*rt.Tensor) *rt.Tensor { return c.RmsNorm(s[0], 1e-5) },
			func(s []*rt.Tensor) *rt.Tensor { return handNode(rt.OpRmsNorm, rt.F32, s[0].Ne, s...) }},
		spec{rt.OpDiagMaskInf, 1, func(c *rt.Context, s []*rt.Tensor) *rt.Tensor { return c.DiagMaskInf(s[0], 1) },
			func(s []*rt.Tensor) *rt.Tensor { return handNode(rt.OpDiagMaskInf, s[0].Type, s[0].Ne, s...) }},
		spec{rt.OpSoftMax, 1, func(c *rt.Context, s []*rt.Tensor) *rt.Tensor { return c.SoftMax(s[0], nil, 1) },
			func(s []*rt.Tensor) *rt.Tensor { return handNode(rt.OpSoftMax, s[0].Type, s[0].Ne, s...) }},
		spec{rt.OpSoftMax, 2, func(c *rt.Context, s []*rt.Tensor) *rt.Tensor { return c.SoftMax(s[0], s[1], 1) },
			func(s []*rt.Tensor) *rt.Tensor { return handNode(rt.OpSoftMax, s[0].Type, s[0].Ne, s...) }},
		spec{rt.OpMulMat, 2, func(c *rt.Context, s []*rt.Tensor) *rt.Tensor { return c.MulMat(s[0], s[1]) },
			func(s []*rt.Tensor) *rt.Tensor { return handNode(rt.OpMulMat, rt.F32, [4]int{2, 2, 3, 1}, s...) }},
		spec{rt.OpConcat, 2, func(c *rt.Context, s []*rt.Tensor) *rt.Tensor { return c.Concat(s[0], s[1], 1) },
			func(s []*rt.Tensor) *rt.Tensor {
				n := handNode(rt.OpConcat, s[0].Type, [4]int{32, 4, 3, 1}, s...)
				n.Params[0] = 1
				return n
			}},
		spec{rt.OpCpy, 2, func(c *rt.Context, s []*rt.Tensor) *rt.Tensor { return c.Cpy(s[0], s[1]) },
			func(s []*rt.Tensor) *rt.Tensor { return handNode(rt.OpCpy, s[1].Type, s[1].Ne, s...) }},
	)
	// GET_ROWS, SET_ROWS and ROPE take index tensors sized to their inputs.
	specs = append(specs,
		spec{rt.OpGetRows, 2, func(c *rt.Context, s []*rt.Tensor) *rt.Tensor {
			return c.GetRows(c.View2D(s[0], 32, 2, s[0].Nb[1], 0), s[1])
		}, func(s []*rt.Tensor) *rt.Tensor {
			a := &rt.Tensor{Type: s[0].Type, Ne: [4]int{32, 2, 1, 1}, Nb: s[0].Nb}
			typ := rt.F32
			if a.Type == rt.I32 {
				typ = rt.I32
			}
			return handNode(rt.OpGetRows, typ, [4]int{32, 32, 1, 1}, a, s[1])
		}},
		spec{rt.OpSetRows, 3, func(c *rt.Context, s []*rt.Tensor) *rt.Tensor {
			return c.SetRows(c.View2D(s[0], 32, 2, s[0].Nb[1], 0), s[1], s[2])
		}, func(s []*rt.Tensor) *rt.Tensor {
			return handNode(rt.OpSetRows, s[0].Type, [4]int{32, 2, 1, 1}, s[1], s[2])
		}},
		spec{rt.OpRope, 2, func(c *rt.Context, s []*rt.Tensor) *rt.Tensor {
			return c.Rope(s[0], s[1], 8, rt.RopeNeox, 1e4, 1)
		}, func(s []*rt.Tensor) *rt.Tensor {
			n := handNode(rt.OpRope, s[0].Type, s[0].Ne, s...)
			n.Params[0], n.Params[1] = 8, rt.RopeNeox
			n.Params[2], n.Params[3] = int32(math.Float32bits(1e4)), int32(math.Float32bits(1))
			return n
		}},
	)
	roles := map[rt.Op][]string{
		rt.OpGetRows: {"x", "idx"}, rt.OpSetRows: {"x", "rows", "idx"}, rt.OpRope: {"ropex", "idx"},
	}
	accepted := 0
	for _, sp := range specs {
		combos := [][]rt.DType{{}}
		for i := 0; i < sp.nsrc; i++ {
			var next [][]rt.DType
			for _, c := range combos {
				for _, d := range supportTestTypes {
					next = append(next, append(append([]rt.DType{}, c...), d))
				}
			}
			combos = next
		}
		for _, types := range combos {
			name := fmt.Sprintf("%v(%v)/%d", sp.op, types, sp.nsrc)
			c := rt.NewContext()
			src := make([]*rt.Tensor, len(types))
			for i, typ := range types {
				role := "x"
				if r, ok := roles[sp.op]; ok {
					role = r[i]
				}
				src[i] = leaf(c, typ, role)
			}
			if c.Err() != nil {
				t.Fatalf("%s: leaves: %v", name, c.Err())
			}
			out := sp.build(c, src)
			if c.Err() == nil {
				accepted++
				if !supportsOp(out) {
					t.Errorf("%s: the constructor accepts it but supportsOp says no: %v", name, validate(out))
				}
				continue
			}
			if n := sp.hand(src); supportsOp(n) {
				t.Errorf("%s: the constructor rejects it (%v) but supportsOp says yes", name, c.Err())
			}
		}
	}
	if accepted < 100 {
		t.Errorf("only %d accepted combinations; the specs are broken", accepted)
	}
}
