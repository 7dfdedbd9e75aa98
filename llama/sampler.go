package llama

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	rt "github.com/gpurt/gpurt/runtime"
)

// SamplerConfig selects how the next token is drawn from the logits.
type SamplerConfig struct {
	// Temp 0 is greedy decoding: always the most likely token. It must be
	// finite and not negative.
	Temp float32
	// TopK > 0 keeps only the K most likely tokens.
	TopK int
	// TopP in (0, 1) keeps the smallest set of most likely tokens whose
	// probabilities sum to at least TopP (nucleus sampling).
	TopP float32
	// Seed makes the draws reproducible.
	Seed uint64
}

// Sampler draws token ids from logits. As in llama.cpp's default chain,
// top-k and top-p filter on the untempered distribution, then the
// temperature reshapes what is left and one token is drawn.
type Sampler struct {
	cfg  SamplerConfig
	rng  *rand.Rand
	cand []candidate
}

type candidate struct {
	id    int32
	logit float32
	p     float64
}

// NewSampler returns a sampler; the same config and logits give the same
// sequence of tokens.
func NewSampler(cfg SamplerConfig) (*Sampler, error) {
	if t := float64(cfg.Temp); !(t >= 0) || math.IsInf(t, 1) {
		return nil, fmt.Errorf("sampler: temperature %v must be a finite number >= 0 (0 is greedy): %w", cfg.Temp, rt.ErrInvalidArgument)
	}
	if cfg.TopK < 0 {
		return nil, fmt.Errorf("sampler: top-k %d is negative: %w", cfg.TopK, rt.ErrInvalidArgument)
	}
	if !(cfg.TopP >= 0 && cfg.TopP <= 1) {
		return nil, fmt.Errorf("sampler: top-p %v is outside [0, 1]: %w", cfg.TopP, rt.ErrInvalidArgument)
	}
	return &Sampler{cfg: cfg, rng: rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15))}, nil
}

// Sample picks the next token id from one row of logits.
func (s *Sampler) Sample(logits []float32) (int32, error) {
	if len(logits) == 0 {
		return 0, fmt.Errorf("sampler: no logits: %w", rt.ErrInvalidArgument)
	}
	// NaN logits mean the model's computation failed: greedy decoding
	// must not hide them behind an argmax.
	for i, l := range logits {
		if l != l { // NaN
			return 0, fmt.Errorf("sampler: logit %d is NaN (the model produced invalid values): %w", i, rt.ErrInvalidArgument)
		}
	}
	if s.cfg.Temp == 0 {
		return Argmax(logits), nil
	}
	// Tokens at -Inf (min-p's and grammar-like masks) can never be drawn
	// while any other can; they stay only when every token is at -Inf.
	c := s.cand[:0]
	ninf := float32(math.Inf(-1))
	for i, l := range logits {
		if l != ninf {
			c = append(c, candidate{id: int32(i), logit: l})
		}
	}
	if len(c) == 0 {
		for i, l := range logits {
			c = append(c, candidate{id: int32(i), logit: l})
		}
	}
	s.cand = c
	if k := s.cfg.TopK; k > 0 && k < len(c) {
		// Selecting the k best takes O(n log k), not the O(n log n) of
		// sorting a vocabulary of 150,000 for 40 of them.
		c = bestK(c, k)
	}
	// Most likely first; equal logits by id, so the order is deterministic.
	slices.SortFunc(c, func(a, b candidate) int {
		switch {
		case better(a, b):
			return -1
		case better(b, a):
			return 1
		}
		return 0
	})
	if p := s.cfg.TopP; p > 0 && p < 1 {
		softmax(c, 1)
		sum := 0.0
		for i := range c {
			sum += c[i].p
			if sum >= float64(p) {
				c = c[:i+1]
				break
			}
		}
	}
	softmax(c, s.cfg.Temp)
	u := s.rng.Float64()
	acc := 0.0
	for _, x := range c {
		acc += x.p
		if u < acc {
			return x.id, nil
		}
	}
	return c[len(c)-1].id, nil // u landed in the rounding gap at the top
}

// softmax sets p for candidates sorted by descending logit.
func softmax(c []candidate, temp float32) {
	top := float64(c[0].logit)
	if math.IsInf(top, 1) {
		// Only the +Inf logits can be drawn.
		for i := range c {
			c[i].p = 0
			if math.IsInf(float64(c[i].logit), 1) {
				c[i].p = 1
			}
		}
	} else {
		for i := range c {
			c[i].p = math.Exp((float64(c[i].logit) - top) / float64(temp))
		}
	}
	sum := 0.0
	for _, x := range c {
		sum += x.p
	}
	if sum == 0 || math.IsNaN(sum) { // every logit is -Inf: uniform
		for i := range c {
			c[i].p = 1 / float64(len(c))
		}
		return
	}
	for i := range c {
		c[i].p /= sum
	}
}

// better orders candidates: the higher logit, on ties the lower id.
func better(a, b candidate) bool {
	if a.logit != b.logit {
		return a.logit > b.logit
	}
	return a.id < b.id
}

// bestK moves the k best candidates of c (by better) to c[:k], in no
// particular order, and returns c[:k]: a heap of the best so far with the
// worst of them at its root, which each better candidate replaces.
func bestK(c []candidate, k int) []candidate {
	h := c[:k]
	for i := k/2 - 1; i >= 0; i-- {
		siftWorst(h, i)
	}
	for _, x := range c[k:] {
		if better(x, h[0]) {
			h[0] = x
			siftWorst(h, 0)
		}
	}
	return h
}

// siftWorst restores the heap below i, in which every parent is worse
// than its children.
func siftWorst(h []candidate, i int) {
	for {
		w := i
		for _, ch := range [2]int{2*i + 1, 2*i + 2} {
			if ch < len(h) && better(h[w], h[ch]) {
				w = ch
			}
		}
		if w == i {
			return
		}
		h[i], h[w] = h[w], h[i]
		i = w
	}
}

// Argmax is the index of the largest logit, the first one on ties.
func Argmax(logits []float32) int32 {
	// Two passes, each cheap: the largest value, with four independent
	// running maxima (NaN compares false, so it never wins), then its
	// first index. A per-element index chain is twice as slow.
	m := [4]float32{negInf, negInf, negInf, negInf}
	i := 0
	for ; i+4 <= len(logits); i += 4 {
		l := logits[i : i+4 : i+4]
		if l[0] > m[0] {
			m[0] = l[0]
		}
		if l[1] > m[1] {
			m[1] = l[1]
		}
		if l[2] > m[2] {
			m[2] = l[2]
		}
		if l[3] > m[3] {
			m[3] = l[3]
		}
	}
	for ; i < len(logits); i++ {
		if logits[i] > m[0] {
			m[0] = logits[i]
		}
	}
	best := max(m[0], m[1], m[2], m[3])
	for i, l := range logits {
		if l == best {
			return int32(i)
		}
	}
	return 0 // every value NaN
}

var negInf = float32(math.Inf(-1))
