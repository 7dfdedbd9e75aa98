#version 450
// MUL_MAT, shared-memory tiled: each workgroup computes a BM x BN tile of
// the result, staging BK-deep slices of the weights (dequantized) and of
// src1 in shared memory; each of its (BM/TM)*(BN/TN) invocations
// accumulates a TM x TN block in registers, rows and columns interleaved
// so that neighbouring invocations read neighbouring shared words.
// Large register blocks matter on CPU drivers (lavapipe), where every
// memory access, shared or global, costs the same few nanoseconds. The
// default build shares weight values across a subgroup cluster by shuffle
// and assumes invocations t..t+7 are consecutive subgroup invocations
// (the host uses it only when subgroups hold a multiple of 8); the
// NO_SUBGROUPS build reads them all from shared memory.

#include "common.glsl"
#ifndef NO_SUBGROUPS
#extension GL_KHR_shader_subgroup_shuffle : enable
#endif

// Tile shape, specialized per device: BM x BN per workgroup, BK deep,
// TM x TN per invocation. The host keeps TX = BN/TN = 8 (a shuffle
// cluster), TM a multiple of 8 and the workgroup size (constant 0) at
// TX * TY.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint BM = 64;
layout(constant_id = 2) const uint BN = 64;
layout(constant_id = 3) const uint BK = 16;
layout(constant_id = 4) const uint TM = 8;
layout(constant_id = 5) const uint TN = 8;
const uint TX = BN / TN; // invocations along n
const uint TY = BM / TM; // invocations along m
const uint WG = TX * TY;

#include "matmul.glsl"

shared float As[BK * BM];
shared float Bs[BK * BN];

void main() {
	uint t = gl_LocalInvocationID.x;
	uint m0 = gl_WorkGroupID.x * BM;
	uint n0 = gl_WorkGroupID.y * BN;
	uint abase, bbase, cbase;
	batch(gl_WorkGroupID.z, abase, bbase, cbase);
	uint ebase = addend_base(gl_WorkGroupID.z);

	uint tn = t % TX;
	uint tm = t / TX;

	float acc[TM * TN];
	[[unroll]] for (uint i = 0u; i < TM * TN; i++) acc[i] = 0.0;
#if A_TYPE == A_ANY
	uint qk = qblock_elems(QT), qb = qblock_bytes(QT);
	uint qsh = qk == 256u ? 8u : 5u;
#endif

	for (uint k0 = 0u; k0 < pc.K; k0 += BK) {
		// Stage A: BM rows x BK values, k-major; each invocation loads
		// runs along k of one row.
#if A_TYPE == A_ANY
		// Four values per dequantization (K is a multiple of the block,
		// BK of 4), in a loop kept rolled: one copy of the dequantizer.
		[[dont_unroll]] for (uint e = t; e < BM * BK / 4u; e += WG) {
			uint mi = e / (BK / 4u), ki = 4u * (e % (BK / 4u));
			uint m = m0 + mi, k = k0 + ki;
			vec4 v = vec4(0.0);
			if (m < pc.M && k < pc.K) v = dequant4(QT, abase + m * pc.nb01 + (k >> qsh) * qb, k & (qk - 1u));
			[[unroll]] for (uint i = 0u; i < 4u; i++) As[(ki + i) * BM + mi] = v[i];
		}
#else
		for (uint e = t; e < BM * BK; e += WG) {
			uint mi = e / BK, ki = e % BK;
			uint m = m0 + mi, k = k0 + ki;
			As[ki * BM + mi] = (m < pc.M && k < pc.K) ? loadA(abase + m * pc.nb01, k) : 0.0;
		}
#endif
		// Stage B: BN columns x BK values, k-major.
		for (uint e = t; e < BN * BK; e += WG) {
			uint ni = e / BK, ki = e % BK;
			uint n = n0 + ni, k = k0 + ki;
			Bs[ki * BN + ni] = (n < pc.N && k < pc.K) ? uintBitsToFloat(s1[(bbase + n * pc.nb11 + k * pc.nb10) >> 2]) : 0.0;
		}
		barrier();
		for (uint ki = 0u; ki < BK; ki++) {
			float a[TM], b[TN];
#ifndef NO_SUBGROUPS
			// The TX = TM invocations of a subgroup cluster share tm: each
			// loads one of their TM weights and the others take it by
			// shuffle, which costs no memory access.
			float mine[TM / TX];
			uint lane = gl_SubgroupInvocationID % TX;
			[[unroll]] for (uint u = 0u; u < TM / TX; u++) mine[u] = As[ki * BM + tm + (lane + u * TX) * TY];
			[[unroll]] for (uint i = 0u; i < TM; i++) a[i] = subgroupShuffle(mine[i / TX], (gl_SubgroupInvocationID & ~(TX - 1u)) | (i % TX));
#else
			[[unroll]] for (uint i = 0u; i < TM; i++) a[i] = As[ki * BM + tm + i * TY];
#endif
			[[unroll]] for (uint j = 0u; j < TN; j++) b[j] = Bs[ki * BN + tn + j * TX];
			[[unroll]] for (uint i = 0u; i < TM; i++)
				[[unroll]] for (uint j = 0u; j < TN; j++) acc[i * TN + j] += a[i] * b[j];
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
