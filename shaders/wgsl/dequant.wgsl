// Dequantization of the block types without their own kernels (every one
// but Q8_0 and Q4_0), for a binding `$` of u32 words: the backend appends
// this file once per such binding with `$` replaced by the binding's name
// (see wgpu/shadergen.go), so the mat-vec, matmul, GET_ROWS and copy
// kernels share it. The dtype is the constant dt_$(), so that the compiler
// keeps only its case. The arithmetic is ggml's to_float, in its
// order. (WGSL cannot forbid fusing a product and a sum into one rounding
// as GLSL's `precise` does; lavapipe does not fuse them, and the ggml
// oracle test checks the values to the bit.)
//
// dq4_$(t, blk, j) returns elements j..j+3 (j % 4 == 0) of the block of
// dtype t at byte offset blk: four consecutive bytes in every layout.
// Needs the generated IQ4NL and MXFP4 tables and rw_$, ldb_$, ldu16_$, ldh_$.

// qw_$ reads the four bytes at any byte offset o.
fn qw_$(o: u32) -> u32 {
  let i = o >> 2u;
  let sh = (o & 3u) * 8u;
  if (sh == 0u) { return rw_$(i); }
  return (rw_$(i) >> sh) | (rw_$(i + 1u) << (32u - sh));
}

// qn4_$ gives the low (hi false) or high nibbles of the four bytes at o.
fn qn4_$(o: u32, hi: bool) -> vec4<u32> { return bytes4((qw_$(o) >> select(0u, 4u, hi)) & 0x0f0f0f0fu); }

// k4sm_$ is ggml's get_scale_min_k4: scale and min of sub-block j of a
// Q4_K/Q5_K block whose 12 scale bytes start at sc.
fn k4sm_$(sc: u32, j: u32) -> vec2<f32> {
  if (j < 4u) { return vec2<f32>(f32(ldb_$(sc + j) & 63u), f32(ldb_$(sc + j + 4u) & 63u)); }
  let b = ldb_$(sc + j + 4u);
  return vec2<f32>(f32((b & 15u) | ((ldb_$(sc + j - 4u) >> 6u) << 4u)), f32((b >> 4u) | ((ldb_$(sc + j) >> 6u) << 4u)));
}

fn dq4_$(t: u32, blk: u32, j: u32) -> vec4<f32> {
  let hi = (j & 31u) >= 16u;
  switch (t) {
    case DT_Q4_1: { // Q4_1: d, m, qs[16]
      return (vec4<f32>(qn4_$(blk + 4u + (j & 15u), hi)) * ldh_$(blk)) + ldh_$(blk + 2u);
    }
    case DT_Q5_0: { // Q5_0: d, qh (bit e is element e's fifth bit), qs[16]
      let h = bytes4(((qw_$(blk + 2u) >> j) & 15u) * 0x00204081u) & vec4<u32>(1u);
      return vec4<f32>(vec4<i32>(qn4_$(blk + 6u + (j & 15u), hi) | (h << vec4<u32>(4u))) - vec4<i32>(16)) * ldh_$(blk);
    }
    case DT_Q5_1: { // Q5_1: d, m, qh, qs[16]
      let h = bytes4(((qw_$(blk + 4u) >> j) & 15u) * 0x00204081u) & vec4<u32>(1u);
      return (vec4<f32>(qn4_$(blk + 8u + (j & 15u), hi) | (h << vec4<u32>(4u))) * ldh_$(blk)) + ldh_$(blk + 2u);
    }
    case DT_Q2_K: { // Q2_K: scales[16], qs[64], d, dmin
      let sc = ldb_$(blk + j / 16u);
      let dl = (ldh_$(blk + 80u) * f32(sc & 15u));
      let ml = (ldh_$(blk + 82u) * f32(sc >> 4u));
      let q = bytes4((qw_$(blk + 16u + (j / 128u) * 32u + (j & 31u)) >> (2u * ((j / 32u) & 3u))) & 0x03030303u);
      return (dl * vec4<f32>(q)) - ml;
    }
    case DT_Q3_K: { // Q3_K: hmask[32], qs[64], scales[12] (16 packed 6-bit), d
      let is = j / 16u;
      let lo = (ldb_$(blk + 96u + (is & 7u)) >> (4u * (is / 8u))) & 15u;
      let hs = (ldb_$(blk + 104u + (is & 3u)) >> (2u * (is / 4u))) & 3u;
      let dl = (ldh_$(blk + 108u) * f32(i32(lo | (hs << 4u)) - 32));
      let jj = (j / 32u) & 3u;
      let q = bytes4((qw_$(blk + 32u + (j / 128u) * 32u + (j & 31u)) >> (2u * jj)) & 0x03030303u);
      let h = bytes4((qw_$(blk + (j & 31u)) >> ((j / 128u) * 4u + jj)) & 0x01010101u);
      return dl * vec4<f32>(vec4<i32>(q) - 4 * vec4<i32>(vec4<u32>(1u) - h));
    }
    case DT_Q4_K: { // Q4_K: d, dmin, scales[12], qs[128]
      let sub = j / 32u;
      let sm = k4sm_$(blk + 4u, sub);
      let d1 = (ldh_$(blk) * sm.x);
      let m1 = (ldh_$(blk + 2u) * sm.y);
      return (d1 * vec4<f32>(qn4_$(blk + 16u + (j / 64u) * 32u + (j & 31u), (sub & 1u) != 0u))) - m1;
    }
    case DT_Q5_K: { // Q5_K: d, dmin, scales[12], qh[32], qs[128]
      let sub = j / 32u;
      let sm = k4sm_$(blk + 4u, sub);
      let d1 = (ldh_$(blk) * sm.x);
      let m1 = (ldh_$(blk + 2u) * sm.y);
      let h = bytes4((qw_$(blk + 16u + (j & 31u)) >> sub) & 0x01010101u);
      return (d1 * vec4<f32>(qn4_$(blk + 48u + (j / 64u) * 32u + (j & 31u), (sub & 1u) != 0u) + 16u * h)) - m1;
    }
    case DT_Q6_K: { // Q6_K: ql[128], qh[64], scales[16] (int8), d
      let n = j / 128u;
      let q4 = (j / 32u) & 3u;
      let l = j & 31u;
      let ql = qn4_$(blk + n * 64u + (q4 & 1u) * 32u + l, q4 >= 2u);
      let qh = bytes4((qw_$(blk + 128u + n * 32u + l) >> (2u * q4)) & 0x03030303u);
      let sc = extractBits(bitcast<i32>(ldb_$(blk + 192u + j / 16u)), 0u, 8u);
      let ds = (ldh_$(blk + 208u) * f32(sc));
      return ds * vec4<f32>(vec4<i32>(ql | (qh << vec4<u32>(4u))) - vec4<i32>(32));
    }
    case DT_IQ4_NL: { // IQ4_NL: d, qs[16]
      let q = qn4_$(blk + 2u + (j & 15u), hi);
      return ldh_$(blk) * vec4<f32>(IQ4NL[q.x], IQ4NL[q.y], IQ4NL[q.z], IQ4NL[q.w]);
    }
    case DT_IQ4_XS: { // IQ4_XS: d, scales_h, scales_l[4], qs[128]
      let ib = j / 32u;
      let ls = ((ldb_$(blk + 4u + ib / 2u) >> (4u * (ib & 1u))) & 15u) | (((ldu16_$(blk + 2u) >> (2u * ib)) & 3u) << 4u);
      let dl = (ldh_$(blk) * f32(i32(ls) - 32));
      let q = qn4_$(blk + 8u + ib * 16u + (j & 15u), hi);
      return dl * vec4<f32>(IQ4NL[q.x], IQ4NL[q.y], IQ4NL[q.z], IQ4NL[q.w]);
    }
    case DT_MXFP4: { // MXFP4: e (E8M0, at half scale as ggml), qs[16]
      let e = ldb_$(blk);
      let d = bitcast<f32>(select((e - 1u) << 23u, 0x00200000u << e, e < 2u));
      let q = qn4_$(blk + 1u + (j & 15u), hi);
      return vec4<f32>(MXFP4[q.x], MXFP4[q.y], MXFP4[q.z], MXFP4[q.w]) * d;
    }
    case DT_TQ1_0: { // TQ1_0: qs[48], qh[4], d: base-3 digits
      let d = ldh_$(blk + 52u);
      var o = blk + (j & 31u);
      var n = j / 32u;
      if (j >= 240u) {
        o = blk + 48u;
        n = (j - 240u) / 4u;
      } else if (j >= 160u) {
        o = blk + 32u + ((j - 160u) & 15u);
        n = (j - 160u) / 16u;
      }
      let p = select(select(select(select(81u, 27u, n == 3u), 9u, n == 2u), 3u, n == 1u), 1u, n == 0u); // 3^n
      let s = (bytes4(qw_$(o)) * p) & vec4<u32>(0xffu);
      return vec4<f32>(vec4<i32>((s * 3u) >> vec4<u32>(8u)) - vec4<i32>(1)) * d;
    }
    case DT_TQ2_0: { // TQ2_0: qs[64], d
      let q = bytes4((qw_$(blk + (j / 128u) * 32u + (j & 31u)) >> (2u * ((j / 32u) & 3u))) & 0x03030303u);
      return vec4<f32>(vec4<i32>(q) - vec4<i32>(1)) * ldh_$(blk + 64u);
    }
    default: {
      return vec4<f32>(0.0);
    }
  }
}

// lde_$ and ld4_$ read element k, and elements k..k+3 (k % 4 == 0), of the
// row starting at byte offset r.
fn ld4_$(r: u32, k: u32) -> vec4<f32> {
  let t = dt_$();
  let qk = qelems(t);
  return dq4_$(t, r + (k / qk) * qbytes(t), k % qk);
}

fn lde_$(r: u32, k: u32) -> f32 {
  let v = ld4_$(r, k & ~3u);
  return v[k & 3u];
}
