// DUP, CONT, CPY and GET_ROWS-free copies to a plain destination: element i
// of d in logical order is element i of a in logical order, converted to d's
// dtype. Shapes may differ; element counts match. INT: both are I32.
// CONT: both are contiguous and a is not quantized. VEC (with CONT): four
// elements per invocation through 4-vector bindings.
@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let i = gidx(wid, nwg, li);
  if (i >= P.n.x) { return; }
#if VEC
  let e = i * 4u;
  st4_d(P.off.x + e * P.nb_d.x, ld4_a(P.off.y + e * P.nb_a.x, 0u));
#else
#if CONT
  let so = P.off.y + i * P.nb_a.x;
  let to = P.off.x + i * P.nb_d.x;
#if INT
  sti_d(to, ldi_a(so));
#else
  st_d(to, ld_a(so));
#endif
#else
  let s = unravel(i, P.ne_a);
  let t = unravel(i, P.ne_d);
  let so = P.off.y + rowoff(s, P.nb_a);
  let to = P.off.x + rowoff(t, P.nb_d) + t.x * P.nb_d.x;
#if INT
  sti_d(to, ldei_a(so, s.x));
#else
  st_d(to, lde_a(so, s.x));
#endif
#endif
#endif
}
