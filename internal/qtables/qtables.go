package qtables

import (
	"fmt"
	"math"

	rt "github.com/gpurt/gpurt/runtime"
)

// IQ4NL returns the 16 levels of IQ4_NL and IQ4_XS.
func IQ4NL() ([16]int8, error) {
	blk := make([]byte, rt.IQ4_NL.TypeSize())
	blk[0], blk[1] = 0x00, 0x3c // d = 1.0 (f16)
	return codes(rt.IQ4_NL, blk, 2)
}

// MXFP4 returns the 16 (doubled) E2M1 values of MXFP4.
func MXFP4() ([16]int8, error) {
	blk := make([]byte, rt.MXFP4.TypeSize())
	blk[0] = 128 // E8M0 exponent taken at half scale: 2^(128-127) / 2 = 1
	return codes(rt.MXFP4, blk, 1)
}

// codes sets the quant bytes at off to 0..15 (low nibbles: elements 0..15)
// and reads the values back.
func codes(t rt.DType, blk []byte, off int) ([16]int8, error) {
	var out [16]int8
	for j := 0; j < 16; j++ {
		blk[off+j] = byte(j)
	}
	vals := make([]float32, t.BlockSize())
	if err := rt.DequantizeRow(t, blk, vals); err != nil {
		return out, err
	}
	for j := range out {
		v := vals[j]
		if v != float32(math.Trunc(float64(v))) || v < -128 || v > 127 {
			return out, fmt.Errorf("%v level %d is %v, not an int8", t, j, v)
		}
		out[j] = int8(v)
	}
	return out, nil
}
