#version 450
// Integer-dot MUL_MAT, shared-memory tiled (see mmq.glsl): each workgroup
// computes a BM x BN tile of the result, staging one block (32 values) of
// K at a time: the weights as packed int8 words plus scales, the scratch's
// src1 quants plus scales and sums. Each of its (BM/TM)*(BN/TN)
// invocations keeps a TM x TN block, rows and columns interleaved as in
// mul_mat.comp, and sums each block's products in integers before one
// float multiply-add per output.

#include "common.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint BM = 64;
layout(constant_id = 2) const uint BN = 64;
layout(constant_id = 4) const uint TM = 8;
layout(constant_id = 5) const uint TN = 8;
const uint TX = BN / TN; // invocations along n
const uint TY = BM / TM; // invocations along m
const uint WG = TX * TY;

#include "mmq.glsl"

// Word w of row (column) i is at [w * BM + i]: neighbouring invocations
// read neighbouring words.
shared int Aq[8 * BM];
shared vec3 As[BM]; // da, ma
shared int Bq[8 * BN];
shared vec2 Bds[BN];

void main() {
	uint t = gl_LocalInvocationID.x;
	uint m0 = gl_WorkGroupID.x * BM;
	uint n0 = gl_WorkGroupID.y * BN;
	uint abase, bblk, cbase;
	batch(gl_WorkGroupID.z, abase, bblk, cbase);
	uint ebase = addend_base(gl_WorkGroupID.z);
	uint kb = pc.K >> 5;

	uint tn = t % TX;
	uint tm = t / TX;

	float acc[TM * TN];
	[[unroll]] for (uint i = 0u; i < TM * TN; i++) acc[i] = 0.0;

	for (uint blk = 0u; blk < kb; blk++) {
		// Stage A: one block of each of BM rows (rows past M read as 0).
		for (uint mi = t; mi < BM; mi += WG) {
			uint m = m0 + mi;
			int q[8];
			vec2 da = vec2(0.0);
			float ma = 0.0;
			if (m < pc.M) {
				load_weight_block(abase + m * pc.nb01, blk, q, da, ma);
			} else {
				[[unroll]] for (uint w = 0u; w < 8u; w++) q[w] = 0;
			}
			[[unroll]] for (uint w = 0u; w < 8u; w++) Aq[w * BM + mi] = q[w];
			As[mi] = vec3(da, ma);
		}
		// Stage B: one scratch block of each of BN columns.
		for (uint e = t; e < 8u * BN; e += WG) {
			uint ni = e >> 3, w = e & 7u;
			uint n = n0 + ni;
			Bq[w * BN + ni] = n < pc.N ? int(s1[8u * (bblk + n * kb + blk) + w]) : 0;
		}
		for (uint ni = t; ni < BN; ni += WG) {
			uint n = n0 + ni;
			uint sb = bblk + n * kb + blk;
			Bds[ni] = n < pc.N ? vec2(uintBitsToFloat(s1[pc.ds + 2u * sb]), uintBitsToFloat(s1[pc.ds + 2u * sb + 1u])) : vec2(0.0);
		}
		barrier();
		ivec2 sumi[TM * TN]; // per half of the block for Q6_K (HALVES)
		[[unroll]] for (uint i = 0u; i < TM * TN; i++) sumi[i] = ivec2(0);
		for (uint w = 0u; w < 8u; w++) {
			int a[TM], b[TN];
			[[unroll]] for (uint i = 0u; i < TM; i++) a[i] = Aq[w * BM + tm + i * TY];
			[[unroll]] for (uint j = 0u; j < TN; j++) b[j] = Bq[w * BN + tn + j * TX];
			[[unroll]] for (uint i = 0u; i < TM; i++)
				[[unroll]] for (uint j = 0u; j < TN; j++) {
					int p = sdot4x8(a[i], b[j], 0);
					if (HALVES == 2u && w >= 4u) sumi[i * TN + j].y += p; else sumi[i * TN + j].x += p;
				}
		}
		[[unroll]] for (uint i = 0u; i < TM; i++) {
			vec3 sa = As[tm + i * TY];
			[[unroll]] for (uint j = 0u; j < TN; j++) acc[i * TN + j] += block_dot(sa.xy, sa.z, sumi[i * TN + j], Bds[tn + j * TX]);
		}
		barrier();
	}

	[[unroll]] for (uint i = 0u; i < TM; i++) {
		uint m = m0 + tm + i * TY;
		[[unroll]] for (uint j = 0u; j < TN; j++) {
			uint n = n0 + tn + j * TX;
			if (m < pc.M && n < pc.N) d[(cbase + m * pc.nb0 + n * pc.nb1) >> 2] = floatBitsToUint(acc[i * TN + j] + addend(ebase, m, n));
		}
	}
}
