#version 450
// Row gathers and scatters: GET_ROWS (any source dtype, F32 result),
// SET_ROWS (F32 rows into a plain or block-quantized destination) and
// QUANTIZE (CPY/CONT/DUP into Q8_0, Q4_0, Q4_1, Q5_0, Q5_1 or a type of
// quant_k.glsl, one invocation per block).

#define SRC2_ERROR_FLAG // GET_ROWS and SET_ROWS report out-of-range indices in s2[0]
#include "common.glsl"
#ifdef QUANT_K
// The rows_k variant: SET_ROWS and QUANTIZE into the types of quant_k.glsl,
// kept apart so that the other variant's pipelines (GET_ROWS above all)
// compile without it.
#include "quant_k.glsl"
#endif

layout(local_size_x_id = 0) in;
// MODE selects the op and the dtypes; as a specialization constant it lets
// the driver drop every other path (CPU drivers run all paths otherwise).
layout(constant_id = 1) const uint MODE = 0u;

layout(push_constant) uniform PC {
	uint ne0, ne1, ne2, ne3;     // iteration space (blocks along dim 0 for quantized writes)
	uint nb00, nb01, nb02, nb03; // src0 strides
	uint nb10, nb11, nb12;       // index strides
	uint ne11, ne12;             // index dims 1 and 2 (SET_ROWS broadcast)
	uint nb0, nb1, nb2, nb3;     // destination strides
	uint off0, off1, offd;
	uint mode_unused; // the mode is specialization constant 1: src0 dtype | dst dtype << 8 | op << 16
	uint mp0, mp1, mp2, shifts;  // fastdiv: ne0, ne0*ne1, ne0*ne1*ne2
	uint n;
	uint nrows;  // rows of the tensor the indices address
} pc;

void main() {
	uint idx = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
	if (idx >= pc.n) return;
	uint t0 = MODE & 0xffu;
	uint td = (MODE >> 8) & 0xffu;
	uint op = MODE >> 16;

	uint i3 = fastdiv(idx, pc.mp2, (pc.shifts >> 10) & 31u);
	uint r = idx - i3 * pc.ne2 * pc.ne1 * pc.ne0;
	uint i2 = fastdiv(r, pc.mp1, (pc.shifts >> 5) & 31u);
	r -= i2 * pc.ne1 * pc.ne0;
	uint i1 = fastdiv(r, pc.mp0, pc.shifts & 31u);
	uint i0 = r - i1 * pc.ne0;

	if (op == ROWS_GET) {
		int row = int(s1[(pc.off1 + i1 * pc.nb10 + i2 * pc.nb11 + i3 * pc.nb12) >> 2]);
		uint dst = pc.offd + i0 * pc.nb0 + i1 * pc.nb1 + i2 * pc.nb2 + i3 * pc.nb3;
		if (row < 0 || uint(row) >= pc.nrows) {
			store_dst(td, dst, 0.0);
			s2[0] = 1u + ROWS_GET;
			return;
		}
		uint src = pc.off0 + uint(row) * pc.nb01 + i2 * pc.nb02 + i3 * pc.nb03;
		if (t0 == DT_I32 && td == DT_I32) {
			d[dst >> 2] = s0[(src + i0 * pc.nb00) >> 2]; // exact for every int
		} else {
			store_dst(td, dst, load_0(t0, src, i0, pc.nb00));
		}
		return;
	}

	uint drow = i1;
	if (op == ROWS_SET) {
		int row = int(s1[(pc.off1 + i1 * pc.nb10 + (i2 % pc.ne11) * pc.nb11 + (i3 % pc.ne12) * pc.nb12) >> 2]);
		if (row < 0 || uint(row) >= pc.nrows) {
			s2[0] = 1u + ROWS_SET;
			return;
		}
		drow = uint(row);
	}
	uint src = pc.off0 + i1 * pc.nb01 + i2 * pc.nb02 + i3 * pc.nb03;
	uint dst = pc.offd + drow * pc.nb1 + i2 * pc.nb2 + i3 * pc.nb3;
#ifdef QUANT_K
	if (quant_k_supported(td)) {
		uint qk = qblock_elems(td);
		for (uint j = 0u; j < qk; j++) qx[j] = load_0(t0, src, i0 * qk + j, pc.nb00);
		quant_k_store(td, dst + i0 * pc.nb0);
		return;
	}
#endif
	if (quantizable(td)) {
		float v[32];
		for (uint j = 0u; j < 32u; j++) v[j] = load_0(t0, src, i0 * 32u + j, pc.nb00);
		quant_store(td, dst + i0 * pc.nb0, v);
		return;
	}
	// SET_ROWS rows are F32.
	store_dst(td, dst + i0 * pc.nb0, uintBitsToFloat(s0[(src + i0 * pc.nb00) >> 2]));
}
