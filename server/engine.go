package server

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/gpurt/gpurt/llama"
	rt "github.com/gpurt/gpurt/runtime"
)

// ErrQueueFull is returned by Engine.Submit when every slot is busy and
// the queue holds its maximum; the HTTP layer answers 503.
var ErrQueueFull = errors.New("server: the request queue is full")

// Job is one generation: prompt tokens in, tokens out.
type Job struct {
	Prompt   []int32
	MaxNew   int // tokens to generate at most (-1: no limit); the slot's context caps it too
	Sampling Sampling
	// OnToken sees each generated token in order, on the engine's
	// goroutine; returning false stops the job (a stop string matched).
	OnToken func(id int32) bool
}

// Result is how a job ended.
type Result struct {
	Tokens       []int32
	PromptTokens int
	// CachedTokens of the prompt were already in the slot's KV cache (a
	// prefix shared with the slot's previous job) and not evaluated again.
	CachedTokens int
	// Finish is "stop" (end-of-generation token or OnToken), "length"
	// (MaxNew or the context) or "cancelled".
	Finish string
	// FirstToken is the time from Submit to the first token, queueing
	// included.
	FirstToken  time.Duration
	GenDuration time.Duration
	Err         error
}

// EngineOptions size an Engine.
type EngineOptions struct {
	// Slots is how many sequences generate together in one batched
	// forward pass per step (default 1); at most the model's
	// llama.Options.NSeq. Each slot has NCtx/Slots cache cells.
	Slots int
	// Queue is how many jobs may wait for a slot (default 16).
	Queue int
	// MaxBatch bounds the tokens of one step (default 512): long prompts
	// are evaluated in chunks of it, between other slots' tokens.
	MaxBatch int
}

// Engine runs jobs on one model with continuous batching: every step
// evaluates one batch holding the next token of every generating slot and
// chunks of the prompts of newly started ones, then samples each slot's
// token. A job waiting in the queue takes a slot at the next step. The
// engine owns the model: no one else may use it while the engine runs.
// A slot keeps its cache after its job, so a prompt that extends it (the
// next turn of a chat) evaluates only its new tokens.
type Engine struct {
	m       *llama.Model
	opts    EngineOptions
	slotCtx int
	queue   chan *queued
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
	slots   []*slot
	stats   *Metrics
	batch   llama.Batch
}

type queued struct {
	ctx    context.Context
	job    *Job
	embed  []int32 // an embedding job instead of a generation
	res    chan Result
	embRes chan embedResult
	start  time.Time
}

type embedResult struct {
	vec []float32
	err error
}

// slot is one sequence of the cache.
type slot struct {
	seq      int32
	q        *queued // the running job; nil when free
	cached   []int32 // tokens whose keys and values are in the cache
	pending  []int32 // tokens to evaluate next (the prompt's rest, or the last sampled)
	fed      int     // tokens of pending in this step's batch
	out      int     // batch index of this slot's logits this step; -1: none
	chain    *chain
	res      Result
	maxNew   int
	genStart time.Time
}

// NewEngine starts the engine's goroutine; Close stops it.
func NewEngine(m *llama.Model, opts EngineOptions, metrics *Metrics) *Engine {
	if opts.Queue <= 0 {
		opts.Queue = 16
	}
	if opts.Slots <= 0 {
		opts.Slots = 1
	}
	if opts.MaxBatch <= 0 {
		opts.MaxBatch = 512
	}
	opts.MaxBatch = min(opts.MaxBatch, m.H.NCtx)
	if metrics == nil {
		metrics = &Metrics{}
	}
	e := &Engine{m: m, opts: opts, slotCtx: m.H.NCtx / opts.Slots, queue: make(chan *queued, opts.Queue),
		stop: make(chan struct{}), done: make(chan struct{}), stats: metrics}
	for i := range opts.Slots {
		e.slots = append(e.slots, &slot{seq: int32(i)})
	}
	go e.loop()
	return e
}

// Model is the engine's model (read its hyperparameters and tokenizer;
// do not evaluate with it).
func (e *Engine) Model() *llama.Model { return e.m }

// SlotContext is the context of one slot, in tokens.
func (e *Engine) SlotContext() int { return e.slotCtx }

// QueueDepth is the number of jobs waiting for a slot.
func (e *Engine) QueueDepth() int { return len(e.queue) }

// Close stops the engine; running and queued jobs end with rt.ErrClosed.
func (e *Engine) Close() {
	e.once.Do(func() { close(e.stop) })
	<-e.done
}

// Submit queues a job and returns a channel that receives its Result once.
// ctx cancels it, queued or running. It fails at once with ErrQueueFull
// when the queue is full.
func (e *Engine) Submit(ctx context.Context, job *Job) (<-chan Result, error) {
	if len(job.Prompt) == 0 {
		return nil, fmt.Errorf("server: %w: empty prompt", rt.ErrInvalidArgument)
	}
	if len(job.Prompt) >= e.slotCtx {
		return nil, fmt.Errorf("server: %w: the prompt has %d tokens, a slot's context %d", rt.ErrContextFull, len(job.Prompt), e.slotCtx)
	}
	q := &queued{ctx: ctx, job: job, res: make(chan Result, 1), start: time.Now()}
	return q.res, e.enqueue(q)
}

// Embed returns the mean-pooled final hidden states of tokens, computed
// between two generation steps.
func (e *Engine) Embed(ctx context.Context, tokens []int32) ([]float32, error) {
	if len(tokens) == 0 {
		return nil, fmt.Errorf("server: %w: no tokens to embed", rt.ErrInvalidArgument)
	}
	q := &queued{ctx: ctx, embed: tokens, embRes: make(chan embedResult, 1), start: time.Now()}
	if err := e.enqueue(q); err != nil {
		return nil, err
	}
	select {
	case r := <-q.embRes:
		return r.vec, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (e *Engine) enqueue(q *queued) error {
	select {
	case <-e.stop:
		return fmt.Errorf("server: engine: %w", rt.ErrClosed)
	default:
	}
	select {
	case e.queue <- q:
		e.stats.setQueue(len(e.queue))
		return nil
	default:
		return ErrQueueFull
	}
}

func (e *Engine) loop() {
	defer close(e.done)
	closed := fmt.Errorf("server: engine: %w", rt.ErrClosed)
	defer func() {
		for _, s := range e.slots {
			if s.q != nil {
				s.res.Err = closed
				e.finish(s, "cancelled")
			}
		}
		for {
			select {
			case q := <-e.queue:
				e.reply(q, Result{Err: closed})
			default:
				return
			}
		}
	}()
	for {
		active := e.active()
		if active == 0 { // idle: wait for work
			select {
			case <-e.stop:
				return
			case q := <-e.queue:
				e.admit(q)
			}
		}
		select {
		case <-e.stop:
			return
		default:
		}
		// Jobs that arrived since the last step take the free slots.
		for e.free() != nil {
			select {
			case q := <-e.queue:
				e.admit(q)
				continue
			default:
			}
			break
		}
		e.stats.setQueue(len(e.queue))
		e.step()
	}
}

func (e *Engine) reply(q *queued, r Result) {
	if q.embed != nil {
		q.embRes <- embedResult{err: r.Err}
		return
	}
	q.res <- r
}

func (e *Engine) active() int {
	n := 0
	for _, s := range e.slots {
		if s.q != nil {
			n++
		}
	}
	e.stats.setBusy(n)
	return n
}

// free is a free slot, or nil.
func (e *Engine) free() *slot {
	for _, s := range e.slots {
		if s.q == nil {
			return s
		}
	}
	return nil
}

// admit starts a job in a free slot: the one whose cache holds the longest
// prefix of its prompt, else an empty one, else any (emptied).
func (e *Engine) admit(q *queued) {
	if q.embed != nil {
		vec, err := e.m.Embed(q.embed)
		for _, s := range e.slots {
			if !errors.Is(err, rt.ErrContextFull) {
				break
			}
			// Embed takes free cells of one slot's stream: give it the
			// kept cache of an idle slot.
			if s.q == nil && len(s.cached) > 0 {
				e.m.SeqRemove(s.seq)
				s.cached = s.cached[:0]
				vec, err = e.m.Embed(q.embed)
			}
		}
		q.embRes <- embedResult{vec, err}
		return
	}
	if q.ctx.Err() != nil {
		q.res <- Result{PromptTokens: len(q.job.Prompt), Finish: "cancelled"}
		return
	}
	prompt := q.job.Prompt
	var best *slot
	bestN := -1
	for _, sl := range e.slots {
		if sl.q != nil {
			continue
		}
		n := 0
		if reusable(sl, prompt) {
			n = len(sl.cached)
		}
		if n > bestN || (n == bestN && len(sl.cached) < len(best.cached)) {
			best, bestN = sl, n
		}
	}
	s := best
	if bestN == 0 {
		e.m.SeqRemove(s.seq)
		s.cached = s.cached[:0]
	}
	chain, err := newChain(q.job.Sampling, prompt)
	if err != nil {
		q.res <- Result{PromptTokens: len(prompt), Err: err}
		return
	}
	s.q, s.chain = q, chain
	s.res = Result{PromptTokens: len(prompt), CachedTokens: len(s.cached)}
	s.pending = append(s.pending[:0], prompt[len(s.cached):]...)
	s.maxNew = q.job.MaxNew
	if room := e.slotCtx - len(prompt) + 1; s.maxNew < 0 || s.maxNew > room {
		s.maxNew = room
	}
	s.genStart = time.Time{}
	if s.maxNew == 0 {
		e.finish(s, "length")
	}
}

// reusable reports whether s's cache holds a strict prefix of prompt.
func reusable(s *slot, prompt []int32) bool {
	n := len(s.cached)
	return n > 0 && n < len(prompt) && slices.Equal(s.cached, prompt[:n])
}

// finish ends a slot's job; its cache stays for the next prompt that
// extends it.
func (e *Engine) finish(s *slot, reason string) {
	s.res.Finish = reason
	if !s.genStart.IsZero() {
		s.res.GenDuration = time.Since(s.genStart)
		e.stats.addGenTime(s.res.GenDuration)
	}
	if s.genStart.IsZero() && len(s.pending) > 0 {
		// A prompt cut short: the cache holds a part no one asked for.
		e.m.SeqRemove(s.seq)
		s.cached = s.cached[:0]
	}
	s.pending = s.pending[:0] // at most the last sampled token, not in the cache
	s.q.res <- s.res
	s.q, s.chain = nil, nil
}

// fail ends a slot's job with err and empties its cache.
func (e *Engine) fail(s *slot, err error) {
	s.res.Err = err
	e.m.SeqRemove(s.seq)
	s.cached, s.pending = s.cached[:0], s.pending[:0]
	e.finish(s, "stop")
}

// step evaluates one batch and samples a token for every slot whose
// pending tokens it finished.
func (e *Engine) step() {
	b := &e.batch
	b.Tokens, b.Pos, b.Seq, b.Logits = b.Tokens[:0], b.Pos[:0], b.Seq[:0], b.Logits[:0]
	budget := e.opts.MaxBatch
	for _, s := range e.slots {
		s.fed, s.out = 0, -1
		if s.q == nil {
			continue
		}
		if s.q.ctx.Err() != nil {
			e.finish(s, "cancelled")
			continue
		}
		k := min(len(s.pending), budget)
		if k == 0 {
			continue
		}
		for i, t := range s.pending[:k] {
			b.Tokens = append(b.Tokens, t)
			b.Pos = append(b.Pos, int32(len(s.cached)+i))
			b.Seq = append(b.Seq, s.seq)
			b.Logits = append(b.Logits, false)
		}
		if k == len(s.pending) {
			s.out = len(b.Tokens) - 1
			b.Logits[s.out] = true
		}
		s.fed, budget = k, budget-k
	}
	if len(b.Tokens) == 0 {
		return
	}
	inBatch := 0
	for _, s := range e.slots {
		if s.fed > 0 {
			inBatch++
		}
	}
	e.stats.addStep(inBatch)
	if err := e.m.Decode(*b); err != nil {
		for _, s := range e.slots {
			if s.q != nil && s.fed > 0 {
				e.fail(s, err)
			}
		}
		return
	}
	for _, s := range e.slots {
		if s.q == nil || s.fed == 0 {
			continue
		}
		if s.genStart.IsZero() { // still in the prompt
			e.stats.addPrompt(s.fed)
		}
		s.cached = append(s.cached, s.pending[:s.fed]...)
		s.pending = append(s.pending[:0], s.pending[s.fed:]...)
		if s.out < 0 {
			continue
		}
		id, err := s.chain.sample(e.m.Logits(s.out))
		if err != nil {
			e.fail(s, err)
			continue
		}
		if s.genStart.IsZero() {
			s.genStart = time.Now()
		}
		if e.m.Tok.IsEOG(id) {
			e.finish(s, "stop")
			continue
		}
		if len(s.res.Tokens) == 0 {
			s.res.FirstToken = time.Since(s.q.start)
		}
		s.res.Tokens = append(s.res.Tokens, id)
		e.stats.addGenerated(1)
		if s.q.job.OnToken != nil && !s.q.job.OnToken(id) {
			e.finish(s, "stop")
			continue
		}
		if len(s.res.Tokens) >= s.maxNew || len(s.cached) >= e.slotCtx {
			e.finish(s, "length")
			continue
		}
		s.pending = append(s.pending, id)
	}
}
