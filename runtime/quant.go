package runtime

import (
	"encoding/binary"
	"fmt"
	"math"
)

// The quantizers and dequantizers reproduce ggml's bytes and values exactly
// (checked against vectors produced by upstream ggml, see quant_oracle_test.go):
//
//   - QuantizeRow is ggml_quantize_chunk without an importance matrix: the
//     reference quantizers that write GGUF files (quantize_row_*_ref, and the
//     scale search of quantize_iq4_nl / quantize_iq4_xs).
//   - QuantizeRowCPU is ggml's CPU from_float (type_traits_cpu), which its
//     CPY, SET_ROWS and activation quantization use. It differs from
//     QuantizeRow for Q8_0 and Q8_1 (ties round to even, the inverse scale is
//     127/amax) and IQ4_NL (no scale search); elsewhere it is QuantizeRow.
//   - DequantizeRow is ggml's to_float.
//
// ggml's float arithmetic is plain IEEE single precision, so the Go code
// keeps every operation in float32, in ggml's order, and rounds each product
// with an explicit float32 conversion wherever a fused multiply-add could
// otherwise change the result (the Go spec allows fusing x*y+z; a
// conversion forbids it).
//
// Block layouts, identical to GGUF/ggml (f16 is an IEEE half, little-endian):
//
//	Q4_0   d f16, qs[16]: byte j holds element j (low nibble) and j+16; x = d*(q-8)
//	Q4_1   d f16, m f16, qs[16]; x = d*q + m
//	Q5_0   d f16, qh u32 (bit 5 of element j is bit j), qs[16]; x = d*(q-16)
//	Q5_1   d f16, m f16, qh u32, qs[16]; x = d*q + m
//	Q8_0   d f16, qs[32] int8; x = d*q
//	Q8_1   d f16, s f16 (d times the sum of qs), qs[32] int8
//	Q2_K   scales[16] (4-bit scale | 4-bit min), qs[64], d f16, dmin f16
//	Q3_K   hmask[32], qs[64], scales[12] (16 6-bit scales), d f16
//	Q4_K   d f16, dmin f16, scales[12] (8 6-bit scales and mins), qs[128]
//	Q5_K   d f16, dmin f16, scales[12], qh[32], qs[128]
//	Q6_K   ql[128], qh[64], scales[16] int8, d f16
//	Q8_K   d f32, qs[256] int8, bsums[16] int16
//	IQ4_NL d f16, qs[16]; x = d*kvaluesIQ4NL[q]
//	IQ4_XS d f16, scales_h u16, scales_l[4], qs[128]
//	MXFP4  e (E8M0 exponent), qs[16]; x = kvaluesMXFP4[q] * 2^(e-128)
//	TQ1_0  qs[48] (5 trits a byte), qh[4] (4 trits a byte), d f16
//	TQ2_0  qs[64] (4 2-bit values a byte), d f16

// rowCodec converts whole rows of one dtype; n is the row's element count.
type rowCodec struct {
	quantize   func(src []float32, dst []byte)
	fromFloat  func(src []float32, dst []byte) // ggml's CPU from_float, where it differs from quantize
	dequantize func(src []byte, dst []float32)
}

// perBlock applies a block quantizer to each block of a row.
func perBlock(t DType, f func(x []float32, out []byte)) func([]float32, []byte) {
	bs, ts := t.BlockSize(), t.TypeSize()
	return func(src []float32, dst []byte) {
		for b := 0; b < len(src)/bs; b++ {
			f(src[b*bs:(b+1)*bs], dst[b*ts:(b+1)*ts])
		}
	}
}

// perBlockDeq applies a block dequantizer to each block of a row.
func perBlockDeq(t DType, f func(blk []byte, y []float32)) func([]byte, []float32) {
	bs, ts := t.BlockSize(), t.TypeSize()
	return func(src []byte, dst []float32) {
		for b := 0; b < len(dst)/bs; b++ {
			f(src[b*ts:(b+1)*ts], dst[b*bs:(b+1)*bs])
		}
	}
}

var codecs map[DType]rowCodec

func init() {
	codecs = map[DType]rowCodec{
		F32:    {quantize: quantizeF32, dequantize: dequantizeF32},
		F16:    {quantize: quantizeF16, dequantize: dequantizeF16},
		BF16:   {quantize: quantizeBF16, dequantize: dequantizeBF16},
		I32:    {quantize: quantizeI32, dequantize: dequantizeI32},
		Q4_0:   {quantize: perBlock(Q4_0, quantizeBlockQ4_0), dequantize: perBlockDeq(Q4_0, dequantizeBlockQ4_0)},
		Q4_1:   {quantize: perBlock(Q4_1, quantizeBlockQ4_1), dequantize: perBlockDeq(Q4_1, dequantizeBlockQ4_1)},
		Q5_0:   {quantize: perBlock(Q5_0, quantizeBlockQ5_0), dequantize: perBlockDeq(Q5_0, dequantizeBlockQ5_0)},
		Q5_1:   {quantize: perBlock(Q5_1, quantizeBlockQ5_1), dequantize: perBlockDeq(Q5_1, dequantizeBlockQ5_1)},
		Q8_0:   {quantize: perBlock(Q8_0, quantizeBlockQ8_0), fromFloat: perBlock(Q8_0, quantizeBlockQ8_0CPU), dequantize: perBlockDeq(Q8_0, dequantizeBlockQ8_0)},
		Q8_1:   {quantize: perBlock(Q8_1, quantizeBlockQ8_1), fromFloat: perBlock(Q8_1, quantizeBlockQ8_1CPU), dequantize: perBlockDeq(Q8_1, dequantizeBlockQ8_1)},
		Q2_K:   {quantize: perBlock(Q2_K, quantizeBlockQ2_K), dequantize: perBlockDeq(Q2_K, dequantizeBlockQ2_K)},
		Q3_K:   {quantize: perBlock(Q3_K, quantizeBlockQ3_K), dequantize: perBlockDeq(Q3_K, dequantizeBlockQ3_K)},
		Q4_K:   {quantize: perBlock(Q4_K, quantizeBlockQ4_K), dequantize: perBlockDeq(Q4_K, dequantizeBlockQ4_K)},
		Q5_K:   {quantize: perBlock(Q5_K, quantizeBlockQ5_K), dequantize: perBlockDeq(Q5_K, dequantizeBlockQ5_K)},
		Q6_K:   {quantize: perBlock(Q6_K, quantizeBlockQ6_K), dequantize: perBlockDeq(Q6_K, dequantizeBlockQ6_K)},
		Q8_K:   {quantize: perBlock(Q8_K, quantizeBlockQ8_K), dequantize: perBlockDeq(Q8_K, dequantizeBlockQ8_K)},
		IQ4_NL: {quantize: perBlock(IQ4_NL, quantizeBlockIQ4_NL), fromFloat: perBlock(IQ4_NL, quantizeBlockIQ4_NLCPU), dequantize: perBlockDeq(IQ4_NL, dequantizeBlockIQ4_NL)},
		IQ4_XS: {quantize: perBlock(IQ4_XS, quantizeBlockIQ4_XS), dequantize: perBlockDeq(IQ4_XS, dequantizeBlockIQ4_XS)},
		MXFP4:  {quantize: perBlock(MXFP4, quantizeBlockMXFP4), dequantize: perBlockDeq(MXFP4, dequantizeBlockMXFP4)},
		TQ1_0:  {quantize: perBlock(TQ1_0, quantizeBlockTQ1_0), dequantize: perBlockDeq(TQ1_0, dequantizeBlockTQ1_0)},
		TQ2_0:  {quantize: perBlock(TQ2_0, quantizeBlockTQ2_0), dequantize: perBlockDeq(TQ2_0, dequantizeBlockTQ2_0)},
	}
}

// HasCodec reports whether QuantizeRow and DequantizeRow convert dtype t.
func HasCodec(t DType) bool { _, ok := codecs[t]; return ok }

// QuantizeRow encodes len(src) float32 values as dtype t into dst with
// ggml's reference quantizer (the bytes llama-quantize writes, without an
// importance matrix). len(src) must be a multiple of t's block size and dst
// must hold t.RowSize(len(src)).
func QuantizeRow(t DType, src []float32, dst []byte) error {
	c, err := rowCheck("quantize", t, len(src), len(dst), "destination")
	if err != nil {
		return err
	}
	c.quantize(src, dst)
	return nil
}

// QuantizeRowCPU encodes src as ggml's CPU backend converts F32 to t
// (its from_float: CPY, SET_ROWS and the activations of MUL_MAT). It equals
// QuantizeRow except for Q8_0 and Q8_1 (quants rounded half to even with the
// inverse scale 127/amax, as ggml's AVX2 code does) and IQ4_NL (one pass,
// without the reference quantizer's scale search).
func QuantizeRowCPU(t DType, src []float32, dst []byte) error {
	c, err := rowCheck("quantize", t, len(src), len(dst), "destination")
	if err != nil {
		return err
	}
	if c.fromFloat != nil {
		c.fromFloat(src, dst)
	} else {
		c.quantize(src, dst)
	}
	return nil
}

// DequantizeRow decodes len(dst) values of dtype t from src, exactly as
// ggml's to_float does.
func DequantizeRow(t DType, src []byte, dst []float32) error {
	c, err := rowCheck("dequantize", t, len(dst), len(src), "source")
	if err != nil {
		return err
	}
	c.dequantize(src, dst)
	return nil
}

func rowCheck(what string, t DType, n, nbytes int, side string) (rowCodec, error) {
	c, ok := codecs[t]
	if !ok {
		return c, fmt.Errorf("%s: unsupported dtype %v: %w", what, t, ErrUnsupported)
	}
	if n%t.BlockSize() != 0 {
		return c, fmt.Errorf("%s %v: %d elements is not a multiple of the block size %d: %w", what, t, n, t.BlockSize(), ErrShape)
	}
	if nbytes < t.RowSize(n) {
		return c, fmt.Errorf("%s %v: %s holds %d bytes, need %d: %w", what, t, side, nbytes, t.RowSize(n), ErrOutOfRange)
	}
	return c, nil
}

func quantizeF32(src []float32, dst []byte) {
	for i, v := range src {
		binary.LittleEndian.PutUint32(dst[4*i:], math.Float32bits(v))
	}
}

func dequantizeF32(src []byte, dst []float32) {
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:]))
	}
}

func quantizeF16(src []float32, dst []byte) {
	for i, v := range src {
		binary.LittleEndian.PutUint16(dst[2*i:], F32ToF16(v))
	}
}

func dequantizeF16(src []byte, dst []float32) {
	for i := range dst {
		dst[i] = F16ToF32(binary.LittleEndian.Uint16(src[2*i:]))
	}
}

func quantizeBF16(src []float32, dst []byte) {
	for i, v := range src {
		binary.LittleEndian.PutUint16(dst[2*i:], F32ToBF16(v))
	}
}

func dequantizeBF16(src []byte, dst []float32) {
	for i := range dst {
		dst[i] = BF16ToF32(binary.LittleEndian.Uint16(src[2*i:]))
	}
}

func quantizeI32(src []float32, dst []byte) {
	for i, v := range src {
		binary.LittleEndian.PutUint32(dst[4*i:], uint32(int32(v)))
	}
}

func dequantizeI32(src []byte, dst []float32) {
	for i := range dst {
		dst[i] = float32(int32(binary.LittleEndian.Uint32(src[4*i:])))
	}
}

// putF16 stores f rounded to half precision at b[0:2].
func putF16(b []byte, f float32) { binary.LittleEndian.PutUint16(b, F32ToF16(f)) }

// getF16 reads the half at b[0:2] as float32.
func getF16(b []byte) float32 { return F16ToF32(binary.LittleEndian.Uint16(b)) }

func absf(f float32) float32 { return math.Float32frombits(math.Float32bits(f) &^ (1 << 31)) }

// roundHalfAway is C's roundf: halves round away from zero.
func roundHalfAway(f float32) float32 { return float32(math.Round(float64(f))) }

// roundHalfEven rounds halves to even, as the SSE/AVX round instructions do.
func roundHalfEven(f float32) float32 { return float32(math.RoundToEven(float64(f))) }
