#version 450
// Elementwise one-source ops and copies: DUP/CONT/CPY (dtype conversion and
// reshaping), SCALE, SQR, SQRT, CLAMP, the unary activations (GELU_ERF
// included) and
// DIAG_MASK_INF. One invocation per destination element.

#include "common.glsl"

layout(local_size_x_id = 0) in;
// MODE selects the op and the dtypes; as a specialization constant it lets
// the driver drop every other path (CPU drivers run all paths otherwise).
layout(constant_id = 1) const uint MODE = 0u;

layout(push_constant) uniform PC {
	uint ne00, ne01, ne02, ne03;
	uint nb00, nb01, nb02, nb03;
	uint ne0, ne1, ne2, ne3;
	uint nb0, nb1, nb2, nb3;
	uint off0, offd;
	uint mode_unused; // the mode is specialization constant 1: src dtype | dst dtype << 8 | op << 16 | same shape << 24 | UNARY_FAST
	uint mp0, mp1, mp2; // fastdiv: dst ne0, ne0*ne1, ne0*ne1*ne2
	uint smp0, smp1, smp2; // fastdiv: src ne00, ...
	uint shifts; // 5 bits per divisor: mp0..mp2, smp0..smp2
	float p0, p1;
	uint n;
} pc;

// tanh without the overflow of the exp-based formula for large |x|.
float tanh_safe(float x) {
	float e = exp(-2.0 * abs(x));
	return sign(x) * (1.0 - e) / (1.0 + e);
}

// erf_approx is Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7):
// GLSL has no erf.
float erf_approx(float x) {
	float t = 1.0 / (1.0 + 0.3275911 * abs(x));
	float y = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
	return sign(x) * (1.0 - y * exp(-x * x));
}

float apply(uint op, float x, uint i0, uint i1) {
	switch (op) {
	case UNARY_SCALE: return x * pc.p0 + pc.p1;
	case UNARY_SQR: return x * x;
	case UNARY_SQRT: return sqrt(x);
	case UNARY_CLAMP: return min(max(x, pc.p0), pc.p1);
	case UNARY_SILU: return x / (1.0 + exp(-x));
	case UNARY_GELU: {
		const float c = 0.79788456080286535587989211986876; // sqrt(2/pi)
		return 0.5 * x * (1.0 + tanh_safe(c * x * (1.0 + 0.044715 * x * x)));
	}
	case UNARY_GELU_ERF: return 0.5 * x * (1.0 + erf_approx(x * 0.70710678118654752440));
	case UNARY_RELU: return max(x, 0.0);
	case UNARY_TANH: return tanh_safe(x);
	case UNARY_SIGMOID: return 1.0 / (1.0 + exp(-x));
	case UNARY_EXP: return exp(x);
	case UNARY_NEG: return -x;
	case UNARY_DIAG_MASK_INF: return int(i0) > int(floatBitsToUint(pc.p0)) + int(i1) ? uintBitsToFloat(0xff800000u) : x;
	}
	return x;
}

void main() {
	uint idx = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
	if (idx >= pc.n) return;
	if ((MODE & UNARY_FAST) != 0u) {
		// Contiguous F32 source and destination of one shape.
		// (Not DIAG_MASK_INF, which needs the element's coordinates.)
		float x = uintBitsToFloat(s0[(pc.off0 >> 2) + idx]);
		d[(pc.offd >> 2) + idx] = floatBitsToUint(apply((MODE >> 16) & 0xffu, x, 0u, 0u));
		return;
	}
	uint sdt = MODE & 0xffu;
	uint ddt = (MODE >> 8) & 0xffu;
	uint op = (MODE >> 16) & 0xffu;

	uint i3 = fastdiv(idx, pc.mp2, (pc.shifts >> 10) & 31u);
	uint r = idx - i3 * pc.ne2 * pc.ne1 * pc.ne0;
	uint i2 = fastdiv(r, pc.mp1, (pc.shifts >> 5) & 31u);
	r -= i2 * pc.ne1 * pc.ne0;
	uint i1 = fastdiv(r, pc.mp0, pc.shifts & 31u);
	uint i0 = r - i1 * pc.ne0;
	uint dst = pc.offd + i0 * pc.nb0 + i1 * pc.nb1 + i2 * pc.nb2 + i3 * pc.nb3;

	uint j0 = i0, j1 = i1, j2 = i2, j3 = i3;
	if ((MODE & UNARY_SAME_SHAPE) == 0u) {
		j3 = fastdiv(idx, pc.smp2, (pc.shifts >> 25) & 31u);
		r = idx - j3 * pc.ne02 * pc.ne01 * pc.ne00;
		j2 = fastdiv(r, pc.smp1, (pc.shifts >> 20) & 31u);
		r -= j2 * pc.ne01 * pc.ne00;
		j1 = fastdiv(r, pc.smp0, (pc.shifts >> 15) & 31u);
		j0 = r - j1 * pc.ne00;
	}
	uint row = pc.off0 + j1 * pc.nb01 + j2 * pc.nb02 + j3 * pc.nb03;

	if (op == UNARY_COPY && sdt == ddt) {
		// Same dtype: copy the bits, so I32 values and NaN payloads survive.
		// For block types the host counts blocks, not elements, in ne0 and
		// ne00, and each invocation copies one block.
		uint a = row + j0 * pc.nb00;
		if (sdt == DT_F32 || sdt == DT_I32) {
			d[dst >> 2] = s0[a >> 2];
		} else if (sdt == DT_F16 || sdt == DT_BF16) {
			store16(dst, rd16_0(a));
		} else {
			uint nbytes = qblock_bytes(sdt);
			if ((nbytes & 1u) == 0u) {
				for (uint h = 0u; h < nbytes; h += 2u) store16(dst + h, rd16_0(a + h));
			} else { // MXFP4's 17-byte blocks
				for (uint h = 0u; h < nbytes; h++) store8(dst + h, rd8_0(a + h));
			}
		}
		return;
	}
	if (op == UNARY_COPY) {
		store_dst(ddt, dst, load_0(sdt, row, j0, pc.nb00));
		return;
	}
	// The other ops take and give F32 or F16 of one shape.
	store_f(ddt, dst, apply(op, load_f_0(sdt, row + j0 * pc.nb00), i0, i1));
}
