package cpu

import (
	"encoding/binary"
	"fmt"
	"math"

	rt "github.com/gpurt/gpurt/runtime"
)

// copyStream copies src into dst in logical element order (DUP, CONT, CPY).
// The shapes may differ but hold the same number of elements. Equal dtypes
// copy bytes, which is exact for every type (block by block for quantized
// ones); different dtypes convert through float32 rows.
func (b *Backend) copyStream(src, dst hostTensor) error {
	nr := dst.rows()
	work := nr * dst.ne[0]
	if src.typ == dst.typ {
		bs, usz := src.typ.BlockSize(), src.typ.TypeSize()
		su, du := src.ne[0]/bs, dst.ne[0]/bs // units (blocks or elements) per row
		return b.forRows(nr, work, func(r0, r1 int, _ *workspace) error {
			for r := r0; r < r1; r++ {
				doff := dst.rowAt(r)
				for pos, e := 0, r*du; pos < du; {
					sr, j := e/su, e%su
					n := min(su-j, du-pos)
					copyUnits(dst.mem, doff+pos*dst.nb[0], dst.nb[0], src.mem, src.rowAt(sr)+j*src.nb[0], src.nb[0], n, usz)
					pos += n
					e += n
				}
			}
			return nil
		})
	}
	sn, dn := src.ne[0], dst.ne[0]
	return b.forRows(nr, work, func(r0, r1 int, ws *workspace) error {
		srow, drow := ws.f32(0, sn), ws.f32(1, dn)
		loaded := -1
		for r := r0; r < r1; r++ {
			for pos, e := 0, r*dn; pos < dn; {
				sr, j := e/sn, e%sn
				if sr != loaded {
					src.loadRow(src.rowAt(sr), srow)
					loaded = sr
				}
				n := copy(drow[pos:], srow[j:])
				pos += n
				e += n
			}
			if err := dst.storeRow(dst.rowAt(r), drow); err != nil {
				return err
			}
		}
		return nil
	})
}

// checkIndices verifies that every I32 index in idx is a row of a tensor with
// n rows, before any worker writes.
func checkIndices(idx hostTensor, n int) error {
	for i3 := 0; i3 < idx.ne[3]; i3++ {
		for i2 := 0; i2 < idx.ne[2]; i2++ {
			for i1 := 0; i1 < idx.ne[1]; i1++ {
				for i0 := 0; i0 < idx.ne[0]; i0++ {
					r := idx.i32(idx.at(i1, i2, i3) + i0*idx.nb[0])
					if r < 0 || int(r) >= n {
						return fmt.Errorf("row index %d at [%d,%d,%d,%d] is outside [0,%d): %w", r, i0, i1, i2, i3, n, rt.ErrOutOfRange)
					}
				}
			}
		}
	}
	return nil
}

// getRows copies rows of a picked by idx ([n, ne2, ne3]) into dst
// ([ne0, n, ne2, ne3]): F32, or I32 bytes for an I32 source.
func (b *Backend) getRows(a, idx, dst hostTensor) error {
	if err := checkIndices(idx, a.ne[1]); err != nil {
		return err
	}
	ne0 := a.ne[0]
	return b.forRows(dst.rows(), dst.rows()*ne0, func(r0, r1 int, ws *workspace) error {
		row := ws.f32(0, ne0)
		for r := r0; r < r1; r++ {
			i, i2, i3 := dst.coords(r)
			k := int(idx.i32(idx.at(i2, i3, 0) + i*idx.nb[0]))
			soff, doff := a.at(k, i2, i3), dst.at(i, i2, i3)
			if a.typ == dst.typ && !a.typ.IsQuantized() {
				copyUnits(dst.mem, doff, dst.nb[0], a.mem, soff, a.nb[0], ne0, a.typ.TypeSize())
				continue
			}
			a.loadRow(soff, row)
			if err := dst.storeRow(doff, row); err != nil {
				return err
			}
		}
		return nil
	})
}

// setRows writes row i of the F32 rows (at dims i2, i3) into dst row
// idx[i, i2%n2, i3%n3], converting to dst's dtype. When indices repeat, the
// last row wins, as in a sequential loop: every destination row has one
// owning worker, which writes it in source order, so the result does not
// depend on the thread count.
func (b *Backend) setRows(rows, idx, dst hostTensor) error {
	if err := checkIndices(idx, dst.ne[1]); err != nil {
		return err
	}
	nr, ne0 := rows.rows(), rows.ne[0]
	if ne0 == 1 && rows.typ == rt.F32 && (dst.typ == rt.F16 || dst.typ == rt.F32) {
		return b.setElements(rows, idx, dst)
	}
	// f32 rows into an f16 cache (the keys of every token): one SIMD
	// conversion a row, as the V scatter's batch, instead of the scalar
	// per-element conversion of storeRow.
	toF16 := b.kern != nil && rows.typ == rt.F32 && rows.nb[0] == 4 && dst.typ == rt.F16 && dst.nb[0] == 2
	return b.pool.run(b.workers(nr, nr*ne0), func(ith, nth int, ws *workspace) error {
		row := ws.f32(0, ne0)
		for r := 0; r < nr; r++ {
			i, i2, i3, k := setRowsTarget(rows, idx, r)
			if (k+dst.ne[1]*(i2+dst.ne[2]*i3))%nth != ith {
				continue
			}
			if toF16 {
				src, ok := f32View(rows.mem, rows.at(i, i2, i3), ne0)
				if !ok {
					rows.loadRow(rows.at(i, i2, i3), row)
					src = row
				}
				off := dst.at(k, i2, i3)
				b.kern.f32ToF16(src, dst.mem[off:off+2*ne0])
				continue
			}
			rows.loadRow(rows.at(i, i2, i3), row)
			if err := dst.storeRow(dst.at(k, i2, i3), row); err != nil {
				return err
			}
		}
		return nil
	})
}

// setRowsTarget is where SET_ROWS puts source row r: its coordinates i,
// i2, i3 and the destination row k read from the (broadcast) indices.
func setRowsTarget(rows, idx hostTensor, r int) (i, i2, i3, k int) {
	i, i2, i3 = rows.coords(r)
	k = int(idx.i32(idx.at(i2%idx.ne[1], i3%idx.ne[2], 0) + i*idx.nb[0]))
	return i, i2, i3, k
}

// setElements is SET_ROWS of one-element rows, the scatter that writes a
// token's values into a transposed V cache (one element per cache row):
// f32 to f16 or f32 element by element, without the per-row conversion
// machinery, which cost 30 ns an element. Indices are checked.
func (b *Backend) setElements(rows, idx, dst hostTensor) error {
	if rows.ne[2] == 1 && rows.ne[3] == 1 && idx.ne[1] == 1 && idx.ne[2] == 1 {
		// One index per element (the V cache scatter): no coordinates,
		// whose divisions cost more than the element's store.
		n := rows.ne[1]
		target := func(r int) int { return dst.off + int(idx.i32(idx.off+r*idx.nb[0]))*dst.nb[1] }
		if vals, ok := f32View(rows.mem, rows.off, n); ok && rows.nb[1] == 4 && dst.typ == rt.F16 && b.kern != nil {
			// Contiguous values (a whole batch): converted in one call.
			b.halves = grow(b.halves, 2*n)
			h := b.halves[:2*n]
			b.kern.f32ToF16(vals, h)
			for r := 0; r < n; r++ {
				off := target(r)
				dst.mem[off], dst.mem[off+1] = h[2*r], h[2*r+1]
			}
			return nil
		}
		for r := range n {
			v := rows.f32(rows.off + r*rows.nb[1])
			if off := target(r); dst.typ == rt.F16 {
				binary.LittleEndian.PutUint16(dst.mem[off:], rt.F32ToF16(v))
			} else {
				binary.LittleEndian.PutUint32(dst.mem[off:], math.Float32bits(v))
			}
		}
		return nil
	}
	for r := range rows.rows() {
		i, i2, i3, k := setRowsTarget(rows, idx, r)
		v := math.Float32frombits(binary.LittleEndian.Uint32(rows.mem[rows.at(i, i2, i3):]))
		off := dst.at(k, i2, i3)
		if dst.typ == rt.F16 {
			binary.LittleEndian.PutUint16(dst.mem[off:], rt.F32ToF16(v))
		} else {
			binary.LittleEndian.PutUint32(dst.mem[off:], math.Float32bits(v))
		}
	}
	return nil
}

// concat joins a and b along dim into dst, copying element bytes.
func (b *Backend) concat(a, c, dst hostTensor, dim int) error {
	ne0, esz := dst.ne[0], dst.typ.TypeSize()
	return b.forRows(dst.rows(), dst.rows()*ne0, func(r0, r1 int, _ *workspace) error {
		for r := r0; r < r1; r++ {
			i1, i2, i3 := dst.coords(r)
			doff := dst.at(i1, i2, i3)
			if dim == 0 {
				n := a.ne[0]
				copyUnits(dst.mem, doff, dst.nb[0], a.mem, a.at(i1, i2, i3), a.nb[0], n, esz)
				copyUnits(dst.mem, doff+n*dst.nb[0], dst.nb[0], c.mem, c.at(i1, i2, i3), c.nb[0], ne0-n, esz)
				continue
			}
			pos := [4]int{0, i1, i2, i3}
			src := &a
			if pos[dim] >= a.ne[dim] {
				pos[dim] -= a.ne[dim]
				src = &c
			}
			copyUnits(dst.mem, doff, dst.nb[0], src.mem, src.at(pos[1], pos[2], pos[3]), src.nb[0], ne0, esz)
		}
		return nil
	})
}
