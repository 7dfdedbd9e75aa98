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
// states instead of logits.
func (m *Model) decode(b Batch, embed bool) error {
	n := len(b.Tokens)
	seqs := b.Seq
	if seqs == nil {
		m.sc.seqs = resize(m.sc.seqs, n)
		clear(m.sc.seqs)
		seqs = m.sc.seqs
	}
	m.outRow = resize(m.outRow, n)
	outs := m.sc.outs[:0]
	for i := range n {
		m.outRow[i] = -1
		if (b.Logits == nil && i == n-1) || (b.Logits != nil && b.Logits[i]) {
			m.outRow[i] = len(outs)
			outs = append(outs, int32(i))
		}
	}
	m.sc.outs = outs
	graphOuts := outs
	if len(outs) == 0 { // the graph still computes one row, unread
		m.logits = m.logits[:0]
		graphOuts = []int32{int32(n - 1)}
	}
	m.sc.cells = resize(m.sc.cells, n)
	cells := m.sc.cells
	if err := m.cache.place(seqs, b.Pos, cells); err != nil {
		return err
	}
	prof := m.opts.Profile
	prof.AddStep()
	t := time.Now()
	s := graphShape{n: n, nKV: m.cache.nKV(), nOut: len(graphOuts), embed: embed}
	f, err := m.forward(s)
	if err != nil {
		m.forget(cells)
		return err
	}
	t = lap(prof, "graph build+alloc", t)
	if err := m.fill(f, b.Tokens, b.Pos, seqs, cells, graphOuts); err != nil {
		m.forget(cells)
		return fmt.Errorf("llama: inputs: %w", err)
	}
	t = lap(prof, "input copies", t)
	if err := m.sched.GraphCompute(f.g); err != nil {
		m.last = nil // the scheduler's state is unknown: schedule afresh
		m.forget(cells)
		return fmt.Errorf("llama: %w", err)
	}
	t = lap(prof, "graph compute", t)
	if len(outs) > 0 {
		if m.logits, err = m.sc.getF32(f.in.logits, m.logits); err != nil {
			return fmt.Errorf("llama: logits: %w", err)
		}
	}
	lap(prof, "output copies", t)
	return nil
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
		// Value channel e of token j goes to row e, column cells[j] of the
		// transposed cache.
		vDim, size := h.NEmbdVKV(), m.cache.size
		sc.i32 = resize(sc.i32, vDim*n)
		for j, cell := range cells {
			for e := range vDim {
				sc.i32[j*vDim+e] = int32(e*size) + cell
			}
		}
		if err := sc.setI32(in.vIdx, sc.i32); err != nil {
			return err
		}
	}
	sc.f32 = resize(sc.f32, nKV*n)
	m.cache.fillMask(sc.f32, nKV, seqs, pos, 0)
	if err := sc.setF32(in.mask, sc.f32); err != nil {
		return err
	}
	if in.maskSWA != nil {
		m.cache.fillMask(sc.f32, nKV, seqs, pos, h.SlidingWindow)
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
// free cache cells for the duration of the call and leaves every sequence
// as it was.
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
