// MUL_MAT, register-blocked without workgroup memory: invocation li of
// workgroup (x, y) computes rows i0..i0+TM-1 of a against columns
// j0..j0+TN-1 of b, where i0 = (x*WG + li)*TM and j0 = y*TN. The columns are
// the same for the whole workgroup, so their loads are uniform (one load
// for all lanes on SIMD CPUs such as lavapipe). Unit-stride rows, K % 4 == 0.
// z = i2 + ne12*i3; a's matrix is (i2 / ip.x, i3 / ip.y). Rows start at
// n.y, so that a large product can be split into several dispatches.
// SG: the subgroup (SGS lanes, TN % SGS == 0) shares the column loads:
// lane l loads the columns t with t % SGS == l and shuffles them to the
// others, so each lane loads TN/SGS column vectors instead of TN.
// addend is what a fused ADD (ADDEND) adds to d[i, j, i2, i3]: that
// element of c (a bias or a residual; nb_c is 0 where c broadcasts).
fn addend(i: u32, j: u32, i2: u32, i3: u32) -> f32 {
#if ADDEND
  return ld_c(P.off.w + i * P.nb_c.x + j * P.nb_c.y + i2 * P.nb_c.z + i3 * P.nb_c.w);
#else
  return 0.0;
#endif
}

var<private> br: array<u32, TN>;
var<private> bown: array<u32, BOWN>;

// loadb returns the four values at k of each of the TN columns.
fn loadb(k: u32) -> array<vec4<f32>, TN> {
  var bv: array<vec4<f32>, TN>;
#if SG
  var mine: array<vec4<f32>, BOWN>;
  for (var u = 0u; u < BOWN; u++) { mine[u] = ld4_b(bown[u], k); }
  for (var t = 0u; t < TN; t++) { bv[t] = subgroupShuffle(mine[t / SGS], t % SGS); }
#else
  for (var t = 0u; t < TN; t++) { bv[t] = ld4_b(br[t], k); }
#endif
  return bv;
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) li: u32,
#if SG
        @builtin(subgroup_invocation_id) lane: u32,
#endif
) {
  let i0 = P.n.y + (wid.x * WG + li) * TM;
  let j0 = wid.y * TN;
  let i2 = wid.z % P.ne_d.z;
  let i3 = wid.z / P.ne_d.z;
  let abase = P.off.y + (i2 / u32(P.ip.x)) * P.nb_a.z + (i3 / u32(P.ip.y)) * P.nb_a.w;
  let bbase = P.off.z + i2 * P.nb_b.z + i3 * P.nb_b.w;
  var ar: array<u32, TM>;
  for (var s = 0u; s < TM; s++) { ar[s] = abase + min(i0 + s, P.ne_d.x - 1u) * P.nb_a.y; }
#if SG
  for (var u = 0u; u < BOWN; u++) { bown[u] = bbase + min(j0 + u * SGS + lane, P.ne_d.y - 1u) * P.nb_b.y; }
#else
  for (var t = 0u; t < TN; t++) { br[t] = bbase + min(j0 + t, P.ne_d.y - 1u) * P.nb_b.y; }
#endif
  var acc: array<array<f32, TN>, TM>;
#if QUANT
  // a is Q8_0 or Q4_0 (BS bytes per block: an f16 scale, then QW words of
  // quants). Per block and row: one load for the scale word, then one per
  // quant word, carrying the previous word to realign blocks that start in
  // the middle of a word.
  for (var k = 0u; k < P.ne_a.x; k += 32u) {
    var sc: array<f32, TM>;
    var carry: array<u32, TM>;
    var wi: array<u32, TM>;
    var aligned: array<bool, TM>;
    for (var s = 0u; s < TM; s++) {
      let o = ar[s] + (k / 32u) * BS;
      wi[s] = o >> 2u;
      carry[s] = rw_a(wi[s]);
      sc[s] = unpack2x16float(carry[s] >> ((o & 2u) * 8u)).x;
      aligned[s] = (o & 2u) != 0u;
    }
    for (var c = 0u; c < QW; c++) {
#if Q4
      let blo = loadb(k + 4u * c);
      let bhi = loadb(k + 16u + 4u * c);
#else
      let bv = loadb(k + 4u * c);
#endif
      for (var s = 0u; s < TM; s++) {
        let nw = rw_a(wi[s] + 1u + c);
        let w = select((carry[s] >> 16u) | (nw << 16u), nw, aligned[s]);
        carry[s] = nw;
#if Q4
        let lo = (q4vec(w) - vec4<f32>(8.0)) * sc[s];
        let hi = (q4vec(w >> 4u) - vec4<f32>(8.0)) * sc[s];
        for (var t = 0u; t < TN; t++) { acc[s][t] += dot(lo, blo[t]) + dot(hi, bhi[t]); }
#else
        let av = q8vec(w) * sc[s];
        for (var t = 0u; t < TN; t++) { acc[s][t] += dot(av, bv[t]); }
#endif
      }
    }
  }
#else
#if H8
  // 16-bit weights, eight per load (K % 8 == 0, rows 16-byte aligned).
  for (var k = 0u; k < P.ne_a.x; k += 8u) {
    let bl = loadb(k);
    let bh = loadb(k + 4u);
    for (var s = 0u; s < TM; s++) {
      let av = ld8_a(ar[s], k);
      for (var t = 0u; t < TN; t++) { acc[s][t] += dot(av[0], bl[t]) + dot(av[1], bh[t]); }
    }
  }
#else
  for (var k = 0u; k < P.ne_a.x; k += 4u) {
    let bv = loadb(k);
    for (var s = 0u; s < TM; s++) {
      let av = ld4_a(ar[s], k);
      for (var t = 0u; t < TN; t++) { acc[s][t] += dot(av, bv[t]); }
    }
  }
#endif
#endif
  let dbase = P.off.x + i2 * P.nb_d.z + i3 * P.nb_d.w;
  for (var s = 0u; s < TM; s++) {
    if (i0 + s >= P.ne_d.x) { break; }
    for (var t = 0u; t < TN; t++) {
      if (j0 + t >= P.ne_d.y) { break; }
      st_d(dbase + (i0 + s) * P.nb_d.x + (j0 + t) * P.nb_d.y, acc[s][t] + addend(i0 + s, j0 + t, i2, i3));
    }
  }
}
