package cpu

import (
	"math"
	"slices"
	"sync"

	rt "github.com/gpurt/gpurt/runtime"
)

// ROPE as ggml_rope_ext. Pair i (i < nDims/2) of a row at position p turns
// by theta = p·freq[i], where freq[i] folds in the base frequency, the
// frequency factor, linear scaling and YaRN's ramp (all linear in p), and
// cos and sin are scaled by mscale. Both the reference loop and the fast
// path (ops_fast.go) take their frequencies from ropeFreqs.

// ropeFreqs fills freq (nDims/2 long) with the angle per position of each
// pair of ROPE node n and returns the magnitude scale. ff holds n's
// frequency factors, or is nil.
//
// ggml computes theta_extrap = p·base^(-2i/nDims)/ff[i] and
// theta_interp = freqScale·theta_extrap; with ext_factor != 0 it mixes
// them by ramp(i)·ext_factor, where ramp falls from 1 to 0 between YaRN's
// correction dims, and scales the magnitude by 1+0.1·ln(1/freqScale).
func ropeFreqs(n *rt.Tensor, ff []float32, freq []float64) float64 {
	p := rt.RopeParamsOf(n)
	if ff != nil {
		return computeRopeFreqs(p, ff, freq)
	}
	key := ropeFreqKey{p, len(freq)}
	ropeFreqCache.Lock()
	e, ok := ropeFreqCache.entries[key]
	ropeFreqCache.Unlock()
	if ok {
		copy(freq, e.freq)
		return e.mscale
	}
	mscale := computeRopeFreqs(p, nil, freq)
	ropeFreqCache.Lock()
	if len(ropeFreqCache.entries) < ropeFreqCacheMax {
		if ropeFreqCache.entries == nil {
			ropeFreqCache.entries = map[ropeFreqKey]ropeFreqEntry{}
		}
		ropeFreqCache.entries[key] = ropeFreqEntry{slices.Clone(freq), mscale}
	}
	ropeFreqCache.Unlock()
	return mscale
}

// ropeFreqCache keeps ropeFreqs' results for ROPE nodes without frequency
// factors: a model has one or two rope configurations, and the NDims/2
// powers of each node's table took most of a decode step's ROPE time.
// Entries are exact copies, so results do not change; the cache stops
// growing at ropeFreqCacheMax configurations (an RPC client chooses them).
var ropeFreqCache struct {
	sync.Mutex
	entries map[ropeFreqKey]ropeFreqEntry
}

const ropeFreqCacheMax = 16

type ropeFreqKey struct {
	p    rt.RopeParams
	half int
}

type ropeFreqEntry struct {
	freq   []float64
	mscale float64
}

func computeRopeFreqs(p rt.RopeParams, ff []float32, freq []float64) float64 {
	base, scale, ext := float64(p.FreqBase), float64(p.FreqScale), float64(p.ExtFactor)
	mscale := float64(p.AttnFactor)
	var lo, hi float64
	if ext != 0 {
		lo, hi = rt.RopeYarnCorrDims(p)
		mscale *= 1 + 0.1*math.Log(1/scale)
	}
	for i := range freq {
		extrap := math.Pow(base, -2*float64(i)/float64(p.NDims))
		if ff != nil {
			extrap /= float64(ff[i])
		}
		mix := scale // interpolation only
		if ext != 0 {
			ramp := (1 - min(1, max(0, (float64(i)-lo)/max(0.001, hi-lo)))) * ext
			mix = scale*(1-ramp) + ramp
		}
		freq[i] = extrap * mix
	}
	return mscale
}

// freqFactors loads ROPE node n's frequency factors (source 2), or returns
// nil when it has none. computeNode resolved the source already, so its
// memory is known to be in bounds.
func freqFactors(n *rt.Tensor, ws *workspace, slot int) ([]float32, error) {
	if n.Src[2] == nil {
		return nil, nil
	}
	h, err := resolve(n.Src[2], "frequency factors")
	if err != nil {
		return nil, err
	}
	ff := ws.f32(slot, int(n.Params[0])/2)
	for i := range ff {
		ff[i] = h.f32(h.off + i*h.nb[0])
	}
	return ff, nil
}

// rope rotates pairs of each row of a ([head_dim, heads, tokens, ne3]) by
// the angles of ropeFreqs. Mode 0 pairs (x[2i], x[2i+1]); neox pairs (x[i],
// x[i+nDims/2]). Elements from nDims on pass through. Angles are computed in
// float64, once per position.
func (b *Backend) rope(n *rt.Tensor, a, pos, dst hostTensor) error {
	nDims, neox := int(n.Params[0]), n.Params[1] == rt.RopeNeox
	half, ne0 := nDims/2, a.ne[0]
	return b.forRows(a.rows(), a.rows()*ne0, func(r0, r1 int, ws *workspace) error {
		x := ws.f32(0, ne0)
		ff, err := freqFactors(n, ws, 1)
		if err != nil {
			return err
		}
		freq := ws.f64(0, half)
		mscale := ropeFreqs(n, ff, freq)
		cos, sin := ws.f64(1, 2*half)[:half], ws.f64(1, 2*half)[half:]
		cached, have := int32(0), false
		for r := r0; r < r1; r++ {
			i1, i2, i3 := a.coords(r)
			if p := pos.i32(pos.off + i2*pos.nb[0]); !have || p != cached {
				for i, f := range freq {
					s, c := math.Sincos(float64(p) * f)
					sin[i], cos[i] = s*mscale, c*mscale
				}
				cached, have = p, true
			}
			a.loadRow(a.at(i1, i2, i3), x)
			for i := range half {
				j, k := 2*i, 2*i+1
				if neox {
					j, k = i, i+half
				}
				x0, x1 := float64(x[j]), float64(x[k])
				x[j] = float32(x0*cos[i] - x1*sin[i])
				x[k] = float32(x0*sin[i] + x1*cos[i])
			}
			if err := dst.storeRow(dst.at(i1, i2, i3), x); err != nil {
				return err
			}
		}
		return nil
	})
}
