#version 450
// MUL_MAT for src1 with few columns (matrix-vector), laid out for GPUs:
// each workgroup computes NR consecutive rows for NC columns, and its lanes
// stride every row so that neighbouring lanes read neighbouring words of
// the weights (a subgroup's loads fall in few memory transactions). The weight
// dtype is specialization constant QT (one module for every type; the
// driver keeps only QT's code). The x and y workgroup ids together count
// row groups, z counts column groups and batches (column groups fastest),
// as in mul_mat_vec.comp, which stays the kernel for CPU drivers.
//
// Block types: a lane takes one "unit" of a block, eight values in two
// runs of four (unit_elems) that come from the same quant bytes wherever
// the layout allows (low and high nibbles, or two bit fields), so each
// quant word is read once; the units of a block are numbered so that
// consecutive lanes take consecutive words. Floats: a lane takes one
// 16-byte word (4 F32 or 8 F16/BF16) at a time.

#include "common.glsl"

layout(local_size_x_id = 0) in; // a power of two
layout(constant_id = 1) const uint NR = 2; // rows per workgroup
layout(constant_id = 2) const uint NC = 1; // src1 columns per workgroup
// VEC4: src1 is contiguous and every column starts 16-byte aligned (so
// src1 is read 16 bytes at a time); for F32/F16/BF16 weights also K is a
// multiple of 4 (8 for 16-bit weights) and every row starts 16-byte aligned.
layout(constant_id = 3) const uint VEC4 = 0;

#define A_TYPE A_ANY
#include "matmul.glsl"

#ifndef NO_SUBGROUPS
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_arithmetic : enable
// One partial sum per accumulator and subgroup (the host picks this build
// only where subgroups hold at least 4 invocations).
shared float partial[NR * NC * (gl_WorkGroupSize.x / 4u)];
#else
// One partial sum per accumulator and invocation: a shared-memory tree.
shared float partial[NR * NC * gl_WorkGroupSize.x];
#endif

layout(std430, binding = 0) readonly buffer Src0v { vec4 s0v[]; };
layout(std430, binding = 1) readonly buffer Src1v { vec4 s1v[]; };
layout(std430, binding = 0) readonly buffer Src0u4 { uvec4 s0u4[]; };

// unit_elems gives the two runs of four elements (their first indices in
// the block) that unit j of a block of dtype dt covers.
uvec2 unit_elems(uint dt, uint j) {
	switch (dt) {
	case DT_Q4_0: case DT_Q4_1: case DT_Q5_0: case DT_Q5_1: case DT_IQ4_NL: case DT_MXFP4:
		// 16 nibble bytes: byte i holds elements i and i+16.
		return uvec2(4u * j, 4u * j + 16u);
	case DT_Q4_K: case DT_Q5_K: {
		// 32-byte chunks c: low nibbles elements 64c.., high 64c+32..
		uint e = 64u * (j / 8u) + 4u * (j & 7u);
		return uvec2(e, e + 32u);
	}
	case DT_Q6_K: {
		// ql byte 64n + 32h + i: low nibble element 128n + 32h + i, high +64.
		uint e = 128u * (j / 16u) + 32u * ((j / 8u) & 1u) + 4u * (j & 7u);
		return uvec2(e, e + 64u);
	}
	case DT_Q2_K: case DT_Q3_K: case DT_TQ2_0: {
		// qs byte 32n + i: 2-bit field f is element 128n + 32f + i; a unit
		// takes fields 2p and 2p+1.
		uint e = 128u * (j / 16u) + 64u * ((j / 8u) & 1u) + 4u * (j & 7u);
		return uvec2(e, e + 32u);
	}
	case DT_IQ4_XS: {
		// 16-byte sub-blocks ib: low nibbles elements 32ib.., high 32ib+16..
		uint e = 32u * (j / 4u) + 4u * (j & 3u);
		return uvec2(e, e + 16u);
	}
	}
	// Q8_0 (a byte per element) and TQ1_0: eight consecutive elements.
	return uvec2(8u * j, 8u * j + 4u);
}

// load_b4 reads src1 elements k..k+3 of the column starting at byte col.
vec4 load_b4(uint col, uint k) {
	if (VEC4 != 0u) return s1v[(col >> 4) + (k >> 2)];
	uint a = col + k * pc.nb10;
	return vec4(uintBitsToFloat(s1[a >> 2]), uintBitsToFloat(s1[(a + pc.nb10) >> 2]),
		uintBitsToFloat(s1[(a + 2u * pc.nb10) >> 2]), uintBitsToFloat(s1[(a + 3u * pc.nb10) >> 2]));
}

// total(i) is the workgroup's sum i once main has reduced its sums into
// partial: with subgroups one slot per subgroup, without one per invocation
// (summed by a tree into slot 0).
float total(uint i) {
#ifndef NO_SUBGROUPS
	float s = 0.0;
	for (uint g = 0u; g < gl_NumSubgroups; g++) s += partial[i * gl_NumSubgroups + g];
	return s;
#else
	return partial[i * gl_WorkGroupSize.x];
#endif
}

void main() {
	uint m0 = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * NR;
	if (m0 >= pc.M) return; // the whole workgroup: no barrier is skipped by part of it
	uint l = gl_LocalInvocationID.x;
	const uint wg = gl_WorkGroupSize.x;
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

	if (QT == DT_F32) {
		if (VEC4 != 0u) {
			for (uint k4 = l; k4 < pc.K / 4u; k4 += wg) {
				vec4 b[NC];
				[[unroll]] for (uint c = 0u; c < NC; c++) b[c] = s1v[(cols[c] >> 4) + k4];
				[[unroll]] for (uint r = 0u; r < NR; r++) {
					vec4 a = s0v[(rows[r] >> 4) + k4];
					[[unroll]] for (uint c = 0u; c < NC; c++) acc[r * NC + c] += dot(a, b[c]);
				}
			}
		} else {
			for (uint k = l; k < pc.K; k += wg) {
				float b[NC];
				[[unroll]] for (uint c = 0u; c < NC; c++) b[c] = uintBitsToFloat(s1[(cols[c] + k * pc.nb10) >> 2]);
				[[unroll]] for (uint r = 0u; r < NR; r++) {
					float a = uintBitsToFloat(s0[(rows[r] >> 2) + k]);
					[[unroll]] for (uint c = 0u; c < NC; c++) acc[r * NC + c] += a * b[c];
				}
			}
		}
	} else if (QT == DT_F16 || QT == DT_BF16) {
		if (VEC4 != 0u) {
			for (uint k8 = l; k8 < pc.K / 8u; k8 += wg) {
				vec4 b[2 * NC];
				[[unroll]] for (uint c = 0u; c < NC; c++) {
					b[2u * c] = s1v[(cols[c] >> 4) + 2u * k8];
					b[2u * c + 1u] = s1v[(cols[c] >> 4) + 2u * k8 + 1u];
				}
				[[unroll]] for (uint r = 0u; r < NR; r++) {
					uvec4 w = s0u4[(rows[r] >> 4) + k8];
					vec4 lo, hi;
					if (QT == DT_F16) {
						lo = vec4(unpackHalf2x16(w.x), unpackHalf2x16(w.y));
						hi = vec4(unpackHalf2x16(w.z), unpackHalf2x16(w.w));
					} else {
						lo = uintBitsToFloat(uvec4(w.x << 16, w.x & 0xffff0000u, w.y << 16, w.y & 0xffff0000u));
						hi = uintBitsToFloat(uvec4(w.z << 16, w.z & 0xffff0000u, w.w << 16, w.w & 0xffff0000u));
					}
					[[unroll]] for (uint c = 0u; c < NC; c++) acc[r * NC + c] += dot(lo, b[2u * c]) + dot(hi, b[2u * c + 1u]);
				}
			}
		} else {
			for (uint k = l; k < pc.K; k += wg) {
				float b[NC];
				[[unroll]] for (uint c = 0u; c < NC; c++) b[c] = uintBitsToFloat(s1[(cols[c] + k * pc.nb10) >> 2]);
				[[unroll]] for (uint r = 0u; r < NR; r++) {
					uint h = rd16_0(rows[r] + 2u * k);
					float a = QT == DT_F16 ? f16_to_f32(h) : bf16_to_f32(h);
					[[unroll]] for (uint c = 0u; c < NC; c++) acc[r * NC + c] += a * b[c];
				}
			}
		}
	} else {
		uint qk = qblock_elems(QT), qb = qblock_bytes(QT);
		uint upb = qk / 8u; // units per block
		uint units = (pc.K / qk) * upb;
		for (uint u = l; u < units; u += wg) {
			uint blk = u / upb;
			uvec2 e = unit_elems(QT, u % upb);
			uint k0 = blk * qk;
			vec4 b0[NC], b1[NC];
			[[unroll]] for (uint c = 0u; c < NC; c++) {
				b0[c] = load_b4(cols[c], k0 + e.x);
				b1[c] = load_b4(cols[c], k0 + e.y);
			}
			[[unroll]] for (uint r = 0u; r < NR; r++) {
				uint a = rows[r] + blk * qb;
				vec4 w0 = dequant4(QT, a, e.x), w1 = dequant4(QT, a, e.y);
				[[unroll]] for (uint c = 0u; c < NC; c++) acc[r * NC + c] += dot(w0, b0[c]) + dot(w1, b1[c]);
			}
		}
	}

	// Reduce all NR x NC sums at once (in main: GLSL copies array
	// arguments), then invocation i writes output i.
#ifndef NO_SUBGROUPS
	[[unroll]] for (uint i = 0u; i < NR * NC; i++) acc[i] = subgroupAdd(acc[i]);
	if (subgroupElect()) {
		[[unroll]] for (uint i = 0u; i < NR * NC; i++) partial[i * gl_NumSubgroups + gl_SubgroupID] = acc[i];
	}
	barrier();
#else
	[[unroll]] for (uint i = 0u; i < NR * NC; i++) partial[i * wg + l] = acc[i];
	barrier();
	for (uint h = wg / 2u; h > 0u; h >>= 1u) {
		if (l < h) {
			[[unroll]] for (uint i = 0u; i < NR * NC; i++) partial[i * wg + l] += partial[i * wg + l + h];
		}
		barrier();
	}
#endif
	for (uint i = l; i < NR * NC; i += wg) {
		uint r = i / NC, c = i % NC;
		if (m0 + r < pc.M && n0 + c < pc.N) d[(cbase + (m0 + r) * pc.nb0 + (n0 + c) * pc.nb1) >> 2] = floatBitsToUint(total(i) + addend(ebase, m0 + r, n0 + c));
	}
}
