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

// faScratch is one worker's memory for the fast paths, kept between ops.
type faScratch struct {
	q8  q8Rows // the query rows as Q8 activations, for Q8_0 and Q4_0 keys
	blk []byte // Q8_0 encoding scratch
	// The blocked path's GEMM panels: queries, keys (transposed), scores
	// (the mask, then the weights), weights, values, and the outputs.
	qp, kp, s, raw, pp, vp, o, rows []float32
	maskOff                         []int
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
	if nq*g >= faBlockedRows {
		return b.flashAttnBlocked(o, g)
	}
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

// The blocked path, for batches of queries (prompts): a task takes
// faRows (query, head) rows that share a kv head, and each tile of faKeys
// keys is converted once into GEMM panels, so that scores (Q·Kᵀ) and the
// value update (P·V) run on the packed 6×16 GEMM kernel instead of one dot
// and one axpy per key and row.

// faBlockedRows is the fewest rows sharing a kv head that take the blocked
// path: below it, packing the keys costs more than the GEMM saves.
var faBlockedRows = 2

const (
	faMinSplit = 256        // fewest keys per split of one token's attention
	faRows     = 24         // target rows per task: 4 GEMM row panels
	faKeys     = 4 * gemmNR // keys per tile
)

func (b *Backend) flashAttnBlocked(o *faOperands, g int) error {
	q, k, v := &o.q, &o.k, &o.v
	D, Dv, nKV := q.ne[0], v.ne[0], k.ne[1]
	nq, groups := q.ne[1], q.ne[2]/g
	qb := max(1, faRows/g) // queries per task
	nqb := (nq + qb - 1) / qb
	blocks := nqb * groups * q.ne[3]
	// With fewer blocks than workers (one token, few kv heads), the keys
	// are split too, each split at least faMinSplit keys, and the partial
	// softmaxes merged afterwards (flash decoding).
	splits := 1
	if blocks < b.threads {
		splits = max(1, min((b.threads+blocks-1)/blocks, nKV/faMinSplit))
	}
	chunk := (nKV + splits - 1) / splits
	chunk = (chunk + faKeys - 1) / faKeys * faKeys
	splits = (nKV + chunk - 1) / chunk
	ntask := blocks * splits
	R, dv16 := qb*g, (Dv+gemmNR-1)/gemmNR*gemmNR
	if splits > 1 {
		b.faPart = grow(b.faPart, ntask*R*dv16)
		b.faMS = grow(b.faMS, 2*ntask*R)
	}
	nth := b.workers(ntask, blocks*qb*g*nKV*(D+Dv))
	if len(b.fa) < nth {
		b.fa = append(b.fa, make([]faScratch, nth-len(b.fa))...)
	}
	err := b.pool.run(nth, func(ith, nth int, ws *workspace) error {
		t0, t1 := rowRange(ntask, ith, nth)
		for t := t0; t < t1; t++ {
			blk, split := t/splits, t%splits
			iqb, grp, iq3 := blk%nqb, (blk/nqb)%groups, blk/(nqb*groups)
			q0 := iqb * qb
			nqr := min(qb, nq-q0)
			out, M, S := b.flashAttnBlock(o, &b.fa[ith], ws, q0, nqr, grp*g, g, iq3, split*chunk, min(nKV, (split+1)*chunk))
			if splits > 1 {
				copy(b.faPart[t*R*dv16:], out[:nqr*g*dv16])
				copy(b.faMS[2*t*R:], M)
				copy(b.faMS[(2*t+1)*R:], S)
				continue
			}
			if err := o.storeRows(b.kern, out, dv16, S, q0, nqr, grp*g, g, iq3); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil || splits == 1 {
		return err
	}
	// Merge each block's splits: rescale each partial to the largest
	// running maximum, then add.
	return b.pool.run(b.workers(blocks, blocks*R*Dv*splits), func(ith, nth int, ws *workspace) error {
		t0, t1 := rowRange(blocks, ith, nth)
		for blk := t0; blk < t1; blk++ {
			iqb, grp, iq3 := blk%nqb, (blk/nqb)%groups, blk/(nqb*groups)
			q0 := iqb * qb
			nqr := min(qb, nq-q0)
			out := ws.f32(0, R*dv16)
			S := ws.f64(0, R)
			for r := range nqr * g {
				mx := math.Inf(-1)
				for sp := range splits {
					mx = max(mx, b.faMS[2*(blk*splits+sp)*R+r])
				}
				orow := out[r*dv16 : (r+1)*dv16]
				clear(orow)
				S[r] = 0
				if math.IsInf(mx, -1) {
					continue
				}
				for sp := range splits {
					t := blk*splits + sp
					m, l := b.faMS[2*t*R+r], b.faMS[(2*t+1)*R+r]
					if l == 0 {
						continue
					}
					f := math.Exp(m - mx)
					S[r] += l * f
					kern := b.kern
					kern.scaleAdd(orow, b.faPart[(t*R+r)*dv16:(t*R+r+1)*dv16], orow, float32(f))
				}
			}
			if err := o.storeRows(b.kern, out, dv16, S, q0, nqr, grp*g, g, iq3); err != nil {
				return err
			}
		}
		return nil
	})
}

// storeRows divides the accumulated rows by their softmax sums and stores
// them: row r is query q0+r/g of head h0+r%g, at stride dv16 in out.
func (o *faOperands) storeRows(kern *kernels, out []float32, dv16 int, S []float64, q0, nqr, h0, g, iq3 int) error {
	Dv := o.v.ne[0]
	for r := range nqr * g {
		orow := out[r*dv16 : r*dv16+Dv]
		if S[r] > 0 {
			kern.scale(orow, orow, float32(1/S[r]))
		} else {
			clear(orow)
		}
		if err := o.dst.storeRow(o.dst.at(h0+r%g, q0+r/g, iq3), orow); err != nil {
			return err
		}
	}
	return nil
}

// flashAttnBlock runs queries q0..q0+nqr-1 of heads h0..h0+g-1 of
// sequence iq3 over keys [k0, k1). Row r is query q0+r/g of head h0+r%g.
// It returns the unnormalized outputs (row stride Dv rounded up to
// gemmNR) with each row's running maximum and sum.
func (b *Backend) flashAttnBlock(o *faOperands, sc *faScratch, ws *workspace, q0, nqr, h0, g, iq3, k0, k1 int) (out []float32, M, S []float64) {
	q, k, v, kern := &o.q, &o.k, &o.v, b.kern
	D, Dv := q.ne[0], v.ne[0]
	R := nqr * g
	panels := (R + gemmMR - 1) / gemmMR
	dv16 := (Dv + gemmNR - 1) / gemmNR * gemmNR // output row stride: whole GEMM tiles
	sc.qp = grow(sc.qp, panels*gemmMR*D)
	sc.kp = grow(sc.kp, faKeys*D)
	sc.s = grow(sc.s, panels*gemmMR*faKeys)
	sc.raw = grow(sc.raw, panels*gemmMR*faKeys)
	sc.pp = grow(sc.pp, panels*gemmMR*faKeys)
	sc.vp = grow(sc.vp, faKeys*dv16)
	sc.o = grow(sc.o, panels*gemmMR*dv16)
	sc.rows = grow(sc.rows, 8*max(D, Dv))
	sc.maskOff = grow(sc.maskOff, R)
	qp, kp, sm, raw, pp, vp, rows := sc.qp, sc.kp, sc.s, sc.raw, sc.pp, sc.vp, sc.rows
	out = sc.o
	clear(qp)
	clear(out)
	clear(pp)
	clear(vp)
	M, S = ws.f64(0, R), ws.f64(1, R)
	// Queries into row panels: qp[(panel·D + p)·6 + i] = row panel·6+i.
	for r := range R {
		x := rows[:D]
		q.loadRow(q.at(q0+r/g, h0+r%g, iq3), x)
		pn, i := r/gemmMR, r%gemmMR
		for p, val := range x {
			qp[(pn*D+p)*gemmMR+i] = val
		}
		M[r], S[r] = math.Inf(-1), 0
		if o.mask != nil {
			sc.maskOff[r] = o.maskRow(q0+r/g, h0+r%g, iq3)
		}
	}
	kh, vh := h0/o.rk, h0/o.rv
	ninf := float32(math.Inf(-1))
	for c0 := k0; c0 < k1; c0 += faKeys {
		n := min(faKeys, k1-c0)
		// The mask (and -Inf past the last key) into sm; a tile no row
		// sees is skipped.
		live := false
		for r := range R {
			row := sm[r*faKeys : (r+1)*faKeys]
			if o.mask != nil {
				o.mask.loadRowFast(kern, sc.maskOff[r]+c0*o.mask.nb[0], row[:n])
			} else {
				clear(row[:n])
			}
			for t := n; t < faKeys; t++ {
				row[t] = ninf
			}
			live = live || kern.maxOf(row) != ninf
		}
		if !live {
			continue
		}
		// Keys, transposed into column panels: kp[(jb·D + p)·16 + j] is
		// element p of key c0+jb·16+j; 8 rows at a time.
		for t8 := 0; t8 < faKeys; t8 += 8 {
			blk := rows[:8*D]
			for j := range 8 {
				x := blk[j*D : (j+1)*D]
				if t := t8 + j; t < n {
					k.loadRowFast(kern, k.at(c0+t, kh, iq3), x)
				} else {
					clear(x)
				}
			}
			jb, half := t8/gemmNR, t8%gemmNR
			kern.transpose8(kp[jb*D*gemmNR+half:], gemmNR, blk, D, D)
		}
		for pn := range panels {
			for jb := range faKeys / gemmNR {
				kern.gemm(D, qp[pn*D*gemmMR:], kp[jb*D*gemmNR:], raw[pn*gemmMR*faKeys+jb*gemmNR:], faKeys, false)
			}
		}
		// Scores to weights, row by row, with the running softmax.
		for r := range R {
			row, qk := sm[r*faKeys:(r+1)*faKeys], raw[r*faKeys:(r+1)*faKeys]
			if o.cap > 0 {
				for t, x := range qk {
					qk[t] = o.cap * float32(math.Tanh(float64(x*o.scale/o.cap)))
				}
				kern.add(row, row, qk)
			} else {
				kern.scaleAdd(row, qk, row, o.scale) // -Inf (masked) stays -Inf
			}
			mx := float64(kern.maxOf(row))
			if math.IsInf(mx, -1) {
				clear(row)
				continue
			}
			if mx > M[r] {
				if S[r] != 0 {
					orow := out[r*dv16 : (r+1)*dv16]
					kern.scale(orow, orow, float32(math.Exp(M[r]-mx)))
					S[r] *= math.Exp(M[r] - mx)
				}
				M[r] = mx
			}
			S[r] += float64(kern.expSub(row, row, float32(M[r])))
		}
		// Weights into row panels: pp[(panel·faKeys + t)·6 + i]; the
		// padding rows stay zero.
		for r := range R {
			pn, i := r/gemmMR, r%gemmMR
			for t, w := range sm[r*faKeys : (r+1)*faKeys] {
				pp[(pn*faKeys+t)*gemmMR+i] = w
			}
		}
		// Values into column panels: vp[(jb·faKeys + t)·16 + j] is element
		// jb·16+j of value c0+t; the columns past Dv stay zero, and so must
		// the keys past the last.
		if n < faKeys {
			for jb := 0; jb*gemmNR < Dv; jb++ {
				clear(vp[(jb*faKeys+n)*gemmNR : (jb+1)*faKeys*gemmNR])
			}
		}
		for t := range n {
			x := rows[:Dv]
			v.loadRowFast(kern, v.at(c0+t, vh, iq3), x)
			for jb := 0; jb*gemmNR < Dv; jb++ {
				copy(vp[(jb*faKeys+t)*gemmNR:(jb*faKeys+t+1)*gemmNR], x[jb*gemmNR:min(Dv, (jb+1)*gemmNR)])
			}
		}
		for pn := range panels {
			for jb := 0; jb*gemmNR < Dv; jb++ {
				kern.gemm(faKeys, pp[pn*faKeys*gemmMR:], vp[jb*faKeys*gemmNR:], out[pn*gemmMR*dv16+jb*gemmNR:], dv16, true)
			}
		}
	}
	return out, M, S
}

// loadRowFast is loadRow with the SIMD conversions for packed f16 and
// Q8_0/Q4_0 rows.
func (h *hostTensor) loadRowFast(kern *kernels, off int, out []float32) {
	n := len(out)
	switch {
	case h.typ == rt.F16 && h.nb[0] == 2:
		kern.f16ToF32(h.mem[off:off+2*n], out)
	case h.typ == rt.Q8_0:
		kern.dequantQ8(h.mem[off:off+h.typ.RowSize(n)], out)
	case h.typ == rt.Q4_0:
		kern.dequantQ4(h.mem[off:off+h.typ.RowSize(n)], out)
	default:
		h.loadRow(off, out)
	}
}
