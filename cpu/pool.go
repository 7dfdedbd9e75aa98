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
type pool struct {
	n       int
	ws      []workspace // ws[i] belongs to worker i
	job     job         // reused by every run: one op runs at a time
	started bool

	// gen is the number of the newest posted job. Its nth shares are
	// claimed from next by whichever workers come first, the dispatcher
	// included, so a helper that wakes late (descheduled by the system)
	// finds the work done instead of holding it up; remaining counts the
	// shares not yet finished.
	gen       atomic.Uint64
	ticket    atomic.Uint64 // the job's generation, share count and next share: see claimShares
	remaining atomic.Int32
	quit      atomic.Bool
	helpers   []helper // helpers[i] is worker i's parking place; [0] is unused
	done      sync.WaitGroup

	// Accounting, kept only while profile is set.
	profile bool
	base    time.Time
	stamps  [][2]int64 // per share: start and end, ns after base
	ranBy   []int      // per share: the worker that ran it
	stat    rt.PoolStat
}

// helper is where worker i parks when its spin window ends without work.
type helper struct {
	parked atomic.Bool
	wake   chan struct{} // one token per wake-up
	_      [64]byte      // keep the flags of different workers off one cache line
}

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
	p.remaining.Store(int32(nth))
	g := p.gen.Load() + 1
	p.ticket.Store(newTicket(g, nth)) // after the job's fields: a claim sees them
	p.gen.Store(g)
	for i := 1; i < min(nth, p.n); i++ {
		p.unpark(i)
	}
	p.job.exec(0, 0, &p.ws[0])
	p.remaining.Add(-1)
	p.claimShares(0, g)
	for spins := 0; p.remaining.Load() != 0; spins++ {
		if spins%spinRound != spinRound-1 {
			spinPause()
		} else {
			relax(spins / spinRound)
		}
	}
	if p.profile {
		p.account(t0, nth)
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

// account adds one parallel run, dispatched at t0, to the pool's stats.
func (p *pool) account(t0 int64, nth int) {
	end := p.now()
	p.stat.Parallel++
	for i := range nth {
		st := p.stamps[i]
		p.stat.Busy += time.Duration(st[1] - st[0])
		p.stat.Barrier += time.Duration(end - st[1])
		if p.ranBy[i] > 0 {
			p.stat.Wake += time.Duration(st[0] - t0)
		}
	}
}

// A ticket is a job's generation (high 32 bits), its share count (16
// bits) and the next share to claim (low 16 bits), in one word, so that a
// claim cannot take a share of a newer job than the one its worker saw.
// Share 0 is the dispatcher's own, so claims start at share 1.
func newTicket(gen uint64, nth int) uint64 { return gen<<32 | uint64(nth)<<16 | 1 }

// claimShares runs shares of job generation g on worker w until none is
// left to claim. A share is claimed once, so each runs exactly once, by
// whoever claims it; its result does not depend on which worker that is.
func (p *pool) claimShares(w int, g uint64) {
	for {
		t := p.ticket.Load()
		i, nth := int(t&0xffff), int(t>>16&0xffff)
		if t>>32 != g&0xffffffff || i >= nth {
			return
		}
		if !p.ticket.CompareAndSwap(t, t+1) {
			continue
		}
		if w == 0 && i > 0 && p.profile {
			p.stat.Taken++ // a helper's share: it had not started
		}
		p.job.exec(i, w, &p.ws[w])
		p.remaining.Add(-1)
	}
}

// exec runs share i on worker w, turning a panic (a kernel bug) into an
// error.
func (j *job) exec(i, w int, ws *workspace) {
	defer func() {
		if r := recover(); r != nil {
			j.errs[i] = fmt.Errorf("internal error in worker %d: %v", i, r) // as fn saw it: ith
		}
	}()
	if p := j.p; p.profile {
		p.stamps[i][0] = p.now()
		p.ranBy[i] = w
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
	p.ranBy = make([]int, p.n)
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

// worker is helper i's loop: wait for a generation after seen, run its
// share if it has one, count itself off.
func (p *pool) worker(i int, seen uint64) {
	defer p.done.Done()
	for {
		g := p.await(i, seen)
		if p.quit.Load() {
			return
		}
		seen = g
		p.claimShares(i, g)
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
	f32s [gemmMR][]float32 // packColumns takes one per x row of a panel
	f64s [2][]float64
	i32s []int32
	u8s  []byte
}

// f32 returns scratch slot i with length n (contents undefined).
func (w *workspace) f32(i, n int) []float32 {
	if cap(w.f32s[i]) < n {
		w.f32s[i] = make([]float32, n)
	}
	return w.f32s[i][:n]
}

// i32 returns int32 scratch with length n (contents undefined).
func (w *workspace) i32(n int) []int32 {
	if cap(w.i32s) < n {
		w.i32s = make([]int32, n)
	}
	return w.i32s[:n]
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
