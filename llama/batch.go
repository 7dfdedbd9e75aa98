package llama

import (
	"fmt"
	"time"

	rt "github.com/gpurt/gpurt/runtime"
)

// Batch is one step of llama_decode: tokens of one or several sequences,
// each with its position in its sequence, evaluated together.
type Batch struct {
	Tokens []int32
	Pos    []int32 // position of each token in its sequence
	Seq    []int32 // sequence of each token, in [0, Options.NSeq); nil: all 0
	// Logits marks the tokens whose logits are computed; nil: the last only.
	Logits []bool
}

// Decode evaluates b: every token is stored in the KV cache of its
// sequence and attends to the earlier positions of that sequence. The
// logits of the marked tokens are then read with Logits.
func (m *Model) Decode(b Batch) error {
	if err := m.checkBatch(b); err != nil {
		return err
	}
	return m.decode(b, false)
}

// decode runs a checked batch; with embed its outputs are the final hidden
// states instead of logits. The batch runs as ubatches (split), each one
// forward pass over t tokens of each of a run of streams.
func (m *Model) decode(b Batch, embed bool) error {
	n := len(b.Tokens)
	seqs := b.Seq
	if seqs == nil {
		m.sc.seqs = resize(m.sc.seqs, n)
		clear(m.sc.seqs)
		seqs = m.sc.seqs
	}
	m.outRow = resize(m.outRow, n)
	nOut := 0
	for i := range n {
		m.outRow[i] = -1
		if (b.Logits == nil && i == n-1) || (b.Logits != nil && b.Logits[i]) {
			m.outRow[i] = nOut
			nOut++
		}
	}
	width := m.H.NVocab
	if embed {
		width = m.H.NEmbd
	}
	m.logits = resize(m.logits, nOut*width)
	m.sc.cells = resize(m.sc.cells, n)
	cells := m.sc.cells
	if err := m.cache.place(seqs, b.Pos, cells); err != nil {
		return err
	}
	for _, u := range m.split(seqs) {
		if err := m.decodeUbatch(u, b.Tokens, b.Pos, seqs, cells, width, embed); err != nil {
			m.forget(cells)
			return err
		}
	}
	return nil
}

// ubatch is a part of a batch that runs as one forward pass: t tokens of
// each of the nS streams from s0, at batch indices idx (stream-major); an
// index padIndex(st) is a padding token in stream st.
type ubatch struct {
	s0, nS, t int
	idx       []int
}

// padSeq is the sequence of padding tokens: an idle stream between busy
// ones gets t of them, so that one ubatch (one graph, reused from step to
// step) covers the run rather than a ubatch on each side of the gap. They
// take free cells of their stream, see only each other, and are freed
// after the ubatch.
const padSeq = -2

func padIndex(st int) int { return -1 - st }
func padStream(i int) int { return -1 - i }
func isPad(i int) bool    { return i < 0 }

// split cuts a batch into ubatches, as llama.cpp's equal split: with one
// stream, the whole batch; else, while tokens remain, every run of
// consecutive streams with tokens left gives a ubatch of as many tokens
// of each as the one with the fewest has left. A step of one token per
// sequence is one ubatch; a prompt joining it runs on alone after its
// first token.
func (m *Model) split(seqs []int32) []ubatch {
	sc := &m.sc
	sc.ubatches = sc.ubatches[:0]
	if m.cache.streams == 1 {
		sc.order = resize(sc.order, len(seqs))
		for i := range sc.order {
			sc.order[i] = i
		}
		return append(sc.ubatches, ubatch{s0: 0, nS: 1, t: len(seqs), idx: sc.order})
	}
	ns := m.cache.streams
	sc.byStream = resize(sc.byStream, ns)
	for st := range sc.byStream {
		sc.byStream[st] = sc.byStream[st][:0]
	}
	for i, s := range seqs {
		st := m.cache.streamOf(s)
		sc.byStream[st] = append(sc.byStream[st], i)
	}
	sc.order = sc.order[:0]
	if u, ok := m.padded(); ok {
		return append(sc.ubatches, u)
	}
	for {
		done := true
		for s0 := 0; s0 < ns; {
			if len(sc.byStream[s0]) == 0 {
				s0++
				continue
			}
			s1, t := s0, len(sc.byStream[s0])
			for s1+1 < ns && len(sc.byStream[s1+1]) > 0 {
				s1++
				t = min(t, len(sc.byStream[s1]))
			}
			start := len(sc.order)
			for st := s0; st <= s1; st++ {
				sc.order = append(sc.order, sc.byStream[st][:t]...)
				sc.byStream[st] = sc.byStream[st][t:]
			}
			sc.ubatches = append(sc.ubatches, ubatch{s0: s0, nS: s1 - s0 + 1, t: t, idx: sc.order[start:len(sc.order):len(sc.order)]})
			s0, done = s1+1, false
		}
		if done {
			return sc.ubatches
		}
	}
}

// padded is the batch (in sc.byStream) as one ubatch with padding tokens
// in the idle streams between busy ones, when every busy stream has the
// same number of tokens t (a decode step: one each), every idle one
// between them has t free cells, and the idle ones are no more than the
// busy ones (padding costs at most the real tokens).
func (m *Model) padded() (ubatch, bool) {
	sc, c := &m.sc, &m.cache
	first, last, t, busy := -1, -1, 0, 0
	for st, idx := range sc.byStream {
		if len(idx) == 0 {
			continue
		}
		if first < 0 {
			first, t = st, len(idx)
		} else if len(idx) != t {
			return ubatch{}, false
		}
		last = st
		busy++
	}
	idle := last - first + 1 - busy
	if first < 0 || idle == 0 || idle > busy {
		return ubatch{}, false
	}
	for st := first; st <= last; st++ {
		if len(sc.byStream[st]) == 0 && c.freeCells(st) < t {
			return ubatch{}, false
		}
	}
	for st := first; st <= last; st++ {
		if len(sc.byStream[st]) > 0 {
			sc.order = append(sc.order, sc.byStream[st]...)
			continue
		}
		for range t {
			sc.order = append(sc.order, padIndex(st))
		}
	}
	return ubatch{s0: first, nS: last - first + 1, t: t, idx: sc.order}, true
}

// decodeUbatch runs one ubatch of a placed batch and copies its outputs
// (width values each) to their rows of m.logits.
func (m *Model) decodeUbatch(u ubatch, tokens, pos, seqs, cells []int32, width int, embed bool) error {
	sc := &m.sc
	k := len(u.idx)
	sc.uTok, sc.uPos = resize(sc.uTok, k), resize(sc.uPos, k)
	sc.uSeq, sc.uCell = resize(sc.uSeq, k), resize(sc.uCell, k)
	outs := sc.outs[:0]
	sc.pads = sc.pads[:0]
	defer m.freePads()
	for j, i := range u.idx {
		if isPad(i) {
			p := int32(j % u.t)
			cell, ok := m.cache.takeFree(padStream(i), padSeq, p)
			if !ok { // split checked for room: a bug, not bad input
				return fmt.Errorf("llama: %w: no free cell for padding in stream %d", rt.ErrContextFull, padStream(i))
			}
			sc.pads = append(sc.pads, cell)
			sc.uTok[j], sc.uPos[j], sc.uSeq[j], sc.uCell[j] = 0, p, padSeq, cell
			continue
		}
		sc.uTok[j], sc.uPos[j], sc.uSeq[j], sc.uCell[j] = tokens[i], pos[i], seqs[i], cells[i]
		if m.outRow[i] >= 0 {
			outs = append(outs, int32(j))
		}
	}
	sc.outs = outs
	graphOuts := outs
	allRows := u.t == 1 && m.cache.streams > 1 && len(outs) > 0
	switch {
	case allRows:
		// A decode step computes every stream's row, read or not (a
		// prompt's first token joining, padding), so that it keeps the
		// shape, and the graph, of the steps around it.
		sc.allOuts = resize(sc.allOuts, k)
		for j := range sc.allOuts {
			sc.allOuts[j] = int32(j)
		}
		graphOuts = sc.allOuts
	case len(outs) == 0: // the graph still computes one row, unread
		graphOuts = []int32{int32(k - 1)}
	}
	prof := m.opts.Profile
	prof.AddStep()
	t := time.Now()
	s := graphShape{n: k, t: u.t, nS: u.nS, s0: u.s0, nKV: m.cache.nKV(u.s0, u.nS), nOut: len(graphOuts), embed: embed}
	f, err := m.forward(s)
	if err != nil {
		return err
	}
	t = lap(prof, "graph build+alloc", t)
	if err := m.fill(f, sc.uTok, sc.uPos, sc.uSeq, sc.uCell, graphOuts); err != nil {
		return fmt.Errorf("llama: inputs: %w", err)
	}
	t = lap(prof, "input copies", t)
	if err := m.scheds[s.kind()].GraphCompute(f.g); err != nil {
		m.last[s.kind()] = nil // the scheduler's state is unknown: schedule afresh
		return fmt.Errorf("llama: %w", err)
	}
	t = lap(prof, "graph compute", t)
	if len(outs) > 0 {
		if sc.uOut, err = sc.getF32(f.in.logits, sc.uOut); err != nil {
			return fmt.Errorf("llama: logits: %w", err)
		}
		for r, j := range outs {
			if allRows {
				r = int(j)
			}
			row := m.outRow[u.idx[j]]
			copy(m.logits[row*width:(row+1)*width], sc.uOut[r*width:(r+1)*width])
		}
	}
	lap(prof, "output copies", t)
	return nil
}

// freePads frees the cells of the last ubatch's padding tokens.
func (m *Model) freePads() {
	for _, cell := range m.sc.pads {
		m.cache.pos[cell] = -1
	}
	if len(m.sc.pads) > 0 {
		m.cache.shrink()
	}
	m.sc.pads = m.sc.pads[:0]
}

// lap records the time since t as phase name of p (when p is set) and
// returns the time now.
func lap(p *rt.Profile, name string, t time.Time) time.Time {
	if p == nil {
		return t
	}
	now := time.Now()
	p.AddPhase(name, now.Sub(t))
	return now
}

// forget frees the cells of a batch that failed.
func (m *Model) forget(cells []int32) {
	for _, c := range cells {
		m.cache.pos[c] = -1
	}
	m.cache.shrink()
}

func (m *Model) checkBatch(b Batch) error {
	n := len(b.Tokens)
	bad := func(format string, args ...any) error {
		return fmt.Errorf("llama: %w: batch: "+format, append([]any{rt.ErrInvalidArgument}, args...)...)
	}
	switch {
	case n == 0:
		return bad("no tokens")
	case len(b.Pos) != n:
		return bad("%d positions for %d tokens", len(b.Pos), n)
	case b.Seq != nil && len(b.Seq) != n:
		return bad("%d sequence ids for %d tokens", len(b.Seq), n)
	case b.Logits != nil && len(b.Logits) != n:
		return bad("%d logit flags for %d tokens", len(b.Logits), n)
	case n > m.H.NCtx:
		return fmt.Errorf("llama: %w: a batch of %d tokens exceeds the %d cache cells", rt.ErrContextFull, n, m.H.NCtx)
	}
	for i, t := range b.Tokens {
		if t < 0 || int(t) >= m.H.NVocab {
			return fmt.Errorf("llama: %w: token id %d (batch index %d) is outside the vocabulary of %d", rt.ErrOutOfRange, t, i, m.H.NVocab)
		}
		if p := b.Pos[i]; p < 0 || int(p) >= m.H.NCtxTrain {
			return fmt.Errorf("llama: %w: position %d (batch index %d) is outside the trained context of %d", rt.ErrOutOfRange, p, i, m.H.NCtxTrain)
		}
		if b.Seq != nil && (b.Seq[i] < 0 || int(b.Seq[i]) >= m.opts.NSeq) {
			return fmt.Errorf("llama: %w: sequence %d (batch index %d) is outside 0..%d (Options.NSeq)", rt.ErrOutOfRange, b.Seq[i], i, m.opts.NSeq-1)
		}
	}
	return nil
}

// fill writes a batch's inputs: tokens, positions, cache cells, masks and
// output rows.
func (m *Model) fill(f *forward, tokens, pos, seqs, cells, outs []int32) error {
	in, sc, h := &f.in, &m.sc, &m.H
	n, nKV := f.shape.n, f.shape.nKV
	for _, set := range []struct {
		t *rt.Tensor
		v []int32
	}{{in.tokens, tokens}, {in.pos, pos}, {in.kIdx, cells}} {
		if err := sc.setI32(set.t, set.v); err != nil {
			return err
		}
	}
	if in.vIdx != nil {
		// Value channel e of token j goes to row e of its stream's
		// [streamSize, vDim] block of the transposed cache, at the
		// token's cell in the stream.
		vDim, cellsPer := h.NEmbdVKV(), m.cache.streamSize
		sc.i32 = resize(sc.i32, vDim*n)
		for j, cell := range cells {
			st, c := int(cell)/cellsPer, int(cell)%cellsPer
			for e := range vDim {
				sc.i32[j*vDim+e] = int32((st*vDim+e)*cellsPer + c)
			}
		}
		if err := sc.setI32(in.vIdx, sc.i32); err != nil {
			return err
		}
	}
	rows := m.maskRows(f.shape)
	sc.f32 = resize(sc.f32, nKV*n*rows)
	m.cache.fillMask(sc.f32, nKV, rows, f.shape.s0, f.shape.t, seqs, pos, 0)
	if err := sc.setF32(in.mask, sc.f32); err != nil {
		return err
	}
	if in.maskSWA != nil {
		m.cache.fillMask(sc.f32, nKV, rows, f.shape.s0, f.shape.t, seqs, pos, h.SlidingWindow)
		if err := sc.setF32(in.maskSWA, sc.f32); err != nil {
			return err
		}
	}
	if in.outIdx != nil {
		return sc.setI32(in.outIdx, outs)
	}
	return nil
}

// Logits returns the logits of token i of the last Decode, which must have
// been marked in its Logits (nil otherwise). The slice is reused by the
// next Decode.
func (m *Model) Logits(i int) []float32 {
	if i < 0 || i >= len(m.outRow) || m.outRow[i] < 0 {
		return nil
	}
	r, nv := m.outRow[i], m.H.NVocab
	if (r+1)*nv > len(m.logits) {
		return nil
	}
	return m.logits[r*nv : (r+1)*nv]
}

// SeqRemove forgets every token of sequence seq, freeing its cache cells.
func (m *Model) SeqRemove(seq int32) {
	m.cache.removeSeq(seq)
	if seq == 0 {
		m.nPast = 0
	}
}

// SeqPosMax is the highest position held for seq, or -1 when it is empty.
func (m *Model) SeqPosMax(seq int32) int32 { return m.cache.maxPos(seq) }

// embedSeq is the sequence Embed evaluates in, outside the user's ids.
const embedSeq = -1

// Embed returns the mean of the final hidden states (after the output
// norm) over tokens, llama.cpp's mean pooling, for /v1/embeddings. It uses
// free cache cells (of the stream with the most, with several sequences)
// for the duration of the call and leaves every sequence as it was.
func (m *Model) Embed(tokens []int32) ([]float32, error) {
	n := len(tokens)
	b := Batch{Tokens: tokens, Pos: make([]int32, n), Logits: make([]bool, n)}
	for i := range n {
		b.Pos[i] = int32(i)
		b.Logits[i] = true
	}
	if err := m.checkBatch(b); err != nil {
		return nil, err
	}
	b.Seq = make([]int32, n)
	for i := range b.Seq {
		b.Seq[i] = embedSeq
	}
	c := &m.cache
	c.embedIn = 0
	for st := range c.streams {
		if c.freeCells(st) > c.freeCells(c.embedIn) {
			c.embedIn = st
		}
	}
	err := m.decode(b, true)
	m.cache.removeSeq(embedSeq)
	defer func() { m.outRow, m.logits = m.outRow[:0], m.logits[:0] }() // no logits to read
	if err != nil {
		return nil, err
	}
	d := m.H.NEmbd
	out := make([]float32, d)
	for j := range n {
		for i, v := range m.logits[j*d : (j+1)*d] {
			out[i] += v
		}
	}
	for i := range out {
		out[i] /= float32(n)
	}
	return out, nil
}
