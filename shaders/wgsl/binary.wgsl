// OP (opcodes.wgsl): BINARY_ADD, SUB, MUL, DIV: d = a op b, b broadcast over
// a; the GLUs BINARY_SWIGLU (silu(a)·b) and GEGLU (gelu_tanh(a)·b), a and b
// of one shape. CONT: d and
// a are contiguous and b is contiguous and repeats every n.y elements (0:
// b is as large as a), so offsets need no coordinates. VEC (with CONT):
// four elements per invocation through 4-vector bindings.
@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let i = gidx(wid, nwg, li);
  if (i >= P.n.x) { return; }
#if CONT
#if VEC
  let e = i * 4u;
#else
  let e = i;
#endif
  var be = e;
  if (P.n.y != 0u) { be = e % P.n.y; }
  let ao = P.off.y + e * P.nb_a.x;
  let bo = P.off.z + be * P.nb_b.x;
  let dst = P.off.x + e * P.nb_d.x;
#else
  let c = unravel(i, P.ne_d);
  let cb = c % P.ne_b;
  let ao = P.off.y + rowoff(c, P.nb_a) + c.x * P.nb_a.x;
  let bo = P.off.z + rowoff(cb, P.nb_b) + cb.x * P.nb_b.x;
  let dst = P.off.x + rowoff(c, P.nb_d) + c.x * P.nb_d.x;
#endif
#if VEC
  let x = ld4_a(ao, 0u);
  let y = ld4_b(bo, 0u);
  var r: vec4<f32>;
#else
  let x = ld_a(ao);
  let y = ld_b(bo);
  var r: f32;
#endif
  switch OP {
    case BINARY_ADD: { r = x + y; }
    case BINARY_SUB: { r = x - y; }
    case BINARY_MUL: { r = x * y; }
    case BINARY_SWIGLU: { r = x / (1.0 + exp(-x)) * y; }
    case BINARY_GEGLU: {
      let u = 0.7978845608028654 * x * (1.0 + 0.044715 * x * x);
      let e = exp(-2.0 * abs(u));
      r = 0.5 * x * (1.0 + sign(u) * (1.0 - e) / (1.0 + e)) * y;
    }
    default: { r = x / y; }
  }
#if VEC
  st4_d(dst, r);
#else
  st_d(dst, r);
#endif
}
