package optest

import (
	"fmt"
	"math"

	"github.com/gpurt/gpurt/cpu"
	rt "github.com/gpurt/gpurt/runtime"
)

// oracle is a backend written from the op definitions alone: every node is
// evaluated element by element in float64 from its sources' logical values,
// with no shared code with cpu/ beyond the buffer type and rt's dtype
// conversions. Running the catalogue on the CPU backend against it checks
// the reference itself, which CPU-against-CPU runs cannot.
type oracle struct{}

type oracleDevice struct{ rt.Device }

func (oracleDevice) Name() string               { return "Oracle" }
func (oracleDevice) SupportsOp(*rt.Tensor) bool { return true }

func (oracle) Name() string       { return "Oracle" }
func (oracle) Device() rt.Device  { return oracleDevice{cpu.Device()} }
func (oracle) Synchronize() error { return nil }
func (oracle) Close() error       { return nil }

func (oracle) GraphCompute(g *rt.Graph) error {
	for _, n := range g.Nodes {
		if n.Op.IsView() {
			continue
		}
		vals, err := evalNode(n)
		if err != nil {
			return fmt.Errorf("oracle: %v: %w", n.Op, err)
		}
		out := make([]float32, len(vals))
		for i, v := range vals {
			out[i] = float32(v)
		}
		if err := writeLogical(n, out); err != nil {
			return fmt.Errorf("oracle: %v: %w", n.Op, err)
		}
	}
	return nil
}

// tensorValues are a tensor's values in logical order, with its shape.
type tensorValues struct {
	ne [rt.MaxDims]int
	v  []float64
}

func (t tensorValues) at(i0, i1, i2, i3 int) float64 {
	return t.v[((i3*t.ne[2]+i2)*t.ne[1]+i1)*t.ne[0]+i0]
}

func read(t *rt.Tensor) (tensorValues, error) {
	f, err := rt.TensorGetF32(t)
	if err != nil {
		return tensorValues{}, err
	}
	v := make([]float64, len(f))
	for i, x := range f {
		v[i] = float64(x)
	}
	return tensorValues{t.Ne, v}, nil
}

// each calls f for every element index of shape ne, in logical order.
func each(ne [rt.MaxDims]int, f func(i0, i1, i2, i3 int)) {
	for i3 := 0; i3 < ne[3]; i3++ {
		for i2 := 0; i2 < ne[2]; i2++ {
			for i1 := 0; i1 < ne[1]; i1++ {
				for i0 := 0; i0 < ne[0]; i0++ {
					f(i0, i1, i2, i3)
				}
			}
		}
	}
}

func evalNode(n *rt.Tensor) ([]float64, error) {
	var src [rt.MaxSrc]tensorValues
	for i, s := range n.Src {
		if s == nil {
			continue
		}
		v, err := read(s)
		if err != nil {
			return nil, err
		}
		src[i] = v
	}
	a, b := src[0], src[1]
	out := make([]float64, 0, n.Nelements())
	emit := func(f func(i0, i1, i2, i3 int) float64) []float64 {
		each(n.Ne, func(i0, i1, i2, i3 int) { out = append(out, f(i0, i1, i2, i3)) })
		return out
	}
	switch n.Op {
	case rt.OpDup, rt.OpCont, rt.OpCpy:
		vals := append([]float64(nil), a.v...) // flat logical order
		if n.Type == rt.I32 {
			for i, x := range vals {
				vals[i] = math.Trunc(x)
			}
		}
		return vals, nil
	case rt.OpGetRows:
		return emit(func(i0, i1, i2, i3 int) float64 { return a.at(i0, int(b.at(i1, i2, i3, 0)), i2, i3) }), nil
	case rt.OpSetRows:
		target, err := read(n) // the destination's current rows
		if err != nil {
			return nil, err
		}
		idx := src[1]
		rows := map[[3]int]int{} // destination row -> source row
		each([rt.MaxDims]int{1, a.ne[1], a.ne[2], a.ne[3]}, func(_, i1, i2, i3 int) {
			r := int(idx.at(i1, i2%idx.ne[1], i3%idx.ne[2], 0))
			rows[[3]int{r, i2, i3}] = i1
		})
		return emit(func(i0, i1, i2, i3 int) float64 {
			if s, ok := rows[[3]int{i1, i2, i3}]; ok {
				return a.at(i0, s, i2, i3)
			}
			return target.at(i0, i1, i2, i3)
		}), nil
	case rt.OpConcat:
		d := int(n.ParamI(0))
		return emit(func(i0, i1, i2, i3 int) float64 {
			i := [4]int{i0, i1, i2, i3}
			if i[d] < a.ne[d] {
				return a.at(i0, i1, i2, i3)
			}
			i[d] -= a.ne[d]
			return b.at(i[0], i[1], i[2], i[3])
		}), nil
	case rt.OpAdd, rt.OpSub, rt.OpMul, rt.OpDiv:
		return emit(func(i0, i1, i2, i3 int) float64 {
			x, y := a.at(i0, i1, i2, i3), b.at(i0%b.ne[0], i1%b.ne[1], i2%b.ne[2], i3%b.ne[3])
			switch n.Op {
			case rt.OpAdd:
				return x + y
			case rt.OpSub:
				return x - y
			case rt.OpMul:
				return x * y
			}
			return x / y
		}), nil
	case rt.OpGLU:
		return emit(func(i0, i1, i2, i3 int) float64 {
			x, y := a.at(i0, i1, i2, i3), b.at(i0, i1, i2, i3)
			if n.ParamI(0) == rt.GLUSwiGLU {
				return x / (1 + math.Exp(-x)) * y
			}
			return 0.5 * x * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(x+0.044715*x*x*x))) * y
		}), nil
	case rt.OpFlashAttnExt:
		return flashAttn(n, src), nil
	case rt.OpScale, rt.OpSqr, rt.OpSqrt, rt.OpClamp, rt.OpSilu, rt.OpGelu, rt.OpGeluErf, rt.OpRelu,
		rt.OpTanh, rt.OpSigmoid, rt.OpExp, rt.OpNeg:
		p0, p1 := float64(n.ParamF(0)), float64(n.ParamF(1))
		return emit(func(i0, i1, i2, i3 int) float64 {
			x := a.at(i0, i1, i2, i3)
			switch n.Op {
			case rt.OpScale:
				return x*p0 + p1
			case rt.OpSqr:
				return x * x
			case rt.OpSqrt:
				return math.Sqrt(x)
			case rt.OpClamp:
				return math.Min(math.Max(x, p0), p1)
			case rt.OpSilu:
				return x / (1 + math.Exp(-x))
			case rt.OpGelu:
				return 0.5 * x * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(x+0.044715*x*x*x)))
			case rt.OpGeluErf:
				return 0.5 * x * (1 + math.Erf(x/math.Sqrt2))
			case rt.OpRelu:
				return math.Max(x, 0)
			case rt.OpTanh:
				return math.Tanh(x)
			case rt.OpSigmoid:
				return 1 / (1 + math.Exp(-x))
			case rt.OpExp:
				return math.Exp(x)
			}
			return -x
		}), nil
	case rt.OpSum:
		s := 0.0
		for _, x := range a.v {
			s += x
		}
		return []float64{s}, nil
	case rt.OpSumRows, rt.OpMean, rt.OpArgmax, rt.OpNorm, rt.OpRmsNorm, rt.OpSoftMax:
		return rowOp(n, a, b), nil
	case rt.OpMulMat:
		r2, r3 := b.ne[2]/a.ne[2], b.ne[3]/a.ne[3]
		return emit(func(m, nn, i2, i3 int) float64 {
			s := 0.0
			for k := 0; k < a.ne[0]; k++ {
				s += a.at(k, m, i2/r2, i3/r3) * b.at(k, nn, i2, i3)
			}
			return s
		}), nil
	case rt.OpRope:
		return rope(n, a, b, src[2]), nil
	case rt.OpDiagMaskInf:
		nPast := int(n.ParamI(0))
		return emit(func(i0, i1, i2, i3 int) float64 {
			if i0 > nPast+i1 {
				return math.Inf(-1)
			}
			return a.at(i0, i1, i2, i3)
		}), nil
	}
	return nil, fmt.Errorf("no oracle for %v", n.Op)
}

// rowOp evaluates the ops that work on whole rows of a (mask b for SOFT_MAX).
func rowOp(n *rt.Tensor, a, b tensorValues) []float64 {
	var out []float64
	eps := float64(n.ParamF(0))
	each([rt.MaxDims]int{1, a.ne[1], a.ne[2], a.ne[3]}, func(_, i1, i2, i3 int) {
		row := make([]float64, a.ne[0])
		sum, sq := 0.0, 0.0
		for i0 := range row {
			row[i0] = a.at(i0, i1, i2, i3)
			sum += row[i0]
			sq += row[i0] * row[i0]
		}
		k := float64(len(row))
		switch n.Op {
		case rt.OpSumRows:
			out = append(out, sum)
		case rt.OpMean:
			out = append(out, sum/k)
		case rt.OpArgmax:
			best := 0
			for i, x := range row {
				if x > row[best] {
					best = i
				}
			}
			out = append(out, float64(best))
		case rt.OpNorm:
			mean := sum / k
			v := 0.0
			for _, x := range row {
				v += (x - mean) * (x - mean)
			}
			s := 1 / math.Sqrt(v/k+eps)
			for _, x := range row {
				out = append(out, (x-mean)*s)
			}
		case rt.OpRmsNorm:
			s := 1 / math.Sqrt(sq/k+eps)
			for _, x := range row {
				out = append(out, x*s)
			}
		case rt.OpSoftMax:
			mx := math.Inf(-1)
			for i0 := range row {
				row[i0] *= eps // f[0] is the scale
				if c := float64(n.ParamF(1)); c > 0 {
					row[i0] = c * math.Tanh(row[i0]/c)
				}
				if n.Src[1] != nil {
					row[i0] += b.at(i0, i1, i2%b.ne[2], i3%b.ne[3])
				}
				mx = math.Max(mx, row[i0])
			}
			total := 0.0
			for i0 := range row {
				row[i0] = math.Exp(row[i0] - mx)
				total += row[i0]
			}
			for _, x := range row {
				out = append(out, x/total)
			}
		}
	})
	return out
}

// rope follows ggml's rope_yarn: per pair, theta_extrap from the base
// frequency and the factor, theta_interp = freq_scale·theta_extrap, mixed
// by the YaRN ramp when ext_factor is set, with the magnitude correction.
func rope(n *rt.Tensor, a, pos, ff tensorValues) []float64 {
	p := rt.RopeParamsOf(n)
	nDims := p.NDims
	base, freqScale, ext := float64(p.FreqBase), float64(p.FreqScale), float64(p.ExtFactor)
	corrDim := func(nRot float64) float64 {
		return float64(nDims) * math.Log(float64(p.NCtxOrig)/(nRot*2*math.Pi)) / (2 * math.Log(base))
	}
	low := math.Max(0, math.Floor(corrDim(float64(p.BetaFast))))
	high := math.Min(float64(nDims-1), math.Ceil(corrDim(float64(p.BetaSlow))))
	out := append([]float64(nil), a.v...)
	each([rt.MaxDims]int{1, a.ne[1], a.ne[2], a.ne[3]}, func(_, i1, i2, i3 int) {
		pp := pos.at(i2, 0, 0, 0)
		rowStart := ((i3*a.ne[2]+i2)*a.ne[1] + i1) * a.ne[0]
		for i0 := 0; i0 < nDims; i0 += 2 {
			thetaExtrap := pp * math.Pow(base, -float64(i0)/float64(nDims))
			if n.Src[2] != nil {
				thetaExtrap /= ff.v[i0/2]
			}
			thetaInterp := freqScale * thetaExtrap
			theta, mscale := thetaInterp, float64(p.AttnFactor)
			if ext != 0 {
				y := (float64(i0/2) - low) / math.Max(0.001, high-low)
				rampMix := (1 - math.Min(1, math.Max(0, y))) * ext
				theta = thetaInterp*(1-rampMix) + thetaExtrap*rampMix
				mscale *= 1 + 0.1*math.Log(1/freqScale)
			}
			c, s := math.Cos(theta)*mscale, math.Sin(theta)*mscale
			j0, j1 := i0, i0+1
			if p.Mode == rt.RopeNeox {
				j0, j1 = i0/2, i0/2+nDims/2
			}
			x0, x1 := a.v[rowStart+j0], a.v[rowStart+j1]
			out[rowStart+j0] = x0*c - x1*s
			out[rowStart+j1] = x0*s + x1*c
		}
	})
	return out
}

// flashAttn is attention written plainly: all scores of a query row, then
// one softmax, then the weighted sum of values, into the permuted result.
func flashAttn(n *rt.Tensor, src [rt.MaxSrc]tensorValues) []float64 {
	q, k, v, m := src[0], src[1], src[2], src[3]
	scale, softcap := float64(n.ParamF(0)), float64(n.ParamF(2))
	nq, h, nkv := q.ne[1], q.ne[2], k.ne[1]
	out := make([]float64, n.Nelements())
	each([rt.MaxDims]int{1, nq, h, q.ne[3]}, func(_, iq, ih, is int) {
		kh, vh := ih/(h/k.ne[2]), ih/(h/v.ne[2])
		scores := make([]float64, nkv)
		mx := math.Inf(-1)
		for j := range scores {
			s := 0.0
			for d := 0; d < q.ne[0]; d++ {
				s += q.at(d, iq, ih, is) * k.at(d, j, kh, is)
			}
			s *= scale
			if softcap > 0 {
				s = softcap * math.Tanh(s/softcap)
			}
			if n.Src[3] != nil {
				s += m.at(j, iq, ih%m.ne[2], is%m.ne[3])
			}
			scores[j] = s
			mx = math.Max(mx, s)
		}
		total := 0.0
		for j, s := range scores {
			scores[j] = 0
			if !math.IsInf(mx, -1) {
				scores[j] = math.Exp(s - mx)
			}
			total += scores[j]
		}
		for d := 0; d < v.ne[0]; d++ {
			acc := 0.0
			for j, w := range scores {
				if w != 0 {
					acc += w * v.at(d, j, vh, is)
				}
			}
			if total > 0 {
				acc /= total
			}
			out[((is*nq+iq)*h+ih)*v.ne[0]+d] = acc
		}
	})
	return out
}
