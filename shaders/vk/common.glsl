// Shared declarations for gpurt's Vulkan compute shaders.
//
// Every pipeline uses one descriptor set layout: four storage buffers bound
// whole (0..2 sources, 3 destination), read and written as 32-bit words, so
// no 8- or 16-bit storage feature is needed. Tensors are addressed in bytes:
// push constants carry each tensor's byte offset in its buffer and its byte
// strides (ggml's nb), which handles views, permutations and odd offsets.
// Element types are runtime dtype ids, also in push constants, so one
// pipeline serves every dtype combination of an op.

#extension GL_EXT_control_flow_attributes : enable

// The dtype ids (DT_*), op codes and mode bits shared with Go.
#include "opcodes.glsl"

layout(std430, binding = 0) readonly buffer Src0 { uint s0[]; };
layout(std430, binding = 1) readonly buffer Src1 { uint s1[]; };
#ifdef SRC2_ERROR_FLAG
// Binding 2 is the backend's error flag: a shader that meets an invalid
// input (an index out of range) writes a nonzero code to s2[0], which the
// host checks at Synchronize.
layout(std430, binding = 2) buffer Src2 { uint s2[]; };
#else
layout(std430, binding = 2) readonly buffer Src2 { uint s2[]; };
#endif
layout(std430, binding = 3) buffer Dst { uint d[]; };

// fastdiv divides by a runtime constant d with a multiply and a shift
// (Granlund-Montgomery); mp and l come from the host. Valid for n < 2^31.
uint fastdiv(uint n, uint mp, uint l) {
	uint hi, lo;
	umulExtended(n, mp, hi, lo);
	return (hi + n) >> l;
}

float f16_to_f32(uint h) { return unpackHalf2x16(h).x; }

float bf16_to_f32(uint h) { return uintBitsToFloat(h << 16); }

// f32_to_f16 rounds to nearest even, exactly as runtime.F32ToF16 (the CPU
// backend's conversion), instead of packHalf2x16's unspecified rounding.
uint f32_to_f16(float f) {
	uint b = floatBitsToUint(f);
	uint sign = (b >> 16) & 0x8000u;
	uint a = b & 0x7fffffffu;
	if (a > 0x7f800000u) return sign | 0x7e00u;
	if (a == 0x7f800000u) return sign | 0x7c00u;
	int e = int((b >> 23) & 0xffu) - 127 + 15;
	uint mant = b & 0x7fffffu;
	if (e >= 0x1f) return sign | 0x7c00u;
	if (e <= 0) {
		if (e < -10) return sign;
		mant |= 0x800000u;
		uint shift = uint(14 - e);
		uint h = mant >> shift;
		uint rem = mant & ((1u << shift) - 1u);
		uint half_ = 1u << (shift - 1u);
		if (rem > half_ || (rem == half_ && (h & 1u) == 1u)) h++;
		return sign | h;
	}
	uint h = (uint(e) << 10) | (mant >> 13);
	uint rem = mant & 0x1fffu;
	if (rem > 0x1000u || (rem == 0x1000u && (h & 1u) == 1u)) h++;
	return sign | h;
}

// f32_to_bf16 rounds to nearest even, as runtime.F32ToBF16.
uint f32_to_bf16(float f) {
	uint b = floatBitsToUint(f);
	if ((b & 0x7fffffffu) > 0x7f800000u) return ((b >> 16) | 64u) & 0xffffu;
	return ((b + (0x7fffu + ((b >> 16) & 1u))) >> 16) & 0xffffu;
}

// Loaders: rdN_N read N bits at a byte address, load_f_N an F32 or F16
// element (which keeps the shaders that need no more small: Mesa compiles
// them on first use).
#define DEFINE_LOADERS(N, BUF) \
uint rd32_##N(uint a) { return BUF[a >> 2]; } \
uint rd16_##N(uint a) { uint w = BUF[a >> 2]; return (a & 2u) != 0u ? (w >> 16) : (w & 0xffffu); } \
uint rd8_##N(uint a) { return (BUF[a >> 2] >> ((a & 3u) * 8u)) & 0xffu; } \
float load_f_##N(uint dt, uint a) { \
	if (dt == DT_F16) return f16_to_f32(rd16_##N(a)); \
	return uintBitsToFloat(BUF[a >> 2]); \
}

DEFINE_LOADERS(0, s0)
DEFINE_LOADERS(1, s1)
DEFINE_LOADERS(2, s2)
DEFINE_LOADERS(3, d)

// load_1 and load_2 read element i0 of an F32, F16, BF16, I32, Q8_0 or Q4_0
// row of source 1 or 2 (FLASH_ATTN_EXT's K and V), as load_0 does.
#define DEFINE_SMALL_LOAD(N, BUF) \
float load_##N(uint dt, uint row, uint i0, uint nb0) { \
	if (dt == DT_F32) return uintBitsToFloat(BUF[(row + i0 * nb0) >> 2]); \
	if (dt == DT_F16) return f16_to_f32(rd16_##N(row + i0 * nb0)); \
	if (dt == DT_BF16) return bf16_to_f32(rd16_##N(row + i0 * nb0)); \
	if (dt == DT_I32) return float(int(BUF[(row + i0 * nb0) >> 2])); \
	uint blk = row + (i0 >> 5) * nb0; \
	uint j = i0 & 31u; \
	float sc = f16_to_f32(rd16_##N(blk)); \
	if (dt == DT_Q8_0) return sc * float(int(rd8_##N(blk + 2u + j) << 24) >> 24); \
	uint q = rd8_##N(blk + 2u + (j & 15u)); \
	return sc * (float(j < 16u ? (q & 15u) : (q >> 4)) - 8.0); \
}

DEFINE_SMALL_LOAD(1, s1)
DEFINE_SMALL_LOAD(2, s2)

#include "dequant.glsl"

// load_0 reads element i0 of any dtype from the source-0 row starting at
// byte row: for a plain dtype it is at row + i0*nb0; for a block type, nb0
// is the block's size in bytes and i0 selects block i0/elems and the
// element i0%elems inside it (GGUF layout).
float load_0(uint dt, uint row, uint i0, uint nb0) {
	if (dt == DT_F32) return uintBitsToFloat(s0[(row + i0 * nb0) >> 2]);
	if (dt == DT_F16) return f16_to_f32(rd16_0(row + i0 * nb0));
	if (dt == DT_BF16) return bf16_to_f32(rd16_0(row + i0 * nb0));
	if (dt == DT_I32) return float(int(s0[(row + i0 * nb0) >> 2]));
	uint qk = qblock_elems(dt);
	return dequant1(dt, row + (i0 / qk) * nb0, i0 % qk);
}

// store16 writes the 16-bit half of a word at byte address a. Two halves
// of one word may belong to different invocations (or tensors), so the
// update is atomic on the other half.
void store16(uint a, uint h) {
	uint sh = (a & 2u) * 8u;
	atomicAnd(d[a >> 2], ~(0xffffu << sh));
	atomicOr(d[a >> 2], (h & 0xffffu) << sh);
}

// store8 writes the byte at address a (atomically on the rest of its word).
void store8(uint a, uint b) {
	uint sh = (a & 3u) * 8u;
	atomicAnd(d[a >> 2], ~(0xffu << sh));
	atomicOr(d[a >> 2], (b & 0xffu) << sh);
}

// store_f writes an F32 or F16 element at byte address a.
void store_f(uint dt, uint a, float v) {
	if (dt == DT_F16) {
		store16(a, f32_to_f16(v));
	} else {
		d[a >> 2] = floatBitsToUint(v);
	}
}

// store_dst writes one element of a plain dtype at byte address a.
void store_dst(uint dt, uint a, float v) {
	if (dt == DT_F32) {
		d[a >> 2] = floatBitsToUint(v);
	} else if (dt == DT_F16) {
		store16(a, f32_to_f16(v));
	} else if (dt == DT_BF16) {
		store16(a, f32_to_bf16(v));
	} else if (dt == DT_I32) {
		d[a >> 2] = uint(int(v));
	}
}

// round_away rounds half away from zero, exactly (C's roundf).
float round_away(float v) {
	precise float t = trunc(v);
	return abs(v - t) >= 0.5 ? t + sign(v) : t;
}

// quantizable reports whether quant_store writes dtype dt.
bool quantizable(uint dt) {
	return dt == DT_Q8_0 || dt == DT_Q4_0 || dt == DT_Q4_1 || dt == DT_Q5_0 || dt == DT_Q5_1;
}

// quant_store_q5 writes the 16 quant bytes and the fifth bits (at qh) of a
// Q5_0 or Q5_1 block from its 32 codes.
void quant_store_q5(uint qh, uint qs, uint q[32]) {
	uint h = 0u;
	for (uint j = 0u; j < 16u; j++) h |= ((q[j] >> 4) << j) | ((q[j + 16u] >> 4) << (j + 16u));
	store16(qh, h & 0xffffu);
	store16(qh + 2u, h >> 16);
	for (uint j = 0u; j < 16u; j += 2u) {
		uint b0 = (q[j] & 15u) | ((q[j + 16u] & 15u) << 4);
		uint b1 = (q[j + 1u] & 15u) | ((q[j + 17u] & 15u) << 4);
		store16(qs + j, b0 | (b1 << 8));
	}
}

// quant_store encodes 32 values as one Q8_0, Q4_0, Q4_1, Q5_0 or Q5_1
// block at byte address a, with the arithmetic of runtime.QuantizeRow
// (ggml's reference quantizers).
void quant_store(uint dt, uint a, float v[32]) {
	if (dt == DT_Q4_1 || dt == DT_Q5_1) {
		// d = (max - min) / levels; codes round (x - min) / d.
		float lo = v[0], hi = v[0];
		for (uint j = 1u; j < 32u; j++) {
			lo = min(lo, v[j]);
			hi = max(hi, v[j]);
		}
		precise float sc = (hi - lo) / (dt == DT_Q4_1 ? 15.0 : 31.0);
		precise float id = sc != 0.0 ? 1.0 / sc : 0.0;
		store16(a, f32_to_f16(sc));
		store16(a + 2u, f32_to_f16(lo));
		uint q[32];
		for (uint j = 0u; j < 32u; j++) {
			precise float x = (v[j] - lo) * id + 0.5;
			q[j] = dt == DT_Q4_1 ? uint(min(15, int(x))) : uint(int(x));
		}
		if (dt == DT_Q5_1) {
			quant_store_q5(a + 4u, a + 8u, q);
			return;
		}
		for (uint j = 0u; j < 16u; j += 2u) store16(a + 4u + j, (q[j] | (q[j + 16u] << 4)) | ((q[j + 1u] | (q[j + 17u] << 4)) << 8));
		return;
	}
	if (dt == DT_Q5_0) {
		float amax = 0.0, vmax = 0.0;
		for (uint j = 0u; j < 32u; j++) {
			if (abs(v[j]) > amax) {
				amax = abs(v[j]);
				vmax = v[j];
			}
		}
		precise float sc = vmax / -16.0;
		precise float id = sc != 0.0 ? 1.0 / sc : 0.0;
		store16(a, f32_to_f16(sc));
		uint q[32];
		for (uint j = 0u; j < 32u; j++) {
			precise float x = v[j] * id + 16.5;
			q[j] = uint(min(31, int(x)));
		}
		quant_store_q5(a + 2u, a + 6u, q);
		return;
	}
	if (dt == DT_Q8_0) {
		float amax = 0.0;
		for (uint j = 0u; j < 32u; j++) amax = max(amax, abs(v[j]));
		precise float sc = amax / 127.0;
		precise float id = sc != 0.0 ? 1.0 / sc : 0.0;
		store16(a, f32_to_f16(sc));
		for (uint j = 0u; j < 32u; j += 2u) {
			precise float x0 = v[j] * id;
			precise float x1 = v[j + 1u] * id;
			uint q0 = uint(int(round_away(x0))) & 0xffu;
			uint q1 = uint(int(round_away(x1))) & 0xffu;
			store16(a + 2u + j, q0 | (q1 << 8));
		}
	} else {
		float amax = 0.0, vmax = 0.0;
		for (uint j = 0u; j < 32u; j++) {
			if (abs(v[j]) > amax) {
				amax = abs(v[j]);
				vmax = v[j];
			}
		}
		precise float sc = vmax / -8.0;
		precise float id = sc != 0.0 ? 1.0 / sc : 0.0;
		store16(a, f32_to_f16(sc));
		for (uint j = 0u; j < 16u; j += 2u) {
			uint b[2];
			[[unroll]] for (uint k = 0u; k < 2u; k++) {
				precise float x0 = v[j + k] * id + 8.5;
				precise float x1 = v[j + k + 16u] * id + 8.5;
				uint q0 = uint(min(15, int(x0)));
				uint q1 = uint(min(15, int(x1)));
				b[k] = q0 | (q1 << 4);
			}
			store16(a + 2u + j, b[0] | (b[1] << 8));
		}
	}
}
