// Shared parts of the integer-dot MUL_MAT kernels (mmq.comp, mmq_vec.comp),
// in the shape of ggml-vulkan's mul_mmq: src1 arrives quantized by
// quantize_q8_1.comp into a scratch buffer (binding 1) of Q8_1-like blocks,
// and each block pair is one run of packed int8 dot products. QT
// (constant 6) is the weight dtype, Q8_0, Q4_0, Q4_K or Q6_K; weight rows are
// contiguous blocks.
//
// The scratch holds, per 32 values of src1 column n of batch z (block b =
// (z*N + n)*K/32 + k/32): 8 words of packed int8 quants at word 8b, and
// the scale d and s = d*Σq as two floats at word ds + 2b.

#extension GL_EXT_spirv_intrinsics : require

// OpSDot, PackedVectorFormat4x8Bit (fmt 0): the dot product of the four
// signed bytes of a and b. glslang 11 has no GL_EXT_integer_dot_product.
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6018], id = 4450)
int sdot4x8(int a, int b, spirv_literal int fmt);

layout(push_constant) uniform PC {
	uint K, M, N;
	uint ne02, ne03, ne12, ne13;
	uint nb01, nb02, nb03;
	uint nb0, nb1, nb2, nb3;
	uint off0, offd;
	uint fuse, offb;       // FUSE_ADD: plus the F32 addend at byte offb of binding 2,
	uint nbb1, nbb2, nbb3; // its strides (0 where it broadcasts; element stride 4)
	uint ds;               // word index of the scratch's scales
} pc;

layout(constant_id = 6) const uint QT = 0; // the weight dtype: DT_Q8_0, DT_Q4_0, DT_Q4_K or DT_Q6_K

// batch returns the byte offsets of the src0 matrix and of the dst matrix
// for batch z = i12 + i13*ne12, broadcasting src0 as ggml does, and the
// first scratch block of the batch's src1 columns.
void batch(uint z, out uint a, out uint bblk, out uint c) {
	uint i13 = z / pc.ne12;
	uint i12 = z - i13 * pc.ne12;
	uint i02 = i12 / (pc.ne12 / pc.ne02);
	uint i03 = i13 / (pc.ne13 / pc.ne03);
	a = pc.off0 + i02 * pc.nb02 + i03 * pc.nb03;
	bblk = z * pc.N * (pc.K >> 5);
	c = pc.offd + i12 * pc.nb2 + i13 * pc.nb3;
}

// addend_base and addend as in matmul.glsl.
uint addend_base(uint z) {
	uint i13 = z / pc.ne12;
	return pc.offb + (z - i13 * pc.ne12) * pc.nbb2 + i13 * pc.nbb3;
}
float addend(uint base, uint m, uint n) {
	return (pc.fuse & FUSE_ADD) != 0u ? uintBitsToFloat(s2[(base + m * 4u + n * pc.nbb1) >> 2]) : 0.0;
}

// word_at reads the 32-bit word at byte address a of the weights, which
// need only be 2-byte aligned (blocks are 34 or 18 bytes long).
uint word_at(uint a) {
	uint w = s0[a >> 2];
	return (a & 2u) == 0u ? w : (w >> 16) | (s0[(a >> 2) + 1u] << 16);
}

// weight_block_bytes is the size of one weight block (a super-block of
// 256 values for Q4_K and Q6_K).
uint weight_block_bytes() {
	if (QT == DT_Q8_0) return 34u;
	if (QT == DT_Q4_0) return 18u;
	if (QT == DT_Q4_K) return 144u;
	return 210u; // Q6_K
}

// HALVES: Q6_K has a scale per 16 values, so its dot products are summed
// per half of each 32-value block.
const uint HALVES = QT == DT_Q6_K ? 2u : 1u;

// load_weight_block reads the 32 values kb of the weight row at byte row as
// 8 words of packed int8 in element order and their scales: the block's
// value i is da[i/16]*q[i] - ma. Q4_0 keeps its nibbles 0..15 and puts the
// -8 in ma, Q4_K its 4-bit values with ma = dmin*min, Q6_K subtracts its
// 32 from each byte; block_dot applies ma through the scratch's sum.
void load_weight_block(uint row, uint kb, out int q[8], out vec2 da, out float ma) {
	if (QT == DT_Q8_0 || QT == DT_Q4_0) {
		uint a = row + kb * weight_block_bytes();
		float d = f16_to_f32(rd16_0(a));
		da = vec2(d);
		if (QT == DT_Q8_0) {
			ma = 0.0;
			[[unroll]] for (uint w = 0u; w < 8u; w++) q[w] = int(word_at(a + 2u + 4u * w));
		} else {
			ma = 8.0 * d;
			[[unroll]] for (uint w = 0u; w < 4u; w++) {
				uint v = word_at(a + 2u + 4u * w);
				q[w] = int(v & 0x0f0f0f0fu);
				q[w + 4u] = int((v >> 4) & 0x0f0f0f0fu);
			}
		}
	} else if (QT == DT_Q4_K) {
		// d, dmin, scales[12], qs[128]: sub-block s is the low (even s) or
		// high nibbles of qs[32*(s/2) ...].
		uint a = row + (kb >> 3) * 144u;
		uint s = kb & 7u;
		uvec2 sm = k4_scale_min(a + 4u, s);
		da = vec2(f16_to_f32(rd16_0(a)) * float(sm.x));
		ma = f16_to_f32(rd16_0(a + 2u)) * float(sm.y);
		uint sh = 4u * (s & 1u);
		[[unroll]] for (uint w = 0u; w < 8u; w++) q[w] = int((word_at(a + 16u + 32u * (s >> 1) + 4u * w) >> sh) & 0x0f0f0f0fu);
	} else { // Q6_K
		// ql[128], qh[64], scales[16] (int8), d: in half h = s/4 of the
		// block, quarter t = s%4 takes the low (t < 2) or high nibbles of
		// ql[64h + 32(t&1) + l] and bits 2t, 2t+1 of qh[32h + l].
		uint a = row + (kb >> 3) * 210u;
		uint s = kb & 7u, h = s >> 2, t = s & 3u;
		float d = f16_to_f32(rd16_0(a + 208u));
		da = d * vec2(float(int(rd8_0(a + 192u + 2u * s) << 24) >> 24), float(int(rd8_0(a + 193u + 2u * s) << 24) >> 24));
		ma = 0.0;
		[[unroll]] for (uint w = 0u; w < 8u; w++) {
			uint lo = (word_at(a + 64u * h + 32u * (t & 1u) + 4u * w) >> (t >= 2u ? 4u : 0u)) & 0x0f0f0f0fu;
			uint hi = (word_at(a + 128u + 32u * h + 4u * w) >> (2u * t)) & 0x03030303u;
			// Each byte b (0..63) to the int8 b-32, without borrows
			// between bytes.
			q[w] = int((((lo | (hi << 4)) | 0x80808080u) - 0x20202020u) ^ 0x80808080u);
		}
	}
}

// block_dot is one weight block (scales da, ma; integer dot products
// sumi with a src1 block, per half for Q6_K) times that src1 block (scale
// and sum ds).
float block_dot(vec2 da, float ma, ivec2 sumi, vec2 ds) {
	return ds.x * (da.x * float(sumi.x) + da.y * float(sumi.y)) - ma * ds.y; // Σ(d·q-m)·b = d·Σq·b - m·Σb
}
