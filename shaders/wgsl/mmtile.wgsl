// MUL_MAT with workgroup-memory tiles, for GPUs: workgroup (x, y) computes
// the BM×BN block of d at rows n.y + x*BM (of a) and columns y*BN (of b),
// stepping K by BK. Per step the workgroup stages a BK×BM tile of a and a
// BK×BN tile of b in workgroup memory, four values of one row per load
// (ld4: one vec4 load for V4 bindings; Q8_0 and Q4_0 dequantized on the
// way), then each invocation adds the products of its TM×TN block, read
// as vectors of 4 rows (columns): with ty = li % NY and tx = li / NY, row
// vectors ty, ty + NY, ... and column vectors tx, tx + NX, ... Tiles are
// k-major (the BM values of one k are contiguous), so those reads are
// whole vectors and neighbouring invocations read neighbouring vectors,
// free of bank conflicts for any TM. Tile rows are padded by PAD floats (a
// multiple of 4) so that the stores of a subgroup spanning two tile rows
// of a narrow tile fall in different banks. Rows past M and columns past
// N load clamped and are never stored; k past K loads zeros. Unit-stride
// rows, K % 4 == 0. z = i2 + ne12*i3; a's matrix is (i2 / ip.x, i3 / ip.y).
const SA: u32 = BM + PAD;
const SB: u32 = BN + PAD;
const NY: u32 = BM / TM; // invocations along the rows
const NX: u32 = BN / TN;
var<workgroup> ta: array<vec4<f32>, BK * SA / 4u>;
var<workgroup> tb: array<vec4<f32>, BK * SB / 4u>;

// addend is what a fused ADD (ADDEND) adds to d[i, j, i2, i3]: that
// element of c (a bias or a residual; nb_c is 0 where c broadcasts).
fn addend(i: u32, j: u32, i2: u32, i3: u32) -> f32 {
#if ADDEND
  return ld_c(P.off.w + i * P.nb_c.x + j * P.nb_c.y + i2 * P.nb_c.z + i3 * P.nb_c.w);
#else
  return 0.0;
#endif
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let row0 = P.n.y + wid.x * BM;
  let col0 = wid.y * BN;
  let i2 = wid.z % P.ne_d.z;
  let i3 = wid.z / P.ne_d.z;
  let abase = P.off.y + (i2 / u32(P.ip.x)) * P.nb_a.z + (i3 / u32(P.ip.y)) * P.nb_a.w;
  let bbase = P.off.z + i2 * P.nb_b.z + i3 * P.nb_b.w;
  let kn = P.ne_a.x;
  let ty = li % NY;
  let tx = li / NY;
  // acc[4w + c][q]: rows 4(q*NY + ty).. +3, column 4(w*NX + tx) + c.
  var acc: array<array<vec4<f32>, TM / 4u>, TN>;
  for (var k0 = 0u; k0 < kn; k0 += BK) {
    for (var u = li; u < BM * BK / 4u; u += WG) {
      let m = u % BM;
      let kq = u / BM;
      var v = vec4<f32>(0.0);
      if (k0 + 4u * kq < kn) { v = ld4_a(abase + min(row0 + m, P.ne_d.x - 1u) * P.nb_a.y, k0 + 4u * kq); }
      let o = 4u * kq * (SA / 4u) + m / 4u;
      ta[o][m % 4u] = v.x;
      ta[o + SA / 4u][m % 4u] = v.y;
      ta[o + 2u * (SA / 4u)][m % 4u] = v.z;
      ta[o + 3u * (SA / 4u)][m % 4u] = v.w;
    }
    for (var u = li; u < BN * BK / 4u; u += WG) {
      let n = u % BN;
      let kq = u / BN;
      var v = vec4<f32>(0.0);
      if (k0 + 4u * kq < kn) { v = ld4_b(bbase + min(col0 + n, P.ne_d.y - 1u) * P.nb_b.y, k0 + 4u * kq); }
      let o = 4u * kq * (SB / 4u) + n / 4u;
      tb[o][n % 4u] = v.x;
      tb[o + SB / 4u][n % 4u] = v.y;
      tb[o + 2u * (SB / 4u)][n % 4u] = v.z;
      tb[o + 3u * (SB / 4u)][n % 4u] = v.w;
    }
    workgroupBarrier();
    for (var kk = 0u; kk < BK; kk++) {
      var av: array<vec4<f32>, TM / 4u>;
      for (var q = 0u; q < TM / 4u; q++) { av[q] = ta[kk * (SA / 4u) + q * NY + ty]; }
      for (var w = 0u; w < TN / 4u; w++) {
        let bv = tb[kk * (SB / 4u) + w * NX + tx];
        for (var c = 0u; c < 4u; c++) {
          for (var q = 0u; q < TM / 4u; q++) { acc[4u * w + c][q] = fma(av[q], vec4<f32>(bv[c]), acc[4u * w + c][q]); }
        }
      }
    }
    workgroupBarrier();
  }
  let dbase = P.off.x + i2 * P.nb_d.z + i3 * P.nb_d.w;
  // i and j grow with s and t, so the first one past the edge ends the loop.
  for (var t = 0u; t < TN; t++) {
    let j = col0 + 4u * ((t / 4u) * NX + tx) + t % 4u;
    if (j >= P.ne_d.y) { break; }
    for (var s = 0u; s < TM; s++) {
      let i = row0 + 4u * ((s / 4u) * NY + ty) + s % 4u;
      if (i >= P.ne_d.x) { break; }
      st_d(dbase + i * P.nb_d.x + j * P.nb_d.y, acc[t][s / 4u][s % 4u] + addend(i, j, i2, i3));
    }
  }
}
