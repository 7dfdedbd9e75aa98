package cpu

import (
	"sync/atomic"

	rt "github.com/gpurt/gpurt/runtime"
)

// mmRows is how many src0 rows one MUL_MAT task converts and multiplies.
const mmRows = 16

// mulMat computes dst[m,n] = Σ_k w[k,m]·x[k,n] for every matrix of x (dims
// 2 and 3), with w's matrices broadcast over x's: w matrix (i12/r2, i13/r3)
// serves x matrix (i12, i13), as ggml_mul_mat. Weights of any dtype are
// converted to float32 rows; each output element is one float32 dot product
// computed by one worker, so results do not depend on the thread count.
func (b *Backend) mulMat(w, x, dst hostTensor) error {
	K, M, N, ne12, _, r2, r3, batches, work := matmulDims(w, x)

	col, err := b.columns(x, work)
	if err != nil {
		return err
	}
	wDirect := w.typ == rt.F32 && aligned32(w) // F32 rows used in place
	return b.forWeightBlocks(M, ne12, batches, work, func(ws *workspace, i12, i13, m0, m1 int) error {
		var rows [mmRows][]float32
		for m := m0; m < m1; m++ {
			off := w.at(m, i12/r2, i13/r3)
			if wDirect {
				rows[m-m0], _ = f32View(w.mem, off, K)
				continue
			}
			row := ws.f32(0, mmRows*K)[(m-m0)*K : (m-m0+1)*K]
			w.loadRow(off, row)
			rows[m-m0] = row
		}
		for n := 0; n < N; n++ {
			c := col(n, i12, i13)
			doff := dst.at(n, i12, i13)
			for m := m0; m < m1; m++ {
				dst.putF32(doff+m*dst.nb[0], dot(rows[m-m0], c))
			}
		}
		return nil
	})
}

// forWeightBlocks runs fn for every MUL_MAT task: a block [m0,m1) of at most
// mmRows weight rows against x matrix (i12, i13). Workers take tasks from a
// shared counter, so uneven blocks balance themselves.
func (b *Backend) forWeightBlocks(M, ne12, batches, work int, fn func(ws *workspace, i12, i13, m0, m1 int) error) error {
	return b.forWeightTasks(M, ne12, batches, work, false, fn)
}

// forWeightSpans is forWeightBlocks with the blocks of one claim that
// belong to one x matrix merged: fn gets runs of whole blocks, [m0,m1)
// any length, so that a GEMV kernel taking many rows a call is called
// once a claim rather than once a block.
func (b *Backend) forWeightSpans(M, ne12, batches, work int, fn func(ws *workspace, i12, i13, m0, m1 int) error) error {
	return b.forWeightTasks(M, ne12, batches, work, true, fn)
}

// forWeightTasks runs the MUL_MAT tasks, blocks of mmRows weight rows of
// each of batches matrices numbered batch·nblk + block, in claims of
// chunk tasks: fn gets each block, or with spans each claim's run of
// blocks of one matrix.
func (b *Backend) forWeightTasks(M, ne12, batches, work int, spans bool, fn func(ws *workspace, i12, i13, m0, m1 int) error) error {
	nblk := (M + mmRows - 1) / mmRows
	ntask := batches * nblk
	nth := b.workers(ntask, work/matmulGrainFactor)
	// Workers claim chunks of about a quarter of their share at a time:
	// enough claims to balance the load, few enough that the counter's
	// cache line does not bounce between cores for every block. Every
	// chunk goes through the counter, so a worker that starts late (the
	// pool lets the dispatcher run its share then) takes what is left
	// instead of a chunk of its own the others wait for. A chunk holds at most
	// heavyBlock multiply-adds, so that the last one finishes soon after
	// the others (a 32000-row output projection's quarter-share chunks left
	// one worker 0.1 ms of work alone); heavier blocks go one at a time.
	chunk := max(1, min(ntask/(4*nth), heavyBlock/max(work/max(ntask, 1), 1)))
	var next atomic.Int64
	// One closure for the pool: a layer more cost an allocation an op.
	return b.pool.run(nth, func(_, _ int, ws *workspace) error {
		for t0 := int(next.Add(int64(chunk))) - chunk; t0 < ntask; t0 = int(next.Add(int64(chunk))) - chunk {
			for t, t1 := t0, min(ntask, t0+chunk); t < t1; {
				batch := t / nblk
				end := t + 1
				if spans {
					end = min(t1, (batch+1)*nblk)
				}
				if err := fn(ws, batch%ne12, batch/ne12, t%nblk*mmRows, min(M, (end-batch*nblk)*mmRows)); err != nil {
					return err
				}
				t = end
			}
		}
		return nil
	})
}

// matmulGrainFactor is how many more multiply-adds than the grain's
// elements a matmul worker must get before a product is split: a
// multiply-add costs a fraction of an elementwise op's element, and
// splitting a product of a few tokens' rows over the workers cost more in
// hand-offs than it saved (4 slots on the default model: 7.5K -> 8.8K
// tok/s with 4).
const matmulGrainFactor = 4

// heavyBlock is the most work (multiply-adds) forWeightBlocks puts in one
// claim: 16 rows of K = 1024 times 16 x rows, or 16 blocks of a GEMV of
// that width.
const heavyBlock = 1 << 18

// aligned32 reports whether every row of an F32 tensor can be viewed in
// place as []float32: packed rows at 4-byte aligned addresses.
func aligned32(h hostTensor) bool {
	if h.nb[0] != 4 || h.off%4 != 0 || h.nb[1]%4 != 0 || h.nb[2]%4 != 0 || h.nb[3]%4 != 0 {
		return false
	}
	_, ok := f32View(h.mem, h.off, 1)
	return ok
}

// columns returns MUL_MAT's src1 columns (rows of x) as float32: views of
// x's memory when it allows, else rows of a packed copy made in parallel.
func (b *Backend) columns(x hostTensor, work int) (func(n, i12, i13 int) []float32, error) {
	K := x.ne[0]
	if K == 0 {
		return func(int, int, int) []float32 { return nil }, nil
	}
	if aligned32(x) {
		return func(n, i12, i13 int) []float32 {
			v, _ := f32View(x.mem, x.at(n, i12, i13), K)
			return v
		}, nil
	}
	nr := x.rows()
	if cap(b.pack) < nr*K {
		b.pack = make([]float32, nr*K)
	}
	pack := b.pack[:nr*K]
	err := b.forRows(nr, work, func(r0, r1 int, _ *workspace) error {
		for r := r0; r < r1; r++ {
			x.loadRow(x.rowAt(r), pack[r*K:(r+1)*K])
		}
		return nil
	})
	N, ne12 := x.ne[1], x.ne[2]
	return func(n, i12, i13 int) []float32 {
		r := n + N*(i12+ne12*i13)
		return pack[r*K : (r+1)*K]
	}, err
}

// dot is Σ a[i]·b[i] in float32 with four partial sums, in a fixed order.
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		a4, b4 := a[i:i+4:i+4], b[i:i+4:i+4]
		s0 += a4[0] * b4[0]
		s1 += a4[1] * b4[1]
		s2 += a4[2] * b4[2]
		s3 += a4[3] * b4[3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// matmulDims are a MUL_MAT's sizes: K×M weight matrices, N columns, ne12×ne13
// batches that broadcast each weight matrix over r2×r3 of them, and work,
// the multiply-adds (at least one per result) that size the thread count.
func matmulDims(w, x hostTensor) (K, M, N, ne12, ne13, r2, r3, batches, work int) {
	K, M = w.ne[0], w.ne[1]
	N, ne12, ne13 = x.ne[1], x.ne[2], x.ne[3]
	r2, r3 = ne12/w.ne[2], ne13/w.ne[3]
	batches = ne12 * ne13
	return K, M, N, ne12, ne13, r2, r3, batches, M * N * batches * max(K, 1)
}
