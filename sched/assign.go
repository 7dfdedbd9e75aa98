package sched

import (
	"fmt"
	"strconv"

	"github.com/gpurt/gpurt/runtime"
)

// The assignment passes, as ggml_backend_sched_split_graph. Each assignment
// records a cause (see Cause). Lower backend index means higher priority; the
// last backend is the CPU.

// weightCause[i] is "1.wgt" followed by the source index i, made once.
var weightCause = func() (c [runtime.MaxSrc]string) {
	for i := range c {
		c[i] = "1.wgt" + strconv.Itoa(i)
	}
	return c
}()

// bufferOf is the buffer holding t's memory: its view source's for a view.
func bufferOf(t *runtime.Tensor) runtime.Buffer {
	if t.ViewSrc != nil {
		return t.ViewSrc.Buffer
	}
	return t.Buffer
}

// allocatedIn is t's own buffer, else its view source's, or nil.
func allocatedIn(t *runtime.Tensor) runtime.Buffer {
	if t.Buffer == nil && t.ViewSrc != nil {
		return t.ViewSrc.Buffer
	}
	return t.Buffer
}

// isWeight reports whether t lives in a weights buffer. A view of an
// allocated weight counts too: gpurt places a view in its source's buffer
// when the view is made, where ggml's seed leaves a view's buffer unset
// until allocation, so that its pass 1 ignores views of weights. Counting
// them keeps an op on a weight slice next to the memory it reads instead of
// copying the slice to wherever later passes put the op (see
// docs/architecture.md, "Where gpurt's scheduler differs from ggml's").
func isWeight(t *runtime.Tensor) bool {
	return t.Buffer != nil && t.Buffer.Usage() == runtime.UsageWeights
}

func (s *Scheduler) supportsOp(b int, t *runtime.Tensor) bool {
	return s.backends[b].Device().SupportsOp(t)
}

// backendFromBuffer is the highest-priority backend that can use buf's memory
// and run op, or -1.
func (s *Scheduler) backendFromBuffer(buf runtime.Buffer, op *runtime.Tensor) int {
	if buf == nil {
		return -1
	}
	bt := buf.Type()
	for i, b := range s.backends {
		if d := b.Device(); d.SupportsBufferType(bt) && d.SupportsOp(op) {
			return i
		}
	}
	return -1
}

// backendFromCur picks t's backend from where its data and weights are
// (pass 1), or returns -1 when they do not decide.
func (s *Scheduler) backendFromCur(t *runtime.Tensor) (int, string, error) {
	// A pre-allocated tensor stays in its buffer.
	if b := s.backendFromBuffer(t.Buffer, t); b >= 0 {
		return b, "1.dst", nil
	}
	if t.ViewSrc != nil {
		if b := s.backendFromBuffer(t.ViewSrc.Buffer, t); b >= 0 {
			return b, "1.vsrc", nil
		}
	}
	if buf := allocatedIn(t); buf != nil {
		return -1, "", fmt.Errorf("sched: pre-allocated tensor %q in a buffer (%s) that cannot run the operation (%v): %w", t.Name, buf.Type().Name(), t.Op, runtime.ErrUnsupported)
	}

	// Graph inputs are filled by the user in CPU memory.
	if t.Flags&runtime.FlagInput != 0 {
		return len(s.backends) - 1, "1.inp", nil
	}

	// Ops on weights run where the weights are. ROPE is skipped: its optional
	// frequency tensor is too small to decide on.
	last := len(s.backends) - 1
	for i, src := range t.Src {
		if src == nil || t.Op == runtime.OpRope || !isWeight(src) {
			continue
		}
		b := s.backendFromBuffer(bufferOf(src), t)
		// A higher-priority backend may want an op whose weights are in host memory.
		if s.opOffload && b == last && src.Buffer.Type().IsHost() {
			for hi := 0; hi < b; hi++ {
				if d := s.backends[hi].Device(); d.SupportsOp(t) && d.OffloadOp(t) {
					return hi, "1.off", nil
				}
			}
		}
		return b, weightCause[i], nil
	}
	return -1, "", nil
}

// bufferSupported reports whether backend b can use t's memory: its buffer if
// allocated, else the buffer type of the backend t (or its view source) is
// assigned to.
func (s *Scheduler) bufferSupported(t *runtime.Tensor, b int) bool {
	if buf := bufferOf(t); buf != nil {
		return s.backends[b].Device().SupportsBufferType(buf.Type())
	}
	id := s.backendOf(t)
	if id < 0 && t.ViewSrc != nil {
		id = s.backendOf(t.ViewSrc)
	}
	return id >= 0 && s.classSupported[b][id]
}

// assignBackends runs passes 1 to 4. User assignments (pins) are kept.
func (s *Scheduler) assignBackends(g *runtime.Graph) error {
	// Pass 1: from current locations.
	for _, t := range g.Leafs {
		if s.backendOf(t) >= 0 {
			continue
		}
		b, cause, err := s.backendFromCur(t)
		if err != nil {
			return err
		}
		if b >= 0 {
			s.assign(t, b, cause)
		}
	}
	s.indexNodes(g)
	for i, n := range g.Nodes {
		if s.node(i).backend >= 0 {
			continue
		}
		b, cause, err := s.backendFromCur(n)
		if err != nil {
			return err
		}
		if b >= 0 {
			*s.node(i) = tensorInfo{backend: b, cause: cause}
		}
	}

	// Pass 2: expand assignments to neighbouring nodes. GPU backends first,
	// down then up, skipping the CPU, so the CPU is only used where weights
	// are or where nothing else runs an op; then every backend. Nodes whose op
	// the expanding backend lacks stay unassigned for pass 3.
	s.expand(g, true, true)
	s.expand(g, false, true)
	s.expand(g, true, false)
	s.expand(g, false, false)

	// Pass 3: move nodes to a higher-priority backend with the same buffer
	// type when it runs the op and uses every source's memory (e.g. a BLAS
	// backend next to the CPU); give the still unassigned nodes to the backend
	// that supports the op and most of their inputs.
	for i, n := range g.Nodes {
		if n.Op.IsView() {
			continue
		}
		cur := s.node(i).backend
		if cur < 0 {
			best, bestN := -1, -1
			for b := range s.backends {
				if !s.supportsOp(b, n) {
					continue
				}
				supported := 0
				for _, src := range n.Src {
					if src == nil {
						continue
					}
					if (s.backendOf(src) >= 0 || s.backendOf(src.ViewSrc) >= 0) && s.bufferSupported(src, b) {
						supported++
					}
				}
				if supported > bestN {
					best, bestN = b, supported
				}
			}
			if best >= 0 {
				*s.node(i) = tensorInfo{backend: best, cause: "3.best"}
			}
			continue
		}
		for b := 0; b < cur; b++ {
			if s.bufferClass[b] != s.bufferClass[cur] || !s.supportsOp(b, n) {
				continue
			}
			ok := true
			for _, src := range n.Src {
				if src != nil && !s.bufferSupported(src, b) {
					ok = false
					break
				}
			}
			if ok {
				*s.node(i) = tensorInfo{backend: b, cause: "3.upg"}
				break
			}
		}
	}

	// Pass 4: views go with their source, unassigned sources with their node.
	for i, n := range g.Nodes {
		cur := s.node(i).backend
		if n.ViewSrc != nil && cur < 0 {
			if cur = s.backendOf(n.ViewSrc); cur >= 0 {
				*s.node(i) = tensorInfo{backend: cur, cause: "4.vsrc"}
			}
		}
		for _, src := range n.Src {
			if src == nil || s.backendOf(src) >= 0 {
				continue
			}
			if src.ViewSrc != nil {
				if b := s.backendOf(src.ViewSrc); b >= 0 {
					s.assign(src, b, "4.vsrc")
				}
			} else if cur >= 0 {
				s.assign(src, cur, "4.cur")
			}
		}
	}
	return nil
}

// expand gives unassigned nodes the backend of the nearest assigned node
// before them (down) or after them (up). With skipCPU, CPU nodes break the
// run instead of extending it.
func (s *Scheduler) expand(g *runtime.Graph, down, skipCPU bool) {
	last := len(s.backends) - 1
	cur := -1
	n := len(g.Nodes)
	for k := 0; k < n; k++ {
		i := k
		if !down {
			i = n - 1 - k
		}
		node := g.Nodes[i]
		if node.Op.IsView() {
			continue
		}
		info := s.node(i)
		switch {
		case info.backend >= 0:
			cur = info.backend
			if skipCPU && cur == last {
				cur = -1
			}
		case cur >= 0 && s.supportsOp(cur, node):
			*info = tensorInfo{backend: cur, cause: "2.sup"}
		}
	}
}
