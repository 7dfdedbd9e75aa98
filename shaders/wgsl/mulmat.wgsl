// MUL_MAT, the general kernel: one invocation per element of d
// ([M, N, ne12, ne13]); d[i, j] = sum_k a[k, i] * b[k, j]. a is broadcast
// over b's dims 2 and 3: a's matrix is (i2 / ip.x, i3 / ip.y). Any dtype and
// strides.
// addend is what a fused ADD (ADDEND) adds to d[i, j, i2, i3]: that
// element of c (a bias or a residual; nb_c is 0 where c broadcasts).
fn addend(i: u32, j: u32, i2: u32, i3: u32) -> f32 {
#if ADDEND
  return ld_c(P.off.w + i * P.nb_c.x + j * P.nb_c.y + i2 * P.nb_c.z + i3 * P.nb_c.w);
#else
  return 0.0;
#endif
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let i = gidx(wid, nwg, li);
  if (i >= P.n.x) { return; }
  let c = unravel(i, P.ne_d);
  let ar = P.off.y + c.x * P.nb_a.y + (c.z / u32(P.ip.x)) * P.nb_a.z + (c.w / u32(P.ip.y)) * P.nb_a.w;
  let br = P.off.z + c.y * P.nb_b.y + c.z * P.nb_b.z + c.w * P.nb_b.w;
  var s = 0.0;
  for (var k = 0u; k < P.ne_a.x; k++) { s += lde_a(ar, k) * lde_b(br, k); }
  st_d(P.off.x + rowoff(c, P.nb_d) + c.x * P.nb_d.x, s + addend(c.x, c.y, c.z, c.w));
}
