#version 450
// Row reductions: SUM_ROWS, MEAN, NORM, RMS_NORM, SOFT_MAX (scale, softcap
// and an optional broadcast mask), ARGMAX, and SUM of every element.
//
// Long rows take one workgroup each and reduce across it. Short rows (the
// host sets the REDUCE_THREAD_ROWS flag) take one invocation each, with no
// cross-invocation reduction at all: many tiny workgroups cost far more than
// the arithmetic. SUM runs as one workgroup over the flattened tensor. Loops
// stay short per invocation (lavapipe caps a shader's loop iterations at
// 65535). The workgroup size must be a power of two.

#include "common.glsl"

layout(local_size_x_id = 0) in;
// MODE selects the op and the dtypes; as a specialization constant it lets
// the driver drop every other path (CPU drivers run all paths otherwise).
layout(constant_id = 1) const uint MODE = 0u;

#include "reduce.glsl"

layout(push_constant) uniform PC {
	uint ne00, ne01, ne02, ne03;
	uint nb00, nb01, nb02, nb03;
	uint nb1, nb2, nb3;          // destination row strides (dst dim 0 is 1 or ne00)
	uint nb0;
	uint ne11, ne12, ne13;       // mask dims (SOFT_MAX)
	uint nb10, nb11, nb12, nb13; // mask strides
	uint off0, off1, offd;
	uint mode_unused; // the mode is specialization constant 1: mask dtype << 16 | op << 24 | REDUCE_THREAD_ROWS (mask dtype MASK_NONE: none)
	float p;     // eps or scale
	uint mp1, mp12, shifts;      // fastdiv: ne01, ne01*ne02, and ne00 (SUM)
	uint nrows;
	uint mp0;
	float softcap;               // SOFT_MAX: softcap·tanh(x/softcap) when > 0
	uint fuse;                   // FUSE_MUL (RMS_NORM): times the weight row at off1
} pc;

layout(std430, binding = 0) readonly buffer Src0v { vec4 s0v[]; };
layout(std430, binding = 1) readonly buffer Src1v { vec4 s1v[]; };
layout(std430, binding = 3) buffer Dstv { vec4 dv[]; };

// Sources and results are F32 (the mask F32 or F16).
float ld(uint a) { return uintBitsToFloat(s0[a >> 2]); }
void st(uint a, float v) { d[a >> 2] = floatBitsToUint(v); }

const bool thread_rows = (MODE & REDUCE_THREAD_ROWS) != 0u;

// tanh without the overflow of the exp-based formula for large |x|.
float tanh_safe(float x) {
	float e = exp(-2.0 * abs(x));
	return sign(x) * (1.0 - e) / (1.0 + e);
}

// softmax_in is SOFT_MAX's scaled (and capped) logit before the mask.
float softmax_in(float x) {
	x *= pc.p;
	if (pc.softcap > 0.0) x = pc.softcap * tanh_safe(x / pc.softcap);
	return x;
}

float row_sum(float v) {
	if (thread_rows) return v;
	return wg_sum(v);
}
float row_max(float v) {
	if (thread_rows) return v;
	return wg_max(v);
}
uint row_min_u(uint v) {
	if (thread_rows) return v;
	return wg_min_u(v);
}

void row_index(uint row, out uint i1, out uint i2, out uint i3) {
	i3 = fastdiv(row, pc.mp12, (pc.shifts >> 5) & 31u);
	uint r = row - i3 * pc.ne02 * pc.ne01;
	i2 = fastdiv(r, pc.mp1, pc.shifts & 31u);
	i1 = r - i2 * pc.ne01;
}

void main() {
	uint wgid = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
	uint l = gl_LocalInvocationID.x;
	uint wg = gl_WorkGroupSize.x;
	uint tm = (MODE >> 16) & 0xffu;
	uint op = MODE >> 24;

	if (op == REDUCE_SUM) {
		uint total = pc.ne00 * pc.nrows;
		float s = 0.0;
		for (uint idx = l; idx < total; idx += wg) {
			uint row = fastdiv(idx, pc.mp0, (pc.shifts >> 10) & 31u);
			uint i1, i2, i3;
			row_index(row, i1, i2, i3);
			s += ld(pc.off0 + (idx - row * pc.ne00) * pc.nb00 + i1 * pc.nb01 + i2 * pc.nb02 + i3 * pc.nb03);
		}
		s = wg_sum(s);
		if (l == 0u) st(pc.offd, s);
		return;
	}

	uint row = thread_rows ? wgid * wg + l : wgid;
	if (row >= pc.nrows) return;
	uint first = thread_rows ? 0u : l;
	uint step = thread_rows ? 1u : wg;

	uint i1, i2, i3;
	row_index(row, i1, i2, i3);
	uint src = pc.off0 + i1 * pc.nb01 + i2 * pc.nb02 + i3 * pc.nb03;
	uint dst = pc.offd + i1 * pc.nb1 + i2 * pc.nb2 + i3 * pc.nb3;
	float n = float(pc.ne00);

	switch (op) {
	case REDUCE_SUM_ROWS:
	case REDUCE_MEAN: {
		float s = 0.0;
		for (uint i0 = first; i0 < pc.ne00; i0 += step) s += ld(src + i0 * pc.nb00);
		s = row_sum(s);
		if (l == 0u || thread_rows) st(dst, op == REDUCE_MEAN ? s / n : s);
		break;
	}
	case REDUCE_NORM: {
		float s = 0.0;
		for (uint i0 = first; i0 < pc.ne00; i0 += step) s += ld(src + i0 * pc.nb00);
		float mean = row_sum(s) / n;
		float v = 0.0;
		for (uint i0 = first; i0 < pc.ne00; i0 += step) {
			float x = ld(src + i0 * pc.nb00) - mean;
			v += x * x;
		}
		float scale = 1.0 / sqrt(row_sum(v) / n + pc.p);
		for (uint i0 = first; i0 < pc.ne00; i0 += step) {
			st(dst + i0 * pc.nb0, (ld(src + i0 * pc.nb00) - mean) * scale);
		}
		break;
	}
	case REDUCE_RMS_NORM: {
		float s = 0.0;
		if ((MODE & REDUCE_ROW_VEC4) != 0u) {
			// Contiguous rows of whole vec4s, 16-byte aligned: a quarter of
			// the accesses (which cost most on CPU drivers).
			for (uint q = first; q < pc.ne00 / 4u; q += step) {
				vec4 x = s0v[(src >> 4) + q];
				s += dot(x, x);
			}
			float scale = 1.0 / sqrt(row_sum(s) / n + pc.p);
			if ((pc.fuse & FUSE_MUL) != 0u) {
				// off1 is 16-byte aligned too (the host checks).
				for (uint q = first; q < pc.ne00 / 4u; q += step) dv[(dst >> 4) + q] = s0v[(src >> 4) + q] * scale * s1v[(pc.off1 >> 4) + q];
			} else {
				for (uint q = first; q < pc.ne00 / 4u; q += step) dv[(dst >> 4) + q] = s0v[(src >> 4) + q] * scale;
			}
			break;
		}
		for (uint i0 = first; i0 < pc.ne00; i0 += step) {
			float x = ld(src + i0 * pc.nb00);
			s += x * x;
		}
		float scale = 1.0 / sqrt(row_sum(s) / n + pc.p);
		if ((pc.fuse & FUSE_MUL) != 0u) {
			for (uint i0 = first; i0 < pc.ne00; i0 += step) {
				st(dst + i0 * pc.nb0, ld(src + i0 * pc.nb00) * scale * uintBitsToFloat(s1[(pc.off1 >> 2) + i0]));
			}
		} else {
			for (uint i0 = first; i0 < pc.ne00; i0 += step) {
				st(dst + i0 * pc.nb0, ld(src + i0 * pc.nb00) * scale);
			}
		}
		break;
	}
	case REDUCE_SOFT_MAX: {
		uint mrow = 0u;
		if (tm != MASK_NONE) mrow = pc.off1 + i1 * pc.nb11 + (i2 % pc.ne12) * pc.nb12 + (i3 % pc.ne13) * pc.nb13;
		float m = uintBitsToFloat(0xff800000u);
		for (uint i0 = first; i0 < pc.ne00; i0 += step) {
			float x = softmax_in(ld(src + i0 * pc.nb00));
			if (tm != MASK_NONE) x += load_f_1(tm, mrow + i0 * pc.nb10);
			m = max(m, x);
		}
		m = row_max(m);
		float s = 0.0;
		for (uint i0 = first; i0 < pc.ne00; i0 += step) {
			float x = softmax_in(ld(src + i0 * pc.nb00));
			if (tm != MASK_NONE) x += load_f_1(tm, mrow + i0 * pc.nb10);
			float e = exp(x - m);
			s += e;
			st(dst + i0 * pc.nb0, e);
		}
		float inv = 1.0 / row_sum(s);
		for (uint i0 = first; i0 < pc.ne00; i0 += step) {
			uint a = dst + i0 * pc.nb0;
			st(a, uintBitsToFloat(d[a >> 2]) * inv);
		}
		break;
	}
	case REDUCE_ARGMAX: {
		float m = uintBitsToFloat(0xff800000u);
		uint mi = 0xffffffffu;
		for (uint i0 = first; i0 < pc.ne00; i0 += step) {
			float x = ld(src + i0 * pc.nb00);
			if (x > m || mi == 0xffffffffu) {
				m = x;
				mi = i0;
			}
		}
		float gm = row_max(m);
		uint gi = row_min_u(m == gm ? mi : 0xffffffffu);
		if (l == 0u || thread_rows) d[(pc.offd + row * pc.nb1) >> 2] = gi;
		break;
	}
	}
}
