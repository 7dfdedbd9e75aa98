#version 450
// FLASH_ATTN_EXT: out = softmax(q·kᵀ·scale (softcapped) + mask)·v, one
// workgroup per (query row, head, sequence). The workgroup walks the keys
// in tiles of its size: each invocation scores one key (q is in shared
// memory), the tile's maximum and sum update the running softmax (M, S),
// and each invocation accumulates its own output dims (l, l+WG, …) over
// the tile's weights. No score matrix is stored. K and V rows are F32,
// F16, Q8_0 or Q4_0, the mask F32 or F16 (binding 4); query head h reads kv head
// h/(H/Hkv). The result is ggml's permuted [Dv, H, nQ, B].

#include "common.glsl"

layout(local_size_x_id = 0) in;
// MODE: k dtype | v dtype << 8 | mask dtype << 16 (MASK_NONE: no mask).
layout(constant_id = 1) const uint MODE = 0u;

#define NO_SUBGROUPS
#include "reduce.glsl"

layout(std430, binding = 4) readonly buffer Src3 { uint s3[]; };
DEFINE_LOADERS(4, s3)

layout(push_constant) uniform PC {
	uint D, Dv, nkv, nq;
	uint rk, rv, m2, m3;       // query heads per k and v head; mask ne2, ne3
	uint nbq1, nbq2, nbq3;
	uint nbk1, nbk2, nbk3;
	uint nbv1, nbv2, nbv3;
	uint nbm1, nbm2, nbm3;
	uint nbd1, nbd2, nbd3;
	uint offq, offk, offv, offm, offd;
	float scale, softcap;
	uint ksz, vsz;
} pc;

// Head sizes up to MAX_D; each invocation keeps MAX_D/WG output dims.
#define MAX_D 512u
#define NACC 8u

shared float qs[MAX_D];
shared float ps[gl_WorkGroupSize.x];

float tanh_safe(float x) {
	float e = exp(-2.0 * abs(x));
	return sign(x) * (1.0 - e) / (1.0 + e);
}

void main() {
	uint iq1 = gl_WorkGroupID.x, iq2 = gl_WorkGroupID.y, iq3 = gl_WorkGroupID.z;
	uint l = gl_LocalInvocationID.x;
	uint wg = gl_WorkGroupSize.x;
	uint tk = MODE & 0xffu;
	uint tv = (MODE >> 8) & 0xffu;
	uint tm = (MODE >> 16) & 0xffu;
	uint ksz = pc.ksz, vsz = pc.vsz; // element (block) sizes in bytes
	uint msz = tm == DT_F16 ? 2u : 4u;
	const float ninf = uintBitsToFloat(0xff800000u);

	uint qrow = pc.offq + iq1 * pc.nbq1 + iq2 * pc.nbq2 + iq3 * pc.nbq3;
	for (uint i = l; i < pc.D; i += wg) qs[i] = uintBitsToFloat(s0[(qrow >> 2) + i]);
	barrier();
	uint krow = pc.offk + (iq2 / pc.rk) * pc.nbk2 + iq3 * pc.nbk3;
	uint vrow = pc.offv + (iq2 / pc.rv) * pc.nbv2 + iq3 * pc.nbv3;
	uint mrow = pc.offm + iq1 * pc.nbm1 + (iq2 % pc.m2) * pc.nbm2 + (iq3 % pc.m3) * pc.nbm3;

	float M = ninf, S = 0.0;
	float acc[NACC];
	[[unroll]] for (uint j = 0u; j < NACC; j++) acc[j] = 0.0;
	for (uint c0 = 0u; c0 < pc.nkv; c0 += wg) {
		uint ic = c0 + l;
		float s = ninf;
		if (ic < pc.nkv) {
			float mv = tm != MASK_NONE ? load_f_4(tm, mrow + ic * msz) : 0.0;
			if (mv != ninf) {
				uint kr = krow + ic * pc.nbk1;
				float qk = 0.0;
				for (uint i = 0u; i < pc.D; i++) qk += qs[i] * load_1(tk, kr, i, ksz);
				qk *= pc.scale;
				if (pc.softcap > 0.0) qk = pc.softcap * tanh_safe(qk / pc.softcap);
				s = qk + mv;
			}
		}
		float mt = wg_max(s);
		if (mt == ninf) continue; // the whole tile is masked (uniform)
		float mnew = max(M, mt);
		// No exp of -Inf: devices need not honour infinities there.
		float f = M == ninf ? 0.0 : exp(M - mnew); // nothing to rescale before the first live key
		float p = s == ninf ? 0.0 : exp(s - mnew);
		S = S * f + wg_sum(p);
		ps[l] = p;
		barrier();
		uint n = min(wg, pc.nkv - c0);
		[[unroll]] for (uint j = 0u; j < NACC; j++) {
			uint dd = l + j * wg;
			if (dd < pc.Dv) {
				float a = acc[j] * f;
				for (uint t = 0u; t < n; t++) {
					float w = ps[t];
					if (w != 0.0) a += w * load_2(tv, vrow + (c0 + t) * pc.nbv1, dd, vsz);
				}
				acc[j] = a;
			}
		}
		M = mnew;
		barrier(); // ps is rewritten by the next tile
	}
	uint drow = pc.offd + iq2 * pc.nbd1 + iq1 * pc.nbd2 + iq3 * pc.nbd3;
	float inv = S > 0.0 ? 1.0 / S : 0.0;
	[[unroll]] for (uint j = 0u; j < NACC; j++) {
		uint dd = l + j * wg;
		if (dd < pc.Dv) d[(drow >> 2) + dd] = floatBitsToUint(acc[j] * inv);
	}
}
