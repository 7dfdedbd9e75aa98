package runtime

import (
	"encoding/binary"
	"math"
)

// The 32-element legacy types, after ggml's quantize_row_q*_ref and
// dequantize_row_q*.

// symmetricScale is the scale that maps x's value of largest magnitude,
// with its sign, to -levels, and its inverse (0 for an all-zero block).
func symmetricScale(x []float32, levels float32) (d, id float32) {
	amax, vmax := float32(0), float32(0)
	for _, v := range x {
		if a := absf(v); amax < a {
			amax, vmax = a, v
		}
	}
	d = vmax / -levels
	if d != 0 {
		id = 1 / d
	}
	return d, id
}

// affineScale is x's minimum and the step that spans [min, max] in steps
// steps, with the step's inverse (0 for a constant block).
func affineScale(x []float32, steps float32) (lo, d, id float32) {
	lo, hi := float32(math.MaxFloat32), float32(-math.MaxFloat32)
	for _, v := range x {
		if v < lo {
			lo = v
		}
		if v > hi {
			hi = v
		}
	}
	d = (hi - lo) / steps
	if d != 0 {
		id = 1 / d
	}
	return lo, d, id
}

// quantizeBlockQ4_0: the scale maps the value of largest magnitude (with its
// sign) to -8.
func quantizeBlockQ4_0(x []float32, out []byte) {
	d, id := symmetricScale(x, 8)
	putF16(out, d)
	for j := 0; j < QK/2; j++ {
		x0 := min(15, int8(float32(x[j]*id)+8.5))
		x1 := min(15, int8(float32(x[j+QK/2]*id)+8.5))
		out[2+j] = byte(x0) | byte(x1)<<4
	}
}

func dequantizeBlockQ4_0(blk []byte, y []float32) {
	d := getF16(blk)
	for j := 0; j < QK/2; j++ {
		q := blk[2+j]
		y[j] = float32(int(q&0x0f)-8) * d
		y[j+QK/2] = float32(int(q>>4)-8) * d
	}
}

// quantizeBlockQ4_1: 16 steps from the minimum to the maximum.
func quantizeBlockQ4_1(x []float32, out []byte) {
	lo, d, id := affineScale(x, 15)
	putF16(out, d)
	putF16(out[2:], lo)
	for j := 0; j < QK/2; j++ {
		x0 := min(15, int8(float32((x[j]-lo)*id)+0.5))
		x1 := min(15, int8(float32((x[j+QK/2]-lo)*id)+0.5))
		out[4+j] = byte(x0) | byte(x1)<<4
	}
}

func dequantizeBlockQ4_1(blk []byte, y []float32) {
	d, m := getF16(blk), getF16(blk[2:])
	for j := 0; j < QK/2; j++ {
		q := blk[4+j]
		y[j] = float32(float32(q&0x0f)*d) + m
		y[j+QK/2] = float32(float32(q>>4)*d) + m
	}
}

// quantizeBlockQ5_0: as Q4_0 with 32 levels, the fifth bits gathered in qh.
func quantizeBlockQ5_0(x []float32, out []byte) {
	d, id := symmetricScale(x, 16)
	putF16(out, d)
	var qh uint32
	for j := 0; j < QK/2; j++ {
		x0 := uint8(min(31, int8(float32(x[j]*id)+16.5)))
		x1 := uint8(min(31, int8(float32(x[j+QK/2]*id)+16.5)))
		out[6+j] = x0&0x0f | (x1&0x0f)<<4
		qh |= uint32(x0&0x10) >> 4 << j
		qh |= uint32(x1&0x10) >> 4 << (j + QK/2)
	}
	binary.LittleEndian.PutUint32(out[2:], qh)
}

func dequantizeBlockQ5_0(blk []byte, y []float32) {
	d := getF16(blk)
	qh := binary.LittleEndian.Uint32(blk[2:])
	for j := 0; j < QK/2; j++ {
		h0 := byte(qh>>j<<4) & 0x10
		h1 := byte(qh>>(j+12)) & 0x10
		q := blk[6+j]
		y[j] = float32(int32(q&0x0f|h0)-16) * d
		y[j+QK/2] = float32(int32(q>>4|h1)-16) * d
	}
}

// quantizeBlockQ5_1: as Q4_1 with 32 levels.
func quantizeBlockQ5_1(x []float32, out []byte) {
	lo, d, id := affineScale(x, 31)
	putF16(out, d)
	putF16(out[2:], lo)
	var qh uint32
	for j := 0; j < QK/2; j++ {
		x0 := uint8(float32((x[j]-lo)*id) + 0.5)
		x1 := uint8(float32((x[j+QK/2]-lo)*id) + 0.5)
		out[8+j] = x0&0x0f | (x1&0x0f)<<4
		qh |= uint32(x0&0x10) >> 4 << j
		qh |= uint32(x1&0x10) >> 4 << (j + QK/2)
	}
	binary.LittleEndian.PutUint32(out[4:], qh)
}

func dequantizeBlockQ5_1(blk []byte, y []float32) {
	d, m := getF16(blk), getF16(blk[2:])
	qh := binary.LittleEndian.Uint32(blk[4:])
	for j := 0; j < QK/2; j++ {
		h0 := byte(qh>>j<<4) & 0x10
		h1 := byte(qh>>(j+12)) & 0x10
		q := blk[8+j]
		y[j] = float32(float32(q&0x0f|h0)*d) + m
		y[j+QK/2] = float32(float32(q>>4|h1)*d) + m
	}
}

// quantizeBlockQ8_0 follows quantize_row_q8_0_ref: d = amax/127, quants
// x/d rounded half away from zero.
func quantizeBlockQ8_0(x []float32, out []byte) { quantizeQ8_0(x, out, false) }

// quantizeBlockQ8_0CPU is ggml-cpu's quantize_row_q8_0 (its AVX2 form, the
// one the oracle's CPU used): the inverse scale is 127/amax rather than
// 1/d, and quants round half to even.
func quantizeBlockQ8_0CPU(x []float32, out []byte) { quantizeQ8_0(x, out, true) }

// quantizeQ8_0 encodes one Q8_0 block with the reference arithmetic, or
// with ggml-cpu's when cpu is set.
func quantizeQ8_0(x []float32, out []byte, cpu bool) {
	amax := float32(0)
	for _, v := range x {
		amax = max(amax, absf(v))
	}
	d := amax / 127
	id := float32(0)
	switch {
	case cpu && amax != 0:
		id = 127 / amax
	case !cpu && d != 0:
		id = 1 / d
	}
	putF16(out, d)
	round := roundHalfAway
	if cpu {
		round = roundHalfEven
	}
	for j, v := range x {
		out[2+j] = byte(int8(round(v * id)))
	}
}

func dequantizeBlockQ8_0(blk []byte, y []float32) {
	d := getF16(blk)
	for j := range y {
		y[j] = float32(int8(blk[2+j])) * d
	}
}

// quantizeBlockQ8_1 follows quantize_row_q8_1_ref: Q8_0's quants, and s =
// d times their sum (the activation type of the _1 formats' dot products).
func quantizeBlockQ8_1(x []float32, out []byte) {
	amax := float32(0)
	for _, v := range x {
		amax = max(amax, absf(v))
	}
	d := amax / 127
	id := float32(0)
	if d != 0 {
		id = 1 / d
	}
	putF16(out, d)
	sum := 0
	for j, v := range x {
		q := int8(roundHalfAway(v * id))
		out[4+j] = byte(q)
		sum += int(q)
	}
	putF16(out[2:], float32(sum)*d)
}

// quantizeBlockQ8_1CPU is ggml-cpu's AVX2 quantize_row_q8_1 (see
// quantizeBlockQ8_0CPU).
func quantizeBlockQ8_1CPU(x []float32, out []byte) {
	amax := float32(0)
	for _, v := range x {
		amax = max(amax, absf(v))
	}
	d := amax / 127
	id := float32(0)
	if amax != 0 {
		id = 127 / amax
	}
	putF16(out, d)
	sum := 0
	for j, v := range x {
		q := int8(roundHalfEven(v * id))
		out[4+j] = byte(q)
		sum += int(q)
	}
	putF16(out[2:], d*float32(sum))
}

func dequantizeBlockQ8_1(blk []byte, y []float32) {
	d := getF16(blk)
	for j := range y {
		y[j] = float32(int8(blk[4+j])) * d
	}
}
