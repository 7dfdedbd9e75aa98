package llama

import (
	"fmt"
	"math"

	rt "github.com/gpurt/gpurt/runtime"
)

// kvPad rounds up the number of cache cells a graph attends over, so that
// the graph for one token keeps its shape for kvPad consecutive cells and
// can be run again (llama.cpp pads the same way). Cells past the used ones
// are masked out; they hold zeros (the cache starts cleared) or values of
// removed tokens, finite either way. Options.KVPad sets another step.
const kvPad = 32

// kvCache holds the keys and values of every sequence. With one sequence
// (Options.NSeq 1) it is one stream of NCtx cells; with several, as
// llama.cpp's default non-unified cache, each sequence s has its own
// stream of NCtx/NSeq cells, [s*streamSize, (s+1)*streamSize), so that a
// token attends over its own sequence's cells only and a batch holding one
// token of each of N sequences reads N short streams, not one long
// cache. Each cell holds one token of one sequence at one position, and
// the attention mask lets a token see the cells of its own sequence at
// positions up to its own (Embed's tokens, sequence embedSeq, take free
// cells of the stream with the most).
type kvCache struct {
	dtype      rt.DType
	size       int     // cells: streams*streamSize
	streams    int     // 1, or one per sequence
	streamSize int     // cells per stream
	pos        []int32 // per cell: the token's position, -1 when free
	seq        []int32 // per cell: the token's sequence
	used       []int   // per stream: one past its highest occupied cell, relative to the stream's first
	pad        int     // nKV's rounding step (Options.KVPad)
	embedIn    int     // the stream embedSeq's tokens go to
	layers     []kvLayer
	taken      []bool // place's scratch
	next       []int  // place's scratch: per stream, the next cell to try
}

// kvLayer is one block's cache. Keys are rows [NEmbdKV, size]. Values of
// F16/F32 caches are stored transposed, each stream's as [streamSize,
// NEmbdVKV] one after the other (so [streamSize, NEmbdVKV*streams]), so
// that the attention reads them as rows without a copy; quantized values
// cannot be (a block spans 32 cells), and flash attention reads rows, so
// then they are rows like keys.
type kvLayer struct {
	k, v   *rt.Tensor
	vTrans bool
}

// init creates every layer's cache tensors next to its block's weights.
func (c *kvCache) init(m *Model, layerDev func(int) rt.Device, on func(rt.Device) *placement) error {
	h := &m.H
	c.dtype = m.opts.KVType
	c.streams = max(1, m.opts.NSeq)
	c.streamSize = h.NCtx / c.streams
	if c.streamSize == 0 {
		return fmt.Errorf("llama: %w: a context of %d cells cannot hold %d sequences", rt.ErrInvalidArgument, h.NCtx, c.streams)
	}
	c.size = c.streamSize * c.streams
	c.pos = make([]int32, c.size)
	c.seq = make([]int32, c.size)
	c.used = make([]int, c.streams)
	c.next = make([]int, c.streams)
	c.clear()
	if c.dtype.IsQuantized() {
		if bs := c.dtype.BlockSize(); h.NEmbdKV()%bs != 0 || h.NEmbdVKV()%bs != 0 || h.HeadDim%bs != 0 {
			return fmt.Errorf("llama: %w: a %v KV cache needs head sizes that are multiples of %d (keys %d, values %d)", rt.ErrUnsupported, c.dtype, bs, h.HeadDim, h.HeadDimV)
		}
	}
	c.pad = m.opts.KVPad
	c.layers = make([]kvLayer, h.NLayer)
	for il := range c.layers {
		p := on(layerDev(il))
		l := &c.layers[il]
		l.k = p.cache.NewTensor(c.dtype, h.NEmbdKV(), c.size).SetName(layerName(il, "k_cache"))
		l.vTrans = !c.dtype.IsQuantized() && !m.opts.FlashAttn
		if l.vTrans {
			l.v = p.cache.NewTensor(c.dtype, c.streamSize, h.NEmbdVKV()*c.streams).SetName(layerName(il, "v_cache"))
		} else {
			l.v = p.cache.NewTensor(c.dtype, h.NEmbdVKV(), c.size).SetName(layerName(il, "v_cache"))
		}
	}
	return nil
}

// clear frees every cell.
func (c *kvCache) clear() {
	for i := range c.pos {
		c.pos[i], c.seq[i] = -1, 0
	}
	clear(c.used)
}

// streamOf is the stream of sequence seq.
func (c *kvCache) streamOf(seq int32) int {
	switch {
	case c.streams == 1:
		return 0
	case seq == embedSeq:
		return c.embedIn
	}
	return int(seq)
}

// removeSeq frees the cells of seq.
func (c *kvCache) removeSeq(seq int32) {
	for i := range c.pos {
		if c.pos[i] >= 0 && c.seq[i] == seq {
			c.pos[i] = -1
		}
	}
	c.shrink()
}

func (c *kvCache) shrink() {
	for st := range c.used {
		base := st * c.streamSize
		for c.used[st] > 0 && c.pos[base+c.used[st]-1] < 0 {
			c.used[st]--
		}
	}
}

// freeCells is how many cells of stream st are free.
func (c *kvCache) freeCells(st int) int {
	n := 0
	for _, p := range c.pos[st*c.streamSize : (st+1)*c.streamSize] {
		if p < 0 {
			n++
		}
	}
	return n
}

// takeFree gives the lowest free cell of stream st to (seq, pos), or
// reports that there is none.
func (c *kvCache) takeFree(st int, seq, pos int32) (int32, bool) {
	base := st * c.streamSize
	for i := base; i < base+c.streamSize; i++ {
		if c.pos[i] < 0 {
			c.pos[i], c.seq[i] = pos, seq
			c.used[st] = max(c.used[st], i-base+1)
			return int32(i), true
		}
	}
	return -1, false
}

// maxPos is the highest position held for seq, or -1.
func (c *kvCache) maxPos(seq int32) int32 {
	p := int32(-1)
	for i, q := range c.pos {
		if q >= 0 && c.seq[i] == seq {
			p = max(p, q)
		}
	}
	return p
}

// place finds a cell for every token of a batch, in its sequence's
// stream: the cell that already holds the same sequence and position
// (overwritten), else the stream's lowest free one. On failure no cell
// changes.
func (c *kvCache) place(seqs, pos []int32, cells []int32) error {
	c.taken = resize(c.taken, c.size)
	clear(c.taken)
	clear(c.next)
	taken := c.taken
	for j := range seqs {
		st := c.streamOf(seqs[j])
		base := st * c.streamSize
		cell := -1
		for i := base; i < base+c.used[st]; i++ {
			if c.pos[i] == pos[j] && c.seq[i] == seqs[j] {
				cell = i
				break
			}
		}
		for cell < 0 && c.next[st] < c.streamSize {
			if i := base + c.next[st]; c.pos[i] < 0 && !taken[i] {
				cell = i
			}
			c.next[st]++
		}
		if cell < 0 {
			switch {
			case c.streams == 1:
				return fmt.Errorf("llama: %w: the KV cache's %d cells are all in use", rt.ErrContextFull, c.size)
			case seqs[j] == embedSeq:
				return fmt.Errorf("llama: %w: no sequence's %d KV cache cells have room for the %d tokens to embed", rt.ErrContextFull, c.streamSize, len(seqs))
			}
			return fmt.Errorf("llama: %w: the %d KV cache cells of sequence %d are all in use", rt.ErrContextFull, c.streamSize, seqs[j])
		}
		taken[cell] = true
		cells[j] = int32(cell)
	}
	for j, cell := range cells {
		c.pos[cell], c.seq[cell] = pos[j], seqs[j]
		st := int(cell) / c.streamSize
		c.used[st] = max(c.used[st], int(cell)-st*c.streamSize+1)
	}
	return nil
}

// nKV is how many cells of each stream in [s0, s0+nS) a graph attends
// over: the most any of them uses, padded.
func (c *kvCache) nKV(s0, nS int) int {
	used := 0
	for _, u := range c.used[s0 : s0+nS] {
		used = max(used, u)
	}
	pad := c.pad
	if pad <= 0 {
		pad = kvPad
	}
	return min(c.streamSize, (used+pad-1)/pad*pad)
}

// fillMask writes the attention mask [nKV, t*rows, 1, nS] of a ubatch of
// t tokens in each of streams [s0, s0+nS), stream-major, each token's row
// rows times: 0 where token j (sequence seqs[j], position pos[j]) sees
// cell i of its stream, -Inf elsewhere. window > 0 limits it to the last
// window positions (sliding-window layers).
func (c *kvCache) fillMask(mask []float32, nKV, rows, s0, t int, seqs, pos []int32, window int) {
	negInf := float32(math.Inf(-1))
	for j := range seqs {
		row := mask[j*rows*nKV : (j*rows+1)*nKV]
		base := (s0 + j/t) * c.streamSize
		for i := range row {
			p := c.pos[base+i]
			visible := p >= 0 && c.seq[base+i] == seqs[j] && p <= pos[j] && (window <= 0 || pos[j]-p < int32(window))
			if visible {
				row[i] = 0
			} else {
				row[i] = negInf
			}
		}
		for r := 1; r < rows; r++ {
			copy(mask[(j*rows+r)*nKV:(j*rows+r+1)*nKV], row)
		}
	}
}
