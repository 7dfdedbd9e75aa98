// ROPE (ggml_rope_ext): one invocation per pair of each row of a
// ([head_dim, heads, tokens, ne3]). For i < n_dims/2, theta_extrap =
// pos[i2]·fp.x^(-2i/n_dims) (divided by the frequency factor c[i] with FF),
// theta = fp.y·theta_extrap (freq_scale), mixed with theta_extrap by YaRN's
// ramp between the correction dims bitcast(ip.y) and bitcast(ip.z) when
// fp.z (ext_factor) != 0; cos and sin are scaled by fp.w (mscale). Mode 0
// (normal) rotates (x[2i], x[2i+1]), NEOX (x[i], x[i+n_dims/2]); elements
// from n_dims on pass through. ip.x = n_dims, n.y = pairs per row.
// ROWS: ROPE + RESHAPE + SET_ROWS fused (the KV write): row c.z + c.w·ne_a.z
// of the result, its heads side by side, goes to row e[c.z + c.w·ne_a.z] of
// d; an index outside d's rows sets the device's error flag c.
@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let i = gidx(wid, nwg, li);
  if (i >= P.n.x) { return; }
  let pr = i % P.n.y;
  let c = unravel_row(i / P.n.y, P.ne_a);
  let ro = P.off.y + rowoff(c, P.nb_a);
#if ROWS
  let row = ldi_e(P.off_e.x + (c.z + c.w * P.ne_a.z) * P.nb_e.x);
  if (row < 0 || u32(row) >= P.ne_d.y) { sti_c(P.off.w, 2); return; }
  let dro = P.off.x + u32(row) * P.nb_d.y + c.y * P.ne_a.x * P.nb_d.x;
#else
  let dro = P.off.x + rowoff(c, P.nb_d);
#endif
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
    var extrap = pos * pow(P.fp.x, -2.0 * f32(pr) / f32(nd));
#if FF
    extrap /= ld_c(P.off.w + pr * P.nb_c.x);
#endif
    var theta = P.fp.y * extrap;
    if (P.fp.z != 0.0) {
      let lo = bitcast<f32>(P.ip.y);
      let hi = bitcast<f32>(P.ip.z);
      let ramp = (1.0 - clamp((f32(pr) - lo) / max(0.001, hi - lo), 0.0, 1.0)) * P.fp.z;
      theta = theta * (1.0 - ramp) + extrap * ramp;
    }
    let cs = cos(theta) * P.fp.w;
    let sn = sin(theta) * P.fp.w;
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
