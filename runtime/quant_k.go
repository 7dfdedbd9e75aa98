package runtime

import (
	"encoding/binary"
	"math"
)

// The K-quants: super-blocks of QKK = 256 values in sub-blocks of 16 or 32,
// each sub-block with its own scale (and min), the scales themselves
// quantized against the super-block's f16 scale. After ggml's
// quantize_row_q{2..6}_K_ref, quantize_row_q8_K_ref and dequantize_row_*.

// groupMaxEps is ggml's GROUP_MAX_EPS: a group with a smaller maximum is zero.
const groupMaxEps = float32(1e-15)

// nearestInt is ggml's nearest_int: adding 1.5·2^23 leaves the rounded
// integer (halves to even) in the low mantissa bits. Valid for |f| < 2^22.
func nearestInt(f float32) int {
	v := float32(f) + 12582912 // the conversion keeps a caller's product from fusing into this add
	return int(math.Float32bits(v)&0x007fffff) - 0x00400000
}

// makeQXQuants is ggml's make_qx_quants for qw == nil and rmse_type 1
// (weights x²): symmetric quants in [-nmax, nmax) with a scale search over
// 19 candidates. L receives the quants offset by nmax; it returns the scale.
func makeQXQuants(nmax int, x []float32, L []int8) float32 {
	fmax, amax := float32(0), float32(0)
	for _, v := range x {
		if a := absf(v); a > amax {
			amax, fmax = a, v
		}
	}
	if amax < groupMaxEps {
		for i := range L[:len(x)] {
			L[i] = 0
		}
		return 0
	}
	clamp := func(l int) int { return max(-nmax, min(nmax-1, l)) }
	iscale := float32(-nmax) / fmax
	var sumlx, suml2 float32
	for i, v := range x {
		l := clamp(nearestInt(iscale * v))
		L[i] = int8(l + nmax)
		w := v * v
		sumlx += float32(float32(w*v) * float32(l))
		suml2 += float32(float32(w*float32(l)) * float32(l))
	}
	scale := float32(0)
	if suml2 != 0 {
		scale = sumlx / suml2
	}
	best := scale * sumlx
	for is := -9; is <= 9; is++ {
		if is == 0 {
			continue
		}
		iscale = -(float32(nmax) + float32(0.1*float32(is))) / fmax
		sumlx, suml2 = 0, 0
		for _, v := range x {
			l := clamp(nearestInt(iscale * v))
			w := v * v
			sumlx += float32(float32(w*v) * float32(l))
			suml2 += float32(float32(w*float32(l)) * float32(l))
		}
		if suml2 > 0 && float32(sumlx*sumlx) > float32(best*suml2) {
			for i, v := range x {
				L[i] = int8(nmax + clamp(nearestInt(iscale*v)))
			}
			scale = sumlx / suml2
			best = scale * sumlx
		}
	}
	return scale
}

// makeQ3Quants is ggml's make_q3_quants with do_rmse: symmetric quants in
// [-nmax, nmax) refined one element at a time (weights x²). L receives the
// quants offset by nmax; it returns the scale.
func makeQ3Quants(nmax int, x []float32, L []int8) float32 {
	fmax, amax := float32(0), float32(0)
	for _, v := range x {
		if a := absf(v); a > amax {
			amax, fmax = a, v
		}
	}
	if amax < groupMaxEps {
		for i := range L[:len(x)] {
			L[i] = 0
		}
		return 0
	}
	clamp := func(l int) int { return max(-nmax, min(nmax-1, l)) }
	iscale := float32(-nmax) / fmax
	var sumlx, suml2 float32
	for i, v := range x {
		l := clamp(nearestInt(iscale * v))
		L[i] = int8(l)
		w := v * v
		sumlx += float32(float32(w*v) * float32(l))
		suml2 += float32(float32(w*float32(l)) * float32(l))
	}
	for itry := 0; itry < 5; itry++ {
		changed := 0
		for i, v := range x {
			w := v * v
			li := float32(L[i])
			slx := sumlx - float32(float32(w*v)*li)
			if slx > 0 {
				sl2 := suml2 - float32(float32(w*li)*li)
				nl := clamp(nearestInt(float32(v*sl2) / slx))
				if nl != int(L[i]) {
					fl := float32(nl)
					slx += float32(float32(w*v) * fl)
					sl2 += float32(float32(w*fl) * fl)
					if sl2 > 0 && float32(float32(slx*slx)*suml2) > float32(float32(sumlx*sumlx)*sl2) {
						L[i] = int8(nl)
						sumlx, suml2 = slx, sl2
						changed++
					}
				}
			}
		}
		if changed == 0 {
			break
		}
	}
	for i := range x {
		L[i] += int8(nmax)
	}
	if suml2 > 0 {
		return sumlx / suml2
	}
	return 0
}

// makeQKX2Quants is ggml's make_qkx2_quants: asymmetric quants in [0, nmax]
// with a min, fitted by weighted least squares over nstep+1 candidate
// scales. It returns the scale and the (positive) min to subtract.
func makeQKX2Quants(nmax int, x, weights []float32, L, Laux []uint8, rmin, rdelta float32, nstep int, useMad bool) (scale, theMin float32) {
	n := len(x)
	lo, hi := x[0], x[0]
	sumW := weights[0]
	sumX := float32(sumW * x[0])
	for i := 1; i < n; i++ {
		if x[i] < lo {
			lo = x[i]
		}
		if x[i] > hi {
			hi = x[i]
		}
		w := weights[i]
		sumW += w
		sumX += float32(w * x[i])
	}
	if lo > 0 {
		lo = 0
	}
	if hi == lo {
		for i := range L[:n] {
			L[i] = 0
		}
		return 0, -lo
	}
	errOf := func(diff float32) float32 {
		if useMad {
			return absf(diff)
		}
		return diff * diff
	}
	iscale := float32(nmax) / (hi - lo)
	scale = 1 / iscale
	bestErr := float32(0)
	for i := 0; i < n; i++ {
		l := max(0, min(nmax, nearestInt(iscale*(x[i]-lo))))
		L[i] = uint8(l)
		diff := float32(scale*float32(l)) + lo - x[i]
		bestErr += float32(weights[i] * errOf(diff))
	}
	if nstep < 1 {
		return scale, -lo
	}
	for is := 0; is <= nstep; is++ {
		iscale = (rmin + float32(rdelta*float32(is)) + float32(nmax)) / (hi - lo)
		var sumL, sumL2, sumXL float32
		for i := 0; i < n; i++ {
			l := max(0, min(nmax, nearestInt(iscale*(x[i]-lo))))
			Laux[i] = uint8(l)
			w := weights[i]
			fl := float32(l)
			sumL += float32(w * fl)
			sumL2 += float32(float32(w*fl) * fl)
			sumXL += float32(float32(w*fl) * x[i])
		}
		D := float32(sumW*sumL2) - float32(sumL*sumL)
		if D > 0 {
			thisScale := (float32(sumW*sumXL) - float32(sumX*sumL)) / D
			thisMin := (float32(sumL2*sumX) - float32(sumL*sumXL)) / D
			if thisMin > 0 {
				thisMin = 0
				thisScale = sumXL / sumL2
			}
			curErr := float32(0)
			for i := 0; i < n; i++ {
				diff := float32(thisScale*float32(Laux[i])) + thisMin - x[i]
				curErr += float32(weights[i] * errOf(diff))
			}
			if curErr < bestErr {
				copy(L[:n], Laux[:n])
				bestErr = curErr
				scale, lo = thisScale, thisMin
			}
		}
	}
	return scale, -lo
}

// quantizeBlockQ2_K: 16 sub-blocks of 16 with 4-bit scales and mins.
func quantizeBlockQ2_K(x []float32, out []byte) {
	var L [QKK]uint8
	var Laux [16]uint8
	var weights [16]float32
	var mins, scales [QKK / 16]float32
	const q4scale = 15
	maxScale, maxMin := float32(0), float32(0)
	for j := 0; j < QKK/16; j++ {
		for l := 0; l < 16; l++ {
			weights[l] = absf(x[16*j+l])
		}
		scales[j], mins[j] = makeQKX2Quants(3, x[16*j:16*j+16], weights[:], L[16*j:], Laux[:], -0.5, 0.1, 15, true)
		maxScale = max(maxScale, scales[j])
		maxMin = max(maxMin, mins[j])
	}
	sc := out[:16]
	qs := out[16:80]
	if maxScale > 0 {
		iscale := q4scale / maxScale
		for j := range sc {
			sc[j] = uint8(nearestInt(iscale * scales[j]))
		}
		putF16(out[80:], maxScale/q4scale)
	} else {
		clear(sc)
		putF16(out[80:], 0)
	}
	if maxMin > 0 {
		iscale := q4scale / maxMin
		for j := range sc {
			sc[j] |= uint8(nearestInt(iscale*mins[j]) << 4)
		}
		putF16(out[82:], maxMin/q4scale)
	} else {
		putF16(out[82:], 0)
	}
	dAll, mAll := getF16(out[80:]), getF16(out[82:])
	for j := 0; j < QKK/16; j++ {
		d := dAll * float32(sc[j]&0xf)
		if d == 0 {
			continue
		}
		dm := float32(mAll * float32(sc[j]>>4))
		for ii := 0; ii < 16; ii++ {
			L[16*j+ii] = uint8(max(0, min(3, nearestInt((x[16*j+ii]+dm)/d))))
		}
	}
	for j := 0; j < QKK; j += 128 {
		for l := 0; l < 32; l++ {
			qs[j/4+l] = L[j+l] | L[j+l+32]<<2 | L[j+l+64]<<4 | L[j+l+96]<<6
		}
	}
}

func dequantizeBlockQ2_K(blk []byte, y []float32) {
	sc, qs := blk[:16], blk[16:80]
	d, dmin := getF16(blk[80:]), getF16(blk[82:])
	is := 0
	for n := 0; n < QKK; n += 128 {
		q := qs[n/4:]
		for shift := 0; shift < 8; shift += 2 {
			for half := 0; half < 2; half++ {
				s := sc[is]
				is++
				dl, ml := d*float32(s&0xf), float32(dmin*float32(s>>4))
				for l := 0; l < 16; l++ {
					y[0] = float32(dl*float32((q[l+16*half]>>shift)&3)) - ml
					y = y[1:]
				}
			}
		}
	}
}

// q3Scale is Q3_K's 6-bit scale j of the 12 packed bytes, minus 32.
func q3Scale(sc []byte, j int) int8 {
	var lo byte
	if j < 8 {
		lo = sc[j] & 0xf
	} else {
		lo = sc[j-8] >> 4
	}
	return int8(lo|((sc[8+j%4]>>(2*(j/4)))&3)<<4) - 32
}

// quantizeBlockQ3_K: 16 sub-blocks of 16 with signed 6-bit scales; each
// quant's third bit goes to hmask.
func quantizeBlockQ3_K(x []float32, out []byte) {
	var L [QKK]int8
	var scales [QKK / 16]float32
	hmask, qs, sc := out[:32], out[32:96], out[96:108]
	maxScale, amax := float32(0), float32(0)
	for j := 0; j < QKK/16; j++ {
		scales[j] = makeQ3Quants(4, x[16*j:16*j+16], L[16*j:])
		if s := absf(scales[j]); s > amax {
			amax, maxScale = s, scales[j]
		}
	}
	clear(sc)
	if maxScale != 0 {
		iscale := -32 / maxScale
		for j := 0; j < QKK/16; j++ {
			l := int8(nearestInt(iscale * scales[j]))
			l = max(-32, min(31, l)) + 32
			if j < 8 {
				sc[j] = byte(l) & 0xf
			} else {
				sc[j-8] |= (byte(l) & 0xf) << 4
			}
			l >>= 4
			sc[j%4+8] |= byte(l) << (2 * (j / 4))
		}
		putF16(out[108:], 1/iscale)
	} else {
		putF16(out[108:], 0)
	}
	dAll := getF16(out[108:])
	for j := 0; j < QKK/16; j++ {
		d := dAll * float32(q3Scale(sc, j))
		if d == 0 {
			continue
		}
		for ii := 0; ii < 16; ii++ {
			L[16*j+ii] = int8(max(-4, min(3, nearestInt(x[16*j+ii]/d))) + 4)
		}
	}
	clear(hmask)
	m, hm := 0, byte(1)
	for j := 0; j < QKK; j++ {
		if L[j] > 3 {
			hmask[m] |= hm
			L[j] -= 4
		}
		if m++; m == QKK/8 {
			m, hm = 0, hm<<1
		}
	}
	for j := 0; j < QKK; j += 128 {
		for l := 0; l < 32; l++ {
			qs[j/4+l] = byte(L[j+l]) | byte(L[j+l+32])<<2 | byte(L[j+l+64])<<4 | byte(L[j+l+96])<<6
		}
	}
}

func dequantizeBlockQ3_K(blk []byte, y []float32) {
	hm, qs, sc := blk[:32], blk[32:96], blk[96:108]
	dAll := getF16(blk[108:])
	is := 0
	m := byte(1)
	for n := 0; n < QKK; n += 128 {
		q := qs[n/4:]
		for shift := 0; shift < 8; shift += 2 {
			for half := 0; half < 2; half++ {
				dl := dAll * float32(q3Scale(sc, is))
				is++
				for l := 0; l < 16; l++ {
					v := int8((q[l+16*half] >> shift) & 3)
					if hm[l+16*half]&m == 0 {
						v -= 4
					}
					y[0] = dl * float32(v)
					y = y[1:]
				}
			}
			m <<= 1
		}
	}
}

// scaleMinK4 unpacks Q4_K/Q5_K's 6-bit scale and min of sub-block j.
func scaleMinK4(j int, q []byte) (d, m uint8) {
	if j < 4 {
		return q[j] & 63, q[j+4] & 63
	}
	return q[j+4]&0xf | (q[j-4]>>6)<<4, q[j+4]>>4 | (q[j]>>6)<<4
}

// quantizeScalesK4 is the common part of Q4_K and Q5_K: 8 sub-blocks of 32
// fitted with makeQKX2Quants, their scales and mins quantized to 6 bits
// (packed into sc) against d and dmin (stored at dm[0:4]). L receives the
// requantized values in [0, nmax].
func quantizeScalesK4(x []float32, nmax int, rmin float32, nstep int, L []uint8, dm, sc []byte) {
	var Laux [32]uint8
	var weights [32]float32
	var mins, scales [QKK / 32]float32
	maxScale, maxMin := float32(0), float32(0)
	for j := 0; j < QKK/32; j++ {
		xb := x[32*j : 32*j+32]
		sumX2 := float32(0)
		for _, v := range xb {
			sumX2 += float32(v * v)
		}
		avX := float32(math.Sqrt(float64(sumX2 / 32)))
		for l, v := range xb {
			weights[l] = avX + absf(v)
		}
		scales[j], mins[j] = makeQKX2Quants(nmax, xb, weights[:], L[32*j:], Laux[:], rmin, 0.1, nstep, false)
		maxScale = max(maxScale, scales[j])
		maxMin = max(maxMin, mins[j])
	}
	invScale, invMin := float32(0), float32(0)
	if maxScale > 0 {
		invScale = 63 / maxScale
	}
	if maxMin > 0 {
		invMin = 63 / maxMin
	}
	for j := 0; j < QKK/32; j++ {
		ls := min(63, uint8(nearestInt(invScale*scales[j])))
		lm := min(63, uint8(nearestInt(invMin*mins[j])))
		if j < 4 {
			sc[j] = ls
			sc[j+4] = lm
		} else {
			sc[j+4] = ls&0xf | (lm&0xf)<<4
			sc[j-4] |= (ls >> 4) << 6
			sc[j] |= (lm >> 4) << 6
		}
	}
	putF16(dm, maxScale/63)
	putF16(dm[2:], maxMin/63)
	dAll, mAll := getF16(dm), getF16(dm[2:])
	for j := 0; j < QKK/32; j++ {
		s, m := scaleMinK4(j, sc)
		d := dAll * float32(s)
		if d == 0 {
			continue
		}
		dmv := float32(mAll * float32(m))
		for ii := 0; ii < 32; ii++ {
			L[32*j+ii] = uint8(max(0, min(nmax, nearestInt((x[32*j+ii]+dmv)/d))))
		}
	}
}

func quantizeBlockQ4_K(x []float32, out []byte) {
	var L [QKK]uint8
	quantizeScalesK4(x, 15, -1, 20, L[:], out[:4], out[4:16])
	q := out[16:144]
	for j := 0; j < QKK; j += 64 {
		for l := 0; l < 32; l++ {
			q[l] = L[j+l] | L[j+l+32]<<4
		}
		q = q[32:]
	}
}

func dequantizeBlockQ4_K(blk []byte, y []float32) {
	d, dmin := getF16(blk), getF16(blk[2:])
	sc, q := blk[4:16], blk[16:144]
	is := 0
	for j := 0; j < QKK; j += 64 {
		s, m := scaleMinK4(is, sc)
		d1, m1 := d*float32(s), float32(dmin*float32(m))
		s, m = scaleMinK4(is+1, sc)
		d2, m2 := d*float32(s), float32(dmin*float32(m))
		for l := 0; l < 32; l++ {
			y[l] = float32(d1*float32(q[l]&0xf)) - m1
			y[l+32] = float32(d2*float32(q[l]>>4)) - m2
		}
		y, q, is = y[64:], q[32:], is+2
	}
}

func quantizeBlockQ5_K(x []float32, out []byte) {
	var L [QKK]uint8
	quantizeScalesK4(x, 31, -0.5, 15, L[:], out[:4], out[4:16])
	qh, ql := out[16:48], out[48:176]
	clear(qh)
	m1, m2 := byte(1), byte(2)
	for n := 0; n < QKK; n += 64 {
		for j := 0; j < 32; j++ {
			l1, l2 := L[n+j], L[n+j+32]
			if l1 > 15 {
				l1 -= 16
				qh[j] |= m1
			}
			if l2 > 15 {
				l2 -= 16
				qh[j] |= m2
			}
			ql[j] = l1 | l2<<4
		}
		m1, m2 = m1<<2, m2<<2
		ql = ql[32:]
	}
}

func dequantizeBlockQ5_K(blk []byte, y []float32) {
	d, dmin := getF16(blk), getF16(blk[2:])
	sc, qh, ql := blk[4:16], blk[16:48], blk[48:176]
	is := 0
	u1, u2 := byte(1), byte(2)
	for j := 0; j < QKK; j += 64 {
		s, m := scaleMinK4(is, sc)
		d1, m1 := d*float32(s), float32(dmin*float32(m))
		s, m = scaleMinK4(is+1, sc)
		d2, m2 := d*float32(s), float32(dmin*float32(m))
		for l := 0; l < 32; l++ {
			lo, hi := ql[l]&0xf, ql[l]>>4
			if qh[l]&u1 != 0 {
				lo += 16
			}
			if qh[l]&u2 != 0 {
				hi += 16
			}
			y[l] = float32(d1*float32(lo)) - m1
			y[l+32] = float32(d2*float32(hi)) - m2
		}
		y, ql, is = y[64:], ql[32:], is+2
		u1, u2 = u1<<2, u2<<2
	}
}

// quantizeBlockQ6_K: 16 sub-blocks of 16 with int8 scales.
func quantizeBlockQ6_K(x []float32, out []byte) {
	var L [QKK]int8
	var scales [QKK / 16]float32
	ql, qh, sc := out[:128], out[128:192], out[192:208]
	maxScale, maxAbs := float32(0), float32(0)
	for ib := 0; ib < QKK/16; ib++ {
		s := makeQXQuants(32, x[16*ib:16*ib+16], L[16*ib:])
		scales[ib] = s
		if a := absf(s); a > maxAbs {
			maxAbs, maxScale = a, s
		}
	}
	if maxAbs < groupMaxEps {
		clear(out[:210])
		return
	}
	iscale := -128 / maxScale
	putF16(out[208:], 1/iscale)
	for ib := range sc {
		sc[ib] = byte(int8(min(127, nearestInt(iscale*scales[ib]))))
	}
	dAll := getF16(out[208:])
	for j := 0; j < QKK/16; j++ {
		d := dAll * float32(int8(sc[j]))
		if d == 0 {
			continue
		}
		for ii := 0; ii < 16; ii++ {
			L[16*j+ii] = int8(max(-32, min(31, nearestInt(x[16*j+ii]/d))) + 32)
		}
	}
	for j := 0; j < QKK; j += 128 {
		for l := 0; l < 32; l++ {
			q1, q2 := byte(L[j+l])&0xf, byte(L[j+l+32])&0xf
			q3, q4 := byte(L[j+l+64])&0xf, byte(L[j+l+96])&0xf
			ql[l] = q1 | q3<<4
			ql[l+32] = q2 | q4<<4
			qh[l] = byte(L[j+l])>>4 | (byte(L[j+l+32])>>4)<<2 | (byte(L[j+l+64])>>4)<<4 | (byte(L[j+l+96])>>4)<<6
		}
		ql, qh = ql[64:], qh[32:]
	}
}

func dequantizeBlockQ6_K(blk []byte, y []float32) {
	ql, qh, sc := blk[:128], blk[128:192], blk[192:208]
	d := getF16(blk[208:])
	for n := 0; n < QKK; n += 128 {
		for l := 0; l < 32; l++ {
			is := l / 16
			q1 := int8(ql[l]&0xf|((qh[l]>>0)&3)<<4) - 32
			q2 := int8(ql[l+32]&0xf|((qh[l]>>2)&3)<<4) - 32
			q3 := int8(ql[l]>>4|((qh[l]>>4)&3)<<4) - 32
			q4 := int8(ql[l+32]>>4|((qh[l]>>6)&3)<<4) - 32
			y[l] = d * float32(int8(sc[is])) * float32(q1)
			y[l+32] = d * float32(int8(sc[is+2])) * float32(q2)
			y[l+64] = d * float32(int8(sc[is+4])) * float32(q3)
			y[l+96] = d * float32(int8(sc[is+6])) * float32(q4)
		}
		y, ql, qh, sc = y[128:], ql[64:], qh[32:], sc[8:]
	}
}

// quantizeBlockQ8_K: the K-quants' activation type, 256 int8 quants with a
// float32 scale and the sums of each 16 quants.
func quantizeBlockQ8_K(x []float32, out []byte) {
	fmax, amax := float32(0), float32(0)
	for _, v := range x {
		if a := absf(v); a > amax {
			amax, fmax = a, v
		}
	}
	if amax == 0 {
		clear(out[:292])
		return
	}
	iscale := -127 / fmax
	for j, v := range x {
		out[4+j] = byte(int8(min(127, nearestInt(iscale*v))))
	}
	for j := 0; j < QKK/16; j++ {
		sum := 0
		for _, q := range out[4+16*j : 4+16*j+16] {
			sum += int(int8(q))
		}
		binary.LittleEndian.PutUint16(out[260+2*j:], uint16(int16(sum)))
	}
	binary.LittleEndian.PutUint32(out, math.Float32bits(1/iscale))
}

func dequantizeBlockQ8_K(blk []byte, y []float32) {
	d := math.Float32frombits(binary.LittleEndian.Uint32(blk))
	for j := range y {
		y[j] = d * float32(int8(blk[4+j]))
	}
}
