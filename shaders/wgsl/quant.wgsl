// Copies to a quantized destination, one invocation per destination block.
// The block's QK elements are elements e..e+QK-1 of a in logical order.
// COPY: a has d's dtype; the block's BLOCK bytes are copied unchanged.
// Otherwise d is quantized by stq_d (quantize.wgsl, quantize_k.wgsl or
// the generated Q8_0/Q4_0 prelude).
@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let i = gidx(wid, nwg, li);
  if (i >= P.n.x) { return; }
  let e = i * QK;
  let t = unravel(e, P.ne_d);
  let to = P.off.x + rowoff(t, P.nb_d) + (t.x / QK) * P.nb_d.x;
#if COPY
  let s = unravel(e, P.ne_a);
  let so = P.off.y + rowoff(s, P.nb_a) + (s.x / QK) * P.nb_a.x;
  var j = 0u;
  if ((BLOCK & 1u) != 0u) {
    // Odd-sized blocks (MXFP4) start at any byte.
    for (; j < BLOCK; j++) { stb_d(to + j, ldb_a(so + j)); }
    return;
  }
  for (; j + 4u <= BLOCK; j += 4u) { stw2_d(to + j, ldw2_a(so + j)); }
  if (j < BLOCK) { sth_d(to + j, ldu16_a(so + j)); }
#else
  var x: array<f32, QK>;
  for (var j = 0u; j < QK; j++) {
    let s = unravel(e + j, P.ne_a);
    x[j] = lde_a(P.off.y + rowoff(s, P.nb_a), s.x);
  }
  stq_d(to, &x);
#endif
}
