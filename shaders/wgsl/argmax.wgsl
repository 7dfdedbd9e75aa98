// ARGMAX of each row of matrix a: the index of the first largest value; NaNs
// never win and a row with nothing above -Inf gives 0. One workgroup per row.
var<workgroup> rv: array<f32, WG>;
var<workgroup> ri: array<u32, WG>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let r = group(wid, nwg);
  if (r >= P.n.x) { return; }
  let ro = P.off.y + r * P.nb_a.y;
  var best = neg_inf();
  var idx = 0xffffffffu;
  for (var k = li; k < P.ne_a.x; k += WG) {
    let v = lde_a(ro, k);
    if (v > best) { best = v; idx = k; }
  }
  rv[li] = best;
  ri[li] = idx;
  workgroupBarrier();
  for (var w = WG / 2u; w > 0u; w >>= 1u) {
    if (li < w) {
      let v = rv[li + w];
      let j = ri[li + w];
      if (v > rv[li] || (v == rv[li] && j < ri[li])) { rv[li] = v; ri[li] = j; }
    }
    workgroupBarrier();
  }
  if (li == 0u) {
    var k = ri[0];
    if (k == 0xffffffffu) { k = 0u; }
    sti_d(P.off.x + r * P.nb_d.x, i32(k));
  }
}
