// Helpers shared by every WebGPU kernel; appended after the kernel's own code.

// gidx is the linear invocation index over a grid that may wrap into y and z
// (dispatches are limited to maxComputeWorkgroupsPerDimension per axis).
fn gidx(wid: vec3<u32>, nwg: vec3<u32>, li: u32) -> u32 {
  return ((wid.z * nwg.y + wid.y) * nwg.x + wid.x) * WG + li;
}

// group is the linear workgroup index.
fn group(wid: vec3<u32>, nwg: vec3<u32>) -> u32 {
  return (wid.z * nwg.y + wid.y) * nwg.x + wid.x;
}

// unravel splits a linear element index into coordinates of shape ne.
fn unravel(i: u32, ne: vec4<u32>) -> vec4<u32> {
  let i0 = i % ne.x;
  let r1 = i / ne.x;
  let i1 = r1 % ne.y;
  let r2 = r1 / ne.y;
  let i2 = r2 % ne.z;
  return vec4<u32>(i0, i1, i2, r2 / ne.z);
}

// rowoff is the byte offset of row (c.y, c.z, c.w) for strides nb.
fn rowoff(c: vec4<u32>, nb: vec4<u32>) -> u32 {
  return c.y * nb.y + c.z * nb.z + c.w * nb.w;
}

// f16bits converts to IEEE half bits, rounding to nearest.
fn f16bits(v: f32) -> u32 {
  return pack2x16float(vec2<f32>(v, 0.0)) & 0xffffu;
}

// bf16bits converts to bfloat16 bits, rounding to nearest even, as ggml.
fn bf16bits(v: f32) -> u32 {
  let b = bitcast<u32>(v);
  if ((b & 0x7fffffffu) > 0x7f800000u) { return (b >> 16u) | 64u; }
  return (b + (0x7fffu + ((b >> 16u) & 1u))) >> 16u;
}

// round_away rounds half away from zero, as C's roundf.
fn round_away(v: f32) -> f32 {
  return sign(v) * floor(abs(v) + 0.5);
}

// tanh_safe is tanh without the overflow of exp(2x) for large |x|.
fn tanh_safe(x: f32) -> f32 {
  let e = exp(-2.0 * abs(x));
  return sign(x) * (1.0 - e) / (1.0 + e);
}

fn neg_inf() -> f32 {
  return bitcast<f32>(0xff800000u);
}

// unravel_row gives the coordinates (0, i1, i2, i3) of row r of shape ne.
fn unravel_row(r: u32, ne: vec4<u32>) -> vec4<u32> {
  let i1 = r % ne.y;
  let r2 = r / ne.y;
  return vec4<u32>(0u, i1, r2 % ne.z, r2 / ne.z);
}

// q8vec converts 4 packed int8 quants to floats.
fn q8vec(w: u32) -> vec4<f32> {
  let x = bitcast<i32>(w);
  return vec4<f32>(f32(extractBits(x, 0u, 8u)), f32(extractBits(x, 8u, 8u)), f32(extractBits(x, 16u, 8u)), f32(extractBits(x, 24u, 8u)));
}

// q4vec converts the low nibbles of 4 packed bytes to floats (0..15).
fn q4vec(w: u32) -> vec4<f32> {
  let x = w & 0x0f0f0f0fu;
  return vec4<f32>(f32(x & 0xffu), f32((x >> 8u) & 0xffu), f32((x >> 16u) & 0xffu), f32(x >> 24u));
}

// bytes4 splits a word into its four bytes.
fn bytes4(w: u32) -> vec4<u32> {
  return (vec4<u32>(w) >> vec4<u32>(0u, 8u, 16u, 24u)) & vec4<u32>(0xffu);
}

// qelems and qbytes are a block type's elements and bytes per block
// (the types of dequant.wgsl).
fn qelems(t: u32) -> u32 {
  switch (t) {
    case DT_Q2_K, DT_Q3_K, DT_Q4_K, DT_Q5_K, DT_Q6_K, DT_IQ4_XS, DT_TQ1_0, DT_TQ2_0: { return 256u; }
    default: { return 32u; }
  }
}

fn qbytes(t: u32) -> u32 {
  switch (t) {
    case DT_Q4_1: { return 20u; }
    case DT_Q5_0: { return 22u; }
    case DT_Q5_1: { return 24u; }
    case DT_Q2_K: { return 84u; }
    case DT_Q3_K: { return 110u; }
    case DT_Q4_K: { return 144u; }
    case DT_Q5_K: { return 176u; }
    case DT_Q6_K: { return 210u; }
    case DT_IQ4_NL: { return 18u; }
    case DT_IQ4_XS: { return 136u; }
    case DT_TQ1_0: { return 54u; }
    case DT_TQ2_0: { return 66u; }
    case DT_MXFP4: { return 17u; }
    default: { return 0u; }
  }
}
