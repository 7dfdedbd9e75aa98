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
// removed tokens, finite either way.
const kvPad = 32

// kvCache is a unified key/value cache of NCtx cells shared by every
// sequence (llama.cpp's unified KV cache): each cell holds one token of one
// sequence at one position, and the attention mask lets a token see the
// cells of its own sequence at positions up to its own.
type kvCache struct {
	dtype  rt.DType
	size   int     // cells
	pos    []int32 // per cell: the token's position, -1 when free
	seq    []int32 // per cell: the token's sequence
	used   int     // one past the highest occupied cell
	layers []kvLayer
	taken  []bool // place's scratch
}

// kvLayer is one block's cache. Keys are rows [NEmbdKV, size]. Values of
// F16/F32 caches are stored transposed, [size, NEmbdVKV], so that the
// attention reads them as rows without a copy; quantized values cannot be
// (a block spans 32 cells), and flash attention reads rows, so then they
// are rows like keys.
type kvLayer struct {
	k, v   *rt.Tensor
	vTrans bool
}

// init creates every layer's cache tensors next to its block's weights.
func (c *kvCache) init(m *Model, layerDev func(int) rt.Device, on func(rt.Device) *placement) error {
	h := &m.H
	c.dtype = m.opts.KVType
	c.size = h.NCtx
	c.pos = make([]int32, c.size)
	c.seq = make([]int32, c.size)
	c.clear()
	if c.dtype.IsQuantized() {
		if bs := c.dtype.BlockSize(); h.NEmbdKV()%bs != 0 || h.NEmbdVKV()%bs != 0 || h.HeadDim%bs != 0 {
			return fmt.Errorf("llama: %w: a %v KV cache needs head sizes that are multiples of %d (keys %d, values %d)", rt.ErrUnsupported, c.dtype, bs, h.HeadDim, h.HeadDimV)
		}
	}
	c.layers = make([]kvLayer, h.NLayer)
	for il := range c.layers {
		p := on(layerDev(il))
		l := &c.layers[il]
		l.k = p.cache.NewTensor(c.dtype, h.NEmbdKV(), c.size).SetName(layerName(il, "k_cache"))
		l.vTrans = !c.dtype.IsQuantized() && !m.opts.FlashAttn
		if l.vTrans {
			l.v = p.cache.NewTensor(c.dtype, c.size, h.NEmbdVKV()).SetName(layerName(il, "v_cache"))
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
	c.used = 0
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
	for c.used > 0 && c.pos[c.used-1] < 0 {
		c.used--
	}
}

// maxPos is the highest position held for seq, or -1.
func (c *kvCache) maxPos(seq int32) int32 {
	p := int32(-1)
	for i := range c.used {
		if c.pos[i] >= 0 && c.seq[i] == seq {
			p = max(p, c.pos[i])
		}
	}
	return p
}

// place finds a cell for every token of a batch: the cell that already
// holds the same sequence and position (overwritten), else the lowest free
// one. On failure no cell changes.
func (c *kvCache) place(seqs, pos []int32, cells []int32) error {
	c.taken = resize(c.taken, c.size)
	clear(c.taken)
	taken := c.taken
	next := 0
	for j := range seqs {
		cell := -1
		for i := range c.used {
			if c.pos[i] == pos[j] && c.seq[i] == seqs[j] {
				cell = i
				break
			}
		}
		for cell < 0 && next < c.size {
			if c.pos[next] < 0 && !taken[next] {
				cell = next
			}
			next++
		}
		if cell < 0 {
			return fmt.Errorf("llama: %w: the KV cache's %d cells are all in use", rt.ErrContextFull, c.size)
		}
		taken[cell] = true
		cells[j] = int32(cell)
	}
	for j, cell := range cells {
		c.pos[cell], c.seq[cell] = pos[j], seqs[j]
		c.used = max(c.used, int(cell)+1)
	}
	return nil
}

// nKV is how many cells a graph attends over: the used ones, padded.
func (c *kvCache) nKV() int {
	return min(c.size, (c.used+kvPad-1)/kvPad*kvPad)
}

// fillMask writes the attention mask [nKV, n] of a batch: 0 where token j
// (sequence seqs[j], position pos[j]) sees cell i, -Inf elsewhere. window
// > 0 limits it to the last window positions (sliding-window layers).
func (c *kvCache) fillMask(mask []float32, nKV int, seqs, pos []int32, window int) {
	negInf := float32(math.Inf(-1))
	for j := range seqs {
		row := mask[j*nKV : (j+1)*nKV]
		for i := range row {
			p := c.pos[i]
			visible := p >= 0 && c.seq[i] == seqs[j] && p <= pos[j] && (window <= 0 || pos[j]-p < int32(window))
			if visible {
				row[i] = 0
			} else {
				row[i] = negInf
			}
		}
	}
}
