// SOFT_MAX of each row of a: softmax(x*fp.x + mask), the scaled logit
// capped to fp.y·tanh(x*fp.x/fp.y) first when fp.y > 0. MASK: b is the mask,
// row i1 of matrix (i2 mod its ne2, i3 mod its ne3). A fully masked row
// (every value -Inf) becomes zeros. One workgroup per row, or with ROWPER
// one invocation per row (see rows.wgsl).
fn val(ro: u32, mo: u32, k: u32) -> f32 {
  var v = lde_a(ro, k) * P.fp.x;
  if (P.fp.y > 0.0) { v = P.fp.y * tanh_safe(v / P.fp.y); }
#if MASK
  v += lde_b(mo, k);
#endif
  return v;
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
#if ROWPER
  let r = gidx(wid, nwg, li);
  let k0 = 0u;
  let ks = 1u;
#else
  let r = group(wid, nwg);
  let k0 = li;
  let ks = WG;
#endif
  if (r >= P.n.x) { return; }
  let c = unravel_row(r, P.ne_a);
  let ro = P.off.y + rowoff(c, P.nb_a);
  let dro = P.off.x + rowoff(c, P.nb_d);
  var mo = 0u;
#if MASK
  mo = P.off.z + c.y * P.nb_b.y + (c.z % P.ne_b.z) * P.nb_b.z + (c.w % P.ne_b.w) * P.nb_b.w;
#endif
  let n = P.ne_a.x;
  var m = neg_inf();
  for (var k = k0; k < n; k += ks) { m = max(m, val(ro, mo, k)); }
  m = wmax(li, m);
  var s = 0.0;
  for (var k = k0; k < n; k += ks) { s += exp(val(ro, mo, k) - m); }
  s = wsum(li, s);
  let masked = m == neg_inf();
  for (var k = k0; k < n; k += ks) {
    var y = 0.0;
    if (!masked) { y = exp(val(ro, mo, k) - m) / s; }
    st_d(dro + k * P.nb_d.x, y);
  }
}
