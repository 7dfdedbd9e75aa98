#version 450
// ADD, SUB, MUL, DIV with src1 broadcast over src0 (ggml's repeat rule),
// CONCAT of src0 and src1 along one dimension, and the gated units GLU
// SwiGLU (silu(src0)·src1) and GeGLU (gelu_tanh(src0)·src1) of one shape.
// One invocation per destination element.

#include "common.glsl"

layout(local_size_x_id = 0) in;
// MODE selects the op and the dtypes; as a specialization constant it lets
// the driver drop every other path (CPU drivers run all paths otherwise).
layout(constant_id = 1) const uint MODE = 0u;
layout(constant_id = 2) const uint FLAGS = 0u;

layout(push_constant) uniform PC {
	uint ne0, ne1, ne2, ne3;     // destination shape
	uint nb00, nb01, nb02, nb03; // src0 strides
	uint ne10, ne11, ne12, ne13;
	uint nb10, nb11, nb12, nb13;
	uint nb0, nb1, nb2, nb3;
	uint off0, off1, offd;
	uint mode_unused; // the mode is specialization constant 1: src0 dtype | src1 dtype << 8 | dst dtype << 16 | op << 24
	uint mp0, mp1, mp2, shifts;  // fastdiv: ne0, ne0*ne1, ne0*ne1*ne2
	uint n;
	uint cat;    // CONCAT: dim | src0's size along dim << 2
} pc;

layout(std430, binding = 0) readonly buffer Src0v { vec4 s0v[]; };
layout(std430, binding = 1) readonly buffer Src1v { vec4 s1v[]; };
layout(std430, binding = 3) buffer Dstv { vec4 dv[]; };

// tanh without the overflow of the exp-based formula for large |x|.
vec4 tanh_safe(vec4 x) {
	vec4 e = exp(-2.0 * abs(x));
	return sign(x) * (1.0 - e) / (1.0 + e);
}

vec4 silu4(vec4 x) { return x / (1.0 + exp(-x)); }

vec4 gelu4(vec4 x) {
	const float c = 0.79788456080286535587989211986876; // sqrt(2/pi)
	return 0.5 * x * (1.0 + tanh_safe(c * x * (1.0 + 0.044715 * x * x)));
}

vec4 binop4(vec4 a, vec4 b) {
	switch (MODE >> 24) {
	case BINARY_ADD: return a + b;
	case BINARY_SUB: return a - b;
	case BINARY_MUL: return a * b;
	case BINARY_SWIGLU: return silu4(a) * b;
	case BINARY_GEGLU: return gelu4(a) * b;
	}
	return a / b;
}

float binop(uint op, float a, float b) {
	switch (op) {
	case BINARY_ADD: return a + b;
	case BINARY_SUB: return a - b;
	case BINARY_MUL: return a * b;
	case BINARY_SWIGLU: return silu4(vec4(a)).x * b;
	case BINARY_GEGLU: return gelu4(vec4(a)).x * b;
	}
	return a / b;
}

uint bcast(uint i, uint ne_src, uint ne_dst) {
	return ne_src == ne_dst ? i : (ne_src == 1u ? 0u : i % ne_src);
}

void main() {
	uint idx = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
	if ((FLAGS & BINARY_FAST_VEC4) != 0u) {
		// Four elements per invocation.
		if (4u * idx >= pc.n) return;
		dv[(pc.offd >> 4) + idx] = binop4(s0v[(pc.off0 >> 4) + idx], s1v[(pc.off1 >> 4) + idx]);
		return;
	}
	if (idx >= pc.n) return;
	if ((FLAGS & BINARY_FAST) != 0u) {
		// Contiguous F32 operands; src1 has src0's shape or is one row
		// repeated: flat indices, no per-dimension arithmetic.
		uint j = idx;
		if ((FLAGS & BINARY_FAST_ROW) != 0u) j = idx - fastdiv(idx, pc.mp0, pc.shifts & 31u) * pc.ne0;
		float a = uintBitsToFloat(s0[(pc.off0 >> 2) + idx]);
		float b = uintBitsToFloat(s1[(pc.off1 >> 2) + j]);
		d[(pc.offd >> 2) + idx] = floatBitsToUint(binop(MODE >> 24, a, b));
		return;
	}
	uint t0 = MODE & 0xffu;
	uint t1 = (MODE >> 8) & 0xffu;
	uint td = (MODE >> 16) & 0xffu;
	uint op = MODE >> 24;

	uint i3 = fastdiv(idx, pc.mp2, (pc.shifts >> 10) & 31u);
	uint r = idx - i3 * pc.ne2 * pc.ne1 * pc.ne0;
	uint i2 = fastdiv(r, pc.mp1, (pc.shifts >> 5) & 31u);
	r -= i2 * pc.ne1 * pc.ne0;
	uint i1 = fastdiv(r, pc.mp0, pc.shifts & 31u);
	uint i0 = r - i1 * pc.ne0;
	uint dst = pc.offd + i0 * pc.nb0 + i1 * pc.nb1 + i2 * pc.nb2 + i3 * pc.nb3;

	if (op == BINARY_CONCAT) {
		uint dim = pc.cat & 3u;
		uint n0 = pc.cat >> 2;
		// Both sources have the destination's dtype: copy the bits.
		uint i[4] = uint[4](i0, i1, i2, i3);
		bool wide = td == DT_F32 || td == DT_I32;
		if (i[dim] < n0) {
			uint a = pc.off0 + i[0] * pc.nb00 + i[1] * pc.nb01 + i[2] * pc.nb02 + i[3] * pc.nb03;
			if (wide) d[dst >> 2] = rd32_0(a); else store16(dst, rd16_0(a));
		} else {
			i[dim] -= n0;
			uint a = pc.off1 + i[0] * pc.nb10 + i[1] * pc.nb11 + i[2] * pc.nb12 + i[3] * pc.nb13;
			if (wide) d[dst >> 2] = rd32_1(a); else store16(dst, rd16_1(a));
		}
		return;
	}

	float a = load_f_0(t0, pc.off0 + i0 * pc.nb00 + i1 * pc.nb01 + i2 * pc.nb02 + i3 * pc.nb03);
	uint j0 = bcast(i0, pc.ne10, pc.ne0);
	uint j1 = bcast(i1, pc.ne11, pc.ne1);
	uint j2 = bcast(i2, pc.ne12, pc.ne2);
	uint j3 = bcast(i3, pc.ne13, pc.ne3);
	float b = load_f_1(t1, pc.off1 + j0 * pc.nb10 + j1 * pc.nb11 + j2 * pc.nb12 + j3 * pc.nb13);
	store_f(td, dst, binop(op, a, b));
}
