package cpu

import (
	"encoding/binary"
	"os"
	"runtime"
	"sync"
	"sync/atomic"

	rt "github.com/gpurt/gpurt/runtime"
)

// Repacked weights
//
// A GEMV reads every weight once, so its speed is the weight bytes over the
// time the kernel spends per byte. Q4_0 rows as stored put an f16 scale in
// front of every 16 bytes of quants, and converting and multiplying that
// scale was half of the AVX2 loop's instructions. So the first GEMV on a
// Q4_0 weight in a weights buffer (rt.UsageWeights) repacks it, once, into
// groups of 8 rows whose blocks interleave: the 8 rows' scales of a block
// sit together (one conversion serves 8 rows), then their quants in 8-byte
// pieces, so one 32-byte load holds 4 rows' pieces for the same
// activations. This is the layout of ggml's CPU_REPACK buffers
// (block_q4_0x8); the repacked copy is kept beside the original, which
// every other reader still sees unchanged, and is dropped when anything
// writes to the weights or the buffer is freed. Weights mapped from a
// file stay in the page cache, so the copy costs about what ggml's
// repacked buffers do; weights copied into memory (--no-mmap) cost their
// size again. The copy is not made when it would take more than half of
// the available memory, and GPURT_CPU_REPACK=0 turns it off.

// r8Block is the size of one block of 8 interleaved Q4_0 rows: 8 f16
// scales, then 128 bytes of quants.
const r8Block = 16 + 8*16

// r8ScaleOrder is the row whose scale sits at each of a block's 8 scale
// slots: the order in which the kernel's horizontal add leaves the rows'
// sums, so that no shuffle is needed per block.
var r8ScaleOrder = [8]int{0, 1, 4, 5, 2, 3, 6, 7}

// repackQ4R8 writes rows w[r*stride:] (r < 8), nb Q4_0 blocks each, into
// p (nb*r8Block bytes) in the interleaved layout: per block, the scales
// in r8ScaleOrder, then 4 pieces of 32 bytes: rows 0-3 bytes 0-7, rows 4-7
// bytes 0-7, rows 0-3 bytes 8-15, rows 4-7 bytes 8-15 of their quants.
func repackQ4R8(w []byte, stride, nb int, p []byte) {
	for b := 0; b < nb; b++ {
		out := p[b*r8Block : (b+1)*r8Block]
		for slot, r := range r8ScaleOrder {
			copy(out[2*slot:2*slot+2], w[r*stride+b*18:])
		}
		for r := 0; r < 8; r++ {
			qs := w[r*stride+b*18+2 : r*stride+b*18+18]
			half := r / 4 // rows 4-7 in the second piece of each pair
			copy(out[16+32*half+8*(r%4):], qs[0:8])
			copy(out[16+64+32*half+8*(r%4):], qs[8:16])
		}
	}
}

// dotQ4R8Go is the portable form of the repacked GEMV: len(out)/8 groups
// of 8 rows of nb blocks, repacked by repackQ4R8 one group after another,
// times one row of Q8 activations, into out[8g:8g+8] for group g.
func dotQ4R8Go(p []byte, y q8Row, out []float32) {
	n := len(y.d) * r8Block
	for g := range len(out) / 8 {
		dotQ4R8Group(p[g*n:(g+1)*n], y, out[8*g:8*g+8])
	}
}

// dotQ4R8Group is dotQ4R8Go for one group.
func dotQ4R8Group(p []byte, y q8Row, out []float32) {
	tab := f16Table()
	var acc [8]float32
	for b, dy := range y.d {
		blk := p[b*r8Block : (b+1)*r8Block]
		q := y.qs[b*rt.QK : (b+1)*rt.QK]
		for slot, r := range r8ScaleOrder {
			var s int32
			for j := 0; j < 16; j++ {
				v := blk[16+64*(j/8)+32*(r/4)+8*(r%4)+j%8]
				s += (int32(v&15) - 8) * int32(q[j])
				s += (int32(v>>4) - 8) * int32(q[j+16])
			}
			acc[r] += tab[binary.LittleEndian.Uint16(blk[2*slot:])] * dy * float32(s)
		}
	}
	copy(out[:8], acc[:])
}

// repackEnabled is false when GPURT_CPU_REPACK=0.
var repackEnabled = os.Getenv("GPURT_CPU_REPACK") != "0"

// weightBuffer is the CPU's host buffer. It keeps the repacked copies of
// the weights it holds, and drops them when it is written or freed.
type weightBuffer struct {
	*rt.HostMemoryBuffer
	mu sync.Mutex
	// rows are the repacked copies: Q4_0's 8-row groups, the rows of
	// repack_iq4.go and repack_kquants.go, F16's GEMM panels
	// (repack_f16.go).
	rows    map[repackKey]*repackedRows
	counted int // bytes added to liveWeightBytes
}

// liveWeightBytes is the size of every live CPU buffer marked as weights:
// a model's. Beyond streamedWeightBytes of them a decode step reads its
// weights from DRAM rather than the caches, and GEMVs take the kernels
// that stream best (mulMatDot).
var liveWeightBytes atomic.Int64

// streamedWeightBytes is the weight size from which GEMVs count as
// streamed from DRAM: the 32 MiB L3 of the machines measured. A variable,
// so that tests can run the streamed kernels on small weights.
var streamedWeightBytes int64 = 32 << 20

// weightsStreamed reports whether the live weights exceed the caches.
func weightsStreamed() bool { return liveWeightBytes.Load() > streamedWeightBytes }

// SetUsage counts the buffer in liveWeightBytes while it holds weights.
func (wb *weightBuffer) SetUsage(u rt.BufferUsage) {
	wb.mu.Lock()
	defer wb.mu.Unlock()
	wb.HostMemoryBuffer.SetUsage(u)
	size := 0
	if u == rt.UsageWeights {
		size = len(wb.Bytes())
	}
	liveWeightBytes.Add(int64(size - wb.counted))
	wb.counted = size
}

func newWeightBuffer(bt rt.BufferType, mem []byte) *weightBuffer {
	return &weightBuffer{HostMemoryBuffer: rt.NewHostMemoryBuffer(bt, mem, nil)}
}

// repackKey names a weight matrix view: its offset, type and layout.
type repackKey struct {
	off    int
	typ    rt.DType
	ne, nb [rt.MaxDims]int
}

// repackedQ4For returns w's repacked copy, its whole groups of 8 rows
// as the units of a repackedRows (group g of matrix (i2, i3) is its row
// g), making it on first use, or nil where w is not a weight that can be
// repacked.
func repackedQ4For(w hostTensor) *repackedRows {
	wb := repackableWeight(w)
	if wb == nil || w.typ != rt.Q4_0 || w.ne[1] < 8 {
		return nil
	}
	nb := w.ne[0] / rt.QK
	r := wb.unitsEntry(w, w.ne[1]/8, nb*r8Block)
	if got, ok := r.made(); ok {
		return got
	}
	return fillQ4R8(r, w, nb)
}

// fillQ4R8 makes r's copy of w's 8-row groups on first use (apart, as
// fillRows is).
func fillQ4R8(r *repackedRows, w hostTensor, nb int) *repackedRows {
	return r.fillOnce(w, func(g, i2, i3 int, dst []byte) {
		repackQ4R8(w.mem[w.at(8*g, i2, i3):], w.nb[1], nb, dst)
	})
}

// spanBytes is the number of bytes from h's first element to the end of
// its last.
func spanBytes(h hostTensor) int {
	end := h.typ.RowSize(h.ne[0])
	for d := 1; d < rt.MaxDims; d++ {
		end += (h.ne[d] - 1) * h.nb[d]
	}
	return end
}

// repackedRows is a weight's repacked copy in units of rows: its rows
// repacked one by one (IQ4_XS and the others of repackedRowsFor), its
// Q4_0 8-row groups or its F16 GEMM panels (a "row" being a group or a
// panel), for every matrix of its batch dimensions: row m of matrix (i2,
// i3) at ((i3*ne2+i2)*rows+m)*rowBytes. Every kind is made, kept and
// dropped by the same code (unitsEntry, fillOnce, invalidate).
type repackedRows struct {
	once     sync.Once
	done     atomic.Bool // once has run
	rows     int         // rows (or groups, or panels) per matrix
	rowBytes int
	data     []byte
	size     int // bytes of the original it was made from, from its key's off
}

// row returns the repacked bytes of row m of matrix (i2, i3).
func (r *repackedRows) row(ne2, m, i2, i3 int) []byte { return r.span(ne2, m, m+1, i2, i3) }

// span returns the repacked bytes of rows [m0, m1) of matrix (i2, i3),
// rowBytes apart.
func (r *repackedRows) span(ne2, m0, m1, i2, i3 int) []byte {
	i := r.at(ne2, m0, i2, i3)
	return r.data[i : i+(m1-m0)*r.rowBytes]
}

// at is the offset in r.data of row m of matrix (i2, i3).
func (r *repackedRows) at(ne2, m, i2, i3 int) int { return ((i3*ne2+i2)*r.rows + m) * r.rowBytes }

// unitsEntry is w's entry among wb's repacked copies: a copy of units
// units (rows, or panels of rows) of unitBytes per matrix, made empty on
// first use and filled by fillOnce.
func (wb *weightBuffer) unitsEntry(w hostTensor, units, unitBytes int) *repackedRows {
	key := repackKey{off: w.off, typ: w.typ, ne: w.ne, nb: w.nb}
	wb.mu.Lock()
	defer wb.mu.Unlock()
	r := wb.rows[key]
	if r == nil {
		if wb.rows == nil {
			wb.rows = map[repackKey]*repackedRows{}
		}
		r = &repackedRows{rows: units, rowBytes: unitBytes, size: spanBytes(w)}
		wb.rows[key] = r
	}
	return r
}

// made returns r once fillOnce has run: r, or nil where the copy was not
// made (short of memory); ok is false before. Every GEMV after the first
// takes this way, which allocates nothing (fillOnce's closures would).
func (r *repackedRows) made() (_ *repackedRows, ok bool) {
	if !r.done.Load() {
		return nil, false
	}
	if r.data == nil {
		return nil, true
	}
	return r, true
}

// fillOnce makes r's copy of w, once: fill writes unit m of matrix (i2,
// i3) into dst. It returns made's copy.
func (r *repackedRows) fillOnce(w hostTensor, fill func(m, i2, i3 int, dst []byte)) *repackedRows {
	r.once.Do(func() {
		defer r.done.Store(true)
		size := w.ne[2] * w.ne[3] * r.rows * r.rowBytes
		// The copy is an optimisation: where memory is short it is not
		// made, and the kernels read the weight as stored.
		if avail, ok := availableMemory(); ok && uint64(size) > avail/2 {
			return
		}
		data, err := allocAligned(size)
		if err != nil || size == 0 {
			return
		}
		r.data = data
		// A model's first token repacks all its weights of the type (a
		// 7B Q4_K_M file's 3.5 GB at 1.5–1.8 GB/s a core), so the units
		// split over the cores, in contiguous shares.
		total := w.ne[2] * w.ne[3] * r.rows
		parts := max(1, min(runtime.GOMAXPROCS(0), total*r.rowBytes/repackBytesPerPart))
		var wg sync.WaitGroup
		for part := range parts {
			wg.Go(func() {
				for i := part * total / parts; i < (part+1)*total/parts; i++ {
					m, i2, i3 := i%r.rows, i/r.rows%w.ne[2], i/(r.rows*w.ne[2])
					fill(m, i2, i3, r.row(w.ne[2], m, i2, i3))
				}
			})
		}
		wg.Wait()
	})
	got, _ := r.made()
	return got
}

// repackBytesPerPart is the fewest bytes a goroutine of fillOnce writes:
// small weights repack on the calling goroutine alone. (In bytes, as units
// differ: a Q4_K row of 256 weights is 296 bytes, an F16 panel of K =
// 4096 is 128 KiB.)
const repackBytesPerPart = 64 << 10

// repackableWeight is w's buffer where w may be repacked: a weights
// buffer of this backend, with repacking on.
func repackableWeight(w hostTensor) *weightBuffer {
	wb, ok := w.buf.(*weightBuffer)
	if !ok || !repackEnabled || wb.Usage() != rt.UsageWeights {
		return nil
	}
	return wb
}

// invalidate drops the repacked copies of weights that overlap bytes
// [off, off+size) of the buffer.
func (wb *weightBuffer) invalidate(off, size int) {
	wb.mu.Lock()
	defer wb.mu.Unlock()
	for k, r := range wb.rows {
		if off < k.off+r.size && k.off < off+size {
			delete(wb.rows, k)
		}
	}
}

func (wb *weightBuffer) dropAll() {
	wb.mu.Lock()
	wb.rows = nil
	wb.mu.Unlock()
}

func (wb *weightBuffer) SetTensor(t *rt.Tensor, data []byte, offset int) error {
	wb.invalidate(t.Offset+offset, len(data))
	return wb.HostMemoryBuffer.SetTensor(t, data, offset)
}

func (wb *weightBuffer) MemsetTensor(t *rt.Tensor, value byte, offset, size int) error {
	wb.invalidate(t.Offset+offset, size)
	return wb.HostMemoryBuffer.MemsetTensor(t, value, offset, size)
}

func (wb *weightBuffer) CopyTensor(src, dst *rt.Tensor) (bool, error) {
	wb.invalidate(dst.Offset, dst.Nbytes())
	return wb.HostMemoryBuffer.CopyTensor(src, dst)
}

func (wb *weightBuffer) Clear(value byte) error {
	wb.dropAll()
	return wb.HostMemoryBuffer.Clear(value)
}

func (wb *weightBuffer) Reset() {
	wb.dropAll()
	wb.HostMemoryBuffer.Reset()
}

func (wb *weightBuffer) Free() error {
	wb.dropAll()
	wb.mu.Lock()
	liveWeightBytes.Add(-int64(wb.counted))
	wb.counted = 0
	wb.mu.Unlock()
	return wb.HostMemoryBuffer.Free()
}

// Written implements rt.WriteNotifier: bytes of t were changed through
// Bytes() rather than the buffer's methods.
func (wb *weightBuffer) Written(t *rt.Tensor) { wb.invalidate(t.Offset, t.Nbytes()) }
