// MUL_MAT, the general kernel: one invocation per element of d
// ([M, N, ne12, ne13]); d[i, j] = sum_k a[k, i] * b[k, j]. a is broadcast
// over b's dims 2 and 3: a's matrix is (i2 / ip.x, i3 / ip.y). Any dtype and
// strides.
// bias is what a fused ADD (BIAS) adds to row i of d: element i of c.
fn bias(i: u32) -> f32 {
#if BIAS
  return lde_c(P.off.w, i);
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
  st_d(P.off.x + rowoff(c, P.nb_d) + c.x * P.nb_d.x, s + bias(c.x));
}
