package cpu

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// The op tests build a small graph, fill its leaves with fixed random data,
// run it with 1, 3 and 4 threads (which must give identical bytes), and
// compare the result with a reference computed by plain float64 loops in
// these files from the inputs' logical values. Inputs are read back with the
// test's own decoder (elem), not the backend's row loaders.

// arr is a tensor's logical values, dimension 0 fastest.
type arr struct {
	ne [4]int
	v  []float64
}

func newArr(ne [4]int) arr { return arr{ne: ne, v: make([]float64, ne[0]*ne[1]*ne[2]*ne[3])} }

func (a arr) idx(i0, i1, i2, i3 int) int { return i0 + a.ne[0]*(i1+a.ne[1]*(i2+a.ne[2]*i3)) }

func (a arr) at(i0, i1, i2, i3 int) float64 { return a.v[a.idx(i0, i1, i2, i3)] }

func (a arr) set(i0, i1, i2, i3 int, v float64) { a.v[a.idx(i0, i1, i2, i3)] = v }

// each calls f for every index, dimension 0 fastest.
func (a arr) each(f func(i0, i1, i2, i3 int)) {
	for i3 := 0; i3 < a.ne[3]; i3++ {
		for i2 := 0; i2 < a.ne[2]; i2++ {
			for i1 := 0; i1 < a.ne[1]; i1++ {
				for i0 := 0; i0 < a.ne[0]; i0++ {
					f(i0, i1, i2, i3)
				}
			}
		}
	}
}

// elem decodes element (i0,i1,i2,i3) of t straight from its buffer.
func elem(t *rt.Tensor, i0, i1, i2, i3 int) float64 {
	mem := t.Buffer.(rt.HostBuffer).Bytes()
	row := t.Offset + i1*t.Nb[1] + i2*t.Nb[2] + i3*t.Nb[3]
	u16 := func(o int) uint16 { return uint16(mem[o]) | uint16(mem[o+1])<<8 }
	u32 := func(o int) uint32 { return binary.LittleEndian.Uint32(mem[o:]) }
	switch t.Type {
	case rt.F32:
		return float64(math.Float32frombits(u32(row + i0*t.Nb[0])))
	case rt.F16:
		return float64(rt.F16ToF32(u16(row + i0*t.Nb[0])))
	case rt.BF16:
		return float64(math.Float32frombits(uint32(u16(row+i0*t.Nb[0])) << 16))
	case rt.I32:
		return float64(int32(u32(row + i0*t.Nb[0])))
	case rt.Q8_0:
		blk := row + i0/32*t.Nb[0]
		return float64(rt.F16ToF32(u16(blk))) * float64(int8(mem[blk+2+i0%32]))
	case rt.Q4_0:
		blk, j := row+i0/32*t.Nb[0], i0%32
		q := mem[blk+2+j%16]
		if j >= 16 {
			q >>= 4
		}
		return float64(rt.F16ToF32(u16(blk))) * float64(int(q&15)-8)
	}
	if t.Type.IsQuantized() {
		// The other block types through runtime's to_float, which the
		// runtime tests check against ggml's values.
		bs := t.Type.BlockSize()
		blk := row + i0/bs*t.Nb[0]
		vals := make([]float32, bs)
		if err := rt.DequantizeRow(t.Type, mem[blk:blk+t.Type.TypeSize()], vals); err != nil {
			panic(err)
		}
		return float64(vals[i0%bs])
	}
	panic("elem: dtype " + t.Type.String())
}

// read returns t's logical values.
func read(t *rt.Tensor) arr {
	a := newArr(t.Ne)
	a.each(func(i0, i1, i2, i3 int) { a.set(i0, i1, i2, i3, elem(t, i0, i1, i2, i3)) })
	return a
}

// rawBytes copies the bytes t spans.
func rawBytes(t *rt.Tensor) []byte {
	mem := t.Buffer.(rt.HostBuffer).Bytes()
	return bytes.Clone(mem[t.Offset : t.Offset+t.Nbytes()])
}

// roundTo rounds v as storing it in dtype typ would (for plain dtypes).
func roundTo(typ rt.DType, v float64) float64 {
	f := float32(v)
	switch typ {
	case rt.F16:
		return float64(rt.F16ToF32(rt.F32ToF16(f)))
	case rt.BF16:
		return float64(rt.BF16ToF32(rt.F32ToBF16(f)))
	case rt.I32:
		return float64(int32(f))
	}
	return float64(f)
}

// quantRows replaces each row of a by its round trip through quantized
// dtype typ as the CPU stores it (CPY, SET_ROWS: ggml's from_float), which
// the quantizer tests in runtime check against ggml.
func quantRows(typ rt.DType, a arr) arr { return roundTrip(rt.QuantizeRowCPU, typ, a) }

// rowLen is a row length the tests use for dtype typ: 64 values, or one
// block where blocks are longer.
func rowLen(typ rt.DType) int { return max(64, typ.BlockSize()) }

// roundTrip replaces each row of a by its round trip through quantize and
// typ's dequantizer.
func roundTrip(quantize func(rt.DType, []float32, []byte) error, typ rt.DType, a arr) arr {
	out := newArr(a.ne)
	n := a.ne[0]
	buf := make([]byte, typ.RowSize(n))
	row, back := make([]float32, n), make([]float32, n)
	for r := 0; r < len(a.v)/max(n, 1); r++ {
		for i := range row {
			row[i] = float32(a.v[r*n+i])
		}
		if err := quantize(typ, row, buf); err != nil {
			panic(err)
		}
		if err := rt.DequantizeRow(typ, buf, back); err != nil {
			panic(err)
		}
		for i, v := range back {
			out.v[r*n+i] = float64(v)
		}
	}
	return out
}

// tb builds a test graph and remembers how to fill its leaves.
type tb struct {
	ctx    *rt.Context
	rng    *rand.Rand
	fills  []func() error
	lo, hi float64  // range of rand's values
	kern   *kernels // the kernels of the backend under test, nil for the reference loops (set before ref is called)
}

func newTB(seed string) *tb {
	h := fnv.New64a()
	h.Write([]byte(seed))
	return &tb{ctx: rt.NewContext(), rng: rand.New(rand.NewPCG(h.Sum64(), 7)), lo: -1, hi: 1}
}

// values makes a leaf holding vals (converted to typ when set).
func (b *tb) values(typ rt.DType, vals []float32, ne ...int) *rt.Tensor {
	x := b.ctx.NewTensor(typ, ne...)
	b.fills = append(b.fills, func() error { return rt.TensorSetF32(x, vals) })
	return x
}

// randIn makes a leaf of uniform random values in [lo, hi).
func (b *tb) randIn(lo, hi float64, typ rt.DType, ne ...int) *rt.Tensor {
	n := 1
	for _, d := range ne {
		n *= d
	}
	vals := make([]float32, n)
	for i := range vals {
		vals[i] = float32(lo + (hi-lo)*b.rng.Float64())
	}
	return b.values(typ, vals, ne...)
}

// rand makes a leaf of random values in [b.lo, b.hi); I32 leaves get
// integers in [-1000, 1000).
func (b *tb) rand(typ rt.DType, ne ...int) *rt.Tensor {
	if typ == rt.I32 {
		n := 1
		for _, d := range ne {
			n *= d
		}
		v := make([]int32, n)
		for i := range v {
			v[i] = int32(b.rng.IntN(2000) - 1000)
		}
		return b.ints(v, ne...)
	}
	return b.randIn(b.lo, b.hi, typ, ne...)
}

// ints makes an I32 leaf.
func (b *tb) ints(vals []int32, ne ...int) *rt.Tensor {
	x := b.ctx.NewTensor(rt.I32, ne...)
	b.fills = append(b.fills, func() error { return rt.TensorSetI32(x, vals) })
	return x
}

// transposed makes a non-contiguous tensor of logical shape ne: a transposed
// leaf for plain dtypes, dims 1 and 2 swapped for quantized ones (whose
// rows cannot be split).
func (b *tb) transposed(typ rt.DType, ne ...int) *rt.Tensor {
	s := [4]int{1, 1, 1, 1}
	copy(s[:], ne)
	if typ.IsQuantized() {
		return b.ctx.Permute(b.rand(typ, s[0], s[2], s[1], s[3]), 0, 2, 1, 3)
	}
	return b.ctx.Transpose(b.rand(typ, s[1], s[0], s[2], s[3]))
}

// offsetView makes a view of logical shape ne at a non-zero offset inside a
// larger leaf, with gaps between rows and matrices.
func (b *tb) offsetView(typ rt.DType, ne ...int) *rt.Tensor {
	s := [4]int{1, 1, 1, 1}
	copy(s[:], ne)
	pad := typ.BlockSize()
	if pad == 1 {
		pad = 3
	}
	big := b.rand(typ, s[0]+pad, s[1]+1, s[2]+1, s[3])
	off := big.Nb[1] + big.Nb[0] // second row, second unit
	return b.ctx.View4D(big, s[0], s[1], s[2], s[3], big.Nb[1], big.Nb[2], big.Nb[3], off)
}

func (b *tb) fill() error {
	for _, f := range b.fills {
		if err := f(); err != nil {
			return err
		}
	}
	return nil
}

// opCase is one op test: build makes the graph's output and a reference
// function, called after the leaves are filled and before compute.
type opCase struct {
	name  string
	build func(b *tb) (out *rt.Tensor, ref func() arr)
	tol   float64 // relative tolerance; 0 picks one from the output dtype
}

func defaultTol(t rt.DType) float64 {
	switch t {
	case rt.F16:
		return 1e-3
	case rt.BF16:
		return 8e-3
	case rt.Q8_0, rt.Q4_0:
		return 1e-5 // references apply the quantization themselves
	case rt.I32:
		return 0
	}
	return 2e-6
}

// inplaceable reports whether out could alias its src0 exactly.
func inplaceable(out *rt.Tensor) bool {
	s := out.Src[0]
	return out.Op.CanInplace() && s != nil && s.Op == rt.OpNone && s.Type == out.Type &&
		s.Ne == out.Ne && s.IsContiguous()
}

func runOpCases(t *testing.T, cases []opCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if runOpCase(t, tc, false) {
				t.Run("inplace", func(t *testing.T) { runOpCase(t, tc, true) })
			}
		})
	}
}

// backendModes are the kernel sets the op tests run: the reference loops
// (nil), the portable fast paths, and the SIMD ones where the CPU has them.
func backendModes() []*kernels { return append([]*kernels{nil}, kernelSets()...) }

func modeName(k *kernels) string {
	if k == nil {
		return "reference"
	}
	return k.name
}

// runOpCase runs tc on every backend mode and reports whether it could also
// run in place.
func runOpCase(t *testing.T, tc opCase, inplace bool) bool {
	t.Helper()
	b := newTB(tc.name)
	out, ref := tc.build(b)
	if err := b.ctx.Err(); err != nil {
		t.Fatalf("build: %v", err)
	}
	if !supportsOp(out) {
		t.Fatalf("supportsOp(%v) = false: %v", out, validate(out))
	}
	g, err := b.ctx.BuildGraph(out)
	if err != nil {
		t.Fatal(err)
	}
	free, err := allocTight(b.ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer free()
	if inplace {
		out.Buffer, out.Offset = out.Src[0].Buffer, out.Src[0].Offset
	}
	tol := tc.tol
	if tol == 0 {
		tol = defaultTol(out.Type)
	}
	for _, mode := range backendModes() {
		if err := b.fill(); err != nil {
			t.Fatal(err)
		}
		b.kern = mode
		want := ref()
		var first []byte
		for _, threads := range []int{1, 3, 4} {
			if err := b.fill(); err != nil {
				t.Fatal(err)
			}
			be := newBackend(threads, mode)
			be.grain = 1 // split even tiny ops over every worker
			err := be.GraphCompute(g)
			be.Close()
			if err != nil {
				t.Fatalf("%s, %d threads: %v", modeName(mode), threads, err)
			}
			got := rawBytes(out)
			if first == nil {
				first = got
			} else if !bytes.Equal(first, got) {
				t.Fatalf("%s: %d threads give different bytes than 1 thread", modeName(mode), threads)
			}
		}
		if !checkClose(t, read(out), want, tol) {
			t.Fatalf("%s kernels are wrong", modeName(mode))
		}
	}
	return !inplace && inplaceable(out)
}

// allocTight gives every tensor a buffer of exactly its size, so that a
// kernel reading or writing past a tensor fails instead of touching a
// neighbour.
func allocTight(ctx *rt.Context) (free func(), err error) {
	var bufs []rt.Buffer
	free = func() {
		for _, b := range bufs {
			b.Free()
		}
	}
	bt := BufferType()
	for _, x := range ctx.Tensors() {
		if x.ViewSrc != nil {
			continue
		}
		buf, err := bt.Alloc(bt.AllocSize(x))
		if err != nil {
			free()
			return nil, err
		}
		bufs = append(bufs, buf)
		if x.Op == rt.OpNone {
			// Leaves stand for weights: MUL_MAT may use repacked copies of
			// them (repack.go), which every fill must invalidate.
			buf.SetUsage(rt.UsageWeights)
		}
		if err := rt.AllocTensor(buf, x, 0); err != nil {
			free()
			return nil, err
		}
	}
	for _, x := range ctx.Tensors() {
		if x.ViewSrc != nil {
			if err := rt.InitView(x); err != nil {
				free()
				return nil, err
			}
		}
	}
	return free, nil
}

// closeTo compares with a relative tolerance that turns absolute near 0;
// NaN and infinities must match exactly.
func closeTo(got, want, tol float64) bool {
	switch {
	case math.IsNaN(want):
		return math.IsNaN(got)
	case math.IsInf(want, 0):
		return got == want
	}
	return math.Abs(got-want) <= tol*(1+math.Abs(want))
}

// checkClose reports each differing element (the first few) as an error
// and returns whether all agreed.
func checkClose(t *testing.T, got, want arr, tol float64) bool {
	t.Helper()
	if got.ne != want.ne {
		t.Errorf("shape %v, want %v", got.ne, want.ne)
		return false
	}
	bad := 0
	want.each(func(i0, i1, i2, i3 int) {
		g, w := got.at(i0, i1, i2, i3), want.at(i0, i1, i2, i3)
		if !closeTo(g, w, tol) {
			if bad < 5 {
				t.Errorf("[%d,%d,%d,%d] = %v, want %v", i0, i1, i2, i3, g, w)
			}
			bad++
		}
	})
	if bad > 0 {
		t.Errorf("%d of %d elements differ (tol %g)", bad, len(want.v), tol)
	}
	return bad == 0
}

func shapeName(ne ...int) string { return fmt.Sprint(ne) }
