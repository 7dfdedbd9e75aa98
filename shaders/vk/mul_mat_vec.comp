#version 450
// MUL_MAT with a single src1 column (matrix-vector): the lanes of a
// workgroup split K, each workgroup computes NR consecutive rows; the x and
// y workgroup ids together count row groups, z counts columns and batches
// (column fastest). Used for products with few src1 columns.

#include "common.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint NR = 2;

#include "reduce.glsl"
#include "matmul.glsl"

void main() {
	uint m0 = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * NR;
	if (m0 >= pc.M) return;
	uint n;
	uint l = gl_LocalInvocationID.x;
	uint wg = gl_WorkGroupSize.x;
	n = gl_WorkGroupID.z % pc.N;
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
	// One lane per block of 32: the scale is read once per block.
	uint nblk = pc.K >> 5;
	for (uint blk = l; blk < nblk; blk += wg) {
		float b[32];
		uint bk = bbase + blk * 32u * pc.nb10;
		[[unroll]] for (uint j = 0u; j < 32u; j++) b[j] = uintBitsToFloat(s1[(bk + j * pc.nb10) >> 2]);
		[[unroll]] for (uint r = 0u; r < NR; r++) {
#if A_TYPE == 8
			uint a = rows[r] + blk * 34u;
			float sum = 0.0;
			[[unroll]] for (uint j = 0u; j < 32u; j += 2u) {
				uint q = rd16_0(a + 2u + j);
				sum += float(int(q << 24) >> 24) * b[j] + float(int(q << 16) >> 24) * b[j + 1u];
			}
#else
			uint a = rows[r] + blk * 18u;
			float sum = 0.0;
			[[unroll]] for (uint j = 0u; j < 16u; j += 2u) {
				uint q = rd16_0(a + 2u + j);
				sum += (float(q & 15u) - 8.0) * b[j] + (float((q >> 4) & 15u) - 8.0) * b[j + 16u];
				sum += (float((q >> 8) & 15u) - 8.0) * b[j + 1u] + (float((q >> 12) & 15u) - 8.0) * b[j + 17u];
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
