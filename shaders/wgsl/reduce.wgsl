// Workgroup reductions for the row kernels (norm, rows, softmax), appended
// to a kernel that calls them. With ROWPER each invocation owns a whole row,
// so a reduction over the "workgroup" is just the invocation's own value.
var<workgroup> red: array<f32, WG>;

fn wsum(li: u32, v: f32) -> f32 {
#if ROWPER
  return v;
#else
  red[li] = v;
  workgroupBarrier();
  for (var w = WG / 2u; w > 0u; w >>= 1u) {
    if (li < w) { red[li] += red[li + w]; }
    workgroupBarrier();
  }
  return workgroupUniformLoad(&red[0]);
#endif
}

fn wmax(li: u32, v: f32) -> f32 {
#if ROWPER
  return v;
#else
  red[li] = v;
  workgroupBarrier();
  for (var w = WG / 2u; w > 0u; w >>= 1u) {
    if (li < w) { red[li] = max(red[li], red[li + w]); }
    workgroupBarrier();
  }
  return workgroupUniformLoad(&red[0]);
#endif
}
