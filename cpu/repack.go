package cpu

import (
	"encoding/binary"
	"os"
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
	mu       sync.Mutex
	repacked map[repackKey]*repackedQ4
	rows     map[repackKey]*repackedRows // rows repacked one by one (repack_iq4.go, repack_kquants.go)
	counted  int                         // bytes added to liveWeightBytes
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

// repackedQ4 is a Q4_0 weight's whole groups of 8 rows, interleaved, for
// every matrix of its batch dimensions: group g of matrix (i2, i3) at
// ((i3*ne2+i2)*groups+g)*nb*r8Block.
type repackedQ4 struct {
	once   sync.Once
	groups int // whole groups of 8 rows per matrix
	nb     int // blocks per row
	data   []byte
	size   int // bytes of the original it was made from, from its key's off
}

// group returns the repacked bytes of group g of matrix (i2, i3).
func (r *repackedQ4) group(ne2, i2, i3, g int) []byte {
	return r.span(ne2, i2, i3, g, 1)
}

// span is groups g to g+n-1 of matrix (i2, i3), one after another.
func (r *repackedQ4) span(ne2, i2, i3, g, n int) []byte {
	size := r.nb * r8Block
	i := ((i3*ne2+i2)*r.groups + g) * size
	return r.data[i : i+n*size]
}

// repackedQ4For returns w's repacked copy, making it on first use, or nil
// where w is not a weight that can be repacked.
func repackedQ4For(w hostTensor) *repackedQ4 {
	wb := repackableWeight(w)
	if wb == nil || w.typ != rt.Q4_0 || w.ne[1] < 8 {
		return nil
	}
	key := repackKey{off: w.off, typ: w.typ, ne: w.ne, nb: w.nb}
	wb.mu.Lock()
	r := wb.repacked[key]
	if r == nil {
		if wb.repacked == nil {
			wb.repacked = map[repackKey]*repackedQ4{}
		}
		r = &repackedQ4{groups: w.ne[1] / 8, nb: w.ne[0] / rt.QK, size: spanBytes(w)}
		wb.repacked[key] = r
	}
	wb.mu.Unlock()
	r.once.Do(func() {
		n := r.nb * r8Block
		size := w.ne[2] * w.ne[3] * r.groups * n
		// The copy is an optimisation: where memory is short it is not
		// made, and the GEMV reads the weight as stored.
		if avail, ok := availableMemory(); ok && uint64(size) > avail/2 {
			return
		}
		data, err := allocAligned(size)
		if err != nil {
			return
		}
		r.data = data
		for i3 := 0; i3 < w.ne[3]; i3++ {
			for i2 := 0; i2 < w.ne[2]; i2++ {
				for g := 0; g < r.groups; g++ {
					repackQ4R8(w.mem[w.at(8*g, i2, i3):], w.nb[1], r.nb, r.group(w.ne[2], i2, i3, g))
				}
			}
		}
	})
	if r.data == nil {
		return nil // not made: short of memory
	}
	return r
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

// invalidate drops the repacked copies of weights that overlap bytes
// [off, off+size) of the buffer.
func (wb *weightBuffer) invalidate(off, size int) {
	wb.mu.Lock()
	defer wb.mu.Unlock()
	for k, r := range wb.repacked {
		if off < k.off+r.size && k.off < off+size {
			delete(wb.repacked, k)
		}
	}
	for k, r := range wb.rows {
		if off < k.off+r.size && k.off < off+size {
			delete(wb.rows, k)
		}
	}
}

func (wb *weightBuffer) dropAll() {
	wb.mu.Lock()
	wb.repacked, wb.rows = nil, nil
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
