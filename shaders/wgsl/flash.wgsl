// FLASH_ATTN_EXT: d = softmax(q·kᵀ·scale (softcapped) + mask)·v, one
// workgroup per (query row, head, sequence): wid = (query, head, sequence).
// a is q (F32), b is k, c is v ([D or Dv, keys, kv heads, sequences], any
// dtype the loaders read), e the mask with MASK; the result d is ggml's
// permuted [Dv, heads, queries, sequences]. The workgroup walks the keys in
// tiles of WG: each invocation scores one key against q in workgroup
// memory, the tile's maximum and sum update the running softmax, and each
// invocation accumulates its output dims li, li+WG, … over the tile's
// weights, so no score matrix is stored. ip.x and ip.y are the query heads
// per k and v head, fp.x the scale, fp.y the logit softcap (0: off).
const MAXD: u32 = 512u;
const NACC: u32 = 512u / WG;

var<workgroup> qs: array<f32, 512>;
var<workgroup> ps: array<f32, WG>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let iq1 = wid.x;
  let iq2 = wid.y;
  let iq3 = wid.z;
  let nd = P.ne_a.x;
  let ndv = P.ne_c.x;
  let nkv = P.ne_b.y;
  let qrow = P.off.y + iq1 * P.nb_a.y + iq2 * P.nb_a.z + iq3 * P.nb_a.w;
  for (var i = li; i < nd; i += WG) { qs[i] = lde_a(qrow, i); }
  workgroupBarrier();
  let krow = P.off.z + (iq2 / u32(P.ip.x)) * P.nb_b.z + iq3 * P.nb_b.w;
  let vrow = P.off.w + (iq2 / u32(P.ip.y)) * P.nb_c.z + iq3 * P.nb_c.w;
#if MASK
  let mrow = P.off_e.x + iq1 * P.nb_e.y + (iq2 % P.ne_e.z) * P.nb_e.z + (iq3 % P.ne_e.w) * P.nb_e.w;
#endif
  let ninf = neg_inf();
  var m_run = ninf;
  var s_run = 0.0;
  var acc: array<f32, NACC>;
  for (var c0 = 0u; c0 < nkv; c0 += WG) {
    let ic = c0 + li;
    var s = ninf;
    if (ic < nkv) {
      var mv = 0.0;
#if MASK
      mv = lde_e(mrow, ic);
#endif
      if (mv != ninf) {
        let kr = krow + ic * P.nb_b.y;
        var qk = 0.0;
        for (var i = 0u; i < nd; i++) { qk += qs[i] * lde_b(kr, i); }
        qk *= P.fp.x;
        if (P.fp.y > 0.0) { qk = P.fp.y * tanh_safe(qk / P.fp.y); }
        s = qk + mv;
      }
    }
    let mt = wmax(li, s);
    if (mt == ninf) { continue; } // the whole tile is masked (uniform)
    let mnew = max(m_run, mt);
    var f = 0.0; // nothing to rescale before the first live key
    if (m_run != ninf) { f = exp(m_run - mnew); }
    var p = 0.0;
    if (s != ninf) { p = exp(s - mnew); }
    s_run = s_run * f + wsum(li, p);
    ps[li] = p;
    workgroupBarrier();
    let n = min(WG, nkv - c0);
    for (var j = 0u; j < NACC; j++) {
      let dd = li + j * WG;
      if (dd < ndv) {
        var a = acc[j] * f;
        for (var t = 0u; t < n; t++) {
          let w = ps[t];
          if (w != 0.0) { a += w * lde_c(vrow + (c0 + t) * P.nb_c.y, dd); }
        }
        acc[j] = a;
      }
    }
    m_run = mnew;
    workgroupBarrier(); // ps is rewritten by the next tile
  }
  let drow = P.off.x + iq2 * P.nb_d.y + iq1 * P.nb_d.z + iq3 * P.nb_d.w;
  var inv = 0.0;
  if (s_run > 0.0) { inv = 1.0 / s_run; }
  for (var j = 0u; j < NACC; j++) {
    let dd = li + j * WG;
    if (dd < ndv) { st_d(drow + dd * P.nb_d.x, acc[j] * inv); }
  }
}
