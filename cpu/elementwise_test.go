package cpu

import (
	"fmt"
	"math"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

func TestBinaryBroadcast(t *testing.T) {
	ops := []struct {
		op rt.Op
		f  func(a, b float64) float64
	}{
		{rt.OpAdd, func(a, b float64) float64 { return a + b }},
		{rt.OpSub, func(a, b float64) float64 { return a - b }},
		{rt.OpMul, func(a, b float64) float64 { return a * b }},
		{rt.OpDiv, func(a, b float64) float64 { return a / b }},
	}
	shapes := []struct {
		name string
		a, b []int
	}{
		{"same", []int{17, 3, 2, 2}, []int{17, 3, 2, 2}},
		{"rows", []int{17, 3, 2, 2}, []int{17, 1, 2, 1}},
		{"scalar per row", []int{17, 3, 2, 2}, []int{1, 3, 1, 2}},
		{"tiled row", []int{33, 2}, []int{11, 1}},
		{"one", []int{1}, []int{1}},
	}
	types := [][2]rt.DType{{rt.F32, rt.F32}, {rt.F16, rt.F32}, {rt.F32, rt.F16}, {rt.F16, rt.F16}}
	var cases []opCase
	for _, o := range ops {
		for _, ty := range types {
			for _, s := range shapes {
				for _, layout := range []string{"leaf", "view", "transposed"} {
					if layout != "leaf" && (s.name == "one" || ty[0] != ty[1]) {
						continue
					}
					cases = append(cases, opCase{
						name: fmt.Sprintf("%v %v,%v %s %s", o.op, ty[0], ty[1], s.name, layout),
						build: func(b *tb) (*rt.Tensor, func() arr) {
							x := source(b, layout, ty[0], s.a...)
							b.lo, b.hi = 0.5, 1.5 // divisors stay away from zero
							y := source(b, layout, ty[1], s.b...)
							out := b.ctx.NewTensor(rt.F32, 1) // replaced below
							switch o.op {
							case rt.OpAdd:
								out = b.ctx.Add(x, y)
							case rt.OpSub:
								out = b.ctx.Sub(x, y)
							case rt.OpMul:
								out = b.ctx.Mul(x, y)
							case rt.OpDiv:
								out = b.ctx.Div(x, y)
							}
							return out, func() arr {
								xa, ya := read(x), read(y)
								want := newArr(xa.ne)
								want.each(func(i0, i1, i2, i3 int) {
									v := o.f(xa.at(i0, i1, i2, i3),
										ya.at(i0%ya.ne[0], i1%ya.ne[1], i2%ya.ne[2], i3%ya.ne[3]))
									want.set(i0, i1, i2, i3, roundTo(out.Type, v))
								})
								return want
							}
						},
					})
				}
			}
		}
	}
	runOpCases(t, cases)
}

// unaryRefs are independent float64 definitions of the one-input ops.
var unaryRefs = []struct {
	name   string
	lo, hi float64
	build  func(c *rt.Context, x *rt.Tensor) *rt.Tensor
	f      func(x float64) float64
}{
	{"scale", -4, 4, func(c *rt.Context, x *rt.Tensor) *rt.Tensor { return c.Scale(x, 1.5, -0.25) },
		func(x float64) float64 { return 1.5*x - 0.25 }},
	{"clamp", -1, 1, func(c *rt.Context, x *rt.Tensor) *rt.Tensor { return c.Clamp(x, -0.3, 0.4) },
		func(x float64) float64 { return math.Min(0.4, math.Max(-0.3, x)) }},
	{"sqr", -4, 4, (*rt.Context).Sqr, func(x float64) float64 { return x * x }},
	{"sqrt", 0, 9, (*rt.Context).Sqrt, math.Sqrt},
	{"silu", -8, 8, (*rt.Context).Silu, func(x float64) float64 { return x * (1 / (1 + math.Exp(-x))) }},
	{"gelu", -5, 5, (*rt.Context).Gelu, func(x float64) float64 {
		inner := math.Sqrt(2/math.Pi) * (x + 0.044715*math.Pow(x, 3))
		return x * (1 + math.Tanh(inner)) / 2
	}},
	{"relu", -2, 2, (*rt.Context).Relu, func(x float64) float64 { return math.Max(x, 0) }},
	{"tanh", -3, 3, (*rt.Context).Tanh, func(x float64) float64 {
		return (math.Exp(x) - math.Exp(-x)) / (math.Exp(x) + math.Exp(-x))
	}},
	{"sigmoid", -8, 8, (*rt.Context).Sigmoid, func(x float64) float64 { return math.Exp(x) / (1 + math.Exp(x)) }},
	{"exp", -4, 4, (*rt.Context).Exp, math.Exp},
	{"neg", -2, 2, (*rt.Context).Neg, func(x float64) float64 { return -x }},
}

func TestUnaryOps(t *testing.T) {
	var cases []opCase
	for _, u := range unaryRefs {
		for _, typ := range []rt.DType{rt.F32, rt.F16} {
			for _, layout := range []string{"leaf", "view", "transposed"} {
				cases = append(cases, opCase{
					name: fmt.Sprintf("%s %v %s", u.name, typ, layout),
					tol:  map[rt.DType]float64{rt.F32: 1e-6, rt.F16: 1e-3}[typ],
					build: func(b *tb) (*rt.Tensor, func() arr) {
						b.lo, b.hi = u.lo, u.hi
						x := source(b, layout, typ, 33, 3, 2)
						out := u.build(b.ctx, x)
						return out, func() arr {
							want := read(x)
							for i, v := range want.v {
								want.v[i] = roundTo(typ, u.f(v))
							}
							return want
						}
					},
				})
			}
		}
	}
	runOpCases(t, cases)
}

// TestUnaryKnownValues checks the activations at points with published
// values, and special inputs.
func TestUnaryKnownValues(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		op   rt.Op
		in   []float32
		want []float64
	}{
		// GELU tanh approximation: gelu(1) = 0.841192, gelu(-1) = -0.158808.
		{rt.OpGelu, []float32{0, 1, -1, 3, -20}, []float64{0, 0.8411919906, -0.1588080094, 2.9963626079, 0}},
		{rt.OpSilu, []float32{0, 1, -1, float32(inf), -100}, []float64{0, 0.7310585786, -0.2689414214, inf, 0}},
		{rt.OpSigmoid, []float32{0, 2, -2, 50, -200}, []float64{0.5, 0.8807970780, 0.1192029220, 1, 0}},
		{rt.OpRelu, []float32{-0, 2, -2, float32(math.NaN())}, []float64{0, 2, 0, 0}},
		{rt.OpTanh, []float32{0, 0.5, -20}, []float64{0, 0.4621171573, -1}},
		{rt.OpExp, []float32{0, 1, -200, 100}, []float64{1, math.E, 0, inf}},
		{rt.OpSqrt, []float32{4, 0, -1}, []float64{2, 0, math.NaN()}},
	}
	for _, tc := range tests {
		t.Run(tc.op.String(), func(t *testing.T) {
			runOpCases(t, []opCase{{name: "values", tol: 1e-6, build: func(b *tb) (*rt.Tensor, func() arr) {
				x := b.values(rt.F32, tc.in, len(tc.in))
				out := b.ctx.Unary(tc.op, x)
				return out, func() arr { return arr{ne: out.Ne, v: tc.want} }
			}}})
		})
	}
}
