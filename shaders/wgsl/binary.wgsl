// ADD, SUB, MUL, DIV (OP 0..3): d = a op b, b broadcast over a.
@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let i = gidx(wid, nwg, li);
  if (i >= P.n.x) { return; }
  let c = unravel(i, P.ne_d);
  let cb = c % P.ne_b;
  let x = lde_a(P.off.y + rowoff(c, P.nb_a), c.x);
  let y = lde_b(P.off.z + rowoff(cb, P.nb_b), cb.x);
  var r: f32;
  switch OP {
    case 0u: { r = x + y; }
    case 1u: { r = x - y; }
    case 2u: { r = x * y; }
    default: { r = x / y; }
  }
  st_d(P.off.x + rowoff(c, P.nb_d) + c.x * P.nb_d.x, r);
}
