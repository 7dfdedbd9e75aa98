package cpu

import (
	"encoding/binary"
	"math"
	"unsafe"

	rt "github.com/gpurt/gpurt/runtime"
)

// Repacked IQ4_XS rows
//
// IQ4_XS's GEMV kernel as stored spends most of its instructions on the
// sub-block scales: each 64 weights' VPDPBUSD sums cover two sub-blocks,
// so each needs its own scale vector spread (a shuffle), a multiply and
// an add. Repacked, a pair of super-blocks (16 sub-blocks, 512 weights)
// puts 4 weights of every sub-block in each 64-byte vector, sub-block d
// in dword d, so all eight VPDPBUSD of the pair sum into one accumulator
// whose dword d is sub-block d's whole dot product, and one multiply by
// the 16 scales finishes the pair. The activations are rearranged the
// same way once per activation row (iq4Act). The repacked row is the
// same size as the stored one plus 8 bytes a pair, so the GEMV reads
// about as many bytes as before. Kept beside the original, as repack.go
// keeps Q4_0's, and used for GEMVs of fewer than 4 activation rows: from
// 4 rows the four-row kernel on the stored rows is faster (at N = 512
// one-row dots on the repacked rows took twice its time).

// iq4PairBytes is one repacked pair of IQ4_XS super-blocks: 16 int8
// sub-block scales (ls-32), 2 float32 super-block scales d, then 4 chunks
// of 64 bytes of level indices, two nibbles a byte.
const iq4PairBytes = 16 + 8 + 4*64

// iq4Pairs is the number of super-block pairs of a row of nb super-blocks
// (an odd last one is padded with zero scales).
func iq4Pairs(nb int) int { return (nb + 1) / 2 }

// iq4Index returns where weight e (0..31) of sub-block d (0..15) of a
// pair sits in the repacked layout and in the rearranged activations: run
// r = e/4 (chunk r/2, low nibbles for even r, high for odd), byte 4d+e%4
// of the run's 64.
func iq4Index(d, e int) (run, pos int) { return e / 4, 4*d + e%4 }

// repackIQ4XS writes the IQ4_XS row w of nb super-blocks into p
// (iq4Pairs(nb)*iq4PairBytes bytes) in the repacked layout.
func repackIQ4XS(w []byte, nb int, p []byte) {
	clear(p[:iq4Pairs(nb)*iq4PairBytes])
	tab := f16Table()
	for b := 0; b < nb; b++ {
		blk := w[b*136 : (b+1)*136]
		out := p[(b/2)*iq4PairBytes:][:iq4PairBytes]
		half := b % 2
		binary.LittleEndian.PutUint32(out[16+4*half:], math.Float32bits(tab[binary.LittleEndian.Uint16(blk)]))
		sh := binary.LittleEndian.Uint16(blk[2:])
		for ib := 0; ib < 8; ib++ {
			d := 8*half + ib
			ls := int(blk[4+ib/2]>>(4*uint(ib%2))&0xF) | int(sh>>(2*uint(ib))&3)<<4
			out[d] = byte(int8(ls - 32))
			for j, v := range blk[8+16*ib : 24+16*ib] {
				putRunNibble(out[24:], d, j, v&0xF)
				putRunNibble(out[24:], d, j+16, v>>4)
			}
		}
	}
}

// putRunNibble puts the 4-bit value nib of weight e of sub-block (or
// block) d into a repacked unit's 4 chunks of 64 bytes (iq4Index: run
// 2c in chunk c's low nibbles, 2c+1 in its high ones).
func putRunNibble(chunks []byte, d, e int, nib byte) {
	run, pos := iq4Index(d, e)
	chunks[64*(run/2)+pos] |= nib << (4 * uint(run%2))
}

// iq4Act is a row of Q8_K activations rearranged for the repacked IQ4_XS
// kernels: per pair of super-blocks, 8 runs of 64 quants (qs), the sums
// of each sub-block's 32 quants times 128 (sums, 16 a pair: the kernels
// take the levels' +128 back out with them), and the two scales (d).
type iq4Act struct {
	qs   []int8
	sums []int32
	d    []float32
}

// set rearranges y into a, growing a's slices as needed.
func (a *iq4Act) set(y q8KRow) {
	nb := y.blocks()
	np := iq4Pairs(nb)
	a.qs = grow(a.qs, np*512)
	a.sums = grow(a.sums, np*16)
	a.d = grow(a.d, np*2)
	if nb%2 == 1 { // the padding super-block
		clear(a.qs[(np-1)*512+256:])
		clear(a.sums[(np-1)*16+8:])
		a.d[2*np-1] = 0
	}
	copy(a.d, y.d)
	if nb == 0 {
		return
	}
	// Moved as words of 4 activations (iq4Index keeps them together):
	// word run of sub-block ib goes to word 16·run+d of its pair.
	src := unsafe.Slice((*uint32)(unsafe.Pointer(&y.qs[0])), nb*rt.QKK/4)
	dst := unsafe.Slice((*uint32)(unsafe.Pointer(&a.qs[0])), np*512/4)
	for b := 0; b < nb; b++ {
		q := src[b*64:][:64]
		pair := dst[(b/2)*128:][:128]
		for ib := 0; ib < 8; ib++ {
			d := 8*(b%2) + ib
			a.sums[(b/2)*16+d] = 128 * (int32(y.bsums[b*16+2*ib]) + int32(y.bsums[b*16+2*ib+1]))
			w := q[8*ib:][:8]
			for run, v := range w {
				pair[16*run+d] = v
			}
		}
	}
}

// nibbleRunSums is the portable form of the repacked kernels' integer
// sums: the 8 runs of 64 4-bit indices in chunks (4 chunks of 64 bytes,
// run 2c in chunk c's low nibbles, 2c+1 in its high ones), each taken to
// its level by level(run, pos, nibble), times the rearranged activations
// q, sub-block d's into isum[d] (iq4Index).
func nibbleRunSums(chunks []byte, q []int8, level func(run, pos int, nib byte) int32) (isum [16]int32) {
	for r := 0; r < 8; r++ {
		for pos := 0; pos < 64; pos++ {
			nib := chunks[64*(r/2)+pos] >> (4 * uint(r%2)) & 0xF
			isum[pos/4] += level(r, pos, nib) * int32(q[64*r+pos])
		}
	}
	return isum
}

// iq4Level and mxLevel are the IQ4 and MXFP4 levels of a nibble, plus
// 128: unsigned, as the kernels' VPDPBUSD takes them.
func iq4Level(_, _ int, nib byte) int32 { return int32(kvaluesIQ4NL[nib]) + 128 }
func mxLevel(_, _ int, nib byte) int32  { return int32(kvaluesMXFP4[nib]) + 128 }

// dotIQ4XSRGo is the portable form of the repacked IQ4_XS dot: the row p
// repacked by repackIQ4XS times the rearranged activations a.
func dotIQ4XSRGo(p []byte, a *iq4Act) float32 {
	var acc float32
	for g := range len(a.d) / 2 {
		pair := p[g*iq4PairBytes:][:iq4PairBytes]
		q := a.qs[g*512:][:512]
		isum := nibbleRunSums(pair[24:], q, iq4Level)
		for d := 0; d < 16; d++ {
			ds := math.Float32frombits(binary.LittleEndian.Uint32(pair[16+4*(d/8):]))
			acc += ds * a.d[2*g+d/8] * float32((isum[d]-a.sums[16*g+d])*int32(int8(pair[d])))
		}
	}
	return acc
}

// repackedRowsFor returns w's repacked rows (IQ4_XS, the K-quants but
// Q6_K, the ternary types, MXFP4, IQ4_NL, Q4_1, Q5_0 or Q5_1), making
// them on first use, or nil where w is not a weight that can be repacked
// so. The rules are repackedQ4For's:
// weights buffers only, dropped on any write, not made where they would
// take more than half of the available memory.
func repackedRowsFor(w hostTensor) *repackedRows {
	wb := repackableWeight(w)
	if wb == nil {
		return nil
	}
	nb := w.ne[0] / w.typ.BlockSize()
	var rowBytes int
	var repack func(w []byte, nb int, p []byte)
	switch w.typ {
	case rt.IQ4_XS:
		rowBytes, repack = iq4Pairs(nb)*iq4PairBytes, repackIQ4XS
	case rt.Q4_K:
		rowBytes, repack = iq4Pairs(nb)*q4kPairBytes, repackQ4K
	case rt.Q5_K:
		rowBytes, repack = iq4Pairs(nb)*q5kPairBytes, repackQ5K
	case rt.Q2_K:
		rowBytes, repack = nb*q2kBlockBytes, repackQ2K
	case rt.Q3_K:
		rowBytes, repack = nb*q3kBlockBytes, repackQ3K
	case rt.TQ1_0:
		rowBytes, repack = tqRowBytes(nb), repackTQ1
	case rt.TQ2_0:
		rowBytes, repack = tqRowBytes(nb), repackTQ2
	case rt.MXFP4:
		rowBytes, repack = mxGroups(nb)*mxGroupBytes, repackMXFP4
	case rt.IQ4_NL:
		rowBytes, repack = mxGroups(nb)*nlGroupBytes, repackIQ4NL
	case rt.Q4_1:
		rowBytes, repack = mxGroups(nb)*legacyGroupBytes(rt.Q4_1), repackQ4_1
	case rt.Q5_0:
		rowBytes, repack = mxGroups(nb)*legacyGroupBytes(rt.Q5_0), repackQ5_0
	case rt.Q5_1:
		rowBytes, repack = mxGroups(nb)*legacyGroupBytes(rt.Q5_1), repackQ5_1
	default:
		return nil
	}
	r := wb.unitsEntry(w, w.ne[1], rowBytes)
	if got, ok := r.made(); ok {
		return got
	}
	return fillRows(r, w, nb, repack)
}

// fillRows makes r's copy of w's rows with repack, on first use. (Apart
// from repackedRowsFor, so that its closure's capture of w costs nothing
// on the way every later GEMV takes.)
func fillRows(r *repackedRows, w hostTensor, nb int, repack func(w []byte, nb int, p []byte)) *repackedRows {
	return r.fillOnce(w, func(m, i2, i3 int, dst []byte) {
		repack(w.mem[w.at(m, i2, i3):], nb, dst)
	})
}

// Repacked MXFP4 rows
//
// MXFP4 takes the same layout with its 32-weight blocks as the
// sub-blocks: a group of 16 blocks (512 weights) is their 16 E8M0 scale
// bytes, then 4 chunks of 64 bytes of level indices, block d in dword d
// of each run, 272 bytes as stored. Each dword's integer sum is then one
// block's, which the kernel scales by 2^(e-128)·dy, as ggml does a block.

// mxGroupBytes is one repacked group of 16 MXFP4 blocks.
const mxGroupBytes = 16 + 4*64

// mxGroups is the number of 16-block groups of a row of nb MXFP4 blocks
// (a last partial group is padded with zero activations).
func mxGroups(nb int) int { return (nb + 15) / 16 }

// repackMXFP4 writes the MXFP4 row w of nb blocks into p
// (mxGroups(nb)*mxGroupBytes bytes) in the repacked layout.
func repackMXFP4(w []byte, nb int, p []byte) {
	repackBlockGroups(w, nb, 17, mxGroupBytes, p, func(out []byte, d int, blk []byte) {
		out[d] = blk[0]
		putBlockNibbles(out[16:], d, blk[1:17])
	})
}

// repackBlockGroups writes the row w of nb blocks of blkBytes into p in
// groups of 16 blocks, gb bytes each (cleared first): put fills block d of
// group out from blk.
func repackBlockGroups(w []byte, nb, blkBytes, gb int, p []byte, put func(out []byte, d int, blk []byte)) {
	clear(p[:mxGroups(nb)*gb])
	for b := 0; b < nb; b++ {
		put(p[(b/16)*gb:][:gb], b%16, w[b*blkBytes:(b+1)*blkBytes])
	}
}

// putBlockNibbles puts a 32-weight block's 16 stored bytes of nibbles
// (weight j low, j+16 high) as block d into the chunks.
func putBlockNibbles(chunks []byte, d int, qs []byte) {
	for j, v := range qs {
		putRunNibble(chunks, d, j, v&0xF)
		putRunNibble(chunks, d, j+16, v>>4)
	}
}

// setBlocks rearranges the Q8_0 row y for the repacked MXFP4 kernels: per
// group of 16 blocks, the 8 runs of 64 quants, 128 times each block's
// quant sum, and the 16 block scales.
func (a *iq4Act) setBlocks(y q8Row) {
	nb := y.blocks()
	ng := mxGroups(nb)
	a.qs = grow(a.qs, ng*512)
	a.sums = grow(a.sums, ng*16)
	a.d = grow(a.d, ng*16)
	if nb%16 != 0 { // the padding blocks
		clear(a.qs[(ng-1)*512:])
		clear(a.sums[nb:])
		clear(a.d[nb:])
	}
	copy(a.d, y.d)
	for b := 0; b < nb; b++ {
		q := y.qs[b*rt.QK : (b+1)*rt.QK]
		group := a.qs[(b/16)*512:][:512]
		d := b % 16
		a.sums[b] = -128 * y.neg[b]
		for run := 0; run < 8; run++ {
			copy(group[64*run+4*d:][:4], q[4*run:])
		}
	}
}

// dotMXFP4RGo is the portable form of the repacked MXFP4 dot: the row p
// repacked by repackMXFP4 times the activations a rearranged by
// setBlocks.
func dotMXFP4RGo(p []byte, a *iq4Act) float32 {
	var acc float32
	for g := range len(a.d) / 16 {
		group := p[g*mxGroupBytes:][:mxGroupBytes]
		q := a.qs[g*512:][:512]
		isum := nibbleRunSums(group[16:], q, mxLevel)
		for d := 0; d < 16; d++ {
			acc += e8m0Half(group[d]) * a.d[16*g+d] * float32(isum[d]-a.sums[16*g+d])
		}
	}
	return acc
}

// Repacked IQ4_NL rows
//
// IQ4_NL is MXFP4's shape with IQ4_XS's levels: 32-weight blocks, each
// with its own f16 scale. Its group of 16 blocks is their 16 f16 scales,
// then MXFP4's 4 chunks of level indices, 288 bytes, as stored; the
// activations are setBlocks'. Each dword's integer sum is one block's,
// which the kernel scales by d·dy.

// nlGroupBytes is one repacked group of 16 IQ4_NL blocks.
const nlGroupBytes = 32 + 4*64

// repackIQ4NL writes the IQ4_NL row w of nb blocks into p
// (mxGroups(nb)*nlGroupBytes bytes) in the repacked layout.
func repackIQ4NL(w []byte, nb int, p []byte) {
	repackBlockGroups(w, nb, 18, nlGroupBytes, p, func(out []byte, d int, blk []byte) {
		copy(out[2*d:], blk[0:2])
		putBlockNibbles(out[32:], d, blk[2:18])
	})
}

// Repacked Q4_1, Q5_0 and Q5_1 rows
//
// The legacy types with 32-weight blocks take the same groups of 16
// blocks: their f16 scales d, their f16 offsets m (zero for Q5_0), then
// the 4 chunks of low nibbles, then for Q5_0 and Q5_1 each run's fifth
// bits as a 64-bit mask (a masked byte add of 16 puts them back). The
// quants stay unsigned (Q5_0's less its offset of 16, which the kernel
// takes back out with the activations' block sums), so VPDPBUSD takes
// them as they are: no level lookup. A block's dword is then Σq·y, which
// d·dy scales, and m·dy·Σy adds its offset. 320 bytes a group for Q4_1
// and 384 for Q5_0 and Q5_1, against 320, 352 and 384 stored.

// q41GroupBytes and q5GroupBytes are one repacked group of 16 Q4_1
// blocks, and of 16 Q5_0 or Q5_1 blocks.
const (
	q41GroupBytes = 64 + 4*64
	q5GroupBytes  = q41GroupBytes + 8*8
)

// legacyGroupBytes is one repacked group of 16 blocks of type t (Q4_1,
// Q5_0 or Q5_1).
func legacyGroupBytes(t rt.DType) int {
	if t == rt.Q4_1 {
		return q41GroupBytes
	}
	return q5GroupBytes
}

// repackQ4_1, repackQ5_0 and repackQ5_1 write the row w of nb blocks into
// p (mxGroups(nb)*legacyGroupBytes bytes) in the repacked layout.
func repackQ4_1(w []byte, nb int, p []byte) { repackLegacy(rt.Q4_1, w, nb, p) }
func repackQ5_0(w []byte, nb int, p []byte) { repackLegacy(rt.Q5_0, w, nb, p) }
func repackQ5_1(w []byte, nb int, p []byte) { repackLegacy(rt.Q5_1, w, nb, p) }

func repackLegacy(t rt.DType, w []byte, nb int, p []byte) {
	var bl block32
	repackBlockGroups(w, nb, t.TypeSize(), legacyGroupBytes(t), p, func(out []byte, d int, blk []byte) {
		copy(out[2*d:], blk[0:2])
		if t != rt.Q5_0 {
			copy(out[32+2*d:], blk[2:4])
		}
		unpack32(t, blk, &bl)
		for e, v := range bl.q {
			u := byte(v)
			if t == rt.Q5_0 {
				u = byte(v + 16)
			}
			putRunNibble(out[64:], d, e, u&0xF)
			if u >= 16 {
				run, pos := iq4Index(d, e)
				out[320+8*run+pos/8] |= 1 << uint(pos%8)
			}
		}
	})
}

// dotLegacyRGo is the portable form of the repacked Q4_1, Q5_0 and Q5_1
// dots: the row p repacked by repackLegacy times the activations a
// rearranged by setBlocks.
func dotLegacyRGo(t rt.DType, p []byte, a *iq4Act) float32 {
	gb := legacyGroupBytes(t)
	var acc float32
	for g := range len(a.d) / 16 {
		group := p[g*gb:][:gb]
		isum := nibbleRunSums(group[64:320], a.qs[g*512:][:512], func(run, pos int, nib byte) int32 {
			if t != rt.Q4_1 && group[320+8*run+pos/8]>>uint(pos%8)&1 == 1 {
				return int32(nib) + 16
			}
			return int32(nib)
		})
		for d := 0; d < 16; d++ {
			sy := a.sums[16*g+d] / 128 // Σy of the block
			if t == rt.Q5_0 {
				isum[d] -= 16 * sy
			}
			dy := a.d[16*g+d]
			acc += f16At(group[2*d:])*dy*float32(isum[d]) + f16At(group[32+2*d:])*dy*float32(sy)
		}
	}
	return acc
}

// dotIQ4NLRGo is the portable form of the repacked IQ4_NL dot: the row p
// repacked by repackIQ4NL times the activations a rearranged by
// setBlocks.
func dotIQ4NLRGo(p []byte, a *iq4Act) float32 {
	var acc float32
	for g := range len(a.d) / 16 {
		group := p[g*nlGroupBytes:][:nlGroupBytes]
		q := a.qs[g*512:][:512]
		isum := nibbleRunSums(group[32:], q, iq4Level)
		for d := 0; d < 16; d++ {
			acc += f16At(group[2*d:]) * a.d[16*g+d] * float32(isum[d]-a.sums[16*g+d])
		}
	}
	return acc
}
