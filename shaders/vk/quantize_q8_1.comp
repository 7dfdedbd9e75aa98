#version 450
// Quantizes F32 src1 of MUL_MAT (binding 0, any strides and batches) into
// the integer-dot kernels' scratch (binding 3; layout in mmq.glsl): one
// invocation per block of 32 values, as ggml's quantize_row_q8_1.

#include "common.glsl"

layout(local_size_x_id = 0) in;

layout(push_constant) uniform PC {
	uint K, N, ne12, ne13;
	uint nb10, nb11, nb12, nb13;
	uint off1;
	uint ds;      // word index of the scratch's scales
	uint nblocks; // K/32 * N * ne12 * ne13
} pc;

void main() {
	uint b = gl_GlobalInvocationID.y * (gl_NumWorkGroups.x * gl_WorkGroupSize.x) + gl_GlobalInvocationID.x;
	if (b >= pc.nblocks) return;
	uint kb = pc.K >> 5;
	uint col = b / kb;
	uint blk = b - col * kb;
	uint z = col / pc.N;
	uint n = col - z * pc.N;
	uint i13 = z / pc.ne12;
	uint i12 = z - i13 * pc.ne12;
	uint base = pc.off1 + i12 * pc.nb12 + i13 * pc.nb13 + n * pc.nb11 + blk * 32u * pc.nb10;

	float v[32];
	float amax = 0.0;
	[[unroll]] for (uint j = 0u; j < 32u; j++) {
		v[j] = uintBitsToFloat(s0[(base + j * pc.nb10) >> 2]);
		amax = max(amax, abs(v[j]));
	}
	float dq = amax / 127.0;
	float id = dq != 0.0 ? 1.0 / dq : 0.0;
	int sum = 0;
	[[unroll]] for (uint w = 0u; w < 8u; w++) {
		uint packed = 0u;
		[[unroll]] for (uint i = 0u; i < 4u; i++) {
			int q = int(round(v[4u * w + i] * id));
			sum += q;
			packed |= uint(q & 0xff) << (8u * i);
		}
		d[8u * b + w] = packed;
	}
	d[pc.ds + 2u * b] = floatBitsToUint(dq);
	d[pc.ds + 2u * b + 1u] = floatBitsToUint(dq * float(sum));
}
