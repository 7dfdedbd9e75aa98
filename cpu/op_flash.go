package cpu

import (
	"math"

	rt "github.com/gpurt/gpurt/runtime"
)

// FLASH_ATTN_EXT: out = softmax(q·kᵀ·scale (softcapped) + mask)·v for each
// query row, with an online softmax (running maximum M, sum S and output
// accumulator) so that no score matrix is stored. Query head h reads kv
// head h/(H/Hkv). The reference loop runs one query row at a time in
// float64; the fast path (flashAttnFast) runs the query heads that share a
// kv head together, in tiles of keys, on the SIMD dot and axpy kernels.

// faOperands are the resolved operands of one FLASH_ATTN_EXT node.
type faOperands struct {
	q, k, v, dst hostTensor
	mask         *hostTensor
	scale, cap   float32
	// rk, rv map a query head to its k and v heads (h/rk, h/rv).
	rk, rv int
}

func newFAOperands(n *rt.Tensor, src *[rt.MaxSrc]hostTensor, dst hostTensor) faOperands {
	o := faOperands{q: src[0], k: src[1], v: src[2], dst: dst, scale: n.ParamF(0), cap: n.ParamF(2)}
	if n.Src[3] != nil {
		m := src[3]
		o.mask = &m
	}
	o.rk, o.rv = o.q.ne[2]/o.k.ne[2], o.q.ne[2]/o.v.ne[2]
	return o
}

// maskRow is the byte offset of the mask row for query iq1 of head iq2 in
// sequence iq3.
func (o *faOperands) maskRow(iq1, iq2, iq3 int) int {
	m := o.mask
	return m.at(iq1, iq2%m.ne[2], iq3%m.ne[3])
}

// softcapScore turns a raw q·k into the pre-mask score.
func (o *faOperands) softcapScore(qk float64) float64 {
	s := qk * float64(o.scale)
	if o.cap > 0 {
		s = float64(o.cap) * math.Tanh(s/float64(o.cap))
	}
	return s
}

func (b *Backend) flashAttn(n *rt.Tensor, src *[rt.MaxSrc]hostTensor, dst hostTensor) error {
	o := newFAOperands(n, src, dst)
	return b.flashAttnRef(&o)
}

// flashAttnRef is the reference: per query row, every key in order.
func (b *Backend) flashAttnRef(o *faOperands) error {
	q, k, v := &o.q, &o.k, &o.v
	D, Dv, nKV := q.ne[0], v.ne[0], k.ne[1]
	rows := q.rows()
	return b.forRows(rows, rows*nKV*(D+Dv), func(r0, r1 int, ws *workspace) error {
		qr, kr, vr := ws.f32(0, D), ws.f32(1, D), ws.f32(2, Dv)
		acc := ws.f64(0, Dv)
		var mr []float32
		if o.mask != nil {
			mr = ws.f32(3, nKV)
		}
		for r := r0; r < r1; r++ {
			iq1, iq2, iq3 := q.coords(r)
			q.loadRow(q.at(iq1, iq2, iq3), qr)
			if mr != nil {
				o.mask.loadRow(o.maskRow(iq1, iq2, iq3), mr)
			}
			clear(acc)
			M, S := math.Inf(-1), 0.0
			for ic := range nKV {
				mv := 0.0
				if mr != nil {
					if mv = float64(mr[ic]); math.IsInf(mv, -1) {
						continue
					}
				}
				k.loadRow(k.at(ic, iq2/o.rk, iq3), kr)
				qk := 0.0
				for i, x := range qr {
					qk += float64(x) * float64(kr[i])
				}
				s := o.softcapScore(qk) + mv
				w := 1.0
				if s > M {
					f := math.Exp(M - s) // 0 for the first key
					for i := range acc {
						acc[i] *= f
					}
					S *= f
					M = s
				} else {
					w = math.Exp(s - M)
				}
				v.loadRow(v.at(ic, iq2/o.rv, iq3), vr)
				for i, x := range vr {
					acc[i] += w * float64(x)
				}
				S += w
			}
			out := vr
			for i := range out {
				out[i] = 0
				if S > 0 {
					out[i] = float32(acc[i] / S)
				}
			}
			if err := o.dst.storeRow(o.dst.at(iq2, iq1, iq3), out); err != nil {
				return err
			}
		}
		return nil
	})
}
