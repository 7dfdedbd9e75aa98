package cpu

import (
	"math"
	"slices"

	rt "github.com/gpurt/gpurt/runtime"
)

// ropeTables are a ROPE node's per-token cosine and sine tables, kept for
// the next ROPE node: every layer rotates its queries and keys by the
// same positions, so a graph computes each token's NDims/2 sincos pairs
// once instead of twice a layer (a decode step of 4 sequences: 4 tokens'
// tables, reused by the 9 other ROPE nodes of a 5-layer model; a prompt
// of 128 tokens: 128). They are reused only for the same frequencies,
// scale, mode and positions, so the values are exactly those the node
// would compute.
type ropeTables struct {
	freq   []float64 // the frequencies the tables are for
	mscale float64
	neox   bool
	pos    []int32   // per token, the position of its table
	tab    []float32 // per token, 2·NDims floats: cs, then sn (see ropeTask)
	valid  bool
	ff     []float32 // prepare's scratch: the frequency factors,
	next   []float64 // and the node's frequencies
}

// prepare makes t hold the tables of ROPE node n, whose positions are
// pos.
func (t *ropeTables) prepare(n *rt.Tensor, pos *hostTensor) error {
	nDims, neox := int(n.Params[0]), n.Params[1] == rt.RopeNeox
	half, tokens := nDims/2, pos.ne[0]
	var ff []float32
	if n.Src[2] != nil { // frequency factors
		h, err := resolve(n.Src[2], "frequency factors")
		if err != nil {
			return err
		}
		t.ff = grow(t.ff, half)
		for i := range t.ff {
			t.ff[i] = h.f32(h.off + i*h.nb[0])
		}
		ff = t.ff
	}
	t.next = grow(t.next, half)
	mscale := ropeFreqs(n, ff, t.next)
	freq := t.next
	same := t.valid && t.neox == neox && t.mscale == mscale && slices.Equal(t.freq, freq) && len(t.pos) == tokens
	for i := 0; same && i < tokens; i++ {
		same = t.pos[i] == pos.i32(pos.off+i*pos.nb[0])
	}
	if same {
		return nil
	}
	t.freq = append(t.freq[:0], freq...)
	t.mscale, t.neox, t.valid = mscale, neox, true
	t.pos = grow(t.pos, tokens)
	t.tab = grow(t.tab, tokens*2*nDims)
	for i := range tokens {
		p := pos.i32(pos.off + i*pos.nb[0])
		t.pos[i] = p
		tab := t.tab[i*2*nDims : (i+1)*2*nDims]
		cs, sn := tab[:nDims], tab[nDims:]
		for j, f := range freq {
			s, c := math.Sincos(float64(p) * f)
			s, c = s*mscale, c*mscale
			if neox {
				cs[j], sn[j] = float32(c), float32(s)
			} else {
				cs[2*j], cs[2*j+1] = float32(c), float32(c)
				sn[2*j], sn[2*j+1] = -float32(s), float32(s)
			}
		}
	}
	return nil
}

// token is token i's cosines and sines (nDims each).
func (t *ropeTables) token(i, nDims int) (cs, sn []float32) {
	tab := t.tab[i*2*nDims : (i+1)*2*nDims]
	return tab[:nDims], tab[nDims:]
}
