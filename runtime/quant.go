package runtime

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Block layouts, identical to GGUF/ggml:
//
//	Q8_0: f16 scale d, then 32 int8 quants; x = d*q.
//	Q4_0: f16 scale d, then 16 bytes; byte j holds element j in its low nibble
//	      and element j+16 in its high nibble; x = d*(q-8).

// QuantizeRow encodes len(src) float32 values as dtype t into dst. len(src)
// must be a multiple of t's block size and dst must hold t.RowSize(len(src)).
func QuantizeRow(t DType, src []float32, dst []byte) error {
	if !t.Valid() {
		return fmt.Errorf("quantize: unsupported dtype %v", t)
	}
	n := len(src)
	if n%t.BlockSize() != 0 {
		return fmt.Errorf("quantize %v: %d elements is not a multiple of the block size %d", t, n, t.BlockSize())
	}
	if len(dst) < t.RowSize(n) {
		return fmt.Errorf("quantize %v: destination holds %d bytes, need %d", t, len(dst), t.RowSize(n))
	}
	switch t {
	case F32:
		for i, v := range src {
			binary.LittleEndian.PutUint32(dst[4*i:], math.Float32bits(v))
		}
	case F16:
		for i, v := range src {
			binary.LittleEndian.PutUint16(dst[2*i:], F32ToF16(v))
		}
	case BF16:
		for i, v := range src {
			binary.LittleEndian.PutUint16(dst[2*i:], F32ToBF16(v))
		}
	case I32:
		for i, v := range src {
			binary.LittleEndian.PutUint32(dst[4*i:], uint32(int32(v)))
		}
	case Q8_0:
		for b := 0; b < n/QK; b++ {
			quantizeBlockQ8_0(src[b*QK:(b+1)*QK], dst[b*34:(b+1)*34])
		}
	case Q4_0:
		for b := 0; b < n/QK; b++ {
			quantizeBlockQ4_0(src[b*QK:(b+1)*QK], dst[b*18:(b+1)*18])
		}
	}
	return nil
}

// DequantizeRow decodes len(dst) values of dtype t from src.
func DequantizeRow(t DType, src []byte, dst []float32) error {
	if !t.Valid() {
		return fmt.Errorf("dequantize: unsupported dtype %v", t)
	}
	n := len(dst)
	if n%t.BlockSize() != 0 {
		return fmt.Errorf("dequantize %v: %d elements is not a multiple of the block size %d", t, n, t.BlockSize())
	}
	if len(src) < t.RowSize(n) {
		return fmt.Errorf("dequantize %v: source holds %d bytes, need %d", t, len(src), t.RowSize(n))
	}
	switch t {
	case F32:
		for i := range dst {
			dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:]))
		}
	case F16:
		for i := range dst {
			dst[i] = F16ToF32(binary.LittleEndian.Uint16(src[2*i:]))
		}
	case BF16:
		for i := range dst {
			dst[i] = BF16ToF32(binary.LittleEndian.Uint16(src[2*i:]))
		}
	case I32:
		for i := range dst {
			dst[i] = float32(int32(binary.LittleEndian.Uint32(src[4*i:])))
		}
	case Q8_0:
		for b := 0; b < n/QK; b++ {
			blk := src[b*34:]
			d := F16ToF32(binary.LittleEndian.Uint16(blk))
			for j := 0; j < QK; j++ {
				dst[b*QK+j] = d * float32(int8(blk[2+j]))
			}
		}
	case Q4_0:
		for b := 0; b < n/QK; b++ {
			blk := src[b*18:]
			d := F16ToF32(binary.LittleEndian.Uint16(blk))
			for j := 0; j < QK/2; j++ {
				q := blk[2+j]
				dst[b*QK+j] = d * float32(int(q&0x0f)-8)
				dst[b*QK+j+QK/2] = d * float32(int(q>>4)-8)
			}
		}
	}
	return nil
}

// quantizeBlockQ8_0 follows ggml's quantize_row_q8_0_ref.
func quantizeBlockQ8_0(x []float32, out []byte) {
	amax := float32(0)
	for _, v := range x {
		amax = max(amax, float32(math.Abs(float64(v))))
	}
	d := amax / 127
	id := float32(0)
	if d != 0 {
		id = 1 / d
	}
	binary.LittleEndian.PutUint16(out, F32ToF16(d))
	for j, v := range x {
		out[2+j] = byte(int8(roundHalfAway(v * id)))
	}
}

// quantizeBlockQ4_0 follows ggml's quantize_row_q4_0_ref: the scale maps the
// value of largest magnitude (with its sign) to -8.
func quantizeBlockQ4_0(x []float32, out []byte) {
	amax, vmax := float32(0), float32(0)
	for _, v := range x {
		if a := float32(math.Abs(float64(v))); a > amax {
			amax, vmax = a, v
		}
	}
	d := vmax / -8
	id := float32(0)
	if d != 0 {
		id = 1 / d
	}
	binary.LittleEndian.PutUint16(out, F32ToF16(d))
	for j := 0; j < QK/2; j++ {
		x0 := min(15, int8(x[j]*id+8.5))
		x1 := min(15, int8(x[j+QK/2]*id+8.5))
		out[2+j] = byte(x0) | byte(x1)<<4
	}
}

func roundHalfAway(f float32) float32 { return float32(math.Round(float64(f))) }
