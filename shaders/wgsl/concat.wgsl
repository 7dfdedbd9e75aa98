// CONCAT of a and b along dimension ip.x. INT: I32 tensors.
@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let i = gidx(wid, nwg, li);
  if (i >= P.n.x) { return; }
  let c = unravel(i, P.ne_d);
  let to = P.off.x + rowoff(c, P.nb_d) + c.x * P.nb_d.x;
  let dim = u32(P.ip.x);
  var s = c;
  let fromA = c[dim] < P.ne_a[dim];
#if INT
  var v: i32;
  if (fromA) {
    v = ldei_a(P.off.y + rowoff(s, P.nb_a), s.x);
  } else {
    s[dim] -= P.ne_a[dim];
    v = ldei_b(P.off.z + rowoff(s, P.nb_b), s.x);
  }
  sti_d(to, v);
#else
  var v: f32;
  if (fromA) {
    v = lde_a(P.off.y + rowoff(s, P.nb_a), s.x);
  } else {
    s[dim] -= P.ne_a[dim];
    v = lde_b(P.off.z + rowoff(s, P.nb_b), s.x);
  }
  st_d(to, v);
#endif
}
