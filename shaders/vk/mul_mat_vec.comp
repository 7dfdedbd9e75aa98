#version 450
// MUL_MAT for src1 with few columns (matrix-vector): the lanes of a
// workgroup split K and each workgroup computes NR consecutive rows, so
// every src1 value a lane loads serves NR rows. The x and y workgroup ids
// together count row groups, z counts columns and batches (column fastest).

#include "common.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint NR = 2;

#include "reduce.glsl"
#include "matmul.glsl"

// word_at reads the 32-bit word at byte address a, which need only be
// 2-byte aligned (quant blocks are 34 or 18 bytes long).
uint word_at(uint a) {
	uint w = s0[a >> 2];
	return (a & 2u) == 0u ? w : (w >> 16) | (s0[(a >> 2) + 1u] << 16);
}

void main() {
	uint m0 = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * NR;
	if (m0 >= pc.M) return;
	uint l = gl_LocalInvocationID.x;
	uint wg = gl_WorkGroupSize.x;
	uint n = gl_WorkGroupID.z % pc.N;
	uint abase, bbase, cbase;
	batch(gl_WorkGroupID.z / pc.N, abase, bbase, cbase);
	bbase += n * pc.nb11;

	uint rows[NR];
	float acc[NR];
	[[unroll]] for (uint r = 0u; r < NR; r++) {
		rows[r] = abase + min(m0 + r, pc.M - 1u) * pc.nb01;
		acc[r] = 0.0;
	}

#if A_TYPE == 8 || A_TYPE == 2
	// One lane per block of 32: the block's src1 values are loaded once
	// for all NR rows, its quants as whole words.
	uint nblk = pc.K >> 5;
	for (uint blk = l; blk < nblk; blk += wg) {
		float b[32];
		uint bk = bbase + blk * 32u * pc.nb10;
		[[unroll]] for (uint j = 0u; j < 32u; j++) b[j] = uintBitsToFloat(s1[(bk + j * pc.nb10) >> 2]);
		[[unroll]] for (uint r = 0u; r < NR; r++) {
#if A_TYPE == 8
			uint a = rows[r] + blk * 34u;
			float sum = 0.0;
			[[unroll]] for (uint j = 0u; j < 32u; j += 4u) {
				int q = int(word_at(a + 2u + j));
				sum += float(bitfieldExtract(q, 0, 8)) * b[j] + float(bitfieldExtract(q, 8, 8)) * b[j + 1u] +
					float(bitfieldExtract(q, 16, 8)) * b[j + 2u] + float(bitfieldExtract(q, 24, 8)) * b[j + 3u];
			}
#else
			uint a = rows[r] + blk * 18u;
			float sum = 0.0;
			[[unroll]] for (uint j = 0u; j < 16u; j += 4u) {
				uint q = word_at(a + 2u + j);
				[[unroll]] for (uint k = 0u; k < 4u; k++) {
					uint byte_ = (q >> (8u * k)) & 0xffu;
					sum += (float(byte_ & 15u) - 8.0) * b[j + k] + (float(byte_ >> 4) - 8.0) * b[j + k + 16u];
				}
			}
#endif
			acc[r] += f16_to_f32(rd16_0(a)) * sum;
		}
	}
#else
	for (uint k = l; k < pc.K; k += wg) {
		float b = uintBitsToFloat(s1[(bbase + k * pc.nb10) >> 2]);
		[[unroll]] for (uint r = 0u; r < NR; r++) acc[r] += loadA(rows[r], k) * b;
	}
#endif

	[[unroll]] for (uint r = 0u; r < NR; r++) {
		float s = wg_sum(acc[r]);
		if (l == 0u && m0 + r < pc.M) d[(cbase + (m0 + r) * pc.nb0 + n * pc.nb1) >> 2] = floatBitsToUint(s);
	}
}
