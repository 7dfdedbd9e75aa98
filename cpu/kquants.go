package cpu

import (
	"encoding/binary"
	"math"

	rt "github.com/gpurt/gpurt/runtime"
)

// Portable kernels for the weight types of llama.cpp's GGUF files beyond
// Q8_0 and Q4_0, done as ggml's CPU backend does them: the activations are
// quantized once per MUL_MAT to the weight type's vec_dot_type, and every
// dot product runs in integers, scaled per block.
//
//   - The K-quants (Q2_K … Q6_K), IQ4_XS, TQ1_0 and TQ2_0 meet Q8_K
//     activations: super-blocks of 256 int8 quants with one float32 scale
//     and the sums of each 16 quants (bsums), which carry the weights'
//     offsets (the mins of Q2_K/Q4_K/Q5_K, the -1 of the ternary types).
//   - Q5_0, IQ4_NL and MXFP4 meet Q8_0 activations (q8Row).
//   - Q4_1 and Q5_1 meet Q8_1 activations: Q8_0's quants and scales plus
//     each block's scaled sum, which q8Row's neg sums give exactly.
//
// Each portable kernel unpacks a weight block into small integers with
// per-group scales (unpackK, unpack32) and runs one integer dot over them;
// the same unpacking, scaled, is the dequantizer (dequantRowGo) that the
// tests and the packed GEMM use. The assembly kernels (kquants_amd64.s,
// kquants_arm64.s) compute the same sums without the intermediate array.

// q8KRow is a row of Q8_K activations: per super-block of rt.QKK values,
// the quants qs, the scale d and the sums of each 16 quants bsums.
type q8KRow struct {
	qs    []int8
	d     []float32
	bsums []int16
}

// blocks is the number of super-blocks in the row.
func (q q8KRow) blocks() int { return len(q.d) }

// q8KRows holds n rows of nb super-blocks each.
type q8KRows struct {
	nb    int
	qs    []int8
	d     []float32
	bsums []int16
}

func (q *q8KRows) resize(n, nb int) {
	q.nb = nb
	q.qs = grow(q.qs, n*nb*rt.QKK)
	q.d = grow(q.d, n*nb)
	q.bsums = grow(q.bsums, n*nb*rt.QKK/16)
}

func (q *q8KRows) row(r int) q8KRow {
	nb := q.nb
	return q8KRow{qs: q.qs[r*nb*rt.QKK : (r+1)*nb*rt.QKK], d: q.d[r*nb : (r+1)*nb], bsums: q.bsums[r*nb*16 : (r+1)*nb*16]}
}

// quantizeQ8KGo quantizes x (y.blocks()·256 values) to Q8_K exactly as
// ggml's quantize_row_q8_K_ref: the value of largest magnitude maps to
// -127, the others are rounded to nearest even and clamped to 127, and
// the scale is the inverse of the quantizing factor.
func quantizeQ8KGo(x []float32, y q8KRow) {
	for b := range y.d {
		xb := x[b*rt.QKK : (b+1)*rt.QKK]
		qs := y.qs[b*rt.QKK : (b+1)*rt.QKK]
		bs := y.bsums[b*16 : (b+1)*16]
		var amax, vmax float32
		for _, v := range xb {
			if a := float32(math.Abs(float64(v))); a > amax {
				amax, vmax = a, v
			}
		}
		if amax == 0 {
			y.d[b] = 0
			clear(qs)
			clear(bs)
			continue
		}
		iscale := -127 / vmax
		for j, v := range xb {
			qs[j] = int8(min(127, int32(math.RoundToEven(float64(iscale*v)))))
		}
		for g := range bs {
			var s int16
			for _, q := range qs[16*g : 16*g+16] {
				s += int16(q)
			}
			bs[g] = s
		}
		y.d[b] = 1 / iscale
	}
}

// kBlock is one super-block of 256 weights unpacked: w = d·scale[g]·q -
// dmin·min[g] for the 16-value group g = i/16 of value i.
type kBlock struct {
	q          [rt.QKK]int8
	scale, min [16]int32
	d, dmin    float32
}

// f16At is the half at b[0:2] as float32.
func f16At(b []byte) float32 { return f16Table()[binary.LittleEndian.Uint16(b)] }

// scaleMinK4 decodes the eight 6-bit scales and mins of a Q4_K or Q5_K
// super-block (ggml's get_scale_min_k4).
func scaleMinK4(s []byte) (sc, mn [8]int32) {
	for j := 0; j < 8; j++ {
		if j < 4 {
			sc[j], mn[j] = int32(s[j]&63), int32(s[j+4]&63)
		} else {
			sc[j] = int32(s[j+4]&0xF | (s[j-4]>>6)<<4)
			mn[j] = int32(s[j+4]>>4 | (s[j]>>6)<<4)
		}
	}
	return
}

// q3KScales decodes the sixteen 6-bit scales of a Q3_K super-block, minus
// their offset of 32.
func q3KScales(s []byte) (sc [16]int32) {
	for g := 0; g < 16; g++ {
		var low, high byte
		if g < 8 {
			low = s[g] & 0xF
		} else {
			low = s[g-8] >> 4
		}
		high = (s[8+g%4] >> (2 * (g / 4))) & 3
		sc[g] = int32(low|high<<4) - 32
	}
	return
}

// kvaluesIQ4NL are the 16 levels of IQ4_NL and IQ4_XS.
var kvaluesIQ4NL = [16]int8{-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113}

// kvaluesMXFP4 are the 16 FP4 (E2M1) levels of MXFP4, doubled to integers.
var kvaluesMXFP4 = [16]int8{0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12}

// e8m0Half is an MXFP4 block's E8M0 scale halved (2^(e-128)), as ggml's
// GGML_E8M0_TO_FP32_HALF.
func e8m0Half(e byte) float32 {
	if e < 2 {
		return math.Float32frombits(0x00200000 << e)
	}
	return math.Float32frombits(uint32(e-1) << 23)
}

// unpackK unpacks the super-block blk of type t into kb.
func unpackK(t rt.DType, blk []byte, kb *kBlock) {
	q := &kb.q
	switch t {
	case rt.Q2_K:
		kb.d, kb.dmin = f16At(blk[80:]), f16At(blk[82:])
		for g := 0; g < 16; g++ {
			kb.scale[g], kb.min[g] = int32(blk[g]&0xF), int32(blk[g]>>4)
		}
		for h := 0; h < 2; h++ {
			qs := blk[16+32*h : 48+32*h]
			for s := uint(0); s < 4; s++ {
				out := q[128*h+32*int(s):][:32]
				for l, v := range qs {
					out[l] = int8(v >> (2 * s) & 3)
				}
			}
		}
	case rt.Q3_K:
		kb.d, kb.dmin = f16At(blk[108:]), 0
		kb.scale, kb.min = q3KScales(blk[96:108]), [16]int32{}
		hm := blk[0:32]
		for h := 0; h < 2; h++ {
			qs := blk[32+32*h : 64+32*h]
			for s := uint(0); s < 4; s++ {
				out := q[128*h+32*int(s):][:32]
				bit := uint(4*h) + s
				for l, v := range qs {
					// 4 where the high bit is clear.
					out[l] = int8(v>>(2*s)&3) - int8((^hm[l]>>bit)&1)<<2
				}
			}
		}
	case rt.Q4_K, rt.Q5_K:
		kb.d, kb.dmin = f16At(blk[0:]), f16At(blk[2:])
		sc, mn := scaleMinK4(blk[4:16])
		for g := 0; g < 16; g++ {
			kb.scale[g], kb.min[g] = sc[g/2], mn[g/2]
		}
		qs, qh := blk[16:144], []byte(nil)
		if t == rt.Q5_K {
			qs, qh = blk[48:176], blk[16:48]
		}
		for c := 0; c < 4; c++ {
			lo, hi := q[64*c:][:32], q[64*c+32:][:32]
			for l, v := range qs[32*c : 32*c+32] {
				lo[l], hi[l] = int8(v&0xF), int8(v>>4)
			}
			if qh == nil {
				continue
			}
			for l, h := range qh[:32] {
				lo[l] += int8(h>>uint(2*c)&1) << 4
				hi[l] += int8(h>>uint(2*c+1)&1) << 4
			}
		}
	case rt.Q6_K:
		kb.d, kb.dmin = f16At(blk[208:]), 0
		for g := 0; g < 16; g++ {
			kb.scale[g] = int32(int8(blk[192+g]))
		}
		kb.min = [16]int32{}
		ql, qh := blk[0:128], blk[128:192]
		for h := 0; h < 2; h++ {
			out := q[128*h:][:128]
			l0, l1, hb := ql[64*h:][:32], ql[64*h+32:][:32], qh[32*h:][:32]
			for l, b := range hb {
				out[l] = int8(l0[l]&0xF|(b&3)<<4) - 32
				out[l+32] = int8(l1[l]&0xF|(b>>2&3)<<4) - 32
				out[l+64] = int8(l0[l]>>4|(b>>4&3)<<4) - 32
				out[l+96] = int8(l1[l]>>4|(b>>6)<<4) - 32
			}
		}
	case rt.IQ4_XS:
		kb.d, kb.dmin = f16At(blk[0:]), 0
		sh := binary.LittleEndian.Uint16(blk[2:])
		for ib := 0; ib < 8; ib++ {
			ls := int32(blk[4+ib/2]>>(4*uint(ib%2))&0xF) | int32(sh>>(2*uint(ib))&3)<<4
			kb.scale[2*ib], kb.scale[2*ib+1] = ls-32, ls-32
		}
		kb.min = [16]int32{}
		for ib := 0; ib < 8; ib++ {
			out := q[32*ib:][:32]
			for j, v := range blk[8+16*ib : 24+16*ib] {
				out[j], out[j+16] = kvaluesIQ4NL[v&0xF], kvaluesIQ4NL[v>>4]
			}
		}
	case rt.TQ1_0:
		kb.d, kb.dmin = f16At(blk[52:]), 0
		ternaryScales(kb)
		qs, qh := blk[0:48], blk[48:52]
		pow3 := [6]uint8{1, 3, 9, 27, 81, 243}
		i := 0
		trit := func(b byte, n int) int8 { return int8(uint16(b*pow3[n])*3>>8) - 1 }
		for n := 0; n < 5; n++ {
			for m := 0; m < 32; m++ {
				q[i] = trit(qs[m], n)
				i++
			}
		}
		for n := 0; n < 5; n++ {
			for m := 0; m < 16; m++ {
				q[i] = trit(qs[32+m], n)
				i++
			}
		}
		for n := 0; n < 4; n++ {
			for j := 0; j < 4; j++ {
				q[i] = trit(qh[j], n)
				i++
			}
		}
	case rt.TQ2_0:
		kb.d, kb.dmin = f16At(blk[64:]), 0
		ternaryScales(kb)
		for h := 0; h < 2; h++ {
			qs := blk[32*h : 32*h+32]
			for s := uint(0); s < 4; s++ {
				out := q[128*h+32*int(s):][:32]
				for l, v := range qs {
					out[l] = int8(v>>(2*s)&3) - 1
				}
			}
		}
	}
}

// ternaryScales gives TQ1_0 and TQ2_0 blocks, which have one scale, unit
// group scales.
func ternaryScales(kb *kBlock) {
	for g := range kb.scale {
		kb.scale[g], kb.min[g] = 1, 0
	}
}

// dotKGo multiplies y.blocks() super-blocks of type t with Q8_K
// activations: per super-block d·dy·Σ_g scale[g]·Σ q·y - dmin·dy·Σ_g
// min[g]·bsums[g].
func dotKGo(t rt.DType, w []byte, y q8KRow) float32 {
	size := t.TypeSize()
	var kb kBlock
	var sum float32
	for b, dy := range y.d {
		unpackK(t, w[b*size:(b+1)*size], &kb)
		qy := y.qs[b*rt.QKK : (b+1)*rt.QKK]
		bs := y.bsums[b*16 : (b+1)*16]
		var sumi, summ int32
		for g := 0; g < 16; g++ {
			wq, yq := kb.q[16*g:][:16], qy[16*g:][:16]
			var s int32
			for i, v := range wq {
				s += int32(v) * int32(yq[i])
			}
			sumi += kb.scale[g] * s
			summ += kb.min[g] * int32(bs[g])
		}
		sum += kb.d*dy*float32(sumi) - kb.dmin*dy*float32(summ)
	}
	return sum
}

// block32 is one 32-value block unpacked: w = d·q + m.
type block32 struct {
	q    [rt.QK]int8
	d, m float32
}

// unpack32 unpacks the block blk of type t (Q4_1, Q5_0, Q5_1, IQ4_NL or
// MXFP4) into bl.
func unpack32(t rt.DType, blk []byte, bl *block32) {
	q := &bl.q
	var qs []byte
	var qh uint32
	var tab *[16]int8
	bl.m = 0
	switch t {
	case rt.Q4_1:
		bl.d, bl.m, qs = f16At(blk), f16At(blk[2:]), blk[4:20]
	case rt.Q5_0:
		bl.d, qh, qs = f16At(blk), binary.LittleEndian.Uint32(blk[2:]), blk[6:22]
	case rt.Q5_1:
		bl.d, bl.m, qh, qs = f16At(blk), f16At(blk[2:]), binary.LittleEndian.Uint32(blk[4:]), blk[8:24]
	case rt.IQ4_NL:
		bl.d, qs, tab = f16At(blk), blk[2:18], &kvaluesIQ4NL
	case rt.MXFP4:
		bl.d, qs, tab = e8m0Half(blk[0]), blk[1:17], &kvaluesMXFP4
	}
	qs = qs[:16]
	if tab != nil {
		for j, v := range qs {
			q[j], q[j+16] = tab[v&0xF], tab[v>>4]
		}
		return
	}
	for j, v := range qs {
		q[j] = int8(v&0xF | byte(qh>>uint(j)&1)<<4)
		q[j+16] = int8(v>>4 | byte(qh>>uint(j+16)&1)<<4)
	}
	if t == rt.Q5_0 {
		for j := range q {
			q[j] -= 16
		}
	}
}

// dot32Go multiplies y.blocks() blocks of type t with Q8_0 activations
// (Q8_1 for the types with an offset m: the block sum of y, -neg, carries
// it).
func dot32Go(t rt.DType, w []byte, y q8Row) float32 {
	size := t.TypeSize()
	var bl block32
	var sum float32
	for b, dy := range y.d {
		unpack32(t, w[b*size:(b+1)*size], &bl)
		qy := y.qs[b*rt.QK : (b+1)*rt.QK]
		var s int32
		for j, v := range bl.q {
			s += int32(v) * int32(qy[j])
		}
		sum += bl.d * dy * float32(s)
		if bl.m != 0 {
			sum += bl.m * dy * float32(-y.neg[b])
		}
	}
	return sum
}

// dequantRowGo decodes len(dst) values of type t from src exactly as
// ggml's to_float does (each product rounded on its own, no fused
// multiply-add).
func dequantRowGo(t rt.DType, src []byte, dst []float32) {
	size := t.TypeSize()
	if t.BlockSize() == rt.QKK {
		var kb kBlock
		for b := 0; b < len(dst)/rt.QKK; b++ {
			unpackK(t, src[b*size:(b+1)*size], &kb)
			out := dst[b*rt.QKK : (b+1)*rt.QKK]
			for g := 0; g < 16; g++ {
				dl := float32(kb.d * float32(kb.scale[g]))
				ml := float32(kb.dmin * float32(kb.min[g]))
				for i := 16 * g; i < 16*g+16; i++ {
					out[i] = float32(dl*float32(kb.q[i])) - ml
				}
			}
		}
		return
	}
	var bl block32
	for b := 0; b < len(dst)/rt.QK; b++ {
		unpack32(t, src[b*size:(b+1)*size], &bl)
		out := dst[b*rt.QK : (b+1)*rt.QK]
		for j, v := range bl.q {
			out[j] = float32(float32(v)*bl.d) + bl.m
		}
	}
}

// typeDot is how k multiplies weights of one type in integers: against
// Q8_K activations (dotK) or Q8_0/Q8_1 ones (dot).
type typeDot struct {
	vec  rt.DType // the activations' type: Q8_K, Q8_0 or Q8_1
	dotK func(w []byte, y q8KRow) float32
	dot  func(w []byte, y q8Row) float32
	// dotK4, where k has it, does four activation rows at once.
	dotK4 func(w []byte, y *q8KRows, r0 int, out *[4]float32)
	// dotKRows, where k has it, is dotK for len(out) weight rows ldw
	// bytes apart in one call.
	dotKRows func(w []byte, ldw int, y q8KRow, out []float32)
	// dotRepacked, where k has it, is dotKRows on the rows repacked by
	// repackedRowsFor, against activations rearranged by iq4Act.set or
	// setSub16 (repack_kquants.go): the GEMV of 1–3 activation rows.
	dotRepacked func(p []byte, ldp int, a *iq4Act, out []float32)
	// dotBlocksRepacked, where k has it, is dot on the row repacked by
	// repackedRowsFor in groups of 16 blocks, against activations
	// rearranged by iq4Act.setBlocks: every GEMV of the 32-weight block
	// types.
	dotBlocksRepacked func(p []byte, a *iq4Act) float32
}

// typeDotFor returns k's integer dot for weights of type t, for the types
// kquants.go adds; ok is false for the others.
func (k *kernels) typeDotFor(t rt.DType) (d typeDot, ok bool) {
	switch t {
	case rt.Q2_K:
		return typeDot{vec: rt.Q8_K, dotK: k.dotQ2K, dotK4: k.dotQ2Kx4, dotKRows: k.dotQ2KRows, dotRepacked: k.dotQ2KRRows}, true
	case rt.Q3_K:
		return typeDot{vec: rt.Q8_K, dotK: k.dotQ3K, dotK4: k.dotQ3Kx4, dotKRows: k.dotQ3KRows, dotRepacked: k.dotQ3KRRows}, true
	case rt.Q4_K:
		return typeDot{vec: rt.Q8_K, dotK: k.dotQ4K, dotK4: k.dotQ4Kx4, dotKRows: k.dotQ4KRows, dotRepacked: k.dotQ4KRRows}, true
	case rt.Q5_K:
		return typeDot{vec: rt.Q8_K, dotK: k.dotQ5K, dotK4: k.dotQ5Kx4, dotKRows: k.dotQ5KRows, dotRepacked: k.dotQ5KRRows}, true
	case rt.Q6_K:
		return typeDot{vec: rt.Q8_K, dotK: k.dotQ6K, dotK4: k.dotQ6Kx4, dotKRows: k.dotQ6KRows}, true
	case rt.IQ4_XS:
		return typeDot{vec: rt.Q8_K, dotK: k.dotIQ4XS, dotK4: k.dotIQ4XSx4}, true
	case rt.TQ1_0:
		return typeDot{vec: rt.Q8_K, dotK: k.dotTQ1, dotK4: k.dotTQ1x4, dotRepacked: k.dotTQRRows}, true
	case rt.TQ2_0:
		return typeDot{vec: rt.Q8_K, dotK: k.dotTQ2, dotK4: k.dotTQ2x4, dotRepacked: k.dotTQRRows}, true
	case rt.Q4_1:
		return typeDot{vec: rt.Q8_1, dot: k.dotQ4_1, dotBlocksRepacked: k.dotQ4_1R}, true
	case rt.Q5_1:
		return typeDot{vec: rt.Q8_1, dot: k.dotQ5_1, dotBlocksRepacked: k.dotQ5_1R}, true
	case rt.Q5_0:
		return typeDot{vec: rt.Q8_0, dot: k.dotQ5_0, dotBlocksRepacked: k.dotQ5_0R}, true
	case rt.IQ4_NL:
		return typeDot{vec: rt.Q8_0, dot: k.dotIQ4NL, dotBlocksRepacked: k.dotIQ4NLR}, true
	case rt.MXFP4:
		return typeDot{vec: rt.Q8_0, dot: k.dotMXFP4, dotBlocksRepacked: k.dotMXFP4R}, true
	}
	return typeDot{}, false
}
