package cpu

// Repacked F16 panels
//
// The F16 GEMM multiplies gemmNR-row panels of weights in packF16's
// layout: half k of the panel's row r at k*gemmNR+r. Packed per call,
// each block of weight rows was first copied out of the weight (16 rows
// a power of two apart, read in place, missed L1 at every load) and then
// interleaved: a tenth of a 155M F16 model's prompt, most of it waiting
// on memory. So the first GEMM on an F16 weight in a weights buffer
// packs its whole rows once, panel after panel, and every later one reads
// its blocks in place: block [k0, k0+kc) of a panel is the contiguous
// bytes [2·gemmNR·k0, 2·gemmNR·(k0+kc)). The copy follows repack.go's
// rules: kept beside the original, dropped on any write, not made short
// of memory, off with GPURT_CPU_REPACK=0. It is the weight's size again,
// for a faster prompt; GEMVs still read the rows as stored.

// f16PanelBytes is the size of one repacked panel of K halves a row.
func f16PanelBytes(K int) int { return 2 * gemmNR * K }

// repackedF16For returns w's f16 panels, packed with k's packF16 on first
// use, or nil where w is not an f16 weight that the F16 GEMM can read so.
func repackedF16For(k *kernels, w hostTensor) *repackedRows {
	wb := repackableWeight(w)
	if wb == nil || !f16Rows(w) || k.packF16 == nil {
		return nil
	}
	K, M := w.ne[0], w.ne[1]
	r := wb.unitsEntry(w, (M+gemmNR-1)/gemmNR, f16PanelBytes(K))
	if got, ok := r.made(); ok {
		return got
	}
	return fillF16Panels(r, k, w)
}

// fillF16Panels packs w's panels into r on first use.
func fillF16Panels(r *repackedRows, k *kernels, w hostTensor) *repackedRows {
	K, M := w.ne[0], w.ne[1]
	return r.fillOnce(w, func(j, i2, i3 int, dst []byte) {
		rows := min(gemmNR, M-j*gemmNR)
		src := w.mem[w.at(j*gemmNR, i2, i3):]
		stride := w.nb[1]
		if rows < gemmNR { // the last panel: rows past M are zeros
			pad := make([]byte, 2*gemmNR*K)
			for r := range rows {
				copy(pad[2*r*K:2*(r+1)*K], src[r*stride:])
			}
			src, stride = pad, 2*K
		}
		k.packF16(dst, src, stride, K)
	})
}
