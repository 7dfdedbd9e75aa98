package cpu

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	rt "github.com/gpurt/gpurt/runtime"
)

// taskFunc is one worker's share of an op: worker ith of nth, with its own
// scratch space.
type taskFunc func(ith, nth int, ws *workspace) error

// pool is a persistent set of worker goroutines. The goroutine that calls
// run is worker 0; workers 1..n-1 wait for the next op between runs, so no
// goroutine is spawned per op. The goroutines start on the first parallel
// run and live until stop.
//
// Between ops a helper spins for up to spinWindow before it parks, as
// ggml's threads spin within a graph: the ops of one token follow each other
// within microseconds, and waking a parked goroutine costs tens of them (a
// futex wake, then a steal from the dispatcher's P). Each spin round yields
// (relax), so a spinning helper gives its P and its core to goroutines and
// threads with work instead of taking them. docs/performance.md has the measurements.
//
// Worker 0 never waits for a helper that has not started: once its own
// share is done it takes over every share whose helper has not claimed it
// yet (each share is claimed once, by its helper or by worker 0), and
// waits only for the shares that helpers are running. A helper that is
// descheduled, or whose P runs other goroutines (an HTTP handler while a
// server generates), then costs the op nothing beyond running serially,
// instead of the time until the OS or the Go scheduler runs it again.
type pool struct {
	n       int
	ws      []workspace // ws[i] belongs to worker i
	job     job         // reused by every run: one op runs at a time
	started bool

	// gen is the number of the newest posted job. A helper looks at every
	// generation once and runs its share when it claims it (shares).
	gen     atomic.Uint64
	quit    atomic.Bool
	helpers []helper // helpers[i] is worker i's parking place; [0] is unused
	done    sync.WaitGroup

	// Accounting, kept only while profile is set.
	profile bool
	base    time.Time
	stamps  [][2]int64 // per worker: start and end of its share, ns after base
	stat    rt.PoolStat
}

// helper is worker i's share of the current job and where it parks when
// its spin window ends without work.
type helper struct {
	// share is gen<<2 | the state of the share of job gen: open, then
	// claimed by the helper (running, then done) or taken by worker 0.
	// A share left at an older generation is not this helper's to run.
	share  atomic.Uint64
	parked atomic.Bool
	wake   chan struct{} // one token per wake-up
	_      [64]byte      // keep the flags of different workers off one cache line
}

// The states of a helper's share (the low bits of helper.share).
const (
	shareOpen    = 0 // posted, not started
	shareRunning = 1 // claimed by its helper
	shareDone    = 2 // its helper finished it
	shareTaken   = 3 // worker 0 ran it: its helper had not started
)

// spinRound is how many pause-spins a spin wait makes between yields: a
// yield (a trip through the Go scheduler) costs far more than a hand-off.
const spinRound = 128

// spinWindow is how long an idle helper spins for the next op before it
// parks.
const spinWindow = 2 * time.Millisecond

// job is one parallel run of a taskFunc.
type job struct {
	p    *pool
	fn   taskFunc
	nth  int
	errs []error
}

func newPool(n int) *pool {
	return &pool{n: n, ws: make([]workspace, n)}
}

// run executes fn on nth workers (1 <= nth <= n) and waits for all of them.
// It returns the error of the lowest-numbered failing worker, so the error
// does not depend on timing.
func (p *pool) run(nth int, fn taskFunc) error {
	nth = max(1, min(nth, p.n))
	if nth == 1 {
		if p.profile {
			t0 := time.Now()
			err := runOne(fn, &p.ws[0])
			p.stat.Busy += time.Since(t0)
			return err
		}
		return runOne(fn, &p.ws[0]) // the common case for small ops: no job, no handoff
	}
	if !p.started {
		p.start()
	}
	j := &p.job
	j.p, j.fn, j.nth = p, fn, nth
	j.errs = grow(j.errs, nth)
	clear(j.errs)
	var t0 int64
	if p.profile {
		t0 = p.now()
	}
	// Open the shares of helpers 1..nth-1 before announcing the
	// generation; helpers beyond nth find theirs at an older one and skip.
	g := p.gen.Load() + 1
	for i := 1; i < nth; i++ {
		p.helpers[i].share.Store(g << 2)
	}
	p.gen.Store(g)
	for i := 1; i < nth; i++ {
		p.unpark(i)
	}
	j.exec(0, &p.ws[0])
	taken := 0
	for i := 1; i < nth; i++ {
		h := &p.helpers[i]
		if h.share.CompareAndSwap(g<<2|shareOpen, g<<2|shareTaken) {
			j.exec(i, &p.ws[i]) // its helper is late: run it here
			taken++
			continue
		}
		for spins := 0; h.share.Load() != g<<2|shareDone; spins++ {
			if spins%spinRound != spinRound-1 {
				spinPause()
			} else {
				relax(spins / spinRound)
			}
		}
	}
	if p.profile {
		p.account(t0, nth, taken)
	}
	j.fn = nil // let the op's closure go
	for _, err := range j.errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// relax is one round of a spin wait: it lets this process's other
// goroutines have the P (a spinning goroutine holds one, and with several
// backends or tests running, the goroutines with work would wait for the
// scheduler's 10 ms preemption), and every eighth round it lets other
// processes' threads have the core.
func relax(spins int) {
	runtime.Gosched()
	if spins%8 == 0 {
		yieldCore()
	}
}

// unpark wakes helper i if it has parked.
func (p *pool) unpark(i int) {
	if h := &p.helpers[i]; h.parked.CompareAndSwap(true, false) {
		h.wake <- struct{}{}
	}
}

// now is the time in ns since the accounting base.
func (p *pool) now() int64 { return int64(time.Since(p.base)) }

// account adds one parallel run, dispatched at t0, of which worker 0 took
// over taken shares, to the pool's stats.
func (p *pool) account(t0 int64, nth, taken int) {
	end := p.now()
	p.stat.Parallel++
	p.stat.Taken += taken
	for i := range nth {
		st := p.stamps[i]
		p.stat.Busy += time.Duration(st[1] - st[0])
		p.stat.Barrier += time.Duration(end - st[1])
		if i > 0 {
			p.stat.Wake += time.Duration(st[0] - t0)
		}
	}
}

// exec runs worker i's share, turning a panic (a kernel bug) into an error.
func (j *job) exec(i int, ws *workspace) {
	defer func() {
		if r := recover(); r != nil {
			j.errs[i] = fmt.Errorf("internal error in worker %d: %v", i, r)
		}
	}()
	if p := j.p; p.profile {
		p.stamps[i][0] = p.now()
		defer func() { p.stamps[i][1] = p.now() }()
	}
	j.errs[i] = j.fn(i, j.nth, ws)
}

func runOne(fn taskFunc, ws *workspace) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error in worker 0: %v", r)
		}
	}()
	return fn(0, 1, ws)
}

func (p *pool) start() {
	p.stamps = make([][2]int64, p.n)
	p.helpers = make([]helper, p.n)
	p.quit.Store(false)
	seen := p.gen.Load()
	for i := 1; i < p.n; i++ {
		p.helpers[i].wake = make(chan struct{}, 1)
		p.done.Add(1)
		go p.worker(i, seen)
	}
	p.started = true
}

// worker is helper i's loop: wait for a generation after seen, and run its
// share of that job if it claims it first (worker 0 may have taken it, or
// the job may have no share for it).
func (p *pool) worker(i int, seen uint64) {
	defer p.done.Done()
	h := &p.helpers[i]
	for {
		g := p.await(i, seen)
		if p.quit.Load() {
			return
		}
		seen = g
		if h.share.CompareAndSwap(g<<2|shareOpen, g<<2|shareRunning) {
			// Worker 0 waits for this share, so the job stays as posted.
			p.job.exec(i, &p.ws[i])
			h.share.Store(g<<2 | shareDone)
		}
	}
}

// await spins, then parks, until the pool posts a generation after seen,
// and returns it.
func (p *pool) await(i int, seen uint64) uint64 {
	h := &p.helpers[i]
	deadline := time.Now().Add(spinWindow)
	for spins := 0; ; spins++ {
		if g := p.gen.Load(); g != seen {
			return g
		}
		if spins%spinRound != spinRound-1 {
			spinPause()
			continue
		}
		relax(spins / spinRound)
		if time.Now().Before(deadline) {
			continue
		}
		// Park: announce it, then look once more, so a generation posted
		// before the announcement is not slept through.
		h.parked.Store(true)
		if g := p.gen.Load(); g != seen {
			if !h.parked.CompareAndSwap(true, false) {
				<-h.wake // the poster saw the flag and sent a token: take it
			}
			return g
		}
		<-h.wake
		deadline = time.Now().Add(spinWindow)
		spins = 0
	}
}

// stop ends the worker goroutines and waits for them; the pool can start
// them again later.
func (p *pool) stop() {
	if !p.started {
		return
	}
	p.quit.Store(true)
	p.gen.Add(1)
	for i := 1; i < p.n; i++ {
		p.unpark(i)
	}
	p.done.Wait()
	p.started = false
}

// resize sets the worker count, stopping the workers if it changes.
func (p *pool) resize(n int) {
	if n == p.n {
		return
	}
	p.stop()
	p.n = n
	p.ws = make([]workspace, n)
}

// takeStats returns the accounting gathered since the last call and clears
// it.
func (p *pool) takeStats() rt.PoolStat {
	s := p.stat
	s.Threads = p.n
	p.stat = rt.PoolStat{}
	return s
}

// workspace is a worker's reusable scratch memory.
type workspace struct {
	f32s [4][]float32
	f64s [2][]float64
	u8s  []byte
}

// f32 returns scratch slot i with length n (contents undefined).
func (w *workspace) f32(i, n int) []float32 {
	if cap(w.f32s[i]) < n {
		w.f32s[i] = make([]float32, n)
	}
	return w.f32s[i][:n]
}

// bytes returns byte scratch with length n (contents undefined).
func (w *workspace) bytes(n int) []byte {
	if cap(w.u8s) < n {
		w.u8s = make([]byte, n)
	}
	return w.u8s[:n]
}

// f64 returns float64 scratch slot i with length n (contents undefined).
func (w *workspace) f64(i, n int) []float64 {
	if cap(w.f64s[i]) < n {
		w.f64s[i] = make([]float64, n)
	}
	return w.f64s[i][:n]
}
