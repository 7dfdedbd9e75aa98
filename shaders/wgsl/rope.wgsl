// ROPE: one invocation per pair of each row of a ([head_dim, heads, tokens,
// ne3]). theta_i = pos[i2]·fp.y·fp.x^(-2i/n_dims) for i < n_dims/2; mode 0
// (normal) rotates (x[2i], x[2i+1]), NEOX (x[i], x[i+n_dims/2]); elements
// from n_dims on pass through. ip.x = n_dims, fp.x = freq_base, fp.y =
// freq_scale, n.y = pairs per row.
@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let i = gidx(wid, nwg, li);
  if (i >= P.n.x) { return; }
  let pr = i % P.n.y;
  let c = unravel_row(i / P.n.y, P.ne_a);
  let ro = P.off.y + rowoff(c, P.nb_a);
  let dro = P.off.x + rowoff(c, P.nb_d);
  let nd = u32(P.ip.x);
  let half = nd / 2u;
  if (pr < half) {
#if NEOX
    let j = pr;
    let k = pr + half;
#else
    let j = 2u * pr;
    let k = j + 1u;
#endif
    let pos = f32(ldi_b(P.off.z + c.z * P.nb_b.x));
    let theta = pos * P.fp.y * pow(P.fp.x, -2.0 * f32(pr) / f32(nd));
    let cs = cos(theta);
    let sn = sin(theta);
    let x0 = lde_a(ro, j);
    let x1 = lde_a(ro, k);
    st_d(dro + j * P.nb_d.x, x0 * cs - x1 * sn);
    st_d(dro + k * P.nb_d.x, x0 * sn + x1 * cs);
  } else {
    let j = 2u * pr;
    st_d(dro + j * P.nb_d.x, lde_a(ro, j));
    if (j + 1u < P.ne_a.x) { st_d(dro + (j + 1u) * P.nb_d.x, lde_a(ro, j + 1u)); }
  }
}
