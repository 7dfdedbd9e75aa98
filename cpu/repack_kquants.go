package cpu

import (
	"encoding/binary"
	"math"
	"unsafe"

	rt "github.com/gpurt/gpurt/runtime"
)

// Repacked Q4_K and Q5_K rows
//
// Q4_K's GEMV kernel as stored spends most of its instructions per
// super-block on its layout rather than on the products: decoding the
// twelve packed 6-bit scales and mins, spreading each pair of sub-block
// scales over a vector (a shuffle a run), and weighting int16 pairs by
// them before any sum. Repacked as IQ4_XS is (repack_iq4.go), a pair of
// super-blocks puts 4 weights of each of its 16 sub-blocks in every 64
// quants, sub-block d in dword d, so VPDPBUSD sums each sub-block's whole
// dot product into one dword against the activations rearranged once per
// row (iq4Act); one multiply by the 16 decoded scales and one by the 16
// mins (against the sub-blocks' activation sums) finish the pair. The
// scales and mins are decoded once, here, into a byte each: 296 bytes a
// pair against 288 stored, so a GEMV streams 3 % more bytes for less than
// half the instructions. Q5_K's fifth bits follow as a mask a run, which
// AVX-512 adds in with one masked byte add. Used, as IQ4_XS's, for GEMVs
// of fewer than 4 activation rows (the four-row kernels share each stored
// block's unpacking between their rows).

// q4kPairBytes is one repacked pair of Q4_K super-blocks: 16 sub-block
// scales, 16 sub-block mins (one byte each, 0..63), the f16 d of each
// super-block, then their f16 dmin, then 4 chunks of 64 bytes of quants,
// two a byte, weight e of sub-block d at iq4Index(d, e).
const q4kPairBytes = 16 + 16 + 8 + 4*64

// q5kPairBytes is one repacked pair of Q5_K super-blocks: Q4_K's layout
// of their low 4 bits, then each run's fifth bits as a 64-bit mask (bit
// pos of run r's for the quant at byte pos of the run), 360 bytes against
// 352 stored.
const q5kPairBytes = q4kPairBytes + 8*8

// q4kQuants is where a repacked pair's quants start.
const q4kQuants = 40

// repackQ4K writes the Q4_K row w of nb super-blocks into p
// (iq4Pairs(nb)*q4kPairBytes bytes) in the repacked layout; an odd last
// super-block's partner is all zeros.
func repackQ4K(w []byte, nb int, p []byte) { repackK45(w, nb, p, false) }

// repackQ5K is repackQ4K for Q5_K rows (iq4Pairs(nb)*q5kPairBytes bytes).
func repackQ5K(w []byte, nb int, p []byte) { repackK45(w, nb, p, true) }

func repackK45(w []byte, nb int, p []byte, five bool) {
	blkBytes, pairBytes, qsOff := 144, q4kPairBytes, 16
	if five {
		blkBytes, pairBytes, qsOff = 176, q5kPairBytes, 48
	}
	clear(p[:iq4Pairs(nb)*pairBytes])
	for b := 0; b < nb; b++ {
		blk := w[b*blkBytes : (b+1)*blkBytes]
		out := p[(b/2)*pairBytes:][:pairBytes]
		half := b % 2
		copy(out[32+2*half:], blk[0:2]) // d
		copy(out[36+2*half:], blk[2:4]) // dmin
		sc, mn := scaleMinK4(blk[4:16])
		qs := blk[qsOff : qsOff+128]
		for ib := 0; ib < 8; ib++ {
			d := 8*half + ib
			out[d], out[16+d] = byte(sc[ib]), byte(mn[ib])
			// Sub-block ib is the low (even ib) or high nibbles of 32
			// stored bytes; weights 8c..8c+3 of it go to the low nibbles
			// of chunk c's bytes 4d..4d+3, weights 8c+4..8c+7 to their
			// high nibbles (iq4Index).
			src, shift := qs[32*(ib/2):][:32], 4*uint(ib%2)
			for c := 0; c < 4; c++ {
				// 8 nibbles at once: weights 8c..8c+3 in the low word's
				// bytes, 8c+4..8c+7 in the high word's.
				n := binary.LittleEndian.Uint64(src[8*c:]) >> shift & 0x0f0f0f0f0f0f0f0f
				binary.LittleEndian.PutUint32(out[q4kQuants+64*c+4*d:], uint32(n)|uint32(n>>32)<<4)
			}
			if !five {
				continue
			}
			// Q5_K's qh: bit ib of byte e is weight e's fifth bit; it goes
			// to bit 4d+e%4 of run e/4's mask.
			qh := blk[16:48]
			for e := 0; e < 32; e++ {
				if qh[e]>>uint(ib)&1 != 0 {
					run, pos := iq4Index(d, e)
					out[q4kPairBytes+8*run+pos/8] |= 1 << uint(pos%8)
				}
			}
		}
	}
}

// dotQ4KRGo is the portable form of the repacked Q4_K dot: the row p
// repacked by repackQ4K times the activations a rearranged by iq4Act.set
// (whose sums are 128 times each sub-block's activation sum).
func dotQ4KRGo(p []byte, a *iq4Act) float32 { return dotK45RGo(p, a, false) }

// dotQ5KRGo is dotQ4KRGo for rows repacked by repackQ5K.
func dotQ5KRGo(p []byte, a *iq4Act) float32 { return dotK45RGo(p, a, true) }

func dotK45RGo(p []byte, a *iq4Act, five bool) float32 {
	pairBytes := q4kPairBytes
	if five {
		pairBytes = q5kPairBytes
	}
	var acc float32
	tab := f16Table()
	for g := range len(a.d) / 2 {
		pair := p[g*pairBytes:][:pairBytes]
		q := a.qs[g*512:][:512]
		isum := nibbleRunSums(pair[q4kQuants:], q, func(r, pos int, nib byte) int32 {
			if five { // the fifth bit, from run r's mask
				nib |= (pair[q4kPairBytes+8*r+pos/8] >> uint(pos%8) & 1) << 4
			}
			return int32(nib)
		})
		for d := 0; d < 16; d++ {
			sb := d / 8
			dd := tab[binary.LittleEndian.Uint16(pair[32+2*sb:])]
			dm := tab[binary.LittleEndian.Uint16(pair[36+2*sb:])]
			mins := int32(pair[16+d]) * a.sums[16*g+d] / 128
			acc += a.d[2*g+sb] * (dd*float32(isum[d]*int32(pair[d])) - dm*float32(mins))
		}
	}
	return acc
}

// Repacked Q2_K and Q3_K rows
//
// Q2_K and Q3_K weigh sub-blocks of 16, so one super-block has the 16
// sub-blocks the layout above gives a pair: its 4 runs of 64 quants hold
// 4 weights of every sub-block, sub-block d in dword d, against
// activations rearranged the same way (iq4Act.setSub16), and one multiply
// by the 16 scales finishes the super-block. Q2_K's 2-bit quants of the 4
// runs share one 64-byte vector (run r in bits 2r, 2r+1 of each byte), so
// the repacked super-block is the stored one with its quants moved: 84
// bytes. Q3_K adds its high bits as a 64-bit mask a run (set: +4, the
// quant less its offset of -4) and its 16 scales decoded to bytes (less
// 32): 114 bytes against 110 stored.

// q2kBlockBytes and q3kBlockBytes are one repacked super-block: Q2_K's
// stored scale bytes (scale | min<<4), 64 bytes of quants, f16 d and
// dmin; Q3_K's 16 int8 scales, 64 bytes of low bits, 4 runs' 8-byte high
// bit masks, f16 d.
const (
	q2kBlockBytes = 16 + 64 + 4
	q3kBlockBytes = 16 + 64 + 32 + 2
)

// sub16Pos is where weight e (0..15) of sub-block d sits in a repacked
// super-block's runs and in the rearranged activations: run e/4, byte
// 4d+e%4 of the run's 64.
func sub16Pos(d, e int) (run, pos int) { return e / 4, 4*d + e%4 }

// repackQ2K writes the Q2_K row w of nb super-blocks into p
// (nb*q2kBlockBytes bytes) in the repacked layout.
func repackQ2K(w []byte, nb int, p []byte) { repackSub16(rt.Q2_K, w, nb, p) }

// repackQ3K writes the Q3_K row w of nb super-blocks into p
// (nb*q3kBlockBytes bytes) in the repacked layout.
func repackQ3K(w []byte, nb int, p []byte) { repackSub16(rt.Q3_K, w, nb, p) }

func repackSub16(t rt.DType, w []byte, nb int, p []byte) {
	blkBytes, outBytes := 84, q2kBlockBytes
	if t == rt.Q3_K {
		blkBytes, outBytes = 110, q3kBlockBytes
	}
	clear(p[:nb*outBytes])
	var kb kBlock
	for b := 0; b < nb; b++ {
		blk := w[b*blkBytes : (b+1)*blkBytes]
		out := p[b*outBytes:][:outBytes]
		unpackK(t, blk, &kb)
		if t == rt.Q2_K {
			copy(out[0:16], blk[0:16])
			copy(out[80:84], blk[80:84])
		} else {
			for d := 0; d < 16; d++ {
				out[d] = byte(int8(kb.scale[d]))
			}
			copy(out[112:114], blk[108:110])
		}
		for i, v := range kb.q {
			run, pos := sub16Pos(i/16, i%16)
			u := byte(v)
			if t == rt.Q3_K {
				u = byte(v + 4) // 0..7: the low 2 bits, and 4 for the mask
				out[80+8*run+pos/8] |= (u >> 2 & 1) << uint(pos%8)
			}
			out[16+pos] |= (u & 3) << (2 * uint(run))
		}
	}
}

// setSub16 rearranges y for the repacked Q2_K and Q3_K kernels: per
// super-block, word 16r+d of its 256 quants is word 4d+r of y's (weights
// 4r..4r+3 of sub-block d), then y's 16 block sums as int32 and its d.
func (a *iq4Act) setSub16(y q8KRow) {
	nb := y.blocks()
	a.qs = grow(a.qs, nb*rt.QKK)
	a.sums = grow(a.sums, nb*16)
	a.d = grow(a.d, nb)
	copy(a.d, y.d)
	if nb == 0 {
		return
	}
	src := unsafe.Slice((*uint32)(unsafe.Pointer(&y.qs[0])), nb*rt.QKK/4)
	dst := unsafe.Slice((*uint32)(unsafe.Pointer(&a.qs[0])), nb*rt.QKK/4)
	for b := 0; b < nb; b++ {
		s, o := src[b*64:][:64], dst[b*64:][:64]
		for d := 0; d < 16; d++ {
			for r := 0; r < 4; r++ {
				o[16*r+d] = s[4*d+r]
			}
		}
	}
	for i, v := range y.bsums[:nb*16] {
		a.sums[i] = int32(v)
	}
}

// Repacked TQ1_0 and TQ2_0 rows
//
// TQ1_0 packs five trits a byte, and its stored kernel spends four 16-bit
// multiplies on every 64 of them to take them apart (tquants512_amd64.s):
// bound by the multiplier, it read its weights at half the streaming
// rate. Both ternary types repack into Q2_K's layout without its scales:
// a super-block's 256 values (the weight plus 1: 0..2) as 2-bit quants in
// sub16Pos's places, 64 bytes, run r in bits 2r, 2r+1, against the
// activations of iq4Act.setSub16, whose block sums take the +1 back out.
// A row's f32 scales d follow its quants, so that every super-block's
// quants are one aligned 64-byte load: tqRowBytes(nb) bytes a row, 68 a
// super-block against 54 (TQ1_0) or 66 (TQ2_0) stored. The kernel
// decodes a run with a shift and a mask.

// tqBlockBytes is one repacked ternary super-block: 64 bytes of 2-bit
// quants and its f32 scale.
const tqBlockBytes = 64 + 4

// tqRowBytes is a repacked ternary row of nb super-blocks: the quants,
// then the nb scales, padded to whole 64-byte lines.
func tqRowBytes(nb int) int { return (nb*tqBlockBytes + 63) &^ 63 }

// repackTQ1 and repackTQ2 write the TQ1_0 or TQ2_0 row w of nb
// super-blocks into p (nb*tqBlockBytes bytes) in the repacked layout.
func repackTQ1(w []byte, nb int, p []byte) { repackTernary(rt.TQ1_0, w, nb, p) }
func repackTQ2(w []byte, nb int, p []byte) { repackTernary(rt.TQ2_0, w, nb, p) }

func repackTernary(t rt.DType, w []byte, nb int, p []byte) {
	size := t.TypeSize()
	clear(p[:nb*tqBlockBytes])
	var kb kBlock
	for b := 0; b < nb; b++ {
		unpackK(t, w[b*size:(b+1)*size], &kb)
		out := p[64*b:][:64]
		for i, v := range kb.q {
			run, pos := sub16Pos(i/16, i%16)
			out[pos] |= byte(v+1) << (2 * uint(run))
		}
		binary.LittleEndian.PutUint32(p[64*nb+4*b:], math.Float32bits(kb.d))
	}
}

// dotTQRGo is the portable form of the repacked ternary dot: the row p
// repacked by repackTQ1 or repackTQ2 times the activations a rearranged
// by setSub16.
func dotTQRGo(p []byte, a *iq4Act) float32 {
	nb := len(a.d)
	var acc float32
	for b := 0; b < nb; b++ {
		q := a.qs[b*rt.QKK:][:rt.QKK]
		var isum int32
		for r := 0; r < 4; r++ {
			for pos, v := range p[64*b : 64*b+64] {
				isum += int32(v>>(2*uint(r))&3) * int32(q[64*r+pos])
			}
		}
		for _, s := range a.sums[16*b:][:16] {
			isum -= s
		}
		d := math.Float32frombits(binary.LittleEndian.Uint32(p[64*nb+4*b:]))
		acc += d * a.d[b] * float32(isum)
	}
	return acc
}

// dotSub16RGo is the portable form of the repacked Q2_K and Q3_K dots:
// the row p repacked by repackQ2K or repackQ3K times the activations a
// rearranged by setSub16.
func dotSub16RGo(t rt.DType, p []byte, a *iq4Act) float32 {
	outBytes := q2kBlockBytes
	if t == rt.Q3_K {
		outBytes = q3kBlockBytes
	}
	tab := f16Table()
	var acc float32
	for b := range a.d {
		blk := p[b*outBytes:][:outBytes]
		q := a.qs[b*rt.QKK:][:rt.QKK]
		var isum [16]int32
		for r := 0; r < 4; r++ {
			for pos := 0; pos < 64; pos++ {
				u := blk[16+pos] >> (2 * uint(r)) & 3
				if t == rt.Q3_K {
					u |= (blk[80+8*r+pos/8] >> uint(pos%8) & 1) << 2
				}
				isum[pos/4] += int32(u) * int32(q[64*r+pos])
			}
		}
		for d := 0; d < 16; d++ {
			sum := a.sums[16*b+d]
			if t == rt.Q2_K {
				dd := tab[binary.LittleEndian.Uint16(blk[80:])]
				dm := tab[binary.LittleEndian.Uint16(blk[82:])]
				acc += a.d[b] * (dd*float32(isum[d]*int32(blk[d]&0xF)) - dm*float32(int32(blk[d]>>4)*sum))
			} else {
				dd := tab[binary.LittleEndian.Uint16(blk[112:])]
				acc += a.d[b] * dd * float32((isum[d]-4*sum)*int32(int8(blk[d])))
			}
		}
	}
	return acc
}
