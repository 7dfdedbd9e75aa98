#version 450
// MUL_MAT, shared-memory tiled, shaped for hardware GPUs (the device
// classes of vk/tune.go whose kernel family is "hardware"; mul_mat.comp is
// the one shaped for CPU drivers). Each workgroup computes a BM x BN tile
// of the result; each of its (BM/TM)*(BN/TN) invocations a TM x TN block
// in registers. BK-deep slices of the weights (dequantized) and of src1 go
// through shared memory, double-buffered: the invocations load slice s+1
// from global memory into registers while they compute on slice s, then
// store it to the other buffer, with one barrier per slice. Shared rows
// are k-major and padded (stride BM+4, BN+4 floats): the invocations that
// store one row's k values land 16 banks apart, so a subgroup's stores hit
// distinct banks, and rows stay 16-byte aligned for vec4 reads.

#include "common.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint BM = 128;
layout(constant_id = 2) const uint BN = 128;
// Constant 3 is BK plus the load flags in bits 8 and 9 (the host's pipeline
// key has constants 0..6 only, all taken): LOAD_VEC_B reads src1, and
// LOAD_VEC_A F32/F16/BF16 weights, 16 bytes at a time, which the host sets
// when every row and column starts 16-byte aligned and K is a multiple of
// 4 (8 for 16-bit weights); otherwise loads are scalar.
layout(constant_id = 3) const uint BK_LOADS = 8;
layout(constant_id = 4) const uint TM = 8; // a multiple of 4
layout(constant_id = 5) const uint TN = 8; // a multiple of 4
const uint BK = BK_LOADS & 0xffu;          // a multiple of 8
const bool LOAD_VEC_B = (BK_LOADS & 0x100u) != 0u;
const bool LOAD_VEC_A = (BK_LOADS & 0x200u) != 0u;
const uint TY = BM / TM; // invocations along m (the fastest)
const uint TX = BN / TN; // invocations along n
const uint WG = TX * TY;
const uint SA = (BM + 4u) / 4u; // padded row strides in vec4s
const uint SB = (BN + 4u) / 4u;

#include "matmul.glsl"

layout(std430, binding = 0) readonly buffer Src0v { vec4 s0v[]; };
layout(std430, binding = 0) readonly buffer Src0u4 { uvec4 s0u4[]; };
layout(std430, binding = 1) readonly buffer Src1v { vec4 s1v[]; };

// Weights are staged AL values at a time: eight 16-bit values (16 bytes),
// else four (16 bytes of F32, or one dequant4).
#if A_TYPE == PP_DT_F16 || A_TYPE == PP_DT_BF16
#define AL 8u
#else
#define AL 4u
#endif
const uint AV = AL / 4u;                  // vec4s per weight group
const uint AG = BM * (BK / AL);           // weight groups per slice
const uint A_ITERS = (AG + WG - 1u) / WG; // per invocation
const uint BG = BN * (BK / 4u);           // src1 groups of 4 per slice
const uint B_ITERS = (BG + WG - 1u) / WG;

shared vec4 As[2u * BK * SA];
shared vec4 Bs[2u * BK * SB];

// The slice in flight, between its global loads and its shared stores.
vec4 ra[A_ITERS * AV];
vec4 rb[B_ITERS];

uint abase, bbase, m0, n0;
#if A_TYPE == A_ANY
uint qk, qb, qsh;
#endif

vec4 unpack16x4(uint lo, uint hi) {
#if A_TYPE == PP_DT_BF16
	return uintBitsToFloat(uvec4(lo << 16, lo & 0xffff0000u, hi << 16, hi & 0xffff0000u));
#else
	return vec4(unpackHalf2x16(lo), unpackHalf2x16(hi));
#endif
}

// load_slice reads slice k0 of the weights and of src1 into ra and rb,
// zero outside the matrices.
void load_slice(uint t, uint k0) {
	[[unroll]] for (uint u = 0u; u < A_ITERS; u++) {
		uint e = t + u * WG;
		uint mi = e / (BK / AL), m = m0 + mi, k = k0 + (e % (BK / AL)) * AL;
		vec4 v[AV];
		[[unroll]] for (uint h = 0u; h < AV; h++) v[h] = vec4(0.0);
		if (e < AG && m < pc.M && k < pc.K) {
			uint row = abase + m * pc.nb01;
#if A_TYPE == PP_DT_F32
			if (LOAD_VEC_A) {
				v[0] = s0v[(row >> 4) + (k >> 2)];
			} else {
				[[unroll]] for (uint i = 0u; i < 4u; i++) if (k + i < pc.K) v[0][i] = loadA(row, k + i);
			}
#elif A_TYPE == PP_DT_F16 || A_TYPE == PP_DT_BF16
			if (LOAD_VEC_A) {
				uvec4 w = s0u4[(row >> 4) + (k >> 3)];
				v[0] = unpack16x4(w.x, w.y);
				v[1] = unpack16x4(w.z, w.w);
			} else {
				[[unroll]] for (uint i = 0u; i < 8u; i++) if (k + i < pc.K) v[i / 4u][i % 4u] = loadA(row, k + i);
			}
#elif A_TYPE == PP_DT_Q8_0
			v[0] = dequant4(DT_Q8_0, row + (k >> 5) * 34u, k & 31u); // K is a multiple of 32
#elif A_TYPE == PP_DT_Q4_0
			v[0] = dequant4(DT_Q4_0, row + (k >> 5) * 18u, k & 31u);
#elif A_TYPE == A_ANY
			v[0] = dequant4(QT, row + (k >> qsh) * qb, k & (qk - 1u)); // K is a multiple of the block
#endif
		}
		[[unroll]] for (uint h = 0u; h < AV; h++) ra[u * AV + h] = v[h];
	}
	[[unroll]] for (uint u = 0u; u < B_ITERS; u++) {
		uint e = t + u * WG;
		uint n = n0 + e / (BK / 4u), k = k0 + (e % (BK / 4u)) * 4u;
		vec4 v = vec4(0.0);
		if (e < BG && n < pc.N && k < pc.K) {
			uint col = bbase + n * pc.nb11;
			if (LOAD_VEC_B) {
				v = s1v[(col >> 4) + (k >> 2)];
			} else {
				[[unroll]] for (uint i = 0u; i < 4u; i++) if (k + i < pc.K) v[i] = uintBitsToFloat(s1[(col + (k + i) * pc.nb10) >> 2]);
			}
		}
		rb[u] = v;
	}
}

// store_slice writes ra and rb to shared buffer buf, k-major: element
// (k, m) at float k*(BM+4) + m.
void store_slice(uint t, uint buf) {
	[[unroll]] for (uint u = 0u; u < A_ITERS; u++) {
		uint e = t + u * WG;
		if (e < AG) {
			uint mi = e / (BK / AL), kl = (e % (BK / AL)) * AL;
			[[unroll]] for (uint i = 0u; i < AL; i++) {
				uint w = (buf * BK + kl + i) * SA * 4u + mi;
				As[w >> 2][w & 3u] = ra[u * AV + i / 4u][i % 4u];
			}
		}
	}
	[[unroll]] for (uint u = 0u; u < B_ITERS; u++) {
		uint e = t + u * WG;
		if (e < BG) {
			uint ni = e / (BK / 4u), kl = (e % (BK / 4u)) * 4u;
			[[unroll]] for (uint i = 0u; i < 4u; i++) {
				uint w = (buf * BK + kl + i) * SB * 4u + ni;
				Bs[w >> 2][w & 3u] = rb[u][i];
			}
		}
	}
}

void main() {
	uint t = gl_LocalInvocationID.x;
	m0 = gl_WorkGroupID.x * BM;
	n0 = gl_WorkGroupID.y * BN;
	uint cbase;
	batch(gl_WorkGroupID.z, abase, bbase, cbase);
	uint ebase = addend_base(gl_WorkGroupID.z);
#if A_TYPE == A_ANY
	qk = qblock_elems(QT);
	qb = qblock_bytes(QT);
	qsh = qk == 256u ? 8u : 5u;
#endif

	// Invocation (tm, tn) owns rows m0 + 4*(tm + i*TY) + 0..3 (i < TM/4):
	// neighbouring invocations read neighbouring vec4s of a shared row,
	// and columns n0 + tn*TN + 0..TN-1, the same for TY neighbours (a
	// broadcast).
	uint tm = t % TY, tn = t / TY;
	float acc[TM * TN];
	[[unroll]] for (uint i = 0u; i < TM * TN; i++) acc[i] = 0.0;

	uint nk = (pc.K + BK - 1u) / BK;
	load_slice(t, 0u);
	store_slice(t, 0u);
	barrier();
	for (uint s = 0u; s < nk; s++) {
		uint cur = s & 1u;
		bool next = s + 1u < nk;
		if (next) load_slice(t, (s + 1u) * BK);
		uint abuf = cur * BK * SA, bbuf = cur * BK * SB;
		[[unroll]] for (uint kk = 0u; kk < BK; kk++) {
			vec4 a[TM / 4u], b[TN / 4u];
			[[unroll]] for (uint i = 0u; i < TM / 4u; i++) a[i] = As[abuf + kk * SA + tm + i * TY];
			[[unroll]] for (uint j = 0u; j < TN / 4u; j++) b[j] = Bs[bbuf + kk * SB + tn * (TN / 4u) + j];
			[[unroll]] for (uint i = 0u; i < TM; i++)
				[[unroll]] for (uint j = 0u; j < TN; j++) acc[i * TN + j] += a[i / 4u][i % 4u] * b[j / 4u][j % 4u];
		}
		// The other buffer was last read before the previous barrier.
		if (next) store_slice(t, cur ^ 1u);
		barrier();
	}

	[[unroll]] for (uint i = 0u; i < TM; i++) {
		uint m = m0 + 4u * (tm + (i / 4u) * TY) + i % 4u;
		[[unroll]] for (uint j = 0u; j < TN; j++) {
			uint n = n0 + tn * TN + j;
			if (m < pc.M && n < pc.N) d[(cbase + m * pc.nb0 + n * pc.nb1) >> 2] = floatBitsToUint(acc[i * TN + j] + addend(ebase, m, n));
		}
	}
}
