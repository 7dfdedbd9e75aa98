#version 450
// ROPE, normal (adjacent pairs) and NeoX (halves) modes, as ggml_rope_ext:
// theta_extrap = pos * freq_base^(-i0/n_dims) / freq_factor[i0/2],
// theta_interp = freq_scale * theta_extrap, mixed by YaRN's ramp between
// the correction dims when ext_factor != 0; cos and sin are scaled by
// mscale (attn_factor, with YaRN's correction folded in by the host).
// Elements beyond n_dims are copied. One invocation per pair.
//
// With a nonzero rows_stride it is ROPE + RESHAPE + SET_ROWS fused (the KV
// write): row i2 + i3*ne2 of the result, its heads side by side, goes to
// the destination row that index i2 + i3*ne2 names.

#define SRC2_ERROR_FLAG // a fused SET_ROWS reports out-of-range indices in s2[0]
#include "common.glsl"
layout(std430, binding = 4) readonly buffer Src3 { uint s3[]; }; // a fused SET_ROWS's indices (I32)

layout(local_size_x_id = 0) in;
// MODE selects the op and the dtypes; as a specialization constant it lets
// the driver drop every other path (CPU drivers run all paths otherwise).
layout(constant_id = 1) const uint MODE = 0u;

layout(push_constant) uniform PC {
	uint ne0, ne1, ne2, ne3;     // pairs along dim 0 (ne0/2), then the source dims
	uint nb00, nb01, nb02, nb03;
	uint nb0, nb1, nb2, nb3;     // destination strides; fused: nb2 the index stride, nb3 the destination's rows
	uint nb10;                   // position stride
	uint off0, off1, offd;
	uint mode_unused; // the mode is specialization constant 1: src dtype | dst dtype << 8 | rope mode << 16
	uint n_dims;
	float freq_base, freq_scale;
	uint mp0, mp1, mp2, shifts;
	uint n;
	uint off2;                   // frequency factors (F32, packed), when MODE has ROPE_FREQ_FACTORS
	float ext_factor, mscale;
	float corr_lo, corr_hi;      // YaRN correction dims
	uint rows_stride;            // fused SET_ROWS: the destination's row stride; 0 when not fused
	uint rows_off;               // fused SET_ROWS: the indices' offset at binding 4
} pc;

void main() {
	uint idx = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
	if (idx >= pc.n) return;
	uint t0 = MODE & 0xffu;
	uint td = (MODE >> 8) & 0xffu;
	bool neox = ((MODE >> 16) & 0xffu) == 2u;

	uint i3 = fastdiv(idx, pc.mp2, (pc.shifts >> 10) & 31u);
	uint r = idx - i3 * pc.ne2 * pc.ne1 * pc.ne0;
	uint i2 = fastdiv(r, pc.mp1, (pc.shifts >> 5) & 31u);
	r -= i2 * pc.ne1 * pc.ne0;
	uint i1 = fastdiv(r, pc.mp0, pc.shifts & 31u);
	uint i0 = 2u * (r - i1 * pc.ne0);

	uint src = pc.off0 + i1 * pc.nb01 + i2 * pc.nb02 + i3 * pc.nb03;
	uint dst;
	if (pc.rows_stride != 0u) {
		int row = int(s3[(pc.rows_off + (i2 + i3 * pc.ne2) * pc.nb2) >> 2]);
		if (row < 0 || uint(row) >= pc.nb3) {
			s2[0] = 1u + ROWS_SET;
			return;
		}
		dst = pc.offd + uint(row) * pc.rows_stride + i1 * pc.nb1;
	} else {
		dst = pc.offd + i1 * pc.nb1 + i2 * pc.nb2 + i3 * pc.nb3;
	}
	if (i0 >= pc.n_dims) {
		store_f(td, dst + i0 * pc.nb0, load_f_0(t0, src + i0 * pc.nb00));
		store_f(td, dst + (i0 + 1u) * pc.nb0, load_f_0(t0, src + (i0 + 1u) * pc.nb00));
		return;
	}
	float pos = float(int(s1[(pc.off1 + i2 * pc.nb10) >> 2]));
	float theta_extrap = pos * pow(pc.freq_base, -float(i0) / float(pc.n_dims));
	if ((MODE & ROPE_FREQ_FACTORS) != 0u) theta_extrap /= uintBitsToFloat(s2[(pc.off2 >> 2) + i0 / 2u]);
	float theta = pc.freq_scale * theta_extrap;
	if (pc.ext_factor != 0.0) {
		float y = (float(i0 / 2u) - pc.corr_lo) / max(0.001, pc.corr_hi - pc.corr_lo);
		float ramp_mix = (1.0 - min(1.0, max(0.0, y))) * pc.ext_factor;
		theta = theta * (1.0 - ramp_mix) + theta_extrap * ramp_mix;
	}
	float c = cos(theta) * pc.mscale, s = sin(theta) * pc.mscale;
	uint a = i0, b = i0 + 1u;
	if (neox) {
		a = i0 / 2u;
		b = a + pc.n_dims / 2u;
	}
	float x0 = load_f_0(t0, src + a * pc.nb00);
	float x1 = load_f_0(t0, src + b * pc.nb00);
	store_f(td, dst + a * pc.nb0, x0 * c - x1 * s);
	store_f(td, dst + b * pc.nb0, x0 * s + x1 * c);
}
