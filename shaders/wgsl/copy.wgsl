// DUP, CONT, CPY and GET_ROWS-free copies to a plain destination: element i
// of d in logical order is element i of a in logical order, converted to d's
// dtype. Shapes may differ; element counts match. INT: both are I32.
@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let i = gidx(wid, nwg, li);
  if (i >= P.n.x) { return; }
  let s = unravel(i, P.ne_a);
  let t = unravel(i, P.ne_d);
  let so = P.off.y + rowoff(s, P.nb_a);
  let to = P.off.x + rowoff(t, P.nb_d) + t.x * P.nb_d.x;
#if INT
  sti_d(to, ldei_a(so, s.x));
#else
  st_d(to, lde_a(so, s.x));
#endif
}
