package cpu

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// ggmlOracle is upstream ggml's reference data for the weight types
// (../shared/oracle/ggml, see its README).
const ggmlOracle = "../../shared/oracle/ggml"

// kquantTypes are the weight types kquants.go runs.
var kquantTypes = []rt.DType{rt.Q4_K, rt.Q6_K, rt.Q5_K, rt.Q3_K, rt.Q2_K, rt.IQ4_XS,
	rt.Q5_0, rt.IQ4_NL, rt.Q4_1, rt.Q5_1, rt.MXFP4, rt.TQ1_0, rt.TQ2_0}

type oracleCase struct {
	Name   string
	Kind   string
	WType  string `json:"wtype"`
	Params map[string]any
	Inputs []struct {
		Type string
		Ne   [4]int
		File string
	}
	Out struct {
		Ne   [4]int
		File string
	}
}

func readOracle(t *testing.T, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(ggmlOracle, name))
	if os.IsNotExist(err) {
		t.Skipf("ggml oracle data not found at %s (../shared is absent)", ggmlOracle)
	}
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := v.(*[]byte); ok {
		*p = data
		return
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatal(err)
	}
}

func readOracleF32(t *testing.T, name string) []float32 {
	var b []byte
	readOracle(t, name, &b)
	f := make([]float32, len(b)/4)
	for i := range f {
		f[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return f
}

func oracleCases(t *testing.T) []oracleCase {
	var m struct{ Cases []oracleCase }
	readOracle(t, "manifest.json", &m)
	return m.Cases
}

func nmse(got, want []float32) float64 {
	var num, den float64
	for i := range want {
		d := float64(got[i]) - float64(want[i])
		num += d * d
		den += float64(want[i]) * float64(want[i])
	}
	return num / den
}

// The portable dequantizers reproduce ggml's to_float exactly, for every
// quantizer row of the oracle.
func TestDequantRowOracle(t *testing.T) {
	var q struct {
		Rows []struct {
			Name, Type, Ref, Deq string
			K                    int
		}
	}
	readOracle(t, "quant.json", &q)
	seen := map[rt.DType]int{}
	for _, r := range q.Rows {
		typ, err := rt.ParseDType(r.Type)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := goKernels.typeDotFor(typ); !ok {
			continue
		}
		var ref []byte
		readOracle(t, r.Ref, &ref)
		want := readOracleF32(t, r.Deq)
		got := make([]float32, r.K)
		dequantRowGo(typ, ref, got)
		for i := range want {
			if got[i] != want[i] && !(math.IsNaN(float64(got[i])) && math.IsNaN(float64(want[i]))) {
				t.Errorf("%s: value %d = %v, want %v", r.Name, i, got[i], want[i])
				break
			}
		}
		seen[typ]++
	}
	for _, typ := range kquantTypes {
		if seen[typ] == 0 {
			t.Errorf("no oracle rows for %v", typ)
		}
	}
}

// oracleMulMat computes an oracle MUL_MAT case with k's quantizers and
// integer dots.
func oracleMulMat(t *testing.T, k *kernels, c oracleCase) []float32 {
	typ, err := rt.ParseDType(c.WType)
	if err != nil {
		t.Fatal(err)
	}
	td, _ := k.typeDotFor(typ)
	var w []byte
	readOracle(t, c.Inputs[0].File, &w)
	x := readOracleF32(t, c.Inputs[1].File)
	K, M, N := int(c.Params["K"].(float64)), int(c.Params["M"].(float64)), int(c.Params["N"].(float64))
	rowBytes := typ.RowSize(K)
	out := make([]float32, M*N)
	for n := 0; n < N; n++ {
		xr := x[n*K : (n+1)*K]
		if td.vec == rt.Q8_K {
			var q q8KRows
			q.resize(1, K/rt.QKK)
			k.quantizeQ8K(xr, q.row(0))
			for m := 0; m < M; m++ {
				out[n*M+m] = td.dotK(w[m*rowBytes:(m+1)*rowBytes], q.row(0))
			}
			continue
		}
		var q q8Rows
		q.resize(1, K/rt.QK)
		k.quantizeQ8(xr, q.row(0), make([]byte, rt.Q8_0.RowSize(K)))
		for m := 0; m < M; m++ {
			out[n*M+m] = td.dot(w[m*rowBytes:(m+1)*rowBytes], q.row(0))
		}
	}
	return out
}

// Every kernel set's integer MUL_MAT of every weight type is within
// ggml's own MUL_MAT tolerance (NMSE 5e-4) of ggml's CPU result, and in
// fact equal to it up to float rounding.
func TestTypeDotsOracle(t *testing.T) {
	cases := oracleCases(t)
	for _, k := range kernelSets() {
		seen := map[string]int{}
		for _, c := range cases {
			typ, err := rt.ParseDType(c.WType)
			if c.Kind != "mul_mat" || err != nil {
				continue
			}
			if _, ok := k.typeDotFor(typ); !ok {
				continue
			}
			got := oracleMulMat(t, k, c)
			want := readOracleF32(t, c.Out.File)
			// Beyond ggml's tolerance: the activations quantize exactly as
			// ggml's and the integer sums are exact, so only float rounding
			// differs; Q8_1's block sums, which ggml rounds to half, are exact
			// here.
			faithful := 1e-9
			if td, _ := k.typeDotFor(typ); td.vec == rt.Q8_1 {
				faithful = 1e-5
			}
			if e := nmse(got, want); !(e <= 5e-4) {
				t.Errorf("%s %s: NMSE %.3g, want <= 5e-4", k.name, c.Name, e)
			} else if e > faithful {
				t.Errorf("%s %s: NMSE %.3g against ggml's own result, want <= %g", k.name, c.Name, e, faithful)
			}
			seen[c.WType]++
		}
		for _, typ := range kquantTypes {
			if seen[typ.String()] == 0 {
				t.Errorf("%s: no oracle MUL_MAT cases for %v", k.name, typ)
			}
		}
	}
}

// The Q8_K quantizer matches ggml's quantize_row_q8_K_ref on blocks with
// a negative or positive extreme, zeros and odd values.
func TestQuantizeQ8K(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, k := range kernelSets() {
		for _, nb := range []int{0, 1, 3} {
			x := randF32(rng, nb*rt.QKK, -2, 2)
			if nb >= 3 {
				clear(x[rt.QKK : 2*rt.QKK]) // an all-zero block
				x[2*rt.QKK+5] = -7          // a negative extreme
				x[5] = 7                    // a positive one
			}
			var want, got q8KRows
			want.resize(1, nb)
			got.resize(1, nb)
			quantizeQ8KGo(x, want.row(0))
			k.quantizeQ8K(x, got.row(0))
			for i := range want.qs {
				if got.qs[i] != want.qs[i] {
					t.Fatalf("%s nb=%d: qs[%d] = %d, want %d", k.name, nb, i, got.qs[i], want.qs[i])
				}
			}
			for i := range want.d {
				if got.d[i] != want.d[i] {
					t.Errorf("%s nb=%d: d[%d] = %v, want %v", k.name, nb, i, got.d[i], want.d[i])
				}
			}
			for i := range want.bsums {
				if got.bsums[i] != want.bsums[i] {
					t.Fatalf("%s nb=%d: bsums[%d] = %d, want %d", k.name, nb, i, got.bsums[i], want.bsums[i])
				}
			}
		}
	}
}

// q8KRoundTrip is a's rows quantized to Q8_K and back, as the fast
// MUL_MAT multiplies them with K-quant weights.
func q8KRoundTrip(a arr) arr {
	out := newArr(a.ne)
	n := a.ne[0]
	row := make([]float32, n)
	var q q8KRows
	q.resize(1, n/rt.QKK)
	y := q.row(0)
	for r := 0; r < len(a.v)/max(n, 1); r++ {
		for i := range row {
			row[i] = float32(a.v[r*n+i])
		}
		quantizeQ8KGo(row, y)
		for i, v := range y.qs {
			out.v[r*n+i] = float64(float32(v) * y.d[i/rt.QKK])
		}
	}
	return out
}

// hostOf lays out a packed tensor of type typ and shape ne over mem.
func hostOf(typ rt.DType, ne [4]int, mem []byte) hostTensor {
	h := hostTensor{typ: typ, ne: ne, mem: mem}
	h.nb[0] = typ.TypeSize()
	h.nb[1] = typ.RowSize(ne[0])
	h.nb[2] = h.nb[1] * ne[1]
	h.nb[3] = h.nb[2] * ne[2]
	return h
}

// The backend's fast MUL_MAT (the dot path for N < 16, the packed GEMM
// for N = 33) of every weight type, on every kernel set, is within
// NMSE 5e-4 of ggml's CPU result.
func TestMulMatFastOracle(t *testing.T) {
	cases := oracleCases(t)
	for _, k := range kernelSets() {
		b := newBackend(2, k)
		b.grain = 1 // split even the small cases between the workers
		for _, c := range cases {
			typ, err := rt.ParseDType(c.WType)
			if c.Kind != "mul_mat" || err != nil {
				continue
			}
			if _, ok := k.typeDotFor(typ); !ok {
				continue
			}
			var wb []byte
			readOracle(t, c.Inputs[0].File, &wb)
			x := readOracleF32(t, c.Inputs[1].File)
			xb := make([]byte, 4*len(x))
			for i, v := range x {
				binary.LittleEndian.PutUint32(xb[4*i:], math.Float32bits(v))
			}
			want := readOracleF32(t, c.Out.File)
			db := make([]byte, 4*len(want))
			w := hostOf(typ, c.Inputs[0].Ne, wb)
			xt := hostOf(rt.F32, c.Inputs[1].Ne, xb)
			dst := hostOf(rt.F32, c.Out.Ne, db)
			if err := b.mulMatFast(w, xt, dst); err != nil {
				t.Fatalf("%s %s: %v", k.name, c.Name, err)
			}
			got := make([]float32, len(want))
			for i := range got {
				got[i] = math.Float32frombits(binary.LittleEndian.Uint32(db[4*i:]))
			}
			if e := nmse(got, want); !(e <= 5e-4) {
				t.Errorf("%s %s: NMSE %.3g, want <= 5e-4", k.name, c.Name, e)
			}
		}
		b.Close()
	}
}

// randomBlocks fills nb blocks of type t with random bytes whose scales
// are ordinary halves (and, for MXFP4, exponents near 1).
func randomBlocks(rng *rand.Rand, t rt.DType, nb int) []byte {
	size := t.TypeSize()
	w := make([]byte, nb*size)
	for i := range w {
		w[i] = byte(rng.Uint32())
	}
	halves := map[rt.DType][]int{
		rt.Q2_K: {80, 82}, rt.Q3_K: {108}, rt.Q4_K: {0, 2}, rt.Q5_K: {0, 2}, rt.Q6_K: {208},
		rt.IQ4_XS: {0}, rt.TQ1_0: {52}, rt.TQ2_0: {64},
		rt.Q4_1: {0, 2}, rt.Q5_0: {0}, rt.Q5_1: {0, 2}, rt.IQ4_NL: {0},
	}
	for b := 0; b < nb; b++ {
		blk := w[b*size : (b+1)*size]
		for _, off := range halves[t] {
			binary.LittleEndian.PutUint16(blk[off:], rt.F32ToF16(rng.Float32()*2-1))
		}
		if t == rt.MXFP4 {
			blk[0] = byte(118 + rng.IntN(20))
		}
	}
	return w
}

// Every kernel set's dot of every added type equals the portable one on
// random blocks, for runs of 1 to 9 blocks.
func TestTypeDotKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for _, k := range kernelSets() {
		for _, typ := range kquantTypes {
			td, _ := k.typeDotFor(typ)
			ref, _ := goKernels.typeDotFor(typ)
			for _, nb := range []int{0, 1, 2, 3, 9} {
				n := nb * typ.BlockSize()
				w := randomBlocks(rng, typ, nb)
				x := randF32(rng, n, -1, 1)
				wd := make([]float32, n)
				dequantRowGo(typ, w, wd)
				var got, want float32
				var mag float64
				if td.vec == rt.Q8_K {
					var q q8KRows
					q.resize(1, nb)
					goKernels.quantizeQ8K(x, q.row(0))
					got, want = td.dotK(w, q.row(0)), ref.dotK(w, q.row(0))
					for i, v := range q.qs {
						mag += math.Abs(float64(wd[i]) * float64(v) * float64(q.d[i/rt.QKK]))
					}
				} else {
					var q q8Rows
					q.resize(1, nb*typ.BlockSize()/rt.QK)
					goKernels.quantizeQ8(x, q.row(0), make([]byte, rt.Q8_0.RowSize(n)))
					got, want = td.dot(w, q.row(0)), ref.dot(w, q.row(0))
					for i, v := range q.qs {
						mag += math.Abs(float64(wd[i]) * float64(v) * float64(q.d[i/rt.QK]))
					}
				}
				if !near(float64(got), float64(want), mag, 1e-5) {
					t.Errorf("%s %v nb=%d: %v, want %v", k.name, typ, nb, got, want)
				}
			}
		}
	}
}

// BenchmarkMulMatTypes times the fast MUL_MAT of 4096×4096 weights of each
// added type with N = 1 and 8 x rows, reporting the weight read rate.
func BenchmarkMulMatTypes(b *testing.B) {
	const K, M = 4096, 4096
	rng := rand.New(rand.NewPCG(1, 2))
	for _, typ := range kquantTypes {
		wb := randomBlocks(rng, typ, M*K/typ.BlockSize())
		w := hostOf(typ, [4]int{K, M, 1, 1}, wb)
		for _, n := range []int{1, 8} {
			xb := make([]byte, 4*K*n)
			for i := 0; i < K*n; i++ {
				binary.LittleEndian.PutUint32(xb[4*i:], math.Float32bits(rng.Float32()*2-1))
			}
			x := hostOf(rt.F32, [4]int{K, n, 1, 1}, xb)
			dst := hostOf(rt.F32, [4]int{M, n, 1, 1}, make([]byte, 4*M*n))
			b.Run(fmt.Sprintf("%v/N=%d", typ, n), func(b *testing.B) {
				be := newBackend(0, defaultKernels())
				defer be.Close()
				b.SetBytes(int64(len(wb)))
				for b.Loop() {
					if err := be.mulMatFast(w, x, dst); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// The four-row K-quant kernels equal four one-row dots.
func TestTypeDotK4Kernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	for _, k := range kernelSets() {
		for _, typ := range kquantTypes {
			td, _ := k.typeDotFor(typ)
			if td.dotK4 == nil {
				continue
			}
			for _, nb := range []int{0, 1, 2, 5} {
				w := randomBlocks(rng, typ, nb)
				var q q8KRows
				q.resize(6, nb)
				for r := 0; r < 6; r++ {
					k.quantizeQ8K(randF32(rng, nb*rt.QKK, -1, 1), q.row(r))
				}
				for _, r0 := range []int{0, 2} {
					got := [4]float32{7, 7, 7, 7}
					td.dotK4(w, &q, r0, &got)
					for c := 0; c < 4; c++ {
						want := td.dotK(w, q.row(r0+c))
						// The x4 and one-row kernels may round their float
						// scales in different orders: the tolerance scales
						// with the products' magnitude, as in TestTypeDotKernels.
						if !near(float64(got[c]), float64(want), dotMagK(typ, w, q.row(r0+c))+1, 1e-5) {
							t.Errorf("%s %v nb=%d row %d: %v, want %v", k.name, typ, nb, r0+c, got[c], want)
						}
					}
				}
			}
		}
	}
}

// The many-row K-quant kernels equal one-row dots of each row, bit for
// bit, on rows at a stride past their blocks, and write no further.
func TestTypeDotKRowsKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	for _, k := range kernelSets() {
		for _, typ := range kquantTypes {
			td, _ := k.typeDotFor(typ)
			if td.dotKRows == nil {
				continue
			}
			for _, nb := range []int{0, 1, 2, 5} {
				for _, rows := range []int{1, 3, 16} {
					ldw := typ.RowSize(nb*typ.BlockSize()) + 7
					w := make([]byte, rows*ldw)
					for r := range rows {
						copy(w[r*ldw:], randomBlocks(rng, typ, nb))
					}
					var q q8KRows
					q.resize(1, nb)
					k.quantizeQ8K(randF32(rng, nb*rt.QKK, -1, 1), q.row(0))
					checkRowsKernel(t, fmt.Sprintf("%s %v nb=%d", k.name, typ, nb), rows,
						func(out []float32) { td.dotKRows(w, ldw, q.row(0), out) },
						func(r int) float32 { return td.dotK(w[r*ldw:], q.row(0)) })
				}
			}
		}
	}
}

// The Q8_0 Rows dot gives dotQ8's bits for each row.
func TestDotQ8RowsKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 30))
	for _, k := range kernelSets() {
		if k.dotQ8Rows == nil {
			continue
		}
		for _, nb := range []int{0, 1, 2, 3, 32} {
			for _, rows := range []int{1, 3, 16} {
				ldw := rt.Q8_0.RowSize(nb*rt.QK) + 5
				w := make([]byte, rows*ldw)
				for r := range rows {
					if err := rt.QuantizeRow(rt.Q8_0, randF32(rng, nb*rt.QK, -2, 2), w[r*ldw:]); err != nil {
						t.Fatal(err)
					}
				}
				var q q8Rows
				q.resize(1, nb)
				k.quantizeQ8(randF32(rng, nb*rt.QK, -1, 1), q.row(0), make([]byte, rt.Q8_0.RowSize(nb*rt.QK)))
				checkRowsKernel(t, fmt.Sprintf("%s q8_0 nb=%d", k.name, nb), rows,
					func(out []float32) { k.dotQ8Rows(w, ldw, q.row(0), out) },
					func(r int) float32 { return k.dotQ8(w[r*ldw:], q.row(0)) })
			}
		}
	}
}

// checkRowsKernel checks that rowsDot, given rows results, writes the
// bits one(r) gives for each row r and nothing past them.
func checkRowsKernel(t *testing.T, name string, rows int, rowsDot func(out []float32), one func(r int) float32) {
	t.Helper()
	out := make([]float32, rows+1)
	out[rows] = 7
	rowsDot(out[:rows])
	for r := range rows {
		if want := one(r); math.Float32bits(out[r]) != math.Float32bits(want) {
			t.Errorf("%s rows=%d row %d: %v, want %v", name, rows, r, out[r], want)
		}
	}
	if out[rows] != 7 {
		t.Errorf("%s rows=%d: wrote past the last row", name, rows)
	}
}

// MXFP4's subnormal (e < 2) and extreme scales reach the SIMD kernels as
// ggml decodes them, in a lone block and in the blocks of a run of five
// (which the AVX-512 kernel does four at a time).
func TestMXFP4Scales(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	for _, k := range kernelSets() {
		for _, nb := range []int{1, 5} {
			for _, e := range []byte{0, 1, 2, 127, 200} {
				w := randomBlocks(rng, rt.MXFP4, nb)
				for b := 0; b < nb; b++ {
					w[b*rt.MXFP4.TypeSize()] = e
				}
				var q q8Rows
				q.resize(1, nb)
				goKernels.quantizeQ8(randF32(rng, nb*rt.QK, -1, 1), q.row(0), make([]byte, rt.Q8_0.RowSize(nb*rt.QK)))
				got, want := k.dotMXFP4(w, q.row(0)), goKernels.dotMXFP4(w, q.row(0))
				if !near(float64(got), float64(want), math.Abs(float64(want)), 1e-6) {
					t.Errorf("%s nb=%d e=%d: %v, want %v", k.name, nb, e, got, want)
				}
			}
		}
	}
}
