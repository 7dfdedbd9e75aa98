// SET_ROWS: row j of a (at [j, i2, i3]) is written to row b[j, i2 mod
// b.ne1, i3 mod b.ne2] of d (at [·, i2, i3]). Indices outside d's rows are
// skipped and set the device's error flag c (checked at Synchronize). QUANT: d is quantized (blocks of QK); one invocation per destination block.
@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let i = gidx(wid, nwg, li);
  if (i >= P.n.x) { return; }
#if QUANT
  let nbr = P.ne_a.x / QK;
  let c = unravel_row(i / nbr, P.ne_a);
  let k0 = (i % nbr) * QK;
#else
  let c = unravel(i, P.ne_a);
#endif
  let row = ldi_b(P.off.z + c.y * P.nb_b.x + (c.z % P.ne_b.y) * P.nb_b.y + (c.w % P.ne_b.z) * P.nb_b.z);
  if (row < 0 || u32(row) >= P.ne_d.y) { sti_c(P.off.w, 2); return; }
  let so = P.off.y + rowoff(c, P.nb_a);
  let to = P.off.x + u32(row) * P.nb_d.y + c.z * P.nb_d.z + c.w * P.nb_d.w;
#if QUANT
  var x: array<f32, QK>;
  for (var j = 0u; j < QK; j++) { x[j] = lde_a(so, k0 + j); }
  stq_d(to + (k0 / QK) * P.nb_d.x, &x);
#else
  st_d(to + c.x * P.nb_d.x, lde_a(so, c.x));
#endif
}
