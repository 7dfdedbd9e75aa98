// GET_ROWS: d[:, j, i2, i3] = a[:, b[j, i2, i3], i2, i3]. An index outside
// a's rows gives zeros and sets the device's error flag c (checked at
// Synchronize). INT: a and d are I32.
@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let i = gidx(wid, nwg, li);
  if (i >= P.n.x) { return; }
  let c = unravel(i, P.ne_d);
  let row = ldi_b(P.off.z + c.y * P.nb_b.x + c.z * P.nb_b.y + c.w * P.nb_b.z);
  let to = P.off.x + rowoff(c, P.nb_d) + c.x * P.nb_d.x;
  let ok = row >= 0 && u32(row) < P.ne_a.y;
  if (!ok) { sti_c(P.off.w, 1); }
  let so = P.off.y + u32(row) * P.nb_a.y + c.z * P.nb_a.z + c.w * P.nb_a.w;
#if INT
  var v = 0;
  if (ok) { v = ldei_a(so, c.x); }
  sti_d(to, v);
#else
  var v = 0.0;
  if (ok) { v = lde_a(so, c.x); }
  st_d(to, v);
#endif
}
