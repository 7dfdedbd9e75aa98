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
	MaxNew   int // tokens to generate at most; the context caps it too
	Sampling Sampling
	// OnToken sees each generated token in order, on the engine's
	// goroutine; returning false stops the job (a stop string matched).
	OnToken func(id int32) bool
}

// Result is how a job ended.
type Result struct {
	Tokens       []int32
	PromptTokens int
	// CachedTokens of the prompt were already in the KV cache (a prefix
	// shared with the previous job) and not evaluated again.
	CachedTokens int
	// Finish is "stop" (end-of-generation token or OnToken), "length"
	// (MaxNew or the context) or "cancelled".
	Finish      string
	FirstToken  time.Duration // from the job's start to its first token
	GenDuration time.Duration
	Err         error
}

// EngineOptions size an Engine.
type EngineOptions struct {
	// Queue is how many jobs may wait for the slot (default 16).
	Queue int
}

// Engine runs jobs on one model, one at a time, from a bounded queue. It
// owns the model: no one else may use it while the engine runs. It keeps
// the KV cache of the last job, so a prompt that extends it (the next
// turn of a chat) evaluates only its new tokens.
type Engine struct {
	m      *llama.Model
	queue  chan *queued
	stop   chan struct{}
	done   chan struct{}
	once   sync.Once
	cached []int32 // the tokens whose keys and values are in the cache
	stats  *Metrics
}

type queued struct {
	ctx context.Context
	job *Job
	res chan Result
}

// NewEngine starts the engine's goroutine; Close stops it.
func NewEngine(m *llama.Model, opts EngineOptions, metrics *Metrics) *Engine {
	if opts.Queue <= 0 {
		opts.Queue = 16
	}
	if metrics == nil {
		metrics = &Metrics{}
	}
	e := &Engine{m: m, queue: make(chan *queued, opts.Queue), stop: make(chan struct{}), done: make(chan struct{}), stats: metrics}
	go e.loop()
	return e
}

// Model is the engine's model (read its hyperparameters and tokenizer;
// do not evaluate with it).
func (e *Engine) Model() *llama.Model { return e.m }

// QueueDepth is the number of jobs waiting for the slot.
func (e *Engine) QueueDepth() int { return len(e.queue) }

// Close stops the engine after the job that runs; queued jobs end with
// rt.ErrClosed.
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
	if len(job.Prompt) >= e.m.H.NCtx {
		return nil, fmt.Errorf("server: %w: the prompt has %d tokens, the context %d", rt.ErrContextFull, len(job.Prompt), e.m.H.NCtx)
	}
	select {
	case <-e.stop:
		return nil, fmt.Errorf("server: engine: %w", rt.ErrClosed)
	default:
	}
	q := &queued{ctx: ctx, job: job, res: make(chan Result, 1)}
	select {
	case e.queue <- q:
		e.stats.setQueue(len(e.queue))
		return q.res, nil
	default:
		return nil, ErrQueueFull
	}
}

func (e *Engine) loop() {
	defer close(e.done)
	for {
		select {
		case <-e.stop:
			for {
				select {
				case q := <-e.queue:
					q.res <- Result{Err: fmt.Errorf("server: engine: %w", rt.ErrClosed)}
				default:
					return
				}
			}
		case q := <-e.queue:
			e.stats.setQueue(len(e.queue))
			e.stats.slotBusy(1)
			res := e.run(q.ctx, q.job)
			e.stats.slotBusy(-1)
			q.res <- res
		}
	}
}

// run evaluates one job to its end.
func (e *Engine) run(ctx context.Context, job *Job) Result {
	start := time.Now()
	res := Result{PromptTokens: len(job.Prompt), Finish: "length"}
	if ctx.Err() != nil {
		res.Finish = "cancelled"
		return res
	}
	chain, err := newChain(job.Sampling, job.Prompt)
	if err != nil {
		res.Err = err
		return res
	}
	// Reuse the cache where the prompt extends what it holds; otherwise
	// start afresh (the cache can only be emptied, not cut).
	todo := job.Prompt
	if n := len(e.cached); n > 0 && n < len(todo) && slices.Equal(e.cached, todo[:n]) {
		todo = todo[n:]
		res.CachedTokens = n
	} else {
		e.m.ResetCache()
		e.cached = e.cached[:0]
	}
	logits, err := e.m.Eval(todo, false)
	if err != nil {
		e.m.ResetCache()
		e.cached = e.cached[:0]
		res.Err = err
		return res
	}
	e.cached = append(e.cached, todo...)
	e.stats.addPrompt(len(todo))
	genStart := time.Now()
	maxNew := job.MaxNew
	if room := e.m.H.NCtx - len(e.cached) + 1; maxNew < 0 || maxNew > room {
		maxNew = room
	}
	for len(res.Tokens) < maxNew {
		if ctx.Err() != nil {
			res.Finish = "cancelled"
			break
		}
		id, err := chain.sample(logits)
		if err != nil {
			res.Err = err
			break
		}
		if e.m.Tok.IsEOG(id) {
			res.Finish = "stop"
			break
		}
		if len(res.Tokens) == 0 {
			res.FirstToken = time.Since(start)
		}
		res.Tokens = append(res.Tokens, id)
		e.stats.addGenerated(1)
		if job.OnToken != nil && !job.OnToken(id) {
			res.Finish = "stop"
			break
		}
		if len(res.Tokens) == maxNew || len(e.cached) >= e.m.H.NCtx {
			break
		}
		if logits, err = e.m.Eval([]int32{id}, false); err != nil {
			e.m.ResetCache()
			e.cached = e.cached[:0]
			res.Err = err
			break
		}
		e.cached = append(e.cached, id)
	}
	res.GenDuration = time.Since(genStart)
	e.stats.addGenTime(res.GenDuration)
	return res
}
