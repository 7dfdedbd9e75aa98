package vk

import rt "github.com/gpurt/gpurt/runtime"

// hazards tracks the memory read and written by the commands recorded since
// the last barrier, so that a barrier goes only where a command reads what an
// earlier one wrote, or writes what an earlier one read or wrote.
type hazards struct {
	reads, writes []memRange
}

type memRange struct {
	buf    *Buffer
	lo, hi int // bytes, widened to whole 32-bit words (shaders write words)
}

func rangeOf(t *rt.Tensor) (memRange, bool) {
	b, ok := vkBuffer(t.Buffer)
	if !ok {
		return memRange{}, false
	}
	lo := t.Offset &^ 3
	hi := (t.Offset + t.Nbytes() + 3) &^ 3
	return memRange{b, lo, hi}, true
}

func (r memRange) overlaps(o memRange) bool {
	return r.buf == o.buf && r.lo < o.hi && o.lo < r.hi
}

func anyOverlap(list []memRange, r memRange) bool {
	for _, x := range list {
		if x.overlaps(r) {
			return true
		}
	}
	return false
}

func (h *hazards) reset() {
	h.reads = h.reads[:0]
	h.writes = h.writes[:0]
}

func (h *hazards) conflicts(reads []*rt.Tensor, write *rt.Tensor) bool {
	for _, t := range reads {
		if r, ok := rangeOf(t); ok && anyOverlap(h.writes, r) {
			return true
		}
	}
	if w, ok := rangeOf(write); ok && (anyOverlap(h.writes, w) || anyOverlap(h.reads, w)) {
		return true
	}
	return false
}

func (h *hazards) add(reads []*rt.Tensor, write *rt.Tensor) {
	for _, t := range reads {
		if r, ok := rangeOf(t); ok {
			h.reads = append(h.reads, r)
		}
	}
	if w, ok := rangeOf(write); ok {
		h.writes = append(h.writes, w)
	}
}
