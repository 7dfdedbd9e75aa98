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
	if b.kern != nil {
		return b.flashAttnFast(&o)
	}
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

// faTile is how many keys the fast path scores before it updates the
// running softmax and accumulates their values: one rescale per tile
// instead of per key, and a tile of scores stays in L1.
const faTile = 32

// faScratch is one worker's memory for the fast path, kept between ops.
type faScratch struct {
	q8  q8Rows // the query rows as Q8 activations, for Q8_0 and Q4_0 keys
	blk []byte // Q8_0 encoding scratch
}

// flashAttnFast runs the query heads that share a kv head as one task: each
// key and value row is loaded (converted) once for all of them, which
// matters when generating, where attention reads the whole cache per token.
// Scores use the SIMD dot kernels against the key rows in place (f16 rows
// converted in registers, Q8_0/Q4_0 rows as integer dots against the query
// quantized to Q8 blocks, as ggml), values are accumulated in float32 with
// the SIMD axpy.
func (b *Backend) flashAttnFast(o *faOperands) error {
	q, k, v := &o.q, &o.k, &o.v
	D, Dv, nKV, H := q.ne[0], v.ne[0], k.ne[1], q.ne[2]
	// g query heads share each kv head when k and v have one head layout.
	g := 1
	if k.ne[2] == v.ne[2] {
		g = o.rk
	}
	nq, groups := q.ne[1], H/g
	ntask := nq * groups * q.ne[3]
	work := ntask * g * nKV * (D + Dv)
	nth := b.workers(ntask, work)
	if len(b.fa) < nth {
		b.fa = append(b.fa, make([]faScratch, nth-len(b.fa))...)
	}
	return b.pool.run(nth, func(ith, nth int, ws *workspace) error {
		t0, t1 := rowRange(ntask, ith, nth)
		for t := t0; t < t1; t++ {
			iq1, grp, iq3 := t%nq, (t/nq)%groups, t/(nq*groups)
			if err := b.flashAttnGroup(o, &b.fa[ith], ws, iq1, grp*g, g, iq3); err != nil {
				return err
			}
		}
		return nil
	})
}

// flashAttnGroup computes query row iq1 of heads h0..h0+g-1 of sequence iq3.
func (b *Backend) flashAttnGroup(o *faOperands, sc *faScratch, ws *workspace, iq1, h0, g, iq3 int) error {
	q, k, v, kern := &o.q, &o.k, &o.v, b.kern
	D, Dv, nKV := q.ne[0], v.ne[0], k.ne[1]
	qs := ws.f32(0, g*D)
	scores := ws.f32(1, g*faTile)
	acc := ws.f32(2, g*Dv)
	tmp := ws.f32(3, max(D, Dv))
	M, S := ws.f64(0, g), ws.f64(1, g)
	kq := k.typ == rt.Q8_0 || k.typ == rt.Q4_0
	if kq {
		sc.q8.resize(g, D/rt.QK)
		sc.blk = grow(sc.blk, rt.Q8_0.RowSize(D))
	}
	for j := range g {
		qr := qs[j*D : (j+1)*D]
		q.loadRow(q.at(iq1, h0+j, iq3), qr)
		if kq {
			kern.quantizeQ8(qr, sc.q8.row(j), sc.blk)
		}
		M[j], S[j] = math.Inf(-1), 0
	}
	clear(acc)
	kh, vh := h0/o.rk, h0/o.rv
	kf16 := k.typ == rt.F16 && k.nb[0] == 2
	kf32 := k.typ == rt.F32 && aligned32(*k)
	vf32 := v.typ == rt.F32 && aligned32(*v)
	var maskOff [8]int // per head of the group; larger groups read it per key
	useMaskOff := o.mask != nil && g <= len(maskOff)
	if useMaskOff {
		for j := range g {
			maskOff[j] = o.maskRow(iq1, h0+j, iq3)
		}
	}
	maskAt := func(j, ic int) float32 {
		off := 0
		if useMaskOff {
			off = maskOff[j]
		} else {
			off = o.maskRow(iq1, h0+j, iq3)
		}
		m := o.mask
		off += ic * m.nb[0]
		if m.typ == rt.F16 {
			return f16Table()[uint16(m.mem[off])|uint16(m.mem[off+1])<<8]
		}
		return m.f32(off)
	}
	ninf := float32(math.Inf(-1))
	scale, softcap := o.scale, o.cap
	for c0 := 0; c0 < nKV; c0 += faTile {
		n := min(faTile, nKV-c0)
		live := false
		for ic := c0; ic < c0+n; ic++ {
			koff := k.at(ic, kh, iq3)
			var krow []float32
			for j := range g {
				s := &scores[j*faTile+ic-c0]
				mv := float32(0)
				if o.mask != nil {
					if mv = maskAt(j, ic); math.IsInf(float64(mv), -1) {
						*s = ninf
						continue
					}
				}
				var qk float32
				switch {
				case kf16:
					qk = kern.dotF16(k.mem[koff:koff+2*D], qs[j*D:(j+1)*D])
				case kf32:
					v, _ := f32View(k.mem, koff, D)
					qk = kern.dotF32(qs[j*D:(j+1)*D], v)
				case k.typ == rt.Q8_0:
					qk = kern.dotQ8(k.mem[koff:koff+k.typ.RowSize(D)], sc.q8.row(j))
				case k.typ == rt.Q4_0:
					qk = kern.dotQ4(k.mem[koff:koff+k.typ.RowSize(D)], sc.q8.row(j))
				default:
					if krow == nil {
						krow = tmp[:D]
						k.loadRow(koff, krow)
					}
					qk = kern.dotF32(qs[j*D:(j+1)*D], krow)
				}
				x := qk * scale
				if softcap > 0 {
					x = softcap * float32(math.Tanh(float64(x/softcap)))
				}
				*s = x + mv
				live = true
			}
		}
		if !live {
			continue // every key of the tile is masked for every head
		}
		// Fold the tile into each head's running softmax: scale the old
		// accumulator and sum by exp(M_old - M_new), turn the scores into
		// weights exp(s - M_new).
		for j := range g {
			st := scores[j*faTile : j*faTile+n]
			mx := float64(kern.maxOf(st))
			if math.IsInf(mx, -1) {
				continue
			}
			if mx > M[j] {
				f := math.Exp(M[j] - mx) // 0 when nothing came before
				if S[j] != 0 {
					kern.scale(acc[j*Dv:(j+1)*Dv], acc[j*Dv:(j+1)*Dv], float32(f))
				}
				S[j] *= f
				M[j] = mx
			}
			S[j] += float64(kern.expSub(st, st, float32(M[j])))
		}
		for ic := c0; ic < c0+n; ic++ {
			var vrow []float32
			for j := range g {
				w := scores[j*faTile+ic-c0]
				if !(w > 0) {
					continue // masked (or a head whose tile was all masked: -Inf)
				}
				if vrow == nil {
					vrow = b.faValueRow(v, v.at(ic, vh, iq3), tmp[:Dv], vf32)
				}
				a := acc[j*Dv : (j+1)*Dv]
				kern.scaleAdd(a, vrow, a, w)
			}
		}
	}
	for j := range g {
		a := acc[j*Dv : (j+1)*Dv]
		if S[j] > 0 {
			kern.scale(a, a, float32(1/S[j]))
		} else {
			clear(a)
		}
		if err := o.dst.storeRow(o.dst.at(h0+j, iq1, iq3), a); err != nil {
			return err
		}
	}
	return nil
}

// faValueRow returns value row off as float32: in place when the rows are
// aligned f32, else converted into tmp.
func (b *Backend) faValueRow(v *hostTensor, off int, tmp []float32, inPlace bool) []float32 {
	Dv := len(tmp)
	switch {
	case inPlace:
		row, _ := f32View(v.mem, off, Dv)
		return row
	case v.typ == rt.F16 && v.nb[0] == 2:
		b.kern.f16ToF32(v.mem[off:off+2*Dv], tmp)
	case v.typ == rt.Q8_0:
		b.kern.dequantQ8(v.mem[off:off+v.typ.RowSize(Dv)], tmp)
	case v.typ == rt.Q4_0:
		b.kern.dequantQ4(v.mem[off:off+v.typ.RowSize(Dv)], tmp)
	default:
		v.loadRow(off, tmp)
	}
	return tmp
}
