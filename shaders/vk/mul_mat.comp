#version 450
// MUL_MAT, shared-memory tiled: each workgroup computes a BM x BN tile of
// the result, staging BK-deep slices of the weights (dequantized) and of
// src1 in shared memory; each invocation accumulates TM x TN outputs.

#include "common.glsl"

#define BM 64
#define BN 64
#define BK 32
#define TM 4
#define TN 4
#define WG ((BM / TM) * (BN / TN))

layout(local_size_x = WG) in;

#include "matmul.glsl"

shared float As[BK * BM];
shared float Bs[BK * BN];

void main() {
	uint t = gl_LocalInvocationID.x;
	uint m0 = gl_WorkGroupID.x * BM;
	uint n0 = gl_WorkGroupID.y * BN;
	uint abase, bbase, cbase;
	batch(gl_WorkGroupID.z, abase, bbase, cbase);

	const uint TX = BN / TN; // invocations along n
	uint tn = t % TX;
	uint tm = t / TX;

	float acc[TM][TN];
	[[unroll]] for (uint i = 0u; i < TM; i++)
		[[unroll]] for (uint j = 0u; j < TN; j++) acc[i][j] = 0.0;

	for (uint k0 = 0u; k0 < pc.K; k0 += BK) {
		// Stage A: BM rows x BK values, stored k-major.
		for (uint e = t; e < BM * BK; e += WG) {
			uint mi = e / BK, ki = e % BK;
			uint m = m0 + mi, k = k0 + ki;
			As[ki * BM + mi] = (m < pc.M && k < pc.K) ? loadA(abase + m * pc.nb01, k) : 0.0;
		}
		// Stage B: BN columns x BK values, stored k-major.
		for (uint e = t; e < BN * BK; e += WG) {
			uint ni = e / BK, ki = e % BK;
			uint n = n0 + ni, k = k0 + ki;
			Bs[ki * BN + ni] = (n < pc.N && k < pc.K) ? uintBitsToFloat(s1[(bbase + n * pc.nb11 + k * pc.nb10) >> 2]) : 0.0;
		}
		barrier();
		for (uint ki = 0u; ki < BK; ki++) {
			float a[TM], b[TN];
			[[unroll]] for (uint i = 0u; i < TM; i++) a[i] = As[ki * BM + tm * TM + i];
			[[unroll]] for (uint j = 0u; j < TN; j++) b[j] = Bs[ki * BN + tn + j * TX];
			[[unroll]] for (uint i = 0u; i < TM; i++)
				[[unroll]] for (uint j = 0u; j < TN; j++) acc[i][j] += a[i] * b[j];
		}
		barrier();
	}

	[[unroll]] for (uint i = 0u; i < TM; i++) {
		uint m = m0 + tm * TM + i;
		if (m >= pc.M) continue;
		[[unroll]] for (uint j = 0u; j < TN; j++) {
			uint n = n0 + tn + j * TX;
			if (n < pc.N) d[(cbase + m * pc.nb0 + n * pc.nb1) >> 2] = floatBitsToUint(acc[i][j]);
		}
	}
}
