package vk

import vk "github.com/vulkan-go/vulkan"

// hazards tracks the buffer ranges read and written by the dispatches
// recorded since the last barrier, so that a barrier goes only where a
// dispatch reads what an earlier one wrote, or writes what an earlier one
// read or wrote. The ranges are the descriptor ranges, which is also what
// the synchronization validation layer checks.
type hazards struct {
	reads, writes []memRange
}

type memRange struct {
	buf    vk.Buffer
	lo, hi uint64
}

func (b binding) memRange() memRange { return memRange{b.buf.buf, b.base, b.base + b.size} }

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

// conflicts reports whether a dispatch with these bindings (sources, and
// the destination at dstBinding; with errFlag, binding 2 is written too)
// needs a barrier before it.
func (h *hazards) conflicts(binds *[numBindings]binding, errFlag bool) bool {
	for i, b := range binds {
		if !written(i, errFlag) && anyOverlap(h.writes, b.memRange()) {
			return true
		}
	}
	for i, b := range binds {
		if written(i, errFlag) {
			if w := b.memRange(); anyOverlap(h.writes, w) || anyOverlap(h.reads, w) {
				return true
			}
		}
	}
	return false
}

func (h *hazards) add(binds *[numBindings]binding, errFlag bool) {
	for i, b := range binds {
		if written(i, errFlag) {
			h.writes = append(h.writes, b.memRange())
		} else {
			h.reads = append(h.reads, b.memRange())
		}
	}
}

// written reports whether a dispatch writes binding i: the destination,
// and binding 2 when it holds the error flag.
func written(i int, errFlag bool) bool { return i == dstBinding || (errFlag && i == 2) }
