package server

import (
	"fmt"
	"math"

	"github.com/gpurt/gpurt/llama"
	rt "github.com/gpurt/gpurt/runtime"
)

// Sampling is one request's sampling parameters.
type Sampling struct {
	Temp float32
	TopK int
	TopP float32
	// MinP in [0, 1) drops tokens less likely than MinP times the most
	// likely one (on the untempered distribution, as llama.cpp).
	MinP float32
	// RepeatPenalty > 1 makes the last RepeatLastN tokens (prompt and
	// output) less likely: a positive logit is divided by it, a negative
	// one multiplied, as llama.cpp's penalties sampler. 1 is off.
	RepeatPenalty float32
	RepeatLastN   int
	Seed          uint64
}

// chain is the server's sampler: repetition penalty, then min-p, as
// logit edits, then llama.Sampler's top-k, top-p and temperature.
type chain struct {
	cfg     Sampling
	base    *llama.Sampler
	history []int32 // the last RepeatLastN tokens
	work    []float32
	seen    map[int32]bool // sample's scratch
}

func newChain(cfg Sampling, context []int32) (*chain, error) {
	if !(cfg.MinP >= 0 && cfg.MinP < 1) {
		return nil, fmt.Errorf("min_p %v is outside [0, 1): %w", cfg.MinP, rt.ErrInvalidArgument)
	}
	if p := float64(cfg.RepeatPenalty); !(p > 0) || math.IsInf(p, 0) {
		return nil, fmt.Errorf("repeat_penalty %v must be a finite number > 0: %w", cfg.RepeatPenalty, rt.ErrInvalidArgument)
	}
	base, err := llama.NewSampler(llama.SamplerConfig{Temp: cfg.Temp, TopK: cfg.TopK, TopP: cfg.TopP, Seed: cfg.Seed})
	if err != nil {
		return nil, err
	}
	c := &chain{cfg: cfg, base: base}
	for _, id := range context {
		c.accept(id)
	}
	return c, nil
}

// accept records a token for the repetition penalty.
func (c *chain) accept(id int32) {
	if c.cfg.RepeatPenalty == 1 || c.cfg.RepeatLastN <= 0 {
		return
	}
	c.history = append(c.history, id)
	if over := len(c.history) - c.cfg.RepeatLastN; over > 0 {
		c.history = append(c.history[:0], c.history[over:]...)
	}
}

// sample draws the next token and records it.
func (c *chain) sample(logits []float32) (int32, error) {
	l := logits
	if c.cfg.RepeatPenalty != 1 && len(c.history) > 0 || c.cfg.MinP > 0 {
		c.work = append(c.work[:0], logits...)
		l = c.work
	}
	if c.cfg.RepeatPenalty != 1 {
		p := c.cfg.RepeatPenalty
		if c.seen == nil {
			c.seen = map[int32]bool{}
		}
		clear(c.seen)
		seen := c.seen
		for _, id := range c.history {
			if seen[id] || int(id) >= len(l) {
				continue
			}
			seen[id] = true
			if l[id] > 0 {
				l[id] /= p
			} else {
				l[id] *= p
			}
		}
	}
	if c.cfg.MinP > 0 && c.cfg.Temp > 0 { // greedy keeps its argmax anyway
		top := float32(math.Inf(-1))
		for _, v := range l {
			if v > top { // not the max builtin: its NaN handling was 40% of a token's sampling
				top = v
			}
		}
		floor := top + float32(math.Log(float64(c.cfg.MinP)))
		for i, v := range l {
			if v < floor {
				l[i] = float32(math.Inf(-1))
			}
		}
	}
	id, err := c.base.Sample(l)
	if err != nil {
		return 0, err
	}
	c.accept(id)
	return id, nil
}
