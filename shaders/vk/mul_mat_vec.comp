#version 450
// MUL_MAT for src1 with few columns (matrix-vector): the lanes of a
// workgroup split K and each workgroup computes NR consecutive rows for NC
// columns, so every src1 value a lane loads serves NR rows and every weight
// NC columns. The x and y workgroup ids together count row groups, z counts
// column groups and batches (column groups fastest).

#include "common.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint NR = 2; // rows per workgroup
layout(constant_id = 2) const uint NC = 1; // src1 columns per workgroup
// VEC4 (F32, F16, BF16 weights): K is a multiple of 4 (8 for 16-bit
// weights), src1 is contiguous and every row and column starts 16-byte
// aligned, so both are read 16 bytes at a time.
layout(constant_id = 3) const uint VEC4 = 0;

#include "reduce.glsl"
#include "matmul.glsl"

layout(std430, binding = 0) readonly buffer Src0v { vec4 s0v[]; };
layout(std430, binding = 1) readonly buffer Src1v { vec4 s1v[]; };
layout(std430, binding = 0) readonly buffer Src0u4 { uvec4 s0u4[]; };

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
	uint groups = (pc.N + NC - 1u) / NC;
	uint n0 = (gl_WorkGroupID.z % groups) * NC;
	uint abase, bbase, cbase;
	batch(gl_WorkGroupID.z / groups, abase, bbase, cbase);
	uint ebase = addend_base(gl_WorkGroupID.z / groups);

	uint rows[NR];
	[[unroll]] for (uint r = 0u; r < NR; r++) rows[r] = abase + min(m0 + r, pc.M - 1u) * pc.nb01;
	uint cols[NC];
	[[unroll]] for (uint c = 0u; c < NC; c++) cols[c] = bbase + min(n0 + c, pc.N - 1u) * pc.nb11;
	float acc[NR * NC];
	[[unroll]] for (uint i = 0u; i < NR * NC; i++) acc[i] = 0.0;

#if A_TYPE == PP_DT_Q8_0 || A_TYPE == PP_DT_Q4_0
	// One lane per block of 32: the block's src1 values are loaded once
	// for all NR rows, each row's quants once (as whole words) for all NC
	// columns.
	uint nblk = pc.K >> 5;
	for (uint blk = l; blk < nblk; blk += wg) {
		float b[NC * 32];
		[[unroll]] for (uint c = 0u; c < NC; c++) {
			uint bk = cols[c] + blk * 32u * pc.nb10;
			[[unroll]] for (uint j = 0u; j < 32u; j++) b[c * 32u + j] = uintBitsToFloat(s1[(bk + j * pc.nb10) >> 2]);
		}
		[[unroll]] for (uint r = 0u; r < NR; r++) {
			float q[32];
#if A_TYPE == PP_DT_Q8_0
			uint a = rows[r] + blk * 34u;
			[[unroll]] for (uint j = 0u; j < 32u; j += 4u) {
				int w = int(word_at(a + 2u + j));
				[[unroll]] for (uint k = 0u; k < 4u; k++) q[j + k] = float(bitfieldExtract(w, int(8u * k), 8));
			}
#else
			uint a = rows[r] + blk * 18u;
			[[unroll]] for (uint j = 0u; j < 16u; j += 4u) {
				uint w = word_at(a + 2u + j);
				[[unroll]] for (uint k = 0u; k < 4u; k++) {
					uint byte_ = (w >> (8u * k)) & 0xffu;
					q[j + k] = float(byte_ & 15u) - 8.0;
					q[j + k + 16u] = float(byte_ >> 4) - 8.0;
				}
			}
#endif
			float sc = f16_to_f32(rd16_0(a));
			[[unroll]] for (uint c = 0u; c < NC; c++) {
				float sum = 0.0;
				[[unroll]] for (uint j = 0u; j < 32u; j++) sum += q[j] * b[c * 32u + j];
				acc[r * NC + c] += sc * sum;
			}
		}
	}
#elif A_TYPE == A_ANY
	// Any other block type (QT): each lane takes four consecutive
	// values at a time, which come from four consecutive bytes in every
	// layout; neighbouring lanes read neighbouring words.
	uint qk = qblock_elems(QT), qb = qblock_bytes(QT);
	uint qsh = qk == 256u ? 8u : 5u;
	[[dont_unroll]] for (uint k4 = l; k4 < pc.K / 4u; k4 += wg) {
		uint k = 4u * k4;
		vec4 b[NC];
		[[unroll]] for (uint c = 0u; c < NC; c++) {
			uint bk = cols[c] + k * pc.nb10;
			b[c] = vec4(uintBitsToFloat(s1[bk >> 2]), uintBitsToFloat(s1[(bk + pc.nb10) >> 2]),
				uintBitsToFloat(s1[(bk + 2u * pc.nb10) >> 2]), uintBitsToFloat(s1[(bk + 3u * pc.nb10) >> 2]));
		}
		uint boff = (k >> qsh) * qb, j = k & (qk - 1u);
		[[unroll]] for (uint r = 0u; r < NR; r++) {
			vec4 a = dequant4(QT, rows[r] + boff, j);
			[[unroll]] for (uint c = 0u; c < NC; c++) acc[r * NC + c] += dot(a, b[c]);
		}
	}
#else
#if A_TYPE == PP_DT_F32
	if (VEC4 != 0u) {
		// Four values per load: fewer (costly on CPU drivers) accesses.
		for (uint k4 = l; k4 < pc.K / 4u; k4 += wg) {
			vec4 b[NC];
			[[unroll]] for (uint c = 0u; c < NC; c++) b[c] = s1v[(cols[c] >> 4) + k4];
			[[unroll]] for (uint r = 0u; r < NR; r++) {
				vec4 a = s0v[(rows[r] >> 4) + k4];
				[[unroll]] for (uint c = 0u; c < NC; c++) acc[r * NC + c] += dot(a, b[c]);
			}
		}
	} else
#elif A_TYPE == PP_DT_F16 || A_TYPE == PP_DT_BF16
	if (VEC4 != 0u) {
		// Eight 16-bit weights per load (K is a multiple of 8).
		for (uint k8 = l; k8 < pc.K / 8u; k8 += wg) {
			vec4 b[2 * NC];
			[[unroll]] for (uint c = 0u; c < NC; c++) {
				b[2u * c] = s1v[(cols[c] >> 4) + 2u * k8];
				b[2u * c + 1u] = s1v[(cols[c] >> 4) + 2u * k8 + 1u];
			}
			[[unroll]] for (uint r = 0u; r < NR; r++) {
				uvec4 w = s0u4[(rows[r] >> 4) + k8];
#if A_TYPE == PP_DT_F16
				vec4 lo = vec4(unpackHalf2x16(w.x), unpackHalf2x16(w.y));
				vec4 hi = vec4(unpackHalf2x16(w.z), unpackHalf2x16(w.w));
#else
				vec4 lo = uintBitsToFloat(uvec4(w.x << 16, w.x & 0xffff0000u, w.y << 16, w.y & 0xffff0000u));
				vec4 hi = uintBitsToFloat(uvec4(w.z << 16, w.z & 0xffff0000u, w.w << 16, w.w & 0xffff0000u));
#endif
				[[unroll]] for (uint c = 0u; c < NC; c++) acc[r * NC + c] += dot(lo, b[2u * c]) + dot(hi, b[2u * c + 1u]);
			}
		}
	} else
#endif
	for (uint k = l; k < pc.K; k += wg) {
		float b[NC];
		[[unroll]] for (uint c = 0u; c < NC; c++) b[c] = uintBitsToFloat(s1[(cols[c] + k * pc.nb10) >> 2]);
		[[unroll]] for (uint r = 0u; r < NR; r++) {
			float a = loadA(rows[r], k);
			[[unroll]] for (uint c = 0u; c < NC; c++) acc[r * NC + c] += a * b[c];
		}
	}
#endif

	[[unroll]] for (uint r = 0u; r < NR; r++) {
		[[unroll]] for (uint c = 0u; c < NC; c++) {
			float s = wg_sum(acc[r * NC + c]);
			if (l == 0u && m0 + r < pc.M && n0 + c < pc.N) d[(cbase + (m0 + r) * pc.nb0 + (n0 + c) * pc.nb1) >> 2] = floatBitsToUint(s + addend(ebase, m0 + r, n0 + c));
		}
	}
}
