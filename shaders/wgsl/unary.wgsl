// Elementwise d = f(a). OP: 0 SCALE (x*fp.x + fp.y), 1 SQR, 2 SQRT,
// 3 CLAMP [fp.x, fp.y], 4 SILU, 5 GELU (tanh approximation), 6 RELU, 7 TANH,
// 8 SIGMOID, 9 EXP, 10 NEG, 11 DIAG_MASK_INF (ip.x = n_past), 12 GELU_ERF. CONT: d and
// a are contiguous (not for DIAG_MASK_INF, which needs coordinates). VEC
// (with CONT): four elements per invocation through 4-vector bindings.
#if VEC
alias V = vec4<f32>;
#else
alias V = f32;
#endif

fn th(x: V) -> V {
  let e = exp(-2.0 * abs(x));
  return sign(x) * (1.0 - e) / (1.0 + e);
}

// erf_a is Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7):
// WGSL has no erf.
fn erf_a(x: V) -> V {
  let t = 1.0 / (1.0 + 0.3275911 * abs(x));
  let y = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  return sign(x) * (1.0 - y * exp(-x * x));
}

fn f(x: V) -> V {
  switch OP {
    case 0u: { return x * P.fp.x + P.fp.y; }
    case 1u: { return x * x; }
    case 2u: { return sqrt(x); }
    case 3u: { return clamp(x, V(P.fp.x), V(P.fp.y)); }
    case 4u: { return x / (1.0 + exp(-x)); }
    case 5u: { return 0.5 * x * (1.0 + th(0.7978845608028654 * x * (1.0 + 0.044715 * x * x))); }
    case 6u: { return max(x, V(0.0)); }
    case 7u: { return th(x); }
    case 8u: { return 1.0 / (1.0 + exp(-x)); }
    case 9u: { return exp(x); }
    case 12u: { return 0.5 * x * (1.0 + erf_a(x * 0.7071067811865476)); }
    default: { return -x; }
  }
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let i = gidx(wid, nwg, li);
  if (i >= P.n.x) { return; }
#if CONT
#if VEC
  let e = i * 4u;
  st4_d(P.off.x + e * P.nb_d.x, f(ld4_a(P.off.y + e * P.nb_a.x, 0u)));
#else
  st_d(P.off.x + i * P.nb_d.x, f(ld_a(P.off.y + i * P.nb_a.x)));
#endif
#else
  let c = unravel(i, P.ne_d);
  let x = lde_a(P.off.y + rowoff(c, P.nb_a), c.x);
  var r: f32;
  if (OP == 11u) {
    r = x;
    if (i32(c.x) > P.ip.x + i32(c.y)) { r = neg_inf(); }
  } else {
    r = f(x);
  }
  st_d(P.off.x + rowoff(c, P.nb_d) + c.x * P.nb_d.x, r);
#endif
}
