// Elementwise d = f(a). OP (opcodes.wgsl): UNARY_SCALE (x*fp.x + fp.y), SQR,
// SQRT, CLAMP [fp.x, fp.y], SILU, GELU (tanh approximation), GELU_ERF, RELU,
// TANH, SIGMOID, EXP, NEG, DIAG_MASK_INF (ip.x = n_past). CONT: d and
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
    case UNARY_SCALE: { return x * P.fp.x + P.fp.y; }
    case UNARY_SQR: { return x * x; }
    case UNARY_SQRT: { return sqrt(x); }
    case UNARY_CLAMP: { return clamp(x, V(P.fp.x), V(P.fp.y)); }
    case UNARY_SILU: { return x / (1.0 + exp(-x)); }
    case UNARY_GELU: { return 0.5 * x * (1.0 + th(0.7978845608028654 * x * (1.0 + 0.044715 * x * x))); }
    case UNARY_RELU: { return max(x, V(0.0)); }
    case UNARY_TANH: { return th(x); }
    case UNARY_SIGMOID: { return 1.0 / (1.0 + exp(-x)); }
    case UNARY_EXP: { return exp(x); }
    case UNARY_GELU_ERF: { return 0.5 * x * (1.0 + erf_a(x * 0.7071067811865476)); }
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
  if (OP == UNARY_DIAG_MASK_INF) {
    r = x;
    if (i32(c.x) > P.ip.x + i32(c.y)) { r = neg_inf(); }
  } else {
    r = f(x);
  }
  st_d(P.off.x + rowoff(c, P.nb_d) + c.x * P.nb_d.x, r);
#endif
}
