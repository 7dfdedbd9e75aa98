package vk

import (
	"errors"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// TestOpCodesRejectOtherOps checks that each shader family's op-code
// switch names its own ops and answers ErrUnsupported for any other, so an
// op missing from the plan fails loudly instead of running another op's
// code.
func TestOpCodesRejectOtherOps(t *testing.T) {
	families := []struct {
		name string
		code func(*rt.Tensor) (uint32, error)
		ops  []rt.Op
	}{
		{"unary", unaryOpCode, []rt.Op{rt.OpDup, rt.OpCont, rt.OpCpy, rt.OpScale, rt.OpSqr, rt.OpSqrt, rt.OpClamp,
			rt.OpSilu, rt.OpGelu, rt.OpGeluErf, rt.OpRelu, rt.OpTanh, rt.OpSigmoid, rt.OpExp, rt.OpNeg, rt.OpDiagMaskInf}},
		{"binary", binaryOpCode, []rt.Op{rt.OpAdd, rt.OpSub, rt.OpMul, rt.OpDiv, rt.OpConcat, rt.OpGLU}},
		{"reduce", reduceOpCode, []rt.Op{rt.OpSum, rt.OpSumRows, rt.OpMean, rt.OpArgmax, rt.OpNorm, rt.OpRmsNorm, rt.OpSoftMax}},
	}
	for _, f := range families {
		seen := map[uint32]rt.Op{}
		for op := rt.OpNone; op < rt.OpCount; op++ {
			mine := false
			for _, o := range f.ops {
				mine = mine || o == op
			}
			code, err := f.code(&rt.Tensor{Op: op, Name: "n"})
			switch {
			case mine && err != nil:
				t.Errorf("%s: %v: %v", f.name, op, err)
			case !mine && !errors.Is(err, rt.ErrUnsupported):
				t.Errorf("%s: %v got code %d, err %v; want ErrUnsupported", f.name, op, code, err)
			case mine && !isCopy(op):
				if prev, dup := seen[code]; dup {
					t.Errorf("%s: %v and %v share code %d", f.name, prev, op, code)
				}
				seen[code] = op
			}
		}
	}
	glu := &rt.Tensor{Op: rt.OpGLU, Name: "g"}
	glu.Params[0] = 99
	if _, err := binaryOpCode(glu); !errors.Is(err, rt.ErrUnsupported) {
		t.Errorf("GLU of an unknown kind: %v, want ErrUnsupported", err)
	}
}

func isCopy(op rt.Op) bool { return op == rt.OpDup || op == rt.OpCont || op == rt.OpCpy }
