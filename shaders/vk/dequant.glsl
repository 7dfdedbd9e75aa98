// Dequantization of every block type gpurt runs, from source 0 (the only
// binding that holds block-quantized tensors: weights, GET_ROWS and copy
// sources). One definition per type serves the mat-vec and tiled MUL_MAT
// kernels, GET_ROWS and the copies, so they agree to the bit with each other
// and with runtime.DequantizeRow (ggml's to_float): the float operations
// are ggml's, in its order, and `precise` keeps the driver from fusing a
// multiply and an add into one rounding.
//
// dequant4(dt, blk, j) returns elements j..j+3 (j % 4 == 0) of the block of
// dtype dt at byte address blk. Four elements are the natural unit: they
// come from four consecutive bytes in every layout, read as one word.
// dequant1 returns one element. qblock_elems and qblock_bytes give a block
// type's elements and bytes per block.
//
// Needs common.glsl (s0, rd8_0, rd16_0, f16_to_f32, the DT_ ids) first.

// The IQ4_NL codebook (also IQ4_XS's), ggml's kvalues_iq4nl. The
// runtime's dequantizers are the definition: vk's TestDequantTables checks
// these copies against them (internal/qtables).
const int IQ4NL_VALUES[16] = int[16](-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113);
// MXFP4's E2M1 values, doubled (ggml's kvalues_mxfp4; the scale is halved).
const int MXFP4_VALUES[16] = int[16](0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12);

uint qblock_elems(uint dt) {
	switch (dt) {
	case DT_Q2_K: case DT_Q3_K: case DT_Q4_K: case DT_Q5_K: case DT_Q6_K:
	case DT_IQ4_XS: case DT_TQ1_0: case DT_TQ2_0:
		return 256u;
	}
	return 32u;
}

uint qblock_bytes(uint dt) {
	switch (dt) {
	case DT_Q4_0: return 18u;
	case DT_Q4_1: return 20u;
	case DT_Q5_0: return 22u;
	case DT_Q5_1: return 24u;
	case DT_Q8_0: return 34u;
	case DT_Q2_K: return 84u;
	case DT_Q3_K: return 110u;
	case DT_Q4_K: return 144u;
	case DT_Q5_K: return 176u;
	case DT_Q6_K: return 210u;
	case DT_IQ4_NL: return 18u;
	case DT_IQ4_XS: return 136u;
	case DT_MXFP4: return 17u;
	case DT_TQ1_0: return 54u;
	case DT_TQ2_0: return 66u;
	}
	return 0u;
}

// rdw_0 reads the four bytes at any byte address a as one little-endian word.
uint rdw_0(uint a) {
	uint sh = (a & 3u) * 8u;
	uint w = s0[a >> 2];
	return sh == 0u ? w : (w >> sh) | (s0[(a >> 2) + 1u] << (32u - sh));
}

// bytes4 splits a word into its four bytes.
uvec4 bytes4(uint w) { return (uvec4(w) >> uvec4(0u, 8u, 16u, 24u)) & 0xffu; }

// nibbles4 gives the low (hi false) or high nibbles of the four bytes at a.
uvec4 nibbles4(uint a, bool hi) { return bytes4((rdw_0(a) >> (hi ? 4u : 0u)) & 0x0f0f0f0fu); }

// k4_scale_min is ggml's get_scale_min_k4: the 6-bit scale and min of
// sub-block j of a Q4_K/Q5_K block, from its 12 scale bytes at sc.
uvec2 k4_scale_min(uint sc, uint j) {
	if (j < 4u) return uvec2(rd8_0(sc + j) & 63u, rd8_0(sc + j + 4u) & 63u);
	uint b = rd8_0(sc + j + 4u);
	return uvec2((b & 15u) | ((rd8_0(sc + j - 4u) >> 6) << 4), (b >> 4) | ((rd8_0(sc + j) >> 6) << 4));
}

// tq1_trits decodes four base-3 digits as ggml's TQ1_0 stores them: byte q
// scaled by 3^n (mod 256), and the digit is (q * 3) >> 8.
vec4 tq1_trits(uvec4 q, uint n) {
	uint p = n == 0u ? 1u : n == 1u ? 3u : n == 2u ? 9u : n == 3u ? 27u : 81u;
	uvec4 s = (q * p) & 0xffu;
	return vec4(ivec4((s * 3u) >> 8) - 1);
}

vec4 dequant4(uint dt, uint blk, uint j) {
	switch (dt) {
	case DT_Q4_0: {
		float d = f16_to_f32(rd16_0(blk));
		return d * (vec4(nibbles4(blk + 2u + (j & 15u), j >= 16u)) - 8.0);
	}
	case DT_Q4_1: {
		float d = f16_to_f32(rd16_0(blk)), m = f16_to_f32(rd16_0(blk + 2u));
		precise vec4 y = vec4(nibbles4(blk + 4u + (j & 15u), j >= 16u)) * d + m;
		return y;
	}
	case DT_Q5_0: {
		float d = f16_to_f32(rd16_0(blk));
		uvec4 h = bytes4(((rdw_0(blk + 2u) >> j) & 15u) * 0x00204081u) & 1u; // bit k of the nibble into byte k
		return vec4(ivec4(nibbles4(blk + 6u + (j & 15u), j >= 16u) | (h << 4)) - 16) * d;
	}
	case DT_Q5_1: {
		float d = f16_to_f32(rd16_0(blk)), m = f16_to_f32(rd16_0(blk + 2u));
		uvec4 h = bytes4(((rdw_0(blk + 4u) >> j) & 15u) * 0x00204081u) & 1u;
		precise vec4 y = vec4(nibbles4(blk + 8u + (j & 15u), j >= 16u) | (h << 4)) * d + m;
		return y;
	}
	case DT_Q8_0: {
		float d = f16_to_f32(rd16_0(blk));
		int w = int(rdw_0(blk + 2u + j));
		return vec4(bitfieldExtract(w, 0, 8), bitfieldExtract(w, 8, 8), bitfieldExtract(w, 16, 8), bitfieldExtract(w, 24, 8)) * d;
	}
	case DT_Q2_K: {
		// scales[16], qs[64], d, dmin. Elements 128n + 32jj + 16h + l use
		// 2-bit field jj of qs[32n + 16h + l] and scale byte j/16.
		uint sc = rd8_0(blk + j / 16u);
		float d = f16_to_f32(rd16_0(blk + 80u)), dmin = f16_to_f32(rd16_0(blk + 82u));
		precise float dl = d * float(sc & 15u);
		precise float ml = dmin * float(sc >> 4);
		uint q = rdw_0(blk + 16u + (j / 128u) * 32u + (j & 31u)) >> (2u * ((j / 32u) & 3u));
		precise vec4 y = dl * vec4(bytes4(q & 0x03030303u)) - ml;
		return y;
	}
	case DT_Q3_K: {
		// hmask[32], qs[64], scales[12] (16 packed 6-bit scales), d.
		uint is = j / 16u;
		uint lo = (rd8_0(blk + 96u + (is & 7u)) >> (4u * (is / 8u))) & 15u;
		uint hi = (rd8_0(blk + 104u + (is & 3u)) >> (2u * (is / 4u))) & 3u;
		precise float dl = f16_to_f32(rd16_0(blk + 108u)) * float(int(lo | (hi << 4)) - 32);
		uint jj = (j / 32u) & 3u;
		uvec4 q = bytes4((rdw_0(blk + 32u + (j / 128u) * 32u + (j & 31u)) >> (2u * jj)) & 0x03030303u);
		uvec4 h = bytes4((rdw_0(blk + (j & 31u)) >> ((j / 128u) * 4u + jj)) & 0x01010101u);
		precise vec4 y = dl * vec4(ivec4(q) - 4 * ivec4(1u - h));
		return y;
	}
	case DT_Q4_K: {
		// d, dmin, scales[12], qs[128]: sub-block j/32 is the low (even)
		// or high (odd) nibbles of qs[32*(j/64) ...].
		uint sub = j / 32u;
		uvec2 sm = k4_scale_min(blk + 4u, sub);
		precise float d1 = f16_to_f32(rd16_0(blk)) * float(sm.x);
		precise float m1 = f16_to_f32(rd16_0(blk + 2u)) * float(sm.y);
		precise vec4 y = d1 * vec4(nibbles4(blk + 16u + (j / 64u) * 32u + (j & 31u), (sub & 1u) != 0u)) - m1;
		return y;
	}
	case DT_Q5_K: {
		// d, dmin, scales[12], qh[32], qs[128]; bit sub of qh[j%32] is the fifth bit.
		uint sub = j / 32u;
		uvec2 sm = k4_scale_min(blk + 4u, sub);
		precise float d1 = f16_to_f32(rd16_0(blk)) * float(sm.x);
		precise float m1 = f16_to_f32(rd16_0(blk + 2u)) * float(sm.y);
		uvec4 h = bytes4((rdw_0(blk + 16u + (j & 31u)) >> sub) & 0x01010101u);
		precise vec4 y = d1 * vec4(nibbles4(blk + 48u + (j / 64u) * 32u + (j & 31u), (sub & 1u) != 0u) + 16u * h) - m1;
		return y;
	}
	case DT_Q6_K: {
		// ql[128], qh[64], scales[16] (int8), d. In each half n of 128,
		// quarter t takes the low (t < 2) or high nibbles of
		// ql[64n + 32(t&1) + l] and 2-bit field t of qh[32n + l].
		uint n = j / 128u, t = (j / 32u) & 3u, l = j & 31u;
		uvec4 ql = nibbles4(blk + n * 64u + (t & 1u) * 32u + l, t >= 2u);
		uvec4 qh = bytes4((rdw_0(blk + 128u + n * 32u + l) >> (2u * t)) & 0x03030303u);
		int sc = int(rd8_0(blk + 192u + j / 16u) << 24) >> 24;
		precise float ds = f16_to_f32(rd16_0(blk + 208u)) * float(sc);
		precise vec4 y = ds * vec4(ivec4(ql | (qh << 4)) - 32);
		return y;
	}
	case DT_IQ4_NL: {
		float d = f16_to_f32(rd16_0(blk));
		uvec4 q = nibbles4(blk + 2u + (j & 15u), j >= 16u);
		return d * vec4(IQ4NL_VALUES[q.x], IQ4NL_VALUES[q.y], IQ4NL_VALUES[q.z], IQ4NL_VALUES[q.w]);
	}
	case DT_IQ4_XS: {
		// d, scales_h (2 bits per sub-block), scales_l[4] (4 bits), qs[128].
		uint ib = j / 32u;
		uint ls = ((rd8_0(blk + 4u + ib / 2u) >> (4u * (ib & 1u))) & 15u) | (((rd16_0(blk + 2u) >> (2u * ib)) & 3u) << 4);
		precise float dl = f16_to_f32(rd16_0(blk)) * float(int(ls) - 32);
		uvec4 q = nibbles4(blk + 8u + ib * 16u + (j & 15u), (j & 31u) >= 16u);
		return dl * vec4(IQ4NL_VALUES[q.x], IQ4NL_VALUES[q.y], IQ4NL_VALUES[q.z], IQ4NL_VALUES[q.w]);
	}
	case DT_MXFP4: {
		// e (E8M0 exponent, taken at half scale as ggml does), qs[16].
		uint e = rd8_0(blk);
		float d = uintBitsToFloat(e < 2u ? 0x00200000u << e : (e - 1u) << 23);
		uvec4 q = nibbles4(blk + 1u + (j & 15u), j >= 16u);
		return vec4(MXFP4_VALUES[q.x], MXFP4_VALUES[q.y], MXFP4_VALUES[q.z], MXFP4_VALUES[q.w]) * d;
	}
	case DT_TQ1_0: {
		// qs[48], qh[4], d: five trits per byte of qs[0..32) (elements
		// 0..159), of qs[32..48) (160..239), four per byte of qh (240..255).
		float d = f16_to_f32(rd16_0(blk + 52u));
		if (j < 160u) return tq1_trits(bytes4(rdw_0(blk + (j & 31u))), j / 32u) * d;
		if (j < 240u) return tq1_trits(bytes4(rdw_0(blk + 32u + ((j - 160u) & 15u))), (j - 160u) / 16u) * d;
		return tq1_trits(bytes4(rdw_0(blk + 48u)), (j - 240u) / 4u) * d;
	}
	case DT_TQ2_0: {
		// qs[64], d: 2-bit field (j%128)/32 of qs[32*(j/128) + j%32], minus 1.
		float d = f16_to_f32(rd16_0(blk + 64u));
		uvec4 q = bytes4((rdw_0(blk + (j / 128u) * 32u + (j & 31u)) >> (2u * ((j / 32u) & 3u))) & 0x03030303u);
		return vec4(ivec4(q) - 1) * d;
	}
	}
	return vec4(0.0);
}

float dequant1(uint dt, uint blk, uint j) { return dequant4(dt, blk, j & ~3u)[j & 3u]; }
