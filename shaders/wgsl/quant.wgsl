// Copies to a quantized destination, one invocation per destination block.
// The block's 32 elements are elements e..e+31 of a in logical order.
// COPY: a has d's dtype; the block's bytes are copied unchanged.
@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let i = gidx(wid, nwg, li);
  if (i >= P.n.x) { return; }
  let e = i * 32u;
  let t = unravel(e, P.ne_d);
  let to = P.off.x + rowoff(t, P.nb_d) + (t.x / 32u) * P.nb_d.x;
#if COPY
  let s = unravel(e, P.ne_a);
  let so = P.off.y + rowoff(s, P.nb_a) + (s.x / 32u) * P.nb_a.x;
  var j = 0u;
  for (; j + 4u <= BLOCK; j += 4u) { stw2_d(to + j, ldw2_a(so + j)); }
  if (j < BLOCK) { sth_d(to + j, ldu16_a(so + j)); }
#else
  var x: array<f32, 32>;
  for (var j = 0u; j < 32u; j++) {
    let s = unravel(e + j, P.ne_a);
    x[j] = lde_a(P.off.y + rowoff(s, P.nb_a), s.x);
  }
  stq_d(to, &x);
#endif
}
