// Quantizers for a written binding `$` of a block dtype of dequant.wgsl
// (appended by wgpu/shadergen.go with `$` replaced by the binding's name):
// stq_$(o, &x) encodes 32 values as one Q4_1, Q5_0 or Q5_1 block at byte
// offset o with ggml's reference arithmetic (its quantize_row_*_ref).
// Needs dt_$, sth_$ and stw2_$.

// stq5_$ writes the fifth bits (at qh) and 16 quant bytes (at qs) of a
// Q5_0 or Q5_1 block from its 32 codes.
fn stq5_$(qh: u32, qs: u32, q: ptr<function, array<u32, 32>>) {
  var h = 0u;
  for (var j = 0u; j < 16u; j++) { h |= (((*q)[j] >> 4u) << j) | (((*q)[j + 16u] >> 4u) << (j + 16u)); }
  sth_$(qh, h & 0xffffu);
  sth_$(qh + 2u, h >> 16u);
  for (var j = 0u; j < 16u; j += 4u) {
    var w = 0u;
    for (var t = 0u; t < 4u; t++) { w |= (((*q)[j + t] & 15u) | (((*q)[j + t + 16u] & 15u) << 4u)) << (8u * t); }
    stw2_$(qs + j, w);
  }
}

fn stq_$(o: u32, x: ptr<function, array<f32, 32>>) {
  let t = dt_$();
  var q: array<u32, 32>;
  if (t == DT_Q5_0) { // Q5_0: d = max / -16 (max: the value of largest magnitude)
    var amax = 0.0;
    var vmax = 0.0;
    for (var j = 0u; j < 32u; j++) { let v = (*x)[j]; if (abs(v) > amax) { amax = abs(v); vmax = v; } }
    let d = vmax / -16.0;
    var id = 0.0;
    if (d != 0.0) { id = 1.0 / d; }
    sth_$(o, f16bits(d));
    for (var j = 0u; j < 32u; j++) { q[j] = min(31u, u32((*x)[j] * id + 16.5)); }
    stq5_$(o + 2u, o + 6u, &q);
    return;
  }
  // Q4_1, Q5_1: d = (max - min) / levels, codes round (x - min) / d.
  var lo = (*x)[0];
  var hi = (*x)[0];
  for (var j = 1u; j < 32u; j++) { lo = min(lo, (*x)[j]); hi = max(hi, (*x)[j]); }
  let d = (hi - lo) / select(31.0, 15.0, t == DT_Q4_1);
  var id = 0.0;
  if (d != 0.0) { id = 1.0 / d; }
  sth_$(o, f16bits(d));
  sth_$(o + 2u, f16bits(lo));
  for (var j = 0u; j < 32u; j++) { q[j] = u32(((*x)[j] - lo) * id + 0.5); }
  if (t == DT_Q5_1) {
    stq5_$(o + 4u, o + 8u, &q);
    return;
  }
  for (var j = 0u; j < 16u; j += 4u) {
    var w = 0u;
    for (var k = 0u; k < 4u; k++) { w |= (min(15u, q[j + k]) | (min(15u, q[j + k + 16u]) << 4u)) << (8u * k); }
    stw2_$(o + 4u + j, w);
  }
}
