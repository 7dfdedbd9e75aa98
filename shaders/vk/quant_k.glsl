// GPU quantizers for the super-block types, IQ4_NL and MXFP4: Q2_K, Q3_K,
// Q4_K, Q5_K, Q6_K, IQ4_XS, TQ1_0, TQ2_0 (256 values a block), IQ4_NL and
// MXFP4 (32).
// One invocation encodes one block, byte-exact with runtime.QuantizeRowCPU
// (ggml's quantize_row_*_ref; for IQ4_NL its CPU from_float): the same
// float operations in the same order, each rounded on its own (`precise`
// keeps the driver from fusing a multiply and an add), the same searches
// over scales. The bytes also need division and sqrt rounded correctly,
// as lavapipe does them (Vulkan allows a device 2.5 ulp for a division, so
// another device may pick a neighbouring scale now and then, as ggml's own
// Vulkan quantizers may).
//
// The caller fills qx with the block's values and calls quant_k_store.
// The block is assembled in qb (as little-endian words) and written once.
//
// Needs common.glsl (store8, f32_to_f16, f16_to_f32, the DT_ ids) and
// dequant.glsl (IQ4NL_VALUES, qblock_elems, qblock_bytes) first.

// Per-invocation scratch (private storage: GLSL copies array arguments).
float qx[256]; // the block's values
int qL[256];   // their quants
int qaux[32];  // a candidate's quants (make_qkx2)
float qw[32];  // weights of one sub-block
float qsc[16]; // sub-block scales
float qmn[16]; // sub-block mins
uint qb[56];   // the encoded block, bytes packed into words

// quant_k_supported reports whether quant_k_store encodes dtype dt.
bool quant_k_supported(uint dt) {
	return dt == DT_Q2_K || dt == DT_Q3_K || dt == DT_Q4_K || dt == DT_Q5_K || dt == DT_Q6_K ||
		dt == DT_IQ4_NL || dt == DT_IQ4_XS || dt == DT_TQ1_0 || dt == DT_TQ2_0 || dt == DT_MXFP4;
}

const float GROUP_MAX_EPS = 1e-15;

// nearest_int is ggml's nearest_int (halves to even), valid for |f| < 2^22.
int nearest_int(float f) {
	precise float v = f + 12582912.0;
	return int(floatBitsToUint(v) & 0x7fffffu) - 0x400000;
}

void qb_clear() {
	for (uint i = 0u; i < 56u; i++) qb[i] = 0u;
}

// qb_or8 ors byte b into byte o of the block.
void qb_or8(uint o, uint b) { qb[o >> 2] |= (b & 0xffu) << ((o & 3u) * 8u); }

uint qb_get8(uint o) { return (qb[o >> 2] >> ((o & 3u) * 8u)) & 0xffu; }

// qb_f16 stores f as F16 at byte o (o even) and returns the stored value.
float qb_f16(uint o, float f) {
	uint h = f32_to_f16(f);
	qb_or8(o, h);
	qb_or8(o + 1u, h >> 8);
	return f16_to_f32(h);
}

// qb_write copies the n-byte block to byte address a: whole words
// directly, the bytes of words shared with a neighbour atomically.
void qb_write(uint a, uint n) {
	uint i = 0u;
	for (; i < n && ((a + i) & 3u) != 0u; i++) store8(a + i, qb_get8(i));
	for (; i + 4u <= n; i += 4u) {
		uint w = qb_get8(i) | (qb_get8(i + 1u) << 8) | (qb_get8(i + 2u) << 16) | (qb_get8(i + 3u) << 24);
		d[(a + i) >> 2] = w;
	}
	for (; i < n; i++) store8(a + i, qb_get8(i));
}

// make_qkx2 is make_qkx2_quants: asymmetric quants in [0, nmax] of the n
// values qx[base..] with weights qw, fitted over nstep+1 scales; quants go
// to qL[base..]. Returns (scale, min to subtract).
vec2 make_qkx2(uint base, uint n, int nmax, float rmin, float rdelta, int nstep, bool mad) {
	precise float lo = qx[base];
	precise float hi = qx[base];
	precise float sumw = qw[0];
	precise float sumx = sumw * qx[base];
	for (uint i = 1u; i < n; i++) {
		float x = qx[base + i];
		if (x < lo) lo = x;
		if (x > hi) hi = x;
		float w = qw[i];
		sumw += w;
		sumx += w * x;
	}
	if (lo > 0.0) lo = 0.0;
	if (hi == lo) {
		for (uint i = 0u; i < n; i++) qL[base + i] = 0;
		return vec2(0.0, -lo);
	}
	precise float iscale = float(nmax) / (hi - lo);
	precise float scale = 1.0 / iscale;
	precise float best = 0.0;
	for (uint i = 0u; i < n; i++) {
		precise float t = iscale * (qx[base + i] - lo);
		int l = clamp(nearest_int(t), 0, nmax);
		qL[base + i] = l;
		precise float diff = scale * float(l) + lo - qx[base + i];
		precise float e = mad ? abs(diff) : diff * diff;
		best += qw[i] * e;
	}
	for (int is = 0; is <= nstep; is++) {
		precise float isc = (rmin + rdelta * float(is) + float(nmax)) / (hi - lo);
		precise float sl = 0.0;
		precise float sl2 = 0.0;
		precise float sxl = 0.0;
		for (uint i = 0u; i < n; i++) {
			precise float t = isc * (qx[base + i] - lo);
			int l = clamp(nearest_int(t), 0, nmax);
			qaux[i] = l;
			float w = qw[i];
			precise float wl = w * float(l);
			sl += wl;
			sl2 += wl * float(l);
			sxl += wl * qx[base + i];
		}
		precise float D = sumw * sl2 - sl * sl;
		if (D > 0.0) {
			precise float ts = (sumw * sxl - sumx * sl) / D;
			precise float tm = (sl2 * sumx - sl * sxl) / D;
			if (tm > 0.0) {
				tm = 0.0;
				ts = sxl / sl2;
			}
			precise float cur = 0.0;
			for (uint i = 0u; i < n; i++) {
				precise float diff = ts * float(qaux[i]) + tm - qx[base + i];
				precise float e = mad ? abs(diff) : diff * diff;
				cur += qw[i] * e;
			}
			if (cur < best) {
				for (uint i = 0u; i < n; i++) qL[base + i] = qaux[i];
				best = cur;
				scale = ts;
				lo = tm;
			}
		}
	}
	return vec2(scale, -lo);
}

// make_qx is make_qx_quants with rmse_type 1 (weights x²): quants in
// [-nmax, nmax) of the n values at qx[base..], stored offset by nmax in
// qL[base..]. Returns the scale.
float make_qx(uint base, uint n, int nmax) {
	float amax = 0.0, fmax = 0.0;
	for (uint i = 0u; i < n; i++) {
		float v = qx[base + i];
		if (abs(v) > amax) {
			amax = abs(v);
			fmax = v;
		}
	}
	if (amax < GROUP_MAX_EPS) {
		for (uint i = 0u; i < n; i++) qL[base + i] = 0;
		return 0.0;
	}
	precise float iscale = float(-nmax) / fmax;
	precise float slx = 0.0;
	precise float sl2 = 0.0;
	for (uint i = 0u; i < n; i++) {
		float v = qx[base + i];
		precise float t = iscale * v;
		int l = clamp(nearest_int(t), -nmax, nmax - 1);
		qL[base + i] = l + nmax;
		precise float w = v * v;
		slx += (w * v) * float(l);
		sl2 += (w * float(l)) * float(l);
	}
	precise float scale = sl2 != 0.0 ? slx / sl2 : 0.0;
	precise float best = scale * slx;
	for (int is = -9; is <= 9; is++) {
		if (is == 0) continue;
		precise float isc = -(float(nmax) + 0.1 * float(is)) / fmax;
		precise float sx = 0.0;
		precise float s2 = 0.0;
		for (uint i = 0u; i < n; i++) {
			float v = qx[base + i];
			precise float t = isc * v;
			int l = clamp(nearest_int(t), -nmax, nmax - 1);
			precise float w = v * v;
			sx += (w * v) * float(l);
			s2 += (w * float(l)) * float(l);
		}
		precise float lhs = sx * sx;
		precise float rhs = best * s2;
		if (s2 > 0.0 && lhs > rhs) {
			for (uint i = 0u; i < n; i++) {
				precise float t = isc * qx[base + i];
				qL[base + i] = nmax + clamp(nearest_int(t), -nmax, nmax - 1);
			}
			scale = sx / s2;
			best = scale * sx;
		}
	}
	return scale;
}

// make_q3 is make_q3_quants with do_rmse: quants in [-nmax, nmax) refined
// one at a time, stored offset by nmax in qL[base..]. Returns the scale.
float make_q3(uint base, uint n, int nmax) {
	float amax = 0.0, fmax = 0.0;
	for (uint i = 0u; i < n; i++) {
		float v = qx[base + i];
		if (abs(v) > amax) {
			amax = abs(v);
			fmax = v;
		}
	}
	if (amax < GROUP_MAX_EPS) {
		for (uint i = 0u; i < n; i++) qL[base + i] = 0;
		return 0.0;
	}
	precise float iscale = float(-nmax) / fmax;
	precise float sumlx = 0.0;
	precise float suml2 = 0.0;
	for (uint i = 0u; i < n; i++) {
		float v = qx[base + i];
		precise float t = iscale * v;
		int l = clamp(nearest_int(t), -nmax, nmax - 1);
		qL[base + i] = l;
		precise float w = v * v;
		sumlx += (w * v) * float(l);
		suml2 += (w * float(l)) * float(l);
	}
	for (int itry = 0; itry < 5; itry++) {
		int changed = 0;
		for (uint i = 0u; i < n; i++) {
			float v = qx[base + i];
			precise float w = v * v;
			float li = float(qL[base + i]);
			precise float slx = sumlx - (w * v) * li;
			if (slx > 0.0) {
				precise float sl2 = suml2 - (w * li) * li;
				precise float t = (v * sl2) / slx;
				int nl = clamp(nearest_int(t), -nmax, nmax - 1);
				if (nl != qL[base + i]) {
					float fl = float(nl);
					slx += (w * v) * fl;
					sl2 += (w * fl) * fl;
					precise float lhs = (slx * slx) * suml2;
					precise float rhs = (sumlx * sumlx) * sl2;
					if (sl2 > 0.0 && lhs > rhs) {
						qL[base + i] = nl;
						sumlx = slx;
						suml2 = sl2;
						changed++;
					}
				}
			}
		}
		if (changed == 0) break;
	}
	for (uint i = 0u; i < n; i++) qL[base + i] += nmax;
	return suml2 > 0.0 ? sumlx / suml2 : 0.0;
}

// best_index_iq4 is best_index_int8 over IQ4NL_VALUES: the nearest level
// (the upper one on a tie).
int best_index_iq4(float x) {
	if (x <= float(IQ4NL_VALUES[0])) return 0;
	if (x >= float(IQ4NL_VALUES[15])) return 15;
	int ml = 0, mu = 15;
	while (mu - ml > 1) {
		int mav = (ml + mu) / 2;
		if (x < float(IQ4NL_VALUES[mav])) {
			mu = mav;
		} else {
			ml = mav;
		}
	}
	precise float dl = x - float(IQ4NL_VALUES[mu - 1]);
	precise float du = float(IQ4NL_VALUES[mu]) - x;
	return dl < du ? mu - 1 : mu;
}

// iq4_fit fits the 32 values at qx[base..] to the IQ4 levels (weights x²);
// with ntry >= 0 it also tries 2*ntry+1 inverse scales (the reference
// quantizer), with ntry < 0 it is one pass. Indices of the first pass go to
// qL[base..]. Returns the scale.
float iq4_fit(uint base, int ntry) {
	float amax = 0.0, fmax = 0.0;
	for (uint i = 0u; i < 32u; i++) {
		float v = qx[base + i];
		if (abs(v) > amax) {
			amax = abs(v);
			fmax = v;
		}
	}
	if (amax < GROUP_MAX_EPS) {
		for (uint i = 0u; i < 32u; i++) qL[base + i] = 0;
		return 0.0;
	}
	float v0 = float(IQ4NL_VALUES[0]);
	precise float dd = ntry > 0 ? -fmax / v0 : fmax / v0;
	precise float id = 1.0 / dd;
	precise float sqx = 0.0;
	precise float sq2 = 0.0;
	for (uint i = 0u; i < 32u; i++) {
		float v = qx[base + i];
		precise float t = id * v;
		int l = best_index_iq4(t);
		qL[base + i] = l;
		float q = float(IQ4NL_VALUES[l]);
		precise float w = v * v;
		sqx += (w * q) * v;
		sq2 += (w * q) * q;
	}
	dd = sq2 > 0.0 ? sqx / sq2 : 0.0;
	precise float best = dd * sqx;
	for (int itry = -ntry; itry <= ntry; itry++) {
		precise float isc = float(itry + IQ4NL_VALUES[0]) / fmax;
		precise float sx = 0.0;
		precise float s2 = 0.0;
		for (uint i = 0u; i < 32u; i++) {
			float v = qx[base + i];
			precise float t = isc * v;
			float q = float(IQ4NL_VALUES[best_index_iq4(t)]);
			precise float w = v * v;
			sx += (w * q) * v;
			s2 += (w * q) * q;
		}
		precise float lhs = sx * sx;
		precise float rhs = best * s2;
		if (s2 > 0.0 && lhs > rhs) {
			dd = sx / s2;
			best = dd * sx;
		}
	}
	return dd;
}

// pack_iq4 packs the indices qL[32*ib..] at byte o: j low, j+16 high.
void pack_iq4(uint o, uint ib) {
	for (uint j = 0u; j < 16u; j++) qb_or8(o + j, uint(qL[32u * ib + j]) | (uint(qL[32u * ib + 16u + j]) << 4));
}

// scale_min_k4 unpacks Q4_K/Q5_K's 6-bit scale and min of sub-block j from
// the 12 scale bytes at byte 4 of the block.
uvec2 scale_min_k4(uint j) {
	if (j < 4u) return uvec2(qb_get8(4u + j) & 63u, qb_get8(8u + j) & 63u);
	return uvec2((qb_get8(8u + j) & 15u) | ((qb_get8(j) >> 6) << 4), (qb_get8(8u + j) >> 4) | ((qb_get8(4u + j) >> 6) << 4));
}

// quant_scales_k4 is Q4_K and Q5_K's common part: 8 sub-blocks of 32
// fitted by make_qkx2, their scales and mins quantized to 6 bits against d
// and dmin (bytes 0..3), packed at bytes 4..15; qL gets the final quants.
void quant_scales_k4(int nmax, float rmin, int nstep) {
	float maxs = 0.0, maxm = 0.0;
	for (uint j = 0u; j < 8u; j++) {
		precise float sx2 = 0.0;
		for (uint l = 0u; l < 32u; l++) sx2 += qx[32u * j + l] * qx[32u * j + l];
		precise float avx = sqrt(sx2 / 32.0);
		for (uint l = 0u; l < 32u; l++) qw[l] = avx + abs(qx[32u * j + l]);
		vec2 sm = make_qkx2(32u * j, 32u, nmax, rmin, 0.1, nstep, false);
		qsc[j] = sm.x;
		qmn[j] = sm.y;
		if (sm.x > maxs) maxs = sm.x;
		if (sm.y > maxm) maxm = sm.y;
	}
	precise float invs = maxs > 0.0 ? 63.0 / maxs : 0.0;
	precise float invm = maxm > 0.0 ? 63.0 / maxm : 0.0;
	for (uint j = 0u; j < 8u; j++) {
		precise float ts = invs * qsc[j];
		precise float tm = invm * qmn[j];
		uint ls = min(63u, uint(nearest_int(ts)) & 0xffu);
		uint lm = min(63u, uint(nearest_int(tm)) & 0xffu);
		if (j < 4u) {
			qb_or8(4u + j, ls);
			qb_or8(8u + j, lm);
		} else {
			qb_or8(8u + j, (ls & 15u) | ((lm & 15u) << 4));
			qb_or8(j, (ls >> 4) << 6);
			qb_or8(4u + j, (lm >> 4) << 6);
		}
	}
	float dall = qb_f16(0u, maxs / 63.0);
	float mall = qb_f16(2u, maxm / 63.0);
	for (uint j = 0u; j < 8u; j++) {
		uvec2 sm = scale_min_k4(j);
		precise float dl = dall * float(sm.x);
		if (dl == 0.0) continue;
		precise float ml = mall * float(sm.y);
		for (uint i = 0u; i < 32u; i++) {
			precise float t = (qx[32u * j + i] + ml) / dl;
			qL[32u * j + i] = clamp(nearest_int(t), 0, nmax);
		}
	}
}

void quant_q4_k() {
	quant_scales_k4(15, -1.0, 20);
	for (uint j = 0u; j < 256u; j += 64u) {
		for (uint l = 0u; l < 32u; l++) qb_or8(16u + j / 2u + l, uint(qL[j + l]) | (uint(qL[j + l + 32u]) << 4));
	}
}

void quant_q5_k() {
	quant_scales_k4(31, -0.5, 15);
	uint m1 = 1u, m2 = 2u;
	for (uint n = 0u; n < 256u; n += 64u) {
		for (uint j = 0u; j < 32u; j++) {
			uint l1 = uint(qL[n + j]), l2 = uint(qL[n + j + 32u]);
			if (l1 > 15u) {
				l1 -= 16u;
				qb_or8(16u + j, m1);
			}
			if (l2 > 15u) {
				l2 -= 16u;
				qb_or8(16u + j, m2);
			}
			qb_or8(48u + n / 2u + j, l1 | (l2 << 4));
		}
		m1 <<= 2;
		m2 <<= 2;
	}
}

void quant_q6_k() {
	float maxs = 0.0, maxa = 0.0;
	for (uint ib = 0u; ib < 16u; ib++) {
		float s = make_qx(16u * ib, 16u, 32);
		qsc[ib] = s;
		if (abs(s) > maxa) {
			maxa = abs(s);
			maxs = s;
		}
	}
	if (maxa < GROUP_MAX_EPS) return; // all zeros
	precise float iscale = -128.0 / maxs;
	float dall = qb_f16(208u, 1.0 / iscale);
	for (uint ib = 0u; ib < 16u; ib++) {
		precise float t = iscale * qsc[ib];
		qb_or8(192u + ib, uint(min(127, nearest_int(t))) & 0xffu);
	}
	for (uint j = 0u; j < 16u; j++) {
		precise float dl = dall * float(bitfieldExtract(int(qb_get8(192u + j)), 0, 8));
		if (dl == 0.0) continue;
		for (uint i = 0u; i < 16u; i++) {
			precise float t = qx[16u * j + i] / dl;
			qL[16u * j + i] = clamp(nearest_int(t), -32, 31) + 32;
		}
	}
	for (uint j = 0u; j < 256u; j += 128u) {
		uint ql = j / 2u, qh = 128u + j / 4u;
		for (uint l = 0u; l < 32u; l++) {
			uint a = uint(qL[j + l]), b = uint(qL[j + l + 32u]), c = uint(qL[j + l + 64u]), e = uint(qL[j + l + 96u]);
			qb_or8(ql + l, (a & 15u) | ((c & 15u) << 4));
			qb_or8(ql + l + 32u, (b & 15u) | ((e & 15u) << 4));
			qb_or8(qh + l, (a >> 4) | ((b >> 4) << 2) | ((c >> 4) << 4) | ((e >> 4) << 6));
		}
	}
}

void quant_q2_k() {
	float maxs = 0.0, maxm = 0.0;
	for (uint j = 0u; j < 16u; j++) {
		for (uint l = 0u; l < 16u; l++) qw[l] = abs(qx[16u * j + l]);
		vec2 sm = make_qkx2(16u * j, 16u, 3, -0.5, 0.1, 15, true);
		qsc[j] = sm.x;
		qmn[j] = sm.y;
		if (sm.x > maxs) maxs = sm.x;
		if (sm.y > maxm) maxm = sm.y;
	}
	float dall = 0.0, mall = 0.0;
	if (maxs > 0.0) {
		precise float iscale = 15.0 / maxs;
		for (uint j = 0u; j < 16u; j++) {
			precise float t = iscale * qsc[j];
			qb_or8(j, uint(nearest_int(t)));
		}
		dall = qb_f16(80u, maxs / 15.0);
	}
	if (maxm > 0.0) {
		precise float iscale = 15.0 / maxm;
		for (uint j = 0u; j < 16u; j++) {
			precise float t = iscale * qmn[j];
			qb_or8(j, uint(nearest_int(t)) << 4);
		}
		mall = qb_f16(82u, maxm / 15.0);
	}
	for (uint j = 0u; j < 16u; j++) {
		uint s = qb_get8(j);
		precise float dl = dall * float(s & 15u);
		if (dl == 0.0) continue;
		precise float ml = mall * float(s >> 4);
		for (uint i = 0u; i < 16u; i++) {
			precise float t = (qx[16u * j + i] + ml) / dl;
			qL[16u * j + i] = clamp(nearest_int(t), 0, 3);
		}
	}
	for (uint j = 0u; j < 256u; j += 128u) {
		for (uint l = 0u; l < 32u; l++) {
			qb_or8(16u + j / 4u + l, uint(qL[j + l]) | (uint(qL[j + l + 32u]) << 2) | (uint(qL[j + l + 64u]) << 4) | (uint(qL[j + l + 96u]) << 6));
		}
	}
}

// q3_scale is Q3_K's 6-bit scale j (bytes 96..107), minus 32.
int q3_scale(uint j) {
	uint lo = j < 8u ? qb_get8(96u + j) & 15u : qb_get8(88u + j) >> 4;
	return int(lo | (((qb_get8(104u + j % 4u) >> (2u * (j / 4u))) & 3u) << 4)) - 32;
}

void quant_q3_k() {
	float maxs = 0.0, amax = 0.0;
	for (uint j = 0u; j < 16u; j++) {
		float s = make_q3(16u * j, 16u, 4);
		qsc[j] = s;
		if (abs(s) > amax) {
			amax = abs(s);
			maxs = s;
		}
	}
	float dall = 0.0;
	if (maxs != 0.0) {
		precise float iscale = -32.0 / maxs;
		for (uint j = 0u; j < 16u; j++) {
			precise float t = iscale * qsc[j];
			// Go's int8 conversion wraps before the clamp.
			int l = clamp(bitfieldExtract(nearest_int(t), 0, 8), -32, 31) + 32;
			if (j < 8u) {
				qb_or8(96u + j, uint(l) & 15u);
			} else {
				qb_or8(88u + j, (uint(l) & 15u) << 4);
			}
			qb_or8(104u + j % 4u, uint(l >> 4) << (2u * (j / 4u)));
		}
		dall = qb_f16(108u, 1.0 / iscale);
	}
	for (uint j = 0u; j < 16u; j++) {
		precise float dl = dall * float(q3_scale(j));
		if (dl == 0.0) continue;
		for (uint i = 0u; i < 16u; i++) {
			precise float t = qx[16u * j + i] / dl;
			qL[16u * j + i] = clamp(nearest_int(t), -4, 3) + 4;
		}
	}
	uint m = 0u, hm = 1u;
	for (uint j = 0u; j < 256u; j++) {
		if (qL[j] > 3) {
			qb_or8(m, hm);
			qL[j] -= 4;
		}
		m++;
		if (m == 32u) {
			m = 0u;
			hm <<= 1;
		}
	}
	for (uint j = 0u; j < 256u; j += 128u) {
		for (uint l = 0u; l < 32u; l++) {
			qb_or8(32u + j / 4u + l, uint(qL[j + l]) | (uint(qL[j + l + 32u]) << 2) | (uint(qL[j + l + 64u]) << 4) | (uint(qL[j + l + 96u]) << 6));
		}
	}
}

// quant_iq4_nl is ggml-cpu's from_float for IQ4_NL (one pass).
void quant_iq4_nl() {
	qb_f16(0u, iq4_fit(0u, -1));
	pack_iq4(2u, 0u);
}

void quant_iq4_xs() {
	float maxs = 0.0, amax = 0.0;
	for (uint ib = 0u; ib < 8u; ib++) {
		float s = iq4_fit(32u * ib, 7);
		qsc[ib] = s;
		if (abs(s) > amax) {
			amax = abs(s);
			maxs = s;
		}
	}
	precise float dd = -maxs / 32.0;
	qb_f16(0u, dd);
	precise float id = dd != 0.0 ? 1.0 / dd : 0.0;
	uint sh = 0u;
	for (uint ib = 0u; ib < 8u; ib++) {
		precise float t = id * qsc[ib];
		int l = clamp(nearest_int(t), -32, 31);
		precise float dl = dd * float(l);
		precise float idl = dl != 0.0 ? 1.0 / dl : 0.0;
		for (uint j = 0u; j < 32u; j++) {
			precise float u = idl * qx[32u * ib + j];
			qL[32u * ib + j] = best_index_iq4(u);
		}
		uint lu = uint(l + 32);
		qb_or8(4u + ib / 2u, (lu & 15u) << (4u * (ib % 2u)));
		sh |= (lu >> 4) << (2u * ib);
	}
	qb_or8(2u, sh);
	qb_or8(3u, sh >> 8);
	for (uint ib = 0u; ib < 8u; ib++) pack_iq4(8u + 16u * ib, ib);
}

// ternary_scale returns amax and its inverse for the TQ types.
vec2 ternary_scale() {
	float dd = 0.0;
	for (uint j = 0u; j < 256u; j++) dd = max(dd, abs(qx[j]));
	precise float id = dd != 0.0 ? 1.0 / dd : 0.0;
	return vec2(dd, id);
}

// trit is x/d rounded half away from zero, plus one.
uint trit(float v, float id) {
	precise float t = v * id;
	return uint(int(round_away(t)) + 1);
}

// tq_pack is the TQ1_0 byte of a base-3 number q: q*256/243 rounded up.
uint tq_pack(uint q) { return ((q & 0xffu) * 256u + 242u) / 243u; }

void quant_tq1_0() {
	vec2 s = ternary_scale();
	qb_f16(52u, s.x);
	for (uint m = 0u; m < 32u; m++) {
		uint q = 0u;
		for (uint n = 0u; n < 5u; n++) q = q * 3u + trit(qx[m + n * 32u], s.y);
		qb_or8(m, tq_pack(q));
	}
	for (uint m = 0u; m < 16u; m++) {
		uint q = 0u;
		for (uint n = 0u; n < 5u; n++) q = q * 3u + trit(qx[160u + m + n * 16u], s.y);
		qb_or8(32u + m, tq_pack(q));
	}
	for (uint j = 0u; j < 4u; j++) {
		uint q = 0u;
		for (uint m = 0u; m < 4u; m++) q = q * 3u + trit(qx[240u + j + m * 4u], s.y);
		qb_or8(48u + j, tq_pack(q * 3u));
	}
}

void quant_tq2_0() {
	vec2 s = ternary_scale();
	qb_f16(64u, s.x);
	for (uint j = 0u; j < 64u; j += 32u) {
		for (uint m = 0u; m < 32u; m++) {
			uint q = 0u;
			for (uint n = 0u; n < 4u; n++) q |= (trit(qx[4u * j + m + n * 32u], s.y) & 3u) << (2u * n);
			qb_or8(j + m, q);
		}
	}
}

// mxfp4_floor_log2 is floorf(log2f(a)) for the magnitude bits ab > 0 of
// a float, exactly (log2f rounded to float, as the CPU reference): the
// exponent, plus one where log2 lies within half a float spacing below
// the next integer (only for a handful of values just below a power of 2).
int mxfp4_floor_log2(uint ab) {
	int e;
	uint m;
	if (ab >= 0x800000u) {
		e = int(ab >> 23) - 127;
		m = (ab & 0x7fffffu) | 0x800000u;
	} else {
		int p = findMSB(ab);
		e = p - 149;
		m = ab << uint(23 - p);
	}
	int n = e + 1;
	if (n == 0) return e; // log2 in [-1, 0): floats are dense near 0
	int an = abs(n);
	int p = findMSB(uint(an));
	// Half the float spacing just below n, in units of 2^-24.
	int q = (n > 0 && an == (1 << p)) ? p - 1 : p;
	precise float delta = float(0x1000000u - m) / 16777216.0;
	precise float lhs = float(0x1000000u - m) * (1.0 + delta * 0.5);
	precise float rhs = ldexp(0.6931472, q);
	return lhs <= rhs ? n : e;
}

// e8m0_half is GGML_E8M0_TO_FP32_HALF: 2^(e-128).
float e8m0_half(uint e) { return uintBitsToFloat(e < 2u ? 0x00200000u << e : (e - 1u) << 23); }

// mxfp4_best is the first E2M1 level nearest to x at scale dd.
uint mxfp4_best(float x, float dd) {
	uint best = 0u;
	precise float be = abs(float(MXFP4_VALUES[0]) * dd - x);
	for (uint i = 1u; i < 16u; i++) {
		precise float err = abs(float(MXFP4_VALUES[i]) * dd - x);
		if (err < be) {
			best = i;
			be = err;
		}
	}
	return best;
}

void quant_mxfp4() {
	uint ab = 0u;
	for (uint j = 0u; j < 32u; j++) ab = max(ab, floatBitsToUint(qx[j]) & 0x7fffffffu);
	uint e = ab == 0u ? 0u : uint(mxfp4_floor_log2(ab) + 125) & 0xffu;
	float dd = e8m0_half(e);
	qb_or8(0u, e);
	for (uint j = 0u; j < 16u; j++) qb_or8(1u + j, mxfp4_best(qx[j], dd) | (mxfp4_best(qx[j + 16u], dd) << 4));
}

// quant_k_store encodes qx as one block of dtype dt at byte address a.
void quant_k_store(uint dt, uint a) {
	qb_clear();
	if (dt == DT_Q4_K) quant_q4_k();
	else if (dt == DT_Q5_K) quant_q5_k();
	else if (dt == DT_Q6_K) quant_q6_k();
	else if (dt == DT_Q3_K) quant_q3_k();
	else if (dt == DT_Q2_K) quant_q2_k();
	else if (dt == DT_IQ4_NL) quant_iq4_nl();
	else if (dt == DT_IQ4_XS) quant_iq4_xs();
	else if (dt == DT_TQ1_0) quant_tq1_0();
	else if (dt == DT_TQ2_0) quant_tq2_0();
	else if (dt == DT_MXFP4) quant_mxfp4();
	qb_write(a, qblock_bytes(dt));
}
