// Shared parts of the MUL_MAT kernels: push constants and the weight
// (src0) loader. A_TYPE is the weight dtype (PP_DT_F32, PP_DT_F16,
// PP_DT_BF16, PP_DT_Q8_0 or PP_DT_Q4_0 from opcodes.glsl), or A_ANY: every
// other block type, named by specialization constant QT (one module for
// all of them; the driver keeps QT's code).
// Weights must have contiguous rows; src1 (F32) may have any strides.

layout(push_constant) uniform PC {
	uint K, M, N;
	uint ne02, ne03, ne12, ne13;
	uint nb01, nb02, nb03;
	uint nb10, nb11, nb12, nb13;
	uint nb0, nb1, nb2, nb3;
	uint off0, off1, offd;
	uint fuse, offb;       // FUSE_ADD: plus the F32 addend at byte offb of binding 2,
	uint nbb1, nbb2, nbb3; // its strides (0 where it broadcasts; element stride 4)
} pc;

#ifndef PP_DT_F32
#error "opcodes.glsl (through common.glsl) must come first: A_TYPE names its ids"
#endif
#define A_ANY 255
layout(constant_id = 6) const uint QT = 0; // the weight dtype of A_ANY

// batch returns the byte offsets of the src0 matrix and of the src1 and dst
// matrices for batch z = i12 + i13*ne12, broadcasting src0 as ggml does.
void batch(uint z, out uint a, out uint b, out uint c) {
	uint i13 = z / pc.ne12;
	uint i12 = z - i13 * pc.ne12;
	uint i02 = i12 / (pc.ne12 / pc.ne02);
	uint i03 = i13 / (pc.ne13 / pc.ne03);
	a = pc.off0 + i02 * pc.nb02 + i03 * pc.nb03;
	b = pc.off1 + i12 * pc.nb12 + i13 * pc.nb13;
	c = pc.offd + i12 * pc.nb2 + i13 * pc.nb3;
}

// addend_base is the byte offset of the fused ADD's addend (FUSE_ADD) for
// batch z, addend what it adds to output (m, n) from there.
uint addend_base(uint z) {
	uint i13 = z / pc.ne12;
	return pc.offb + (z - i13 * pc.ne12) * pc.nbb2 + i13 * pc.nbb3;
}
float addend(uint base, uint m, uint n) {
	return (pc.fuse & FUSE_ADD) != 0u ? uintBitsToFloat(s2[(base + m * 4u + n * pc.nbb1) >> 2]) : 0.0;
}

// loadA reads weight element k of the row starting at byte row.
float loadA(uint row, uint k) {
#if A_TYPE == PP_DT_F32
	return uintBitsToFloat(s0[(row >> 2) + k]);
#elif A_TYPE == PP_DT_F16
	return f16_to_f32(rd16_0(row + 2u * k));
#elif A_TYPE == PP_DT_BF16
	return bf16_to_f32(rd16_0(row + 2u * k));
#elif A_TYPE == PP_DT_Q8_0
	uint blk = row + (k >> 5) * 34u;
	return f16_to_f32(rd16_0(blk)) * float(int(rd8_0(blk + 2u + (k & 31u)) << 24) >> 24);
#elif A_TYPE == PP_DT_Q4_0
	uint blk = row + (k >> 5) * 18u;
	uint j = k & 31u;
	uint q = rd8_0(blk + 2u + (j & 15u));
	return f16_to_f32(rd16_0(blk)) * (float(j < 16u ? (q & 15u) : (q >> 4)) - 8.0);
#elif A_TYPE == A_ANY
	uint qk = qblock_elems(QT);
	return dequant1(QT, row + (k / qk) * qblock_bytes(QT), k % qk);
#endif
}
