// Quantizers for a written binding `$` of a super-block type or IQ4_NL
// (appended by wgpu/shadergen.go instead of quantize.wgsl, `$` replaced by
// the binding's name): stq_$(o, &x) encodes the QK values x as one Q2_K,
// Q3_K, Q4_K, Q5_K, Q6_K, IQ4_XS, TQ1_0, TQ2_0 (QK 256), IQ4_NL or MXFP4
// (QK 32) block at byte offset o, byte-exact with runtime.QuantizeRowCPU (ggml's
// quantize_row_*_ref; for IQ4_NL its CPU from_float): the same float
// operations in the same order and the same searches over scales as
// vk's quant_k.glsl. (WGSL cannot forbid fusing a product and a sum as
// GLSL's `precise` does; lavapipe does not fuse them, and the tests check
// the bytes; as vk's, they also need correctly rounded division and
// sqrt.) Needs dt_$, IQ4NL, stw2_$, sth_$ and the constant QK.
//
// A paragraph that starts with "// @only" followed by dtype ids is kept
// only for those dtypes (wgpu/quantize.go), so that each kernel compiles
// its own type's code alone; paragraphs are separated by blank lines.

// @only 10 11 12 13 14 23 34 35
// Per-invocation scratch (IQ4_NL works on its argument alone: with these
// arrays lavapipe compiles its kernels for 5-30 s).
var<private> qkx_$: array<f32, 256>; // the block's values
var<private> qkL_$: array<i32, 256>; // their quants
var<private> qkaux_$: array<i32, 32>; // a candidate's quants
var<private> qkw_$: array<f32, 32>; // weights of one sub-block
var<private> qksc_$: array<f32, 16>; // sub-block scales
var<private> qkmn_$: array<f32, 16>; // sub-block mins
var<private> qkb_$: array<u32, 56>; // the encoded block, bytes in words

// qnear_$ is ggml's nearest_int (halves to even), for |f| < 2^22.
fn qnear_$(f: f32) -> i32 {
  let v = f + 12582912.0;
  return i32(bitcast<u32>(v) & 0x7fffffu) - 0x400000;
}

// @only 34 35
// qround_$ rounds half away from zero, exactly (C's roundf).
fn qround_$(v: f32) -> f32 {
  let t = trunc(v);
  if (abs(v - t) >= 0.5) { return t + sign(v); }
  return t;
}

// qf16_$ is f32 to IEEE half bits rounded to nearest even, as
// runtime.F32ToF16 (pack2x16float leaves overflow undefined).
fn qf16_$(f: f32) -> u32 {
  let b = bitcast<u32>(f);
  let sgn = (b >> 16u) & 0x8000u;
  let a = b & 0x7fffffffu;
  if (a > 0x7f800000u) { return sgn | 0x7e00u; }
  if (a == 0x7f800000u) { return sgn | 0x7c00u; }
  let e = i32((b >> 23u) & 0xffu) - 127 + 15;
  var mant = b & 0x7fffffu;
  if (e >= 0x1f) { return sgn | 0x7c00u; }
  if (e <= 0) {
    if (e < -10) { return sgn; }
    mant |= 0x800000u;
    let sh = u32(14 - e);
    var h = mant >> sh;
    let rem = mant & ((1u << sh) - 1u);
    let hf = 1u << (sh - 1u);
    if (rem > hf || (rem == hf && (h & 1u) == 1u)) { h++; }
    return sgn | h;
  }
  var h = (u32(e) << 10u) | (mant >> 13u);
  let rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u) == 1u)) { h++; }
  return sgn | h;
}

// @only 10 11 12 13 14 23 34 35
fn qor8_$(o: u32, b: u32) { qkb_$[o >> 2u] |= (b & 0xffu) << ((o & 3u) * 8u); }

// @only 10 11 12 13 14 23 34 35
fn qget8_$(o: u32) -> u32 { return (qkb_$[o >> 2u] >> ((o & 3u) * 8u)) & 0xffu; }

// @only 10 11 12 13 14 23 34 35
// qputf16_$ stores f as F16 at byte o (o even) and returns the stored value.
fn qputf16_$(o: u32, f: f32) -> f32 {
  let h = qf16_$(f);
  qor8_$(o, h);
  qor8_$(o + 1u, h >> 8u);
  return unpack2x16float(h).x;
}

// @only 10 12 13
// make_qkx2_$ is make_qkx2_quants over the n values qx[base..] with
// weights qw: quants to qL[base..]; returns (scale, min to subtract).
fn make_qkx2_$(base: u32, n: u32, nmax: i32, rmin: f32, rdelta: f32, nstep: i32, mad: bool) -> vec2<f32> {
  var lo = qkx_$[base];
  var hi = qkx_$[base];
  var sumw = qkw_$[0];
  var sumx = sumw * qkx_$[base];
  for (var i = 1u; i < n; i++) {
    let x = qkx_$[base + i];
    if (x < lo) { lo = x; }
    if (x > hi) { hi = x; }
    let w = qkw_$[i];
    sumw += w;
    sumx += w * x;
  }
  if (lo > 0.0) { lo = 0.0; }
  if (hi == lo) {
    for (var i = 0u; i < n; i++) { qkL_$[base + i] = 0; }
    return vec2<f32>(0.0, -lo);
  }
  let iscale = f32(nmax) / (hi - lo);
  var scale = 1.0 / iscale;
  var best = 0.0;
  for (var i = 0u; i < n; i++) {
    let l = clamp(qnear_$(iscale * (qkx_$[base + i] - lo)), 0, nmax);
    qkL_$[base + i] = l;
    let diff = scale * f32(l) + lo - qkx_$[base + i];
    best += qkw_$[i] * select(diff * diff, abs(diff), mad);
  }
  for (var st = 0; st <= nstep; st++) {
    let isc = (rmin + rdelta * f32(st) + f32(nmax)) / (hi - lo);
    var sl = 0.0;
    var sl2 = 0.0;
    var sxl = 0.0;
    for (var i = 0u; i < n; i++) {
      let l = clamp(qnear_$(isc * (qkx_$[base + i] - lo)), 0, nmax);
      qkaux_$[i] = l;
      let wl = qkw_$[i] * f32(l);
      sl += wl;
      sl2 += wl * f32(l);
      sxl += wl * qkx_$[base + i];
    }
    let D = sumw * sl2 - sl * sl;
    if (D > 0.0) {
      var ts = (sumw * sxl - sumx * sl) / D;
      var tm = (sl2 * sumx - sl * sxl) / D;
      if (tm > 0.0) {
        tm = 0.0;
        ts = sxl / sl2;
      }
      var cur = 0.0;
      for (var i = 0u; i < n; i++) {
        let diff = ts * f32(qkaux_$[i]) + tm - qkx_$[base + i];
        cur += qkw_$[i] * select(diff * diff, abs(diff), mad);
      }
      if (cur < best) {
        for (var i = 0u; i < n; i++) { qkL_$[base + i] = qkaux_$[i]; }
        best = cur;
        scale = ts;
        lo = tm;
      }
    }
  }
  return vec2<f32>(scale, -lo);
}

// @only 11 14 23
// qfmax_$ returns the value of largest magnitude among qx[base..base+n)
// (the first on a tie) and that magnitude.
fn qfmax_$(base: u32, n: u32) -> vec2<f32> {
  var amax = 0.0;
  var fmax = 0.0;
  for (var i = 0u; i < n; i++) {
    let v = qkx_$[base + i];
    if (abs(v) > amax) { amax = abs(v); fmax = v; }
  }
  return vec2<f32>(fmax, amax);
}

// @only 14
// make_qx_$ is make_qx_quants with rmse_type 1: quants in [-nmax, nmax)
// stored offset by nmax in qL[base..]; returns the scale.
fn make_qx_$(base: u32, n: u32, nmax: i32) -> f32 {
  let fm = qfmax_$(base, n);
  let fmax = fm.x;
  if (fm.y < 1e-15) {
    for (var i = 0u; i < n; i++) { qkL_$[base + i] = 0; }
    return 0.0;
  }
  let iscale = f32(-nmax) / fmax;
  var slx = 0.0;
  var sl2 = 0.0;
  for (var i = 0u; i < n; i++) {
    let v = qkx_$[base + i];
    let l = clamp(qnear_$(iscale * v), -nmax, nmax - 1);
    qkL_$[base + i] = l + nmax;
    let w = v * v;
    slx += (w * v) * f32(l);
    sl2 += (w * f32(l)) * f32(l);
  }
  var scale = 0.0;
  if (sl2 != 0.0) { scale = slx / sl2; }
  var best = scale * slx;
  for (var st = -9; st <= 9; st++) {
    if (st == 0) { continue; }
    let isc = -(f32(nmax) + 0.1 * f32(st)) / fmax;
    var sx = 0.0;
    var s2 = 0.0;
    for (var i = 0u; i < n; i++) {
      let v = qkx_$[base + i];
      let l = clamp(qnear_$(isc * v), -nmax, nmax - 1);
      let w = v * v;
      sx += (w * v) * f32(l);
      s2 += (w * f32(l)) * f32(l);
    }
    if (s2 > 0.0 && sx * sx > best * s2) {
      for (var i = 0u; i < n; i++) { qkL_$[base + i] = nmax + clamp(qnear_$(isc * qkx_$[base + i]), -nmax, nmax - 1); }
      scale = sx / s2;
      best = scale * sx;
    }
  }
  return scale;
}

// @only 11
// make_q3_$ is make_q3_quants with do_rmse: quants in [-nmax, nmax)
// refined one at a time, stored offset by nmax in qL[base..].
fn make_q3_$(base: u32, n: u32, nmax: i32) -> f32 {
  let fm = qfmax_$(base, n);
  if (fm.y < 1e-15) {
    for (var i = 0u; i < n; i++) { qkL_$[base + i] = 0; }
    return 0.0;
  }
  let iscale = f32(-nmax) / fm.x;
  var sumlx = 0.0;
  var suml2 = 0.0;
  for (var i = 0u; i < n; i++) {
    let v = qkx_$[base + i];
    let l = clamp(qnear_$(iscale * v), -nmax, nmax - 1);
    qkL_$[base + i] = l;
    let w = v * v;
    sumlx += (w * v) * f32(l);
    suml2 += (w * f32(l)) * f32(l);
  }
  for (var itry = 0; itry < 5; itry++) {
    var changed = 0;
    for (var i = 0u; i < n; i++) {
      let v = qkx_$[base + i];
      let w = v * v;
      let li = f32(qkL_$[base + i]);
      var slx = sumlx - (w * v) * li;
      if (slx > 0.0) {
        var sl2 = suml2 - (w * li) * li;
        let nl = clamp(qnear_$((v * sl2) / slx), -nmax, nmax - 1);
        if (nl != qkL_$[base + i]) {
          let fl = f32(nl);
          slx += (w * v) * fl;
          sl2 += (w * fl) * fl;
          if (sl2 > 0.0 && (slx * slx) * suml2 > (sumlx * sumlx) * sl2) {
            qkL_$[base + i] = nl;
            sumlx = slx;
            suml2 = sl2;
            changed++;
          }
        }
      }
    }
    if (changed == 0) { break; }
  }
  for (var i = 0u; i < n; i++) { qkL_$[base + i] += nmax; }
  if (suml2 > 0.0) { return sumlx / suml2; }
  return 0.0;
}

// @only 20 23
// qbest_$ is best_index_int8 over IQ4NL: the nearest level (the upper one
// on a tie).
fn qbest_$(x: f32) -> i32 {
  if (x <= IQ4NL[0]) { return 0; }
  if (x >= IQ4NL[15]) { return 15; }
  var ml = 0;
  var mu = 15;
  while (mu - ml > 1) {
    let mav = (ml + mu) / 2;
    if (x < IQ4NL[mav]) { mu = mav; } else { ml = mav; }
  }
  if (x - IQ4NL[mu - 1] < IQ4NL[mu] - x) { return mu - 1; }
  return mu;
}

// @only 23
// iq4_fit_$ fits the 32 values at qx[base..] to the IQ4 levels; with
// ntry >= 0 it also tries 2*ntry+1 inverse scales, with ntry < 0 it is one
// pass. The first pass's indices go to qL[base..]; returns the scale.
fn iq4_fit_$(base: u32, ntry: i32) -> f32 {
  let fm = qfmax_$(base, 32u);
  let fmax = fm.x;
  if (fm.y < 1e-15) {
    for (var i = 0u; i < 32u; i++) { qkL_$[base + i] = 0; }
    return 0.0;
  }
  let v0 = IQ4NL[0];
  var dd = fmax / v0;
  if (ntry > 0) { dd = -fmax / v0; }
  let id = 1.0 / dd;
  var sqx = 0.0;
  var sq2 = 0.0;
  for (var i = 0u; i < 32u; i++) {
    let v = qkx_$[base + i];
    let l = qbest_$(id * v);
    qkL_$[base + i] = l;
    let q = IQ4NL[l];
    let w = v * v;
    sqx += (w * q) * v;
    sq2 += (w * q) * q;
  }
  dd = 0.0;
  if (sq2 > 0.0) { dd = sqx / sq2; }
  var best = dd * sqx;
  for (var itry = -ntry; itry <= ntry; itry++) {
    let isc = f32(itry - 127) / fmax;
    var sx = 0.0;
    var s2 = 0.0;
    for (var i = 0u; i < 32u; i++) {
      let v = qkx_$[base + i];
      let q = IQ4NL[qbest_$(isc * v)];
      let w = v * v;
      sx += (w * q) * v;
      s2 += (w * q) * q;
    }
    if (s2 > 0.0 && sx * sx > best * s2) {
      dd = sx / s2;
      best = dd * sx;
    }
  }
  return dd;
}

// @only 23
// qpack_iq4_$ packs the indices qL[32*ib..] at byte o: j low, j+16 high.
fn qpack_iq4_$(o: u32, ib: u32) {
  for (var j = 0u; j < 16u; j++) { qor8_$(o + j, u32(qkL_$[32u * ib + j]) | (u32(qkL_$[32u * ib + 16u + j]) << 4u)); }
}

// @only 12 13
// qk4sm_$ unpacks Q4_K/Q5_K's 6-bit scale and min j from bytes 4..15.
fn qk4sm_$(j: u32) -> vec2<u32> {
  if (j < 4u) { return vec2<u32>(qget8_$(4u + j) & 63u, qget8_$(8u + j) & 63u); }
  return vec2<u32>((qget8_$(8u + j) & 15u) | ((qget8_$(j) >> 6u) << 4u), (qget8_$(8u + j) >> 4u) | ((qget8_$(4u + j) >> 6u) << 4u));
}

// @only 12 13
// qscales_k4_$ is Q4_K and Q5_K's common part: 8 sub-blocks of 32 fitted
// by make_qkx2, scales and mins quantized to 6 bits against d and dmin.
fn qscales_k4_$(nmax: i32, rmin: f32, nstep: i32) {
  var maxs = 0.0;
  var maxm = 0.0;
  for (var j = 0u; j < 8u; j++) {
    var sx2 = 0.0;
    for (var l = 0u; l < 32u; l++) { let v = qkx_$[32u * j + l]; sx2 += v * v; }
    let avx = sqrt(sx2 / 32.0);
    for (var l = 0u; l < 32u; l++) { qkw_$[l] = avx + abs(qkx_$[32u * j + l]); }
    let sm = make_qkx2_$(32u * j, 32u, nmax, rmin, 0.1, nstep, false);
    qksc_$[j] = sm.x;
    qkmn_$[j] = sm.y;
    if (sm.x > maxs) { maxs = sm.x; }
    if (sm.y > maxm) { maxm = sm.y; }
  }
  var invs = 0.0;
  var invm = 0.0;
  if (maxs > 0.0) { invs = 63.0 / maxs; }
  if (maxm > 0.0) { invm = 63.0 / maxm; }
  for (var j = 0u; j < 8u; j++) {
    let ls = min(63u, u32(qnear_$(invs * qksc_$[j])) & 0xffu);
    let lm = min(63u, u32(qnear_$(invm * qkmn_$[j])) & 0xffu);
    if (j < 4u) {
      qor8_$(4u + j, ls);
      qor8_$(8u + j, lm);
    } else {
      qor8_$(8u + j, (ls & 15u) | ((lm & 15u) << 4u));
      qor8_$(j, (ls >> 4u) << 6u);
      qor8_$(4u + j, (lm >> 4u) << 6u);
    }
  }
  let dall = qputf16_$(0u, maxs / 63.0);
  let mall = qputf16_$(2u, maxm / 63.0);
  for (var j = 0u; j < 8u; j++) {
    let sm = qk4sm_$(j);
    let dl = dall * f32(sm.x);
    if (dl == 0.0) { continue; }
    let ml = mall * f32(sm.y);
    for (var i = 0u; i < 32u; i++) { qkL_$[32u * j + i] = clamp(qnear_$((qkx_$[32u * j + i] + ml) / dl), 0, nmax); }
  }
}

// @only 12
fn qq4_k_$() {
  qscales_k4_$(15, -1.0, 20);
  for (var j = 0u; j < 256u; j += 64u) {
    for (var l = 0u; l < 32u; l++) { qor8_$(16u + j / 2u + l, u32(qkL_$[j + l]) | (u32(qkL_$[j + l + 32u]) << 4u)); }
  }
}

// @only 13
fn qq5_k_$() {
  qscales_k4_$(31, -0.5, 15);
  var m1 = 1u;
  var m2 = 2u;
  for (var n = 0u; n < 256u; n += 64u) {
    for (var j = 0u; j < 32u; j++) {
      var l1 = u32(qkL_$[n + j]);
      var l2 = u32(qkL_$[n + j + 32u]);
      if (l1 > 15u) { l1 -= 16u; qor8_$(16u + j, m1); }
      if (l2 > 15u) { l2 -= 16u; qor8_$(16u + j, m2); }
      qor8_$(48u + n / 2u + j, l1 | (l2 << 4u));
    }
    m1 <<= 2u;
    m2 <<= 2u;
  }
}

// @only 14
fn qq6_k_$() {
  var maxs = 0.0;
  var maxa = 0.0;
  for (var ib = 0u; ib < 16u; ib++) {
    let s = make_qx_$(16u * ib, 16u, 32);
    qksc_$[ib] = s;
    if (abs(s) > maxa) { maxa = abs(s); maxs = s; }
  }
  if (maxa < 1e-15) { return; } // all zeros
  let iscale = -128.0 / maxs;
  let dall = qputf16_$(208u, 1.0 / iscale);
  for (var ib = 0u; ib < 16u; ib++) { qor8_$(192u + ib, u32(min(127, qnear_$(iscale * qksc_$[ib]))) & 0xffu); }
  for (var j = 0u; j < 16u; j++) {
    let dl = dall * f32(extractBits(i32(qget8_$(192u + j)), 0u, 8u));
    if (dl == 0.0) { continue; }
    for (var i = 0u; i < 16u; i++) { qkL_$[16u * j + i] = clamp(qnear_$(qkx_$[16u * j + i] / dl), -32, 31) + 32; }
  }
  for (var j = 0u; j < 256u; j += 128u) {
    let ql = j / 2u;
    let qh = 128u + j / 4u;
    for (var l = 0u; l < 32u; l++) {
      let a = u32(qkL_$[j + l]);
      let b = u32(qkL_$[j + l + 32u]);
      let c = u32(qkL_$[j + l + 64u]);
      let e = u32(qkL_$[j + l + 96u]);
      qor8_$(ql + l, (a & 15u) | ((c & 15u) << 4u));
      qor8_$(ql + l + 32u, (b & 15u) | ((e & 15u) << 4u));
      qor8_$(qh + l, (a >> 4u) | ((b >> 4u) << 2u) | ((c >> 4u) << 4u) | ((e >> 4u) << 6u));
    }
  }
}

// @only 10
fn qq2_k_$() {
  var maxs = 0.0;
  var maxm = 0.0;
  for (var j = 0u; j < 16u; j++) {
    for (var l = 0u; l < 16u; l++) { qkw_$[l] = abs(qkx_$[16u * j + l]); }
    let sm = make_qkx2_$(16u * j, 16u, 3, -0.5, 0.1, 15, true);
    qksc_$[j] = sm.x;
    qkmn_$[j] = sm.y;
    if (sm.x > maxs) { maxs = sm.x; }
    if (sm.y > maxm) { maxm = sm.y; }
  }
  var dall = 0.0;
  var mall = 0.0;
  if (maxs > 0.0) {
    let iscale = 15.0 / maxs;
    for (var j = 0u; j < 16u; j++) { qor8_$(j, u32(qnear_$(iscale * qksc_$[j]))); }
    dall = qputf16_$(80u, maxs / 15.0);
  }
  if (maxm > 0.0) {
    let iscale = 15.0 / maxm;
    for (var j = 0u; j < 16u; j++) { qor8_$(j, u32(qnear_$(iscale * qkmn_$[j])) << 4u); }
    mall = qputf16_$(82u, maxm / 15.0);
  }
  for (var j = 0u; j < 16u; j++) {
    let s = qget8_$(j);
    let dl = dall * f32(s & 15u);
    if (dl == 0.0) { continue; }
    let ml = mall * f32(s >> 4u);
    for (var i = 0u; i < 16u; i++) { qkL_$[16u * j + i] = clamp(qnear_$((qkx_$[16u * j + i] + ml) / dl), 0, 3); }
  }
  for (var j = 0u; j < 256u; j += 128u) {
    for (var l = 0u; l < 32u; l++) {
      qor8_$(16u + j / 4u + l, u32(qkL_$[j + l]) | (u32(qkL_$[j + l + 32u]) << 2u) | (u32(qkL_$[j + l + 64u]) << 4u) | (u32(qkL_$[j + l + 96u]) << 6u));
    }
  }
}

// @only 11
// q3sc_$ is Q3_K's 6-bit scale j (bytes 96..107), minus 32.
fn q3sc_$(j: u32) -> i32 {
  var lo = qget8_$(88u + j) >> 4u;
  if (j < 8u) { lo = qget8_$(96u + j) & 15u; }
  return i32(lo | (((qget8_$(104u + j % 4u) >> (2u * (j / 4u))) & 3u) << 4u)) - 32;
}

// @only 11
fn qq3_k_$() {
  var maxs = 0.0;
  var amax = 0.0;
  for (var j = 0u; j < 16u; j++) {
    let s = make_q3_$(16u * j, 16u, 4);
    qksc_$[j] = s;
    if (abs(s) > amax) { amax = abs(s); maxs = s; }
  }
  var dall = 0.0;
  if (maxs != 0.0) {
    let iscale = -32.0 / maxs;
    for (var j = 0u; j < 16u; j++) {
      // Go's int8 conversion wraps before the clamp.
      let l = clamp(extractBits(qnear_$(iscale * qksc_$[j]), 0u, 8u), -32, 31) + 32;
      if (j < 8u) { qor8_$(96u + j, u32(l) & 15u); } else { qor8_$(88u + j, (u32(l) & 15u) << 4u); }
      qor8_$(104u + j % 4u, u32(l >> 4u) << (2u * (j / 4u)));
    }
    dall = qputf16_$(108u, 1.0 / iscale);
  }
  for (var j = 0u; j < 16u; j++) {
    let dl = dall * f32(q3sc_$(j));
    if (dl == 0.0) { continue; }
    for (var i = 0u; i < 16u; i++) { qkL_$[16u * j + i] = clamp(qnear_$(qkx_$[16u * j + i] / dl), -4, 3) + 4; }
  }
  var m = 0u;
  var hm = 1u;
  for (var j = 0u; j < 256u; j++) {
    if (qkL_$[j] > 3) { qor8_$(m, hm); qkL_$[j] -= 4; }
    m++;
    if (m == 32u) { m = 0u; hm <<= 1u; }
  }
  for (var j = 0u; j < 256u; j += 128u) {
    for (var l = 0u; l < 32u; l++) {
      qor8_$(32u + j / 4u + l, u32(qkL_$[j + l]) | (u32(qkL_$[j + l + 32u]) << 2u) | (u32(qkL_$[j + l + 64u]) << 4u) | (u32(qkL_$[j + l + 96u]) << 6u));
    }
  }
}

// @only 23
fn qiq4_xs_$() {
  var maxs = 0.0;
  var amax = 0.0;
  for (var ib = 0u; ib < 8u; ib++) {
    let s = iq4_fit_$(32u * ib, 7);
    qksc_$[ib] = s;
    if (abs(s) > amax) { amax = abs(s); maxs = s; }
  }
  let dd = -maxs / 32.0;
  qputf16_$(0u, dd);
  var id = 0.0;
  if (dd != 0.0) { id = 1.0 / dd; }
  var sh = 0u;
  for (var ib = 0u; ib < 8u; ib++) {
    let l = clamp(qnear_$(id * qksc_$[ib]), -32, 31);
    let dl = dd * f32(l);
    var idl = 0.0;
    if (dl != 0.0) { idl = 1.0 / dl; }
    for (var j = 0u; j < 32u; j++) { qkL_$[32u * ib + j] = qbest_$(idl * qkx_$[32u * ib + j]); }
    let lu = u32(l + 32);
    qor8_$(4u + ib / 2u, (lu & 15u) << (4u * (ib % 2u)));
    sh |= (lu >> 4u) << (2u * ib);
  }
  qor8_$(2u, sh);
  qor8_$(3u, sh >> 8u);
  for (var ib = 0u; ib < 8u; ib++) { qpack_iq4_$(8u + 16u * ib, ib); }
}

// @only 34 35
// qtrit_$ is v/d rounded half away from zero, plus one.
fn qtrit_$(v: f32, id: f32) -> u32 { return u32(i32(qround_$(v * id)) + 1); }

// @only 34 35
// qtq_$ is the TQ1_0 byte of a base-3 number q: q*256/243 rounded up.
fn qtq_$(q: u32) -> u32 { return ((q & 0xffu) * 256u + 242u) / 243u; }

// @only 34 35
// qternary_$ stores amax as the f16 scale at byte o and returns its inverse.
fn qternary_$(o: u32) -> f32 {
  var dd = 0.0;
  for (var j = 0u; j < 256u; j++) { dd = max(dd, abs(qkx_$[j])); }
  qputf16_$(o, dd);
  if (dd != 0.0) { return 1.0 / dd; }
  return 0.0;
}

// @only 34
fn qtq1_0_$() {
  let id = qternary_$(52u);
  for (var m = 0u; m < 32u; m++) {
    var q = 0u;
    for (var n = 0u; n < 5u; n++) { q = q * 3u + qtrit_$(qkx_$[m + n * 32u], id); }
    qor8_$(m, qtq_$(q));
  }
  for (var m = 0u; m < 16u; m++) {
    var q = 0u;
    for (var n = 0u; n < 5u; n++) { q = q * 3u + qtrit_$(qkx_$[160u + m + n * 16u], id); }
    qor8_$(32u + m, qtq_$(q));
  }
  for (var j = 0u; j < 4u; j++) {
    var q = 0u;
    for (var m = 0u; m < 4u; m++) { q = q * 3u + qtrit_$(qkx_$[240u + j + m * 4u], id); }
    qor8_$(48u + j, qtq_$(q * 3u));
  }
}

// @only 35
fn qtq2_0_$() {
  let id = qternary_$(64u);
  for (var j = 0u; j < 64u; j += 32u) {
    for (var m = 0u; m < 32u; m++) {
      var q = 0u;
      for (var n = 0u; n < 4u; n++) { q |= (qtrit_$(qkx_$[4u * j + m + n * 32u], id) & 3u) << (2u * n); }
      qor8_$(j + m, q);
    }
  }
}

// qkbody_$ encodes qkx_$ into qkb_$: one definition per dtype.

// @only 10
fn qkbody_$() { qq2_k_$(); }

// @only 11
fn qkbody_$() { qq3_k_$(); }

// @only 12
fn qkbody_$() { qq4_k_$(); }

// @only 13
fn qkbody_$() { qq5_k_$(); }

// @only 14
fn qkbody_$() { qq6_k_$(); }

// @only 23
fn qkbody_$() { qiq4_xs_$(); }

// @only 34
fn qkbody_$() { qtq1_0_$(); }

// @only 35
fn qkbody_$() { qtq2_0_$(); }

// @only 10 11 12 13 14 23 34 35
fn stq_$(o: u32, x: ptr<function, array<f32, QK>>) {
  let t = dt_$();
  for (var j = 0u; j < QK; j++) { qkx_$[j] = (*x)[j]; }
  for (var j = 0u; j < 56u; j++) { qkb_$[j] = 0u; }
  qkbody_$();
  // Blocks start at even offsets and have an even size.
  let n = qbytes(t);
  var j = 0u;
  for (; j + 4u <= n; j += 4u) { stw2_$(o + j, qkb_$[j >> 2u]); }
  if (j < n) { sth_$(o + j, qkb_$[j >> 2u] & 0xffffu); }
}

// @only 20
// IQ4_NL is ggml-cpu's from_float: one pass of iq4_fit (ntry < 0).
fn stq_$(o: u32, x: ptr<function, array<f32, QK>>) {
  var amax = 0.0;
  var fmax = 0.0;
  for (var j = 0u; j < 32u; j++) { let v = (*x)[j]; if (abs(v) > amax) { amax = abs(v); fmax = v; } }
  var q: array<u32, 32>;
  var dd = 0.0;
  if (amax >= 1e-15) {
    let id = 1.0 / (fmax / IQ4NL[0]);
    var sqx = 0.0;
    var sq2 = 0.0;
    for (var j = 0u; j < 32u; j++) {
      let v = (*x)[j];
      let l = qbest_$(id * v);
      q[j] = u32(l);
      let ql = IQ4NL[l];
      let w = v * v;
      sqx += (w * ql) * v;
      sq2 += (w * ql) * ql;
    }
    if (sq2 > 0.0) { dd = sqx / sq2; }
  }
  sth_$(o, qf16_$(dd));
  for (var j = 0u; j < 16u; j += 4u) {
    var w = 0u;
    for (var t = 0u; t < 4u; t++) { w |= (q[j + t] | (q[j + t + 16u] << 4u)) << (8u * t); }
    stw2_$(o + 2u + j, w);
  }
}

// @only 39
// qlog2_$ is floorf(log2f(a)) for the magnitude bits ab > 0 of a float,
// exactly (log2f rounded to float, as the CPU reference): the exponent,
// plus one where log2 lies within half a float spacing below the next
// integer (a handful of values just below a power of 2).
fn qlog2_$(ab: u32) -> i32 {
  var e: i32;
  var m: u32;
  if (ab >= 0x800000u) {
    e = i32(ab >> 23u) - 127;
    m = (ab & 0x7fffffu) | 0x800000u;
  } else {
    let p = i32(firstLeadingBit(ab));
    e = p - 149;
    m = ab << u32(23 - p);
  }
  let n = e + 1;
  if (n == 0) { return e; } // log2 in [-1, 0): floats are dense near 0
  let an = abs(n);
  let p = i32(firstLeadingBit(u32(an)));
  // Half the float spacing just below n, in units of 2^-24.
  var q = p;
  if (n > 0 && an == (1 << u32(p))) { q = p - 1; }
  let delta = f32(0x1000000u - m) / 16777216.0;
  let lhs = f32(0x1000000u - m) * (1.0 + delta * 0.5);
  if (lhs <= ldexp(0.6931472, q)) { return n; }
  return e;
}

// @only 39
// qmxbest_$ is the first E2M1 level nearest to x at scale dd.
fn qmxbest_$(x: f32, dd: f32) -> u32 {
  var best = 0u;
  var be = abs(MXFP4[0] * dd - x);
  for (var i = 1u; i < 16u; i++) {
    let err = abs(MXFP4[i] * dd - x);
    if (err < be) { best = i; be = err; }
  }
  return best;
}

// @only 39
// MXFP4: a power-of-two scale from the largest magnitude (E8M0, halved),
// each value its nearest level; 17-byte blocks start at any byte.
fn stq_$(o: u32, x: ptr<function, array<f32, QK>>) {
  var ab = 0u;
  for (var j = 0u; j < 32u; j++) { ab = max(ab, bitcast<u32>((*x)[j]) & 0x7fffffffu); }
  var e = 0u;
  if (ab != 0u) { e = u32(qlog2_$(ab) + 125) & 0xffu; }
  var dd = bitcast<f32>((e - 1u) << 23u);
  if (e < 2u) { dd = bitcast<f32>(0x00200000u << e); }
  stb_$(o, e);
  for (var j = 0u; j < 16u; j++) { stb_$(o + 1u + j, qmxbest_$((*x)[j], dd) | (qmxbest_$((*x)[j + 16u], dd) << 4u)); }
}
