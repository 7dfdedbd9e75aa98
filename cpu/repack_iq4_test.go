package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// The repacked MXFP4 and IQ4_NL dots (portable and assembly forms) equal
// the dots of the rows as stored, for block counts below, at and past a
// group of 16, with every scale from MXFP4's subnormal halves up.
func TestBlockRepackedKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	for _, tc := range []struct {
		typ    rt.DType
		group  int
		repack func(w []byte, nb int, p []byte)
		goDot  func([]byte, *iq4Act) float32
		asm    func(k *kernels) func([]byte, *iq4Act) float32
	}{
		{rt.MXFP4, mxGroupBytes, repackMXFP4, dotMXFP4RGo, func(k *kernels) func([]byte, *iq4Act) float32 { return k.dotMXFP4R }},
		{rt.IQ4_NL, nlGroupBytes, repackIQ4NL, dotIQ4NLRGo, func(k *kernels) func([]byte, *iq4Act) float32 { return k.dotIQ4NLR }},
		{rt.Q4_1, q41GroupBytes, repackQ4_1, func(p []byte, a *iq4Act) float32 { return dotLegacyRGo(rt.Q4_1, p, a) },
			func(k *kernels) func([]byte, *iq4Act) float32 { return k.dotQ4_1R }},
		{rt.Q5_0, q5GroupBytes, repackQ5_0, func(p []byte, a *iq4Act) float32 { return dotLegacyRGo(rt.Q5_0, p, a) },
			func(k *kernels) func([]byte, *iq4Act) float32 { return k.dotQ5_0R }},
		{rt.Q5_1, q5GroupBytes, repackQ5_1, func(p []byte, a *iq4Act) float32 { return dotLegacyRGo(rt.Q5_1, p, a) },
			func(k *kernels) func([]byte, *iq4Act) float32 { return k.dotQ5_1R }},
	} {
		kerns := map[string]func([]byte, *iq4Act) float32{"go": tc.goDot}
		for _, k := range kernelSets() {
			if dot := tc.asm(k); dot != nil {
				kerns[k.name] = dot
			}
		}
		ref, _ := goKernels.typeDotFor(tc.typ)
		bs := tc.typ.RowSize(rt.QK)
		for _, nb := range []int{0, 1, 5, 16, 17, 40} {
			n := nb * rt.QK
			w := randomBlocks(rng, tc.typ, nb)
			if nb > 0 && tc.typ == rt.MXFP4 {
				w[0], w[bs*(nb-1)] = 0, 1 // the subnormal scales
			}
			var q q8Rows
			q.resize(1, nb)
			y := q.row(0)
			goKernels.quantizeQ8(randF32(rng, n, -1, 1), y, make([]byte, rt.Q8_0.RowSize(n)))
			want := ref.dot(w, y)
			wd := make([]float32, n)
			dequantRowGo(tc.typ, w, wd)
			var mag float64
			for i, v := range y.qs {
				mag += math.Abs(float64(wd[i]) * float64(v) * float64(y.d[i/rt.QK]))
			}
			// p is unaligned and one byte longer than the groups.
			p := make([]byte, mxGroups(nb)*tc.group+2)[1:]
			tc.repack(w, nb, p)
			var a iq4Act
			a.setBlocks(y)
			for name, dot := range kerns {
				if got := dot(p, &a); !near(float64(got), float64(want), mag, 1e-5) {
					t.Errorf("%v %s nb=%d: %v, want %v", tc.typ, name, nb, got, want)
				}
			}
		}
	}
}

// BenchmarkRepackedRows times the best set's IQ4_XS and MXFP4 dots on 64
// rows of K = 4096 as stored and repacked, in one process (the rows stay
// in L2), with the weight bytes as stored per second.
func BenchmarkRepackedRows(b *testing.B) {
	k := defaultKernels()
	if k.dotIQ4XSR == nil || k.dotMXFP4R == nil {
		b.Skip("no repacked IQ4_XS and MXFP4 kernels in this set")
	}
	const K, rows = 4096, 64
	rng := rand.New(rand.NewPCG(1, 2))
	x := randF32(rng, K, -1, 1)
	var qk q8KRows
	qk.resize(1, K/rt.QKK)
	goKernels.quantizeQ8K(x, qk.row(0))
	var q q8Rows
	q.resize(1, K/rt.QK)
	goKernels.quantizeQ8(x, q.row(0), make([]byte, rt.Q8_0.RowSize(K)))
	var ak, a0 iq4Act
	ak.set(qk.row(0))
	a0.setBlocks(q.row(0))
	// What rearranging one activation row costs, once per op and row.
	b.Run("rearrange/iq4_xs", func(b *testing.B) {
		for b.Loop() {
			ak.set(qk.row(0))
		}
	})
	b.Run("rearrange/mxfp4", func(b *testing.B) {
		for b.Loop() {
			a0.setBlocks(q.row(0))
		}
	})
	for _, typ := range []rt.DType{rt.IQ4_XS, rt.MXFP4} {
		nb := K / typ.BlockSize()
		w := randomBlocks(rng, typ, nb*rows)
		rs := typ.RowSize(K)
		rb, repack, dot, a := iq4Pairs(nb)*iq4PairBytes, repackIQ4XS, k.dotIQ4XSR, &ak
		stored := func(r int) float32 { return k.dotIQ4XS(w[r*rs:], qk.row(0)) }
		if typ == rt.MXFP4 {
			rb, repack, dot, a = mxGroups(nb)*mxGroupBytes, repackMXFP4, k.dotMXFP4R, &a0
			stored = func(r int) float32 { return k.dotMXFP4(w[r*rs:], q.row(0)) }
		}
		p := make([]byte, rows*rb)
		for r := 0; r < rows; r++ {
			repack(w[r*rs:], nb, p[r*rb:])
		}
		var sink float32
		b.Run(typ.String()+"/stored", func(b *testing.B) {
			b.SetBytes(int64(len(w)))
			for b.Loop() {
				for r := 0; r < rows; r++ {
					sink += stored(r)
				}
			}
		})
		b.Run(typ.String()+"/repacked", func(b *testing.B) {
			b.SetBytes(int64(len(w)))
			for b.Loop() {
				for r := 0; r < rows; r++ {
					sink += dot(p[r*rb:], a)
				}
			}
		})
		_ = sink
	}
}
