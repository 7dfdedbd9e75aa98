package rpc

import (
	"encoding/binary"
	"fmt"
	"math"

	rt "github.com/gpurt/gpurt/runtime"
)

// The server's side of GRAPH_COMPUTE: decoding the graph, checking every
// id and reference, rebuilding it node by node and running it.

// graphCompute decodes, checks, builds and runs a graph:
//
//	| device (4) | n_nodes (4) | n_nodes ids (8 each) | n_tensors (4) | n_tensors rpc_tensor |
func (ss *session) graphCompute(body []byte) error {
	dev, g, err := ss.decodeGraph(body)
	if err != nil {
		return err
	}
	if old := ss.graphs[dev]; old != nil && old.scratch != nil {
		old.scratch.Free()
	}
	ss.graphs[dev] = g
	return ss.compute(dev, g)
}

func (ss *session) compute(dev int, g *storedGraph) error {
	b, err := ss.backend(dev)
	if err != nil {
		return err
	}
	for _, tw := range g.convert {
		if err := ss.narrowIndices(tw); err != nil {
			return err
		}
	}
	if err := b.GraphCompute(g.g); err != nil {
		return err
	}
	if err := b.Synchronize(); err != nil {
		return err
	}
	ss.srv.mu.Lock()
	ss.srv.graphs++
	ss.srv.mu.Unlock()
	return nil
}

// narrowIndices copies an I64 index tensor into its I32 twin, refusing
// values that do not fit. It narrows in place in the session's scratch
// storage (each 4-byte result lands where wider values were already read),
// as llama.cpp's clients send their row indices as I64 for every token.
func (ss *session) narrowIndices(tw indexTwin) error {
	n := tw.wide.Nelements()
	var raw []byte
	switch {
	case 8*n > maxKeptAnswer: // a long prompt's: not kept past the graph
		raw = make([]byte, 8*n)
	case cap(ss.scratch) < 8*n:
		ss.scratch = make([]byte, 8*n)
		fallthrough
	default:
		raw = ss.scratch[:8*n]
	}
	if err := rt.TensorGet(tw.wide, raw, 0); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		v := int64(binary.LittleEndian.Uint64(raw[8*i:]))
		if v < math.MinInt32 || v > math.MaxInt32 {
			return fmt.Errorf("rpc: index %d of %q does not fit in 32 bits: %w", v, tw.wide.Name, rt.ErrOutOfRange)
		}
		binary.LittleEndian.PutUint32(raw[4*i:], uint32(int32(v)))
	}
	return rt.TensorSet(tw.narrow, raw[:4*n], 0)
}

// graphTensor is the decoding state of one rpc_tensor of a graph.
type graphTensor struct {
	w     wireTensor
	state uint8 // 0 new, 1 being built (a cycle if met again), 2 built
	t     *rt.Tensor
}

func (ss *session) decodeGraph(body []byte) (int, *storedGraph, error) {
	d := &decoder{b: body}
	dev, err := ss.device(d.u32())
	if err != nil {
		return 0, nil, err
	}
	if _, err := ss.backend(dev); err != nil {
		return 0, nil, err
	}
	nNodes := uint64(d.u32())
	if d.err != nil || nNodes*8 > uint64(len(d.b)) {
		return 0, nil, reject("graph of %d nodes in %d bytes", nNodes, len(body))
	}
	ids := make([]uint64, nNodes)
	for i := range ids {
		ids[i] = d.u64()
	}
	nTensors := uint64(d.u32())
	if d.err != nil || nTensors*tensorBytes != uint64(len(d.b)) {
		return 0, nil, reject("graph of %d tensors in %d remaining bytes", nTensors, len(d.b))
	}
	tensors := make(map[uint64]*graphTensor, nTensors)
	for i := uint64(0); i < nTensors; i++ {
		w := d.tensor()
		if w.ID == 0 {
			return 0, nil, reject("graph tensor %d has id 0", i)
		}
		if _, dup := tensors[w.ID]; dup {
			return 0, nil, reject("graph tensor id %#x appears twice", w.ID)
		}
		tensors[w.ID] = &graphTensor{w: w}
	}
	if err := d.end("graph"); err != nil {
		return 0, nil, err
	}
	nb := &nodeBuilder{ctx: rt.NewContext()}
	built := map[*rt.Tensor]bool{}
	uses := map[uint64]bool{}
	var build func(id uint64, depth int) (*rt.Tensor, error)
	build = func(id uint64, depth int) (*rt.Tensor, error) {
		gt, ok := tensors[id]
		if !ok {
			return nil, reject("graph references unknown tensor id %#x", id)
		}
		switch gt.state {
		case 1:
			return nil, reject("graph has a cycle through tensor %q", gt.w.name())
		case 2:
			return gt.t, nil
		}
		if depth > 1<<16 {
			return nil, reject("graph deeper than %d", 1<<16)
		}
		gt.state = 1
		w := &gt.w
		var src [maxSrc]*rt.Tensor
		for i, sid := range w.Src {
			if sid != 0 {
				s, err := build(sid, depth+1)
				if err != nil {
					return nil, err
				}
				src[i] = s
			}
		}
		var viewSrc *rt.Tensor
		if w.ViewSrc != 0 {
			v, err := build(w.ViewSrc, depth+1)
			if err != nil {
				return nil, err
			}
			viewSrc = v
		}
		t, err := ss.buildTensor(nb, w, src, viewSrc)
		if err != nil {
			return nil, err
		}
		uses[w.Buffer] = true
		gt.t, gt.state = t, 2
		built[t] = true
		return t, nil
	}
	g := rt.NewGraph()
	for _, id := range ids {
		if id == 0 {
			continue
		}
		t, err := build(id, 0)
		if err != nil {
			return 0, nil, err
		}
		g.Add(t)
	}
	sg := &storedGraph{g: g, convert: nb.convert, uses: uses}
	if err := ss.placeHelpers(dev, nb.ctx, built, sg); err != nil {
		return 0, nil, err
	}
	return dev, sg, nil
}

// buildTensor makes one graph tensor: a leaf as declared, or a node rebuilt
// by the op constructors and compared with its declared type and layout.
func (ss *session) buildTensor(nb *nodeBuilder, w *wireTensor, src [maxSrc]*rt.Tensor, viewSrc *rt.Tensor) (*rt.Tensor, error) {
	var t *rt.Tensor
	if ggmlOp(w.Op) == ggmlOpNone {
		var err error
		if t, err = shapeOf(w); err != nil {
			return nil, err
		}
	} else {
		decl, err := shapeOf(w)
		if err != nil {
			return nil, err
		}
		if t, err = nb.build(w, src, viewSrc); err != nil {
			return nil, fmt.Errorf("tensor %q: %w", w.name(), err)
		}
		if t.Type != decl.Type || t.Ne != decl.Ne || t.Nb != decl.Nb {
			return nil, reject("tensor %q: %v gives %v%v strides %v, declared %v%v strides %v", w.name(), ggmlOp(w.Op),
				t.Type, t.Ne, t.Nb, decl.Type, decl.Ne, decl.Nb)
		}
		if t.ViewSrc != nil && (t.ViewSrc != viewSrc || uint64(t.ViewOffs) != w.ViewOffs) {
			return nil, reject("tensor %q: view of %q at %d, declared at %d", w.name(), t.ViewSrc.Name, t.ViewOffs, w.ViewOffs)
		}
		t.Name, t.Flags = decl.Name, decl.Flags
	}
	if err := ss.place(t, w); err != nil {
		return nil, err
	}
	if t.ViewSrc != nil && (t.Buffer != t.ViewSrc.Buffer || t.Offset != t.ViewSrc.Offset+t.ViewOffs) {
		return nil, reject("tensor %q: data is not at its view offset %d", w.name(), t.ViewOffs)
	}
	return t, nil
}

// placeHelpers gives memory to the tensors the builder added (the steps of
// ops gpurt computes in several, and I32 twins of I64 indices) in one
// scratch buffer on the device.
func (ss *session) placeHelpers(dev int, ctx *rt.Context, built map[*rt.Tensor]bool, sg *storedGraph) error {
	bt := ss.srv.opts.Devices[dev].BufferType()
	align := max(bt.Alignment(), 1)
	var helpers []*rt.Tensor
	size := 0
	for _, t := range ctx.Tensors() {
		if built[t] || t.ViewSrc != nil {
			continue
		}
		helpers = append(helpers, t)
		t.Offset = size
		size += (bt.AllocSize(t) + align - 1) / align * align
	}
	if len(helpers) == 0 {
		return nil
	}
	buf, err := bt.Alloc(size)
	if err != nil {
		return fmt.Errorf("rpc: scratch of %d bytes: %w", size, err)
	}
	sg.scratch = buf
	for _, t := range helpers {
		t.Buffer = buf
	}
	for _, t := range ctx.Tensors() {
		if !built[t] && t.ViewSrc != nil {
			t.Buffer, t.Offset = t.ViewSrc.Buffer, t.ViewSrc.Offset+t.ViewOffs
		}
	}
	return nil
}
