// MUL_MAT with few columns (matrix-vector): each workgroup computes R rows
// of one column j of d. The invocations split K in chunks of 4 and add
// their partial sums in workgroup memory. K % 4 == 0, unit-stride rows.
// Grid: x = row groups (n.x of them), y = j + N * i2, z = i3.
// SGR: each subgroup first adds its lanes' sums (subgroupAdd), so the
// workgroup memory holds one value per subgroup and row, added by the
// first R invocations, instead of a log2(WG)-step tree with a barrier per
// step.
var<workgroup> red: array<f32, WG * R>;

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
  let j = wid.y % P.ne_d.y;
  let i2 = wid.y / P.ne_d.y;
  let i3 = wid.z;
  let abase = P.off.y + (i2 / u32(P.ip.x)) * P.nb_a.z + (i3 / u32(P.ip.y)) * P.nb_a.w;
  let brow = P.off.z + j * P.nb_b.y + i2 * P.nb_b.z + i3 * P.nb_b.w;
  var ar: array<u32, R>;
  for (var t = 0u; t < R; t++) { ar[t] = abase + min(r0 + t, P.ne_d.x - 1u) * P.nb_a.y; }
  var acc: array<f32, R>;
  for (var k = li * 4u; k < P.ne_a.x; k += WG * 4u) {
    let bv = ld4_b(brow, k);
    for (var t = 0u; t < R; t++) { acc[t] += dot(ld4_a(ar[t], k), bv); }
  }
#if SGR
  for (var t = 0u; t < R; t++) {
    let s = subgroupAdd(acc[t]);
    if (lane == 0u) { red[t * WG + sg] = s; }
  }
  workgroupBarrier();
  if (li < R && r0 + li < P.ne_d.x) {
    var sum = 0.0;
    for (var g = 0u; g < nsg; g++) { sum += red[li * WG + g]; }
    st_d(P.off.x + (r0 + li) * P.nb_d.x + j * P.nb_d.y + i2 * P.nb_d.z + i3 * P.nb_d.w, sum + addend(r0 + li, j, i2, i3));
  }
#else
  for (var t = 0u; t < R; t++) { red[t * WG + li] = acc[t]; }
  workgroupBarrier();
  for (var w = WG / 2u; w > 0u; w >>= 1u) {
    if (li < w) {
      for (var t = 0u; t < R; t++) { red[t * WG + li] += red[t * WG + li + w]; }
    }
    workgroupBarrier();
  }
  if (li < R && r0 + li < P.ne_d.x) {
    st_d(P.off.x + (r0 + li) * P.nb_d.x + j * P.nb_d.y + i2 * P.nb_d.z + i3 * P.nb_d.w, red[li * WG] + addend(r0 + li, j, i2, i3));
  }
#endif
}
