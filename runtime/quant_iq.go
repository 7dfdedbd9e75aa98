package runtime

import (
	"encoding/binary"
	"math"
)

// The non-linear 4-bit types (IQ4_NL, IQ4_XS), MXFP4 and the ternary types
// (TQ1_0, TQ2_0), after ggml's quantize_row_iq4_nl_impl, quantize_iq4_nl,
// quantize_iq4_xs, quantize_row_mxfp4_ref, quantize_row_tq*_ref and their
// dequantizers.

// kvaluesIQ4NL are the 16 levels of IQ4_NL and IQ4_XS.
var kvaluesIQ4NL = [16]int8{-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113}

// kvaluesMXFP4 are the E2M1 values doubled (the scale is halved to match).
var kvaluesMXFP4 = [16]int8{0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12}

// bestIndexInt8 is ggml's best_index_int8: the index of the level in the
// ascending val nearest to x (the upper one on a tie).
func bestIndexInt8(val []int8, x float32) int {
	x = float32(x) // rounds a caller's product before the subtractions below
	n := len(val)
	if x <= float32(val[0]) {
		return 0
	}
	if x >= float32(val[n-1]) {
		return n - 1
	}
	ml, mu := 0, n-1
	for mu-ml > 1 {
		mav := (ml + mu) / 2
		if x < float32(val[mav]) {
			mu = mav
		} else {
			ml = mav
		}
	}
	if x-float32(val[mu-1]) < float32(val[mu])-x {
		return mu - 1
	}
	return mu
}

// iq4Fit fits one block of 32 to the IQ4 levels with weights x² (no
// importance matrix). With ntry > 0 (the reference quantizer) it also tries
// 2·ntry+1 further inverse scales; L receives the first pass's indices.
func iq4Fit(xb []float32, L []uint8, ntry int) float32 {
	amax, fmax := float32(0), float32(0)
	for _, v := range xb {
		if a := absf(v); a > amax {
			amax, fmax = a, v
		}
	}
	if amax < groupMaxEps {
		clear(L[:len(xb)])
		return 0
	}
	v0 := float32(kvaluesIQ4NL[0])
	d := fmax / v0
	if ntry > 0 {
		d = -fmax / v0
	}
	id := 1 / d
	var sumqx, sumq2 float32
	for j, v := range xb {
		l := bestIndexInt8(kvaluesIQ4NL[:], id*v)
		L[j] = uint8(l)
		q := float32(kvaluesIQ4NL[l])
		w := v * v
		sumqx += float32(float32(w*q) * v)
		sumq2 += float32(float32(w*q) * q)
	}
	d = 0
	if sumq2 > 0 {
		d = sumqx / sumq2
	}
	best := d * sumqx
	for itry := -ntry; itry <= ntry; itry++ {
		id = float32(itry+int(kvaluesIQ4NL[0])) / fmax
		sumqx, sumq2 = 0, 0
		for _, v := range xb {
			q := float32(kvaluesIQ4NL[bestIndexInt8(kvaluesIQ4NL[:], id*v)])
			w := v * v
			sumqx += float32(float32(w*q) * v)
			sumq2 += float32(float32(w*q) * q)
		}
		if sumq2 > 0 && float32(sumqx*sumqx) > float32(best*sumq2) {
			d = sumqx / sumq2
			best = d * sumqx
		}
	}
	return d
}

// packIQ4 packs 32 indices per 16 bytes: element j low, j+16 high.
func packIQ4(L []uint8, q4 []byte) {
	for i := 0; i < len(L)/32; i++ {
		for j := 0; j < 16; j++ {
			q4[16*i+j] = L[32*i+j] | L[32*i+16+j]<<4
		}
	}
}

// quantizeBlockIQ4_NL is quantize_iq4_nl (ntry 7): the scale search, then
// every value requantized with the chosen scale.
func quantizeBlockIQ4_NL(x []float32, out []byte) {
	var L [QK]uint8
	d := iq4Fit(x, L[:], 7)
	putF16(out, d)
	id := float32(0)
	if d != 0 {
		id = 1 / d
	}
	for j, v := range x {
		L[j] = uint8(bestIndexInt8(kvaluesIQ4NL[:], id*v))
	}
	packIQ4(L[:], out[2:18])
}

// quantizeBlockIQ4_NLCPU is quantize_row_iq4_nl_ref, ggml-cpu's from_float
// for IQ4_NL: one pass, no scale search, no requantization.
func quantizeBlockIQ4_NLCPU(x []float32, out []byte) {
	var L [QK]uint8
	d := iq4Fit(x, L[:], -1)
	putF16(out, d)
	packIQ4(L[:], out[2:18])
}

func dequantizeBlockIQ4_NL(blk []byte, y []float32) {
	d := getF16(blk)
	for j := 0; j < QK/2; j++ {
		q := blk[2+j]
		y[j] = d * float32(kvaluesIQ4NL[q&0xf])
		y[j+QK/2] = d * float32(kvaluesIQ4NL[q>>4])
	}
}

// quantizeBlockIQ4_XS is quantize_iq4_xs: 8 blocks of 32 fitted as IQ4_NL,
// their scales quantized to 6 bits against the super-block's f16 scale.
func quantizeBlockIQ4_XS(x []float32, out []byte) {
	var L [QKK]uint8
	var scales [QKK / 32]float32
	maxScale, amaxScale := float32(0), float32(0)
	for ib := 0; ib < QKK/32; ib++ {
		scales[ib] = iq4Fit(x[32*ib:32*ib+32], L[32*ib:], 7)
		if a := absf(scales[ib]); a > amaxScale {
			amaxScale, maxScale = a, scales[ib]
		}
	}
	scalesL := out[4:8]
	var scalesH uint16
	d := -maxScale / 32
	putF16(out, d)
	id := float32(0)
	if d != 0 {
		id = 1 / d
	}
	for ib := 0; ib < QKK/32; ib++ {
		l := max(-32, min(31, nearestInt(id*scales[ib])))
		dl := d * float32(l)
		idl := float32(0)
		if dl != 0 {
			idl = 1 / dl
		}
		for j, v := range x[32*ib : 32*ib+32] {
			L[32*ib+j] = uint8(bestIndexInt8(kvaluesIQ4NL[:], idl*v))
		}
		l += 32
		lo, hi := uint8(l&0xf), uint16(l>>4)
		if ib%2 == 0 {
			scalesL[ib/2] = lo
		} else {
			scalesL[ib/2] |= lo << 4
		}
		scalesH |= hi << (2 * (ib % 8))
	}
	binary.LittleEndian.PutUint16(out[2:], scalesH)
	packIQ4(L[:], out[8:136])
}

func dequantizeBlockIQ4_XS(blk []byte, y []float32) {
	d := getF16(blk)
	scalesH := binary.LittleEndian.Uint16(blk[2:])
	scalesL, qs := blk[4:8], blk[8:136]
	for ib := 0; ib < QKK/32; ib++ {
		ls := int(scalesL[ib/2]>>(4*(ib%2)))&0xf | int(scalesH>>(2*ib)&3)<<4
		dl := d * float32(ls-32)
		for j := 0; j < 16; j++ {
			y[j] = dl * float32(kvaluesIQ4NL[qs[j]&0xf])
			y[j+16] = dl * float32(kvaluesIQ4NL[qs[j]>>4])
		}
		y, qs = y[32:], qs[16:]
	}
}

// e8m0Half is GGML_E8M0_TO_FP32_HALF: 2^(e-128), half of the E8M0 value.
func e8m0Half(e uint8) float32 {
	if e < 2 {
		return math.Float32frombits(0x00200000 << e)
	}
	return math.Float32frombits(uint32(e-1) << 23)
}

// bestIndexMXFP4 is the first level nearest to x at scale e.
func bestIndexMXFP4(x, e float32) uint8 {
	best, bestErr := 0, absf(float32(float32(kvaluesMXFP4[0])*e)-x)
	for i := 1; i < 16; i++ {
		if err := absf(float32(float32(kvaluesMXFP4[i])*e) - x); err < bestErr {
			best, bestErr = i, err
		}
	}
	return uint8(best)
}

// quantizeBlockMXFP4: a shared power-of-two exponent chosen from the
// largest magnitude, and each value's nearest E2M1 level.
func quantizeBlockMXFP4(x []float32, out []byte) {
	amax := float32(0)
	for _, v := range x {
		amax = max(amax, absf(v))
	}
	var e uint8
	if amax > 0 {
		// floorf(log2f(amax)) - 2 + 127, converted as C does (through int).
		lg := float32(math.Log2(float64(amax)))
		e = uint8(int32(float32(math.Floor(float64(lg))) - 2 + 127))
	}
	d := e8m0Half(e)
	out[0] = e
	for j := 0; j < QK/2; j++ {
		out[1+j] = bestIndexMXFP4(x[j], d) | bestIndexMXFP4(x[j+QK/2], d)<<4
	}
}

func dequantizeBlockMXFP4(blk []byte, y []float32) {
	d := e8m0Half(blk[0])
	for j := 0; j < QK/2; j++ {
		q := blk[1+j]
		y[j] = float32(kvaluesMXFP4[q&0xf]) * d
		y[j+QK/2] = float32(kvaluesMXFP4[q>>4]) * d
	}
}

// ternaryScale returns amax and its inverse for the TQ types.
func ternaryScale(x []float32) (d, id float32) {
	for _, v := range x {
		d = max(d, absf(v))
	}
	if d != 0 {
		id = 1 / d
	}
	return d, id
}

// trit is x/d rounded half away from zero, plus one: -1, 0, 1 -> 0, 1, 2.
func trit(v, id float32) int { return int(math.Round(float64(v*id))) + 1 }

// quantizeBlockTQ1_0 packs 5 trits per byte in qs (48 bytes: 32 bytes of
// 5 × 32 values, then 16 bytes of 5 × 16) and 4 per byte in qh, each byte
// scaled to 256/243 so that a multiply by 3 exposes the next trit.
func quantizeBlockTQ1_0(x []float32, out []byte) {
	qs, qh := out[:48], out[48:52]
	d, id := ternaryScale(x)
	putF16(out[52:], d)
	pack := func(n int) byte {
		return byte((uint16(byte(n))*256 + 242) / 243)
	}
	for m := 0; m < 32; m++ {
		q := 0
		for n := 0; n < 5; n++ {
			q = q*3 + trit(x[m+n*32], id)
		}
		qs[m] = pack(q)
	}
	x = x[160:]
	for m := 0; m < 16; m++ {
		q := 0
		for n := 0; n < 5; n++ {
			q = q*3 + trit(x[m+n*16], id)
		}
		qs[32+m] = pack(q)
	}
	x = x[80:]
	for j := 0; j < 4; j++ {
		q := 0
		for m := 0; m < 4; m++ {
			q = q*3 + trit(x[j+m*4], id)
		}
		qh[j] = pack(q * 3) // the first value in the most significant trit
	}
}

func dequantizeBlockTQ1_0(blk []byte, y []float32) {
	qs, qh := blk[:48], blk[48:52]
	d := getF16(blk[52:])
	pow3 := [5]byte{1, 3, 9, 27, 81}
	tval := func(b byte, n int) float32 {
		q := b * pow3[n]
		return float32(int16((uint16(q)*3)>>8)-1) * d
	}
	for n := 0; n < 5; n++ {
		for m := 0; m < 32; m++ {
			y[0] = tval(qs[m], n)
			y = y[1:]
		}
	}
	for n := 0; n < 5; n++ {
		for m := 0; m < 16; m++ {
			y[0] = tval(qs[32+m], n)
			y = y[1:]
		}
	}
	for n := 0; n < 4; n++ {
		for j := 0; j < 4; j++ {
			y[0] = tval(qh[j], n)
			y = y[1:]
		}
	}
}

// quantizeBlockTQ2_0 packs 4 2-bit values (trit+1) per byte: byte m of
// each 32 holds elements m, m+32, m+64 and m+96 of its 128.
func quantizeBlockTQ2_0(x []float32, out []byte) {
	qs := out[:64]
	d, id := ternaryScale(x)
	putF16(out[64:], d)
	for j := 0; j < 64; j += 32 {
		for m := 0; m < 32; m++ {
			q := byte(0)
			for n := 0; n < 4; n++ {
				q += byte(trit(x[m+n*32], id)&3) << (2 * n)
			}
			qs[j+m] = q
		}
		x = x[128:]
	}
}

func dequantizeBlockTQ2_0(blk []byte, y []float32) {
	qs := blk[:64]
	d := getF16(blk[64:])
	for j := 0; j < 64; j += 32 {
		for l := 0; l < 4; l++ {
			for m := 0; m < 32; m++ {
				q := int8((qs[j+m] >> (2 * l)) & 3)
				y[0] = float32(q-1) * d
				y = y[1:]
			}
		}
	}
}
