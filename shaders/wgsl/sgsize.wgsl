// Reports the subgroup size each invocation sees (run once per device, to
// specialize kernels that share loads across a subgroup).
@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) li: u32, @builtin(subgroup_size) sgs: u32) {
  sti_d(P.off.x + li * 4u, i32(sgs));
}
