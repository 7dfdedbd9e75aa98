// ARGMAX of each row of matrix a: the index of the first largest value; NaNs
// never win and a row with nothing above -Inf gives 0. One workgroup per
// row, or with ROWPER one invocation per row (see rows.wgsl).
var<workgroup> rv: array<f32, WG>;
var<workgroup> ri: array<u32, WG>;

fn wbest(li: u32, v: f32, i: u32) -> u32 {
#if ROWPER
  return i;
#else
  rv[li] = v;
  ri[li] = i;
  workgroupBarrier();
  for (var w = WG / 2u; w > 0u; w >>= 1u) {
    if (li < w) {
      let x = rv[li + w];
      let j = ri[li + w];
      if (x > rv[li] || (x == rv[li] && j < ri[li])) { rv[li] = x; ri[li] = j; }
    }
    workgroupBarrier();
  }
  return workgroupUniformLoad(&ri[0]);
#endif
}

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
  let ro = P.off.y + r * P.nb_a.y;
  var best = neg_inf();
  var idx = 0xffffffffu;
  for (var k = k0; k < P.ne_a.x; k += ks) {
    let v = lde_a(ro, k);
    if (v > best) { best = v; idx = k; }
  }
  idx = wbest(li, best, idx);
  if (lead) {
    if (idx == 0xffffffffu) { idx = 0u; }
    sti_d(P.off.x + r * P.nb_d.x, i32(idx));
  }
}
