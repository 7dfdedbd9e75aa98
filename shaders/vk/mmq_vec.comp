#version 450
// Integer-dot MUL_MAT for src1 with few columns (see mmq.glsl): the lanes
// of a workgroup split K by blocks; each workgroup computes NR consecutive
// rows for NC columns, so each src1 block a lane loads serves NR rows and
// each weight block NC columns. Grid as mul_mat_vec.comp.

#include "common.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint NR = 2; // rows per workgroup
layout(constant_id = 2) const uint NC = 1; // src1 columns per workgroup

#include "reduce.glsl"
#include "mmq.glsl"

void main() {
	uint m0 = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * NR;
	if (m0 >= pc.M) return;
	uint l = gl_LocalInvocationID.x;
	uint wg = gl_WorkGroupSize.x;
	uint groups = (pc.N + NC - 1u) / NC;
	uint n0 = (gl_WorkGroupID.z % groups) * NC;
	uint z = gl_WorkGroupID.z / groups;
	uint abase, bblk, cbase;
	batch(z, abase, bblk, cbase);
	uint ebase = addend_base(z);
	uint kb = pc.K >> 5;

	uint rows[NR];
	[[unroll]] for (uint r = 0u; r < NR; r++) rows[r] = abase + min(m0 + r, pc.M - 1u) * pc.nb01;
	uint cols[NC]; // first scratch block of each column
	[[unroll]] for (uint c = 0u; c < NC; c++) cols[c] = bblk + min(n0 + c, pc.N - 1u) * kb;
	float acc[NR * NC];
	[[unroll]] for (uint i = 0u; i < NR * NC; i++) acc[i] = 0.0;

	for (uint blk = l; blk < kb; blk += wg) {
		int bq[NC * 8];
		vec2 bds[NC];
		[[unroll]] for (uint c = 0u; c < NC; c++) {
			uint sb = cols[c] + blk;
			[[unroll]] for (uint w = 0u; w < 8u; w++) bq[c * 8u + w] = int(s1[8u * sb + w]);
			bds[c] = vec2(uintBitsToFloat(s1[pc.ds + 2u * sb]), uintBitsToFloat(s1[pc.ds + 2u * sb + 1u]));
		}
		[[unroll]] for (uint r = 0u; r < NR; r++) {
			int aq[8];
			vec2 da;
			float ma;
			load_weight_block(rows[r], blk, aq, da, ma);
			[[unroll]] for (uint c = 0u; c < NC; c++) {
				ivec2 sumi = ivec2(0);
				[[unroll]] for (uint w = 0u; w < 8u; w++) {
					int p = sdot4x8(aq[w], bq[c * 8u + w], 0);
					if (HALVES == 2u && w >= 4u) sumi.y += p; else sumi.x += p;
				}
				acc[r * NC + c] += block_dot(da, ma, sumi, bds[c]);
			}
		}
	}

	[[unroll]] for (uint r = 0u; r < NR; r++) {
		[[unroll]] for (uint c = 0u; c < NC; c++) {
			float s = wg_sum(acc[r * NC + c]);
			if (l == 0u && m0 + r < pc.M && n0 + c < pc.N) d[(cbase + (m0 + r) * pc.nb0 + (n0 + c) * pc.nb1) >> 2] = floatBitsToUint(s + addend(ebase, m0 + r, n0 + c));
		}
	}
}
