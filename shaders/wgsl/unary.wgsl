// Elementwise d = f(a). OP: 0 SCALE (x*fp.x + fp.y), 1 SQR, 2 SQRT,
// 3 CLAMP [fp.x, fp.y], 4 SILU, 5 GELU (tanh approximation), 6 RELU, 7 TANH,
// 8 SIGMOID, 9 EXP, 10 NEG, 11 DIAG_MASK_INF (ip.x = n_past).
@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let i = gidx(wid, nwg, li);
  if (i >= P.n.x) { return; }
  let c = unravel(i, P.ne_d);
  let x = lde_a(P.off.y + rowoff(c, P.nb_a), c.x);
  var r: f32;
  switch OP {
    case 0u: { r = x * P.fp.x + P.fp.y; }
    case 1u: { r = x * x; }
    case 2u: { r = sqrt(x); }
    case 3u: { r = clamp(x, P.fp.x, P.fp.y); }
    case 4u: { r = x / (1.0 + exp(-x)); }
    case 5u: { r = 0.5 * x * (1.0 + tanh_safe(0.7978845608028654 * x * (1.0 + 0.044715 * x * x))); }
    case 6u: { r = max(x, 0.0); }
    case 7u: { r = tanh_safe(x); }
    case 8u: { r = 1.0 / (1.0 + exp(-x)); }
    case 9u: { r = exp(x); }
    case 10u: { r = -x; }
    default: {
      r = x;
      if (i32(c.x) > P.ip.x + i32(c.y)) { r = neg_inf(); }
    }
  }
  st_d(P.off.x + rowoff(c, P.nb_d) + c.x * P.nb_d.x, r);
}
