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

#define DT_F32 0u
#define DT_F16 1u
#define DT_Q4_0 2u
#define DT_Q8_0 8u
#define DT_I32 26u
#define DT_BF16 30u

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

// Loaders. For a plain dtype, element i0 of a row starting at byte row is
// at row + i0*nb0; for a block type, nb0 is the block size in bytes and i0
// selects the block i0/32 and the element i0%32 inside it (GGUF layout).
// load_N handles every dtype; load_f_N only F32 and F16, which keeps the
// shaders that need no more small (Mesa compiles them on first use).
#define DEFINE_LOADERS(N, BUF) \
uint rd32_##N(uint a) { return BUF[a >> 2]; } \
uint rd16_##N(uint a) { uint w = BUF[a >> 2]; return (a & 2u) != 0u ? (w >> 16) : (w & 0xffffu); } \
uint rd8_##N(uint a) { return (BUF[a >> 2] >> ((a & 3u) * 8u)) & 0xffu; } \
float load_f_##N(uint dt, uint a) { \
	if (dt == DT_F16) return f16_to_f32(rd16_##N(a)); \
	return uintBitsToFloat(BUF[a >> 2]); \
} \
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

DEFINE_LOADERS(0, s0)
DEFINE_LOADERS(1, s1)
DEFINE_LOADERS(2, s2)
DEFINE_LOADERS(3, d)

// store16 writes the 16-bit half of a word at byte address a. Two halves
// of one word may belong to different invocations (or tensors), so the
// update is atomic on the other half.
void store16(uint a, uint h) {
	uint sh = (a & 2u) * 8u;
	atomicAnd(d[a >> 2], ~(0xffffu << sh));
	atomicOr(d[a >> 2], (h & 0xffffu) << sh);
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

// quant_store encodes 32 values as one Q8_0 or Q4_0 block at byte address
// a, with the arithmetic of runtime.QuantizeRow (ggml's reference code).
void quant_store(uint dt, uint a, float v[32]) {
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
