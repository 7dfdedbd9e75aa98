// MUL_MAT with few columns (matrix-vector): each workgroup computes R rows
// of NC columns j0..j0+NC-1 of d, so the weights are read once for NC
// columns. The invocations split K in chunks of 4 and add their partial
// sums in workgroup memory. K % 4 == 0, unit-stride rows. Grid: x = row
// groups, y = column group + n.z * i2 (n.z column groups), z = i3.
// Columns past N load clamped and are not stored.
// SGR: each subgroup first adds its lanes' sums (subgroupAdd), so the
// workgroup memory holds one value per subgroup, row and column, added by
// the first R*NC invocations, instead of a log2(WG)-step tree with a
// barrier per step.
var<workgroup> red: array<f32, WG * R * NC>;

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
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) li: u32,
#if SGR
        @builtin(subgroup_invocation_id) lane: u32, @builtin(subgroup_id) sg: u32,
        @builtin(num_subgroups) nsg: u32,
#endif
) {
  let r0 = wid.x * R;
  let j0 = (wid.y % P.n.z) * NC;
  let i2 = wid.y / P.n.z;
  let i3 = wid.z;
  let abase = P.off.y + (i2 / u32(P.ip.x)) * P.nb_a.z + (i3 / u32(P.ip.y)) * P.nb_a.w;
  var ar: array<u32, R>;
  for (var t = 0u; t < R; t++) { ar[t] = abase + min(r0 + t, P.ne_d.x - 1u) * P.nb_a.y; }
  var br: array<u32, NC>;
  for (var c = 0u; c < NC; c++) { br[c] = P.off.z + min(j0 + c, P.ne_d.y - 1u) * P.nb_b.y + i2 * P.nb_b.z + i3 * P.nb_b.w; }
  // acc[t * NC + c]: row r0 + t, column j0 + c.
  var acc: array<f32, R * NC>;
  for (var k = li * 4u; k < P.ne_a.x; k += WG * 4u) {
    var bv: array<vec4<f32>, NC>;
    for (var c = 0u; c < NC; c++) { bv[c] = ld4_b(br[c], k); }
    for (var t = 0u; t < R; t++) {
      let av = ld4_a(ar[t], k);
      for (var c = 0u; c < NC; c++) { acc[t * NC + c] += dot(av, bv[c]); }
    }
  }
#if SGR
  for (var v = 0u; v < R * NC; v++) {
    let s = subgroupAdd(acc[v]);
    if (lane == 0u) { red[v * WG + sg] = s; }
  }
  workgroupBarrier();
  let i = r0 + li / NC;
  let j = j0 + li % NC;
  if (li < R * NC && i < P.ne_d.x && j < P.ne_d.y) {
    var sum = 0.0;
    for (var g = 0u; g < nsg; g++) { sum += red[li * WG + g]; }
    st_d(P.off.x + i * P.nb_d.x + j * P.nb_d.y + i2 * P.nb_d.z + i3 * P.nb_d.w, sum + addend(i, j, i2, i3));
  }
#else
  for (var v = 0u; v < R * NC; v++) { red[v * WG + li] = acc[v]; }
  workgroupBarrier();
  for (var w = WG / 2u; w > 0u; w >>= 1u) {
    if (li < w) {
      for (var v = 0u; v < R * NC; v++) { red[v * WG + li] += red[v * WG + li + w]; }
    }
    workgroupBarrier();
  }
  let i = r0 + li / NC;
  let j = j0 + li % NC;
  if (li < R * NC && i < P.ne_d.x && j < P.ne_d.y) {
    st_d(P.off.x + i * P.nb_d.x + j * P.nb_d.y + i2 * P.nb_d.z + i3 * P.nb_d.w, red[li * WG] + addend(i, j, i2, i3));
  }
#endif
}
