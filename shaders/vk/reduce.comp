#version 450
// Row reductions, one workgroup per row: SUM_ROWS, MEAN, NORM, RMS_NORM,
// SOFT_MAX (scale and optional broadcast mask), ARGMAX; and SUM, where a
// single workgroup walks every row. The workgroup size must be a power of
// two.

#include "common.glsl"

layout(local_size_x_id = 0) in;

#include "reduce.glsl"

layout(push_constant) uniform PC {
	uint ne00, ne01, ne02, ne03;
	uint nb00, nb01, nb02, nb03;
	uint nb1, nb2, nb3;          // destination row strides (dst dim 0 is 1 or ne00)
	uint nb0;
	uint ne11, ne12, ne13;       // mask dims (SOFT_MAX)
	uint nb10, nb11, nb12, nb13; // mask strides
	uint off0, off1, offd;
	uint mode;   // src dtype | dst dtype << 8 | mask dtype << 16 | op << 24 (mask dtype 255: none)
	float p;     // eps or scale
	uint mp1, mp12, shifts;      // fastdiv: ne01, ne01*ne02
	uint nrows;
} pc;

#define OP_SUM_ROWS 0u
#define OP_MEAN 1u
#define OP_NORM 2u
#define OP_RMS_NORM 3u
#define OP_SOFT_MAX 4u
#define OP_ARGMAX 5u
#define OP_SUM 6u

void row_index(uint row, out uint i1, out uint i2, out uint i3) {
	i3 = fastdiv(row, pc.mp12, (pc.shifts >> 5) & 31u);
	uint r = row - i3 * pc.ne02 * pc.ne01;
	i2 = fastdiv(r, pc.mp1, pc.shifts & 31u);
	i1 = r - i2 * pc.ne01;
}

void main() {
	uint row = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
	uint l = gl_LocalInvocationID.x;
	uint wg = gl_WorkGroupSize.x;
	uint t0 = pc.mode & 0xffu;
	uint td = (pc.mode >> 8) & 0xffu;
	uint tm = (pc.mode >> 16) & 0xffu;
	uint op = pc.mode >> 24;

	if (op == OP_SUM) {
		float s = 0.0;
		for (uint r = 0u; r < pc.nrows; r++) {
			uint i1, i2, i3;
			row_index(r, i1, i2, i3);
			uint base = pc.off0 + i1 * pc.nb01 + i2 * pc.nb02 + i3 * pc.nb03;
			for (uint i0 = l; i0 < pc.ne00; i0 += wg) s += load_0(t0, base, i0, pc.nb00);
		}
		s = wg_sum(s);
		if (l == 0u) store_dst(td, pc.offd, s);
		return;
	}
	if (row >= pc.nrows) return;

	uint i1, i2, i3;
	row_index(row, i1, i2, i3);
	uint src = pc.off0 + i1 * pc.nb01 + i2 * pc.nb02 + i3 * pc.nb03;
	uint dst = pc.offd + i1 * pc.nb1 + i2 * pc.nb2 + i3 * pc.nb3;
	float n = float(pc.ne00);

	switch (op) {
	case OP_SUM_ROWS:
	case OP_MEAN: {
		float s = 0.0;
		for (uint i0 = l; i0 < pc.ne00; i0 += wg) s += load_0(t0, src, i0, pc.nb00);
		s = wg_sum(s);
		if (l == 0u) store_dst(td, dst, op == OP_MEAN ? s / n : s);
		break;
	}
	case OP_NORM: {
		float s = 0.0;
		for (uint i0 = l; i0 < pc.ne00; i0 += wg) s += load_0(t0, src, i0, pc.nb00);
		float mean = wg_sum(s) / n;
		float v = 0.0;
		for (uint i0 = l; i0 < pc.ne00; i0 += wg) {
			float x = load_0(t0, src, i0, pc.nb00) - mean;
			v += x * x;
		}
		float scale = 1.0 / sqrt(wg_sum(v) / n + pc.p);
		for (uint i0 = l; i0 < pc.ne00; i0 += wg) {
			store_dst(td, dst + i0 * pc.nb0, (load_0(t0, src, i0, pc.nb00) - mean) * scale);
		}
		break;
	}
	case OP_RMS_NORM: {
		float s = 0.0;
		for (uint i0 = l; i0 < pc.ne00; i0 += wg) {
			float x = load_0(t0, src, i0, pc.nb00);
			s += x * x;
		}
		float scale = 1.0 / sqrt(wg_sum(s) / n + pc.p);
		for (uint i0 = l; i0 < pc.ne00; i0 += wg) {
			store_dst(td, dst + i0 * pc.nb0, load_0(t0, src, i0, pc.nb00) * scale);
		}
		break;
	}
	case OP_SOFT_MAX: {
		uint mrow = 0u;
		if (tm != 255u) mrow = pc.off1 + i1 * pc.nb11 + (i2 % pc.ne12) * pc.nb12 + (i3 % pc.ne13) * pc.nb13;
		float m = uintBitsToFloat(0xff800000u);
		for (uint i0 = l; i0 < pc.ne00; i0 += wg) {
			float x = load_0(t0, src, i0, pc.nb00) * pc.p;
			if (tm != 255u) x += load_1(tm, mrow, i0, pc.nb10);
			m = max(m, x);
		}
		m = wg_max(m);
		float s = 0.0;
		for (uint i0 = l; i0 < pc.ne00; i0 += wg) {
			float x = load_0(t0, src, i0, pc.nb00) * pc.p;
			if (tm != 255u) x += load_1(tm, mrow, i0, pc.nb10);
			float e = exp(x - m);
			s += e;
			store_dst(td, dst + i0 * pc.nb0, e);
		}
		float inv = 1.0 / wg_sum(s);
		for (uint i0 = l; i0 < pc.ne00; i0 += wg) {
			uint a = dst + i0 * pc.nb0;
			store_dst(td, a, load_3(td, a, 0u, 0u) * inv);
		}
		break;
	}
	case OP_ARGMAX: {
		float m = uintBitsToFloat(0xff800000u);
		uint mi = 0xffffffffu;
		for (uint i0 = l; i0 < pc.ne00; i0 += wg) {
			float x = load_0(t0, src, i0, pc.nb00);
			if (x > m || mi == 0xffffffffu) {
				m = x;
				mi = i0;
			}
		}
		float gm = wg_max(m);
		uint gi = wg_min_u(m == gm ? mi : 0xffffffffu);
		if (l == 0u) d[(pc.offd + row * pc.nb1) >> 2] = gi;
		break;
	}
	}
}
