// NORM ((x-mean)/sqrt(var+eps)) and, with RMS, RMS_NORM
// (x/sqrt(mean(x²)+eps)) of each row; fp.x = eps. One workgroup per row, or
// with ROWPER one invocation per row (see rows.wgsl). MULW (a fused MUL by
// the norm weight): each row times the row of b.
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
  let n = P.ne_a.x;
  var mean = 0.0;
#if !RMS
  var s = 0.0;
  for (var k = k0; k < n; k += ks) { s += lde_a(ro, k); }
  mean = wsum(li, s) / f32(n);
#endif
  var ss = 0.0;
  for (var k = k0; k < n; k += ks) { let v = lde_a(ro, k) - mean; ss += v * v; }
  let scale = 1.0 / sqrt(wsum(li, ss) / f32(n) + P.fp.x);
#if MULW
  for (var k = k0; k < n; k += ks) { st_d(dro + k * P.nb_d.x, (lde_a(ro, k) - mean) * scale * lde_b(P.off.z, k)); }
#else
  for (var k = k0; k < n; k += ks) { st_d(dro + k * P.nb_d.x, (lde_a(ro, k) - mean) * scale); }
#endif
}
