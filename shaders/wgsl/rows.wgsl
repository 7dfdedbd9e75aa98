// SUM_ROWS and MEAN of each row of a. Rows go one per workgroup, or with
// ROWPER one per invocation, with no workgroup memory or barriers (faster on
// SIMD CPUs such as lavapipe). ALL (SUM): one workgroup adds every element.
@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
#if ROWPER
  let r = gidx(wid, nwg, li);
  let k0 = 0u;
  let ks = 1u;
  let lead = true;
#else
  let r = group(wid, nwg);
  let k0 = li;
  let ks = WG;
  let lead = li == 0u;
#endif
  if (r >= P.n.x) { return; }
  var s = 0.0;
#if ALL
  let c = vec4<u32>(0u);
  let total = P.ne_a.x * P.ne_a.y * P.ne_a.z * P.ne_a.w;
  for (var i = k0; i < total; i += ks) {
    let e = unravel(i, P.ne_a);
    s += lde_a(P.off.y + rowoff(e, P.nb_a), e.x);
  }
#else
  let c = unravel_row(r, P.ne_a);
  let ro = P.off.y + rowoff(c, P.nb_a);
  for (var k = k0; k < P.ne_a.x; k += ks) { s += lde_a(ro, k); }
#endif
  s = wsum(li, s);
  if (lead) {
#if MEAN
    s = s / f32(P.ne_a.x);
#endif
    st_d(P.off.x + rowoff(c, P.nb_d), s);
  }
}
