package ggmloracle

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	rt "github.com/gpurt/gpurt/runtime"
)

// quantRows and quantK are the shape of RunQuantizeBytes' source: rows of
// two super-blocks (sixteen 32-blocks), one row per kind of input.
const (
	quantK    = 512
	quantRows = 4
)

// quantInput returns the F32 source of RunQuantizeBytes: random values of
// several magnitudes, and a row of the edge cases the searches over scales
// branch on, one per 32 values (zeros, a constant, an outlier, one sign,
// tiny and huge values, exact halves of the quant steps, maxima just below
// powers of two).
func quantInput(seed uint64) []float32 {
	r := rand.New(rand.NewPCG(seed, 13))
	x := make([]float32, quantK*quantRows)
	for i := range quantK {
		x[i] = r.Float32()*2 - 1
	}
	row := x[quantK : 2*quantK]
	for c := 0; c < quantK; c += 32 {
		s := float32(math.Exp(r.NormFloat64() * 2))
		for j := range 32 {
			row[c+j] = float32(r.NormFloat64()) * s
		}
	}
	row = x[2*quantK : 3*quantK]
	for c := 0; c < quantK; c += 32 {
		b := row[c : c+32]
		if c >= 8*32 {
			// A largest magnitude k floats below 2^n: log2f rounds it up to
			// n for the smaller k (MXFP4's exponent).
			nk := [8][2]int{{7, 2}, {7, 3}, {8, 2}, {8, 3}, {-3, 1}, {-3, 2}, {3, 1}, {1, 1}}[c/32-8]
			top := float32(math.Ldexp(float64(1<<24-nk[1]), nk[0]-24))
			for j := range b {
				b[j] = (r.Float32()*2 - 1) * top / 4
			}
			b[5] = top
			if nk[1] == 2 {
				b[5] = -top
			}
			continue
		}
		for j := range b {
			switch c / 32 {
			case 0: // zeros
			case 1:
				b[j] = 0.5
			case 2:
				b[j] = float32(r.NormFloat64()) * 1e-3
				if j == 7 {
					b[j] = 3
				}
			case 3:
				b[j] = r.Float32() + 0.25
			case 4:
				b[j] = -r.Float32() - 0.25
			case 5:
				b[j] = float32(r.NormFloat64()) * 1e-20
			case 6:
				b[j] = float32(r.NormFloat64()) * 1e4
			case 7:
				b[j] = float32(int(r.IntN(17))-8) * 0.5
			}
		}
	}
	row = x[3*quantK:]
	for i := range row {
		row[i] = float32(r.NormFloat64()) * float32(math.Exp(r.NormFloat64()*3))
	}
	return x
}

// RunQuantizeBytes quantizes F32 rows into dtype t on tg, by CPY and by
// SET_ROWS, and requires the bytes of runtime.QuantizeRowCPU (ggml's CPU
// conversion, which the CPU backend's copies use); SET_ROWS must also leave
// the rows it does not name unchanged, and report an index out of range
// with rt.ErrOutOfRange. An op tg does not support fails with
// rt.ErrUnsupported. Each failure goes to fail; it returns how many checks
// ran.
func RunQuantizeBytes(tg Target, t rt.DType, seed uint64, fail func(name string, err error)) int {
	x := quantInput(seed)
	want := make([]byte, t.RowSize(len(x)))
	if err := rt.QuantizeRowCPU(t, x, want); err != nil {
		fail(fmt.Sprintf("quantize %v", t), err)
		return 0
	}
	src := f32Bytes(x)
	rowBytes := t.RowSize(quantK)
	ran := 0

	name := fmt.Sprintf("CPY_f32_%v_%dx%d", t, quantK, quantRows)
	ctx := rt.NewContext()
	a := ctx.NewTensor(rt.F32, quantK, quantRows)
	out := ctx.Cpy(a, ctx.NewTensor(t, quantK, quantRows))
	if got, err := computeBytes(tg, ctx, out, map[*rt.Tensor][]byte{a: src}); err != nil {
		fail(name, err)
	} else if err := sameBytes(got, want, t); err != nil {
		fail(name, err)
	}
	ran++

	// SET_ROWS: the source rows go to rows idx of a six-row destination
	// that starts with other quantized bytes.
	const dstRows = 6
	idx := []int32{4, 0, 5, 2}
	init := make([]byte, dstRows*rowBytes)
	for i := range init {
		init[i] = byte(i*7 + 3)
	}
	expect := append([]byte(nil), init...)
	for r, i := range idx {
		copy(expect[int(i)*rowBytes:], want[r*rowBytes:(r+1)*rowBytes])
	}
	run := func(name string, idx []int32, check func(got []byte, err error) error) {
		ctx := rt.NewContext()
		dst := ctx.NewTensor(t, quantK, dstRows)
		a := ctx.NewTensor(rt.F32, quantK, len(idx))
		ix := ctx.NewTensor(rt.I32, len(idx))
		out := ctx.SetRows(dst, a, ix)
		got, err := computeBytes(tg, ctx, out, map[*rt.Tensor][]byte{dst: init, a: src[:4*quantK*len(idx)], ix: i32Bytes(idx)})
		if err := check(got, err); err != nil {
			fail(name, err)
		}
		ran++
	}
	run(fmt.Sprintf("SET_ROWS_%v_%dx%d", t, quantK, dstRows), idx, func(got []byte, err error) error {
		if err != nil {
			return err
		}
		return sameBytes(got, expect, t)
	})
	// Two slabs of three rows, the indices broadcast over the slabs: source
	// row j of slab s goes to row idx[j] of slab s.
	name = fmt.Sprintf("SET_ROWS_%v_%dx3x2_broadcast", t, quantK)
	ctx = rt.NewContext()
	dst := ctx.NewTensor(t, quantK, 3, 2)
	a = ctx.NewTensor(rt.F32, quantK, 2, 2)
	ix := ctx.NewTensor(rt.I32, 2, 1)
	out = ctx.SetRows(dst, a, ix)
	slab := init[:6*rowBytes]
	expect3 := append([]byte(nil), slab...)
	for s := range 2 {
		for j, i := range []int{2, 0} {
			copy(expect3[(3*s+i)*rowBytes:], want[(2*s+j)*rowBytes:(2*s+j+1)*rowBytes])
		}
	}
	if got, err := computeBytes(tg, ctx, out, map[*rt.Tensor][]byte{dst: slab, a: src, ix: i32Bytes([]int32{2, 0})}); err != nil {
		fail(name, err)
	} else if err := sameBytes(got, expect3, t); err != nil {
		fail(name, err)
	}
	ran++
	run(fmt.Sprintf("SET_ROWS_%v_index_out_of_range", t), []int32{1, dstRows}, func(_ []byte, err error) error {
		if !errors.Is(err, rt.ErrOutOfRange) {
			return fmt.Errorf("index %d of %d rows: got %v, want an error wrapping rt.ErrOutOfRange", dstRows, dstRows, err)
		}
		return nil
	})
	return ran
}

// computeBytes allocates ctx on tg, fills the tensors given, runs the
// graph of out and returns out's bytes.
func computeBytes(tg Target, ctx *rt.Context, out *rt.Tensor, data map[*rt.Tensor][]byte) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	g, err := ctx.BuildGraph(out)
	if err != nil {
		return nil, err
	}
	for _, n := range g.Nodes {
		if !tg.Backend.Device().SupportsOp(n) {
			return nil, fmt.Errorf("%v into %v: %w on %s", n.Op, n.Type, rt.ErrUnsupported, tg.Backend.Name())
		}
	}
	buf, err := rt.AllocContextTensors(ctx, tg.BufferType)
	if err != nil {
		return nil, err
	}
	defer buf.Free()
	for t, b := range data {
		if err := rt.TensorSet(t, b, 0); err != nil {
			return nil, err
		}
	}
	if err := tg.Backend.GraphCompute(g); err != nil {
		return nil, err
	}
	if err := tg.Backend.Synchronize(); err != nil {
		return nil, err
	}
	raw := make([]byte, out.Nbytes())
	if err := rt.TensorGet(out, raw, 0); err != nil {
		return nil, err
	}
	return raw, nil
}

func f32Bytes(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		u := math.Float32bits(f)
		b[4*i], b[4*i+1], b[4*i+2], b[4*i+3] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
	}
	return b
}

func i32Bytes(v []int32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		u := uint32(x)
		b[4*i], b[4*i+1], b[4*i+2], b[4*i+3] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
	}
	return b
}
