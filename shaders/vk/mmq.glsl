// Shared parts of the integer-dot MUL_MAT kernels (mmq.comp, mmq_vec.comp),
// in the shape of ggml-vulkan's mul_mmq: src1 arrives quantized by
// quantize_q8_1.comp into a scratch buffer (binding 1) of Q8_1-like blocks,
// and each block pair is one run of packed int8 dot products. QT
// (constant 6) is the weight dtype, Q8_0 or Q4_0; weight rows are
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

layout(constant_id = 6) const uint QT = 0; // the weight dtype: DT_Q8_0 or DT_Q4_0

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

// weight_block_bytes is the size of one weight block.
uint weight_block_bytes() { return QT == DT_Q8_0 ? 34u : 18u; }

// load_weight_block reads the weight block at byte a as 8 words of packed
// int8 values in element order (Q4_0: its nibbles 0..15, without the -8,
// which block_dot applies through the scratch's sum) and its scale.
void load_weight_block(uint a, out int q[8], out float d) {
	d = f16_to_f32(rd16_0(a));
	if (QT == DT_Q8_0) {
		[[unroll]] for (uint w = 0u; w < 8u; w++) q[w] = int(word_at(a + 2u + 4u * w));
	} else {
		[[unroll]] for (uint w = 0u; w < 4u; w++) {
			uint v = word_at(a + 2u + 4u * w);
			q[w] = int(v & 0x0f0f0f0fu);
			q[w + 4u] = int((v >> 4) & 0x0f0f0f0fu);
		}
	}
}

// block_dot is one weight block (scale da, integer dot sumi with a src1
// block) times that src1 block (scale and sum ds).
float block_dot(float da, int sumi, vec2 ds) {
	if (QT == DT_Q8_0) return da * ds.x * float(sumi);
	return da * (ds.x * float(sumi) - 8.0 * ds.y); // Q4_0: Σ(q-8)·b = Σq·b - 8·Σb
}
