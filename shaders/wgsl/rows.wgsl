// SUM_ROWS and MEAN: one workgroup per row of a. ALL (SUM): one workgroup
// adds every element of a.
var<workgroup> red: array<f32, WG>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let r = group(wid, nwg);
  if (r >= P.n.x) { return; }
  var s = 0.0;
#if ALL
  let c = vec4<u32>(0u);
  let total = P.ne_a.x * P.ne_a.y * P.ne_a.z * P.ne_a.w;
  for (var i = li; i < total; i += WG) {
    let e = unravel(i, P.ne_a);
    s += lde_a(P.off.y + rowoff(e, P.nb_a), e.x);
  }
#else
  let c = unravel_row(r, P.ne_a);
  let ro = P.off.y + rowoff(c, P.nb_a);
  for (var k = li; k < P.ne_a.x; k += WG) { s += lde_a(ro, k); }
#endif
  red[li] = s;
  workgroupBarrier();
  for (var w = WG / 2u; w > 0u; w >>= 1u) {
    if (li < w) { red[li] += red[li + w]; }
    workgroupBarrier();
  }
  if (li == 0u) {
    var v = red[0];
#if MEAN
    v = v / f32(P.ne_a.x);
#endif
    st_d(P.off.x + rowoff(c, P.nb_d), v);
  }
}
