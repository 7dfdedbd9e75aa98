package cpu

import (
	"fmt"
	"sync"
	"time"

	rt "github.com/gpurt/gpurt/runtime"
)

// taskFunc is one worker's share of an op: worker ith of nth, with its own
// scratch space.
type taskFunc func(ith, nth int, ws *workspace) error

// pool is a persistent set of worker goroutines. The goroutine that calls
// run is worker 0; workers 1..n-1 wait on their own channels between ops, so
// no goroutine is spawned per op. The goroutines start on the first parallel
// run and live until stop.
//
// The helpers block rather than spin between ops (ggml's threads spin
// within a graph): on a machine whose cores are shared, a spinning helper
// takes the core the dispatching goroutine needs, and a blocked receive is
// handed straight to the dispatcher's P, so an op degrades to running its
// shares in turn instead of waiting milliseconds for the OS to schedule a
// helper. docs/performance.md has the measurements.
type pool struct {
	n       int
	jobs    []chan *job // jobs[i] feeds worker i; jobs[0] is unused
	ws      []workspace // ws[i] belongs to worker i
	job     job         // reused by every run: one op runs at a time
	started bool

	// Accounting, kept only while profile is set.
	profile bool
	base    time.Time
	stamps  [][2]int64 // per worker: start and end of its share, ns after base
	stat    rt.PoolStat
}

// job is one parallel run of a taskFunc.
type job struct {
	p    *pool
	fn   taskFunc
	nth  int
	errs []error
	wg   sync.WaitGroup
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
	j.wg.Add(nth - 1)
	for i := 1; i < nth; i++ {
		p.jobs[i] <- j
	}
	j.exec(0, &p.ws[0])
	j.wg.Wait()
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
	p.jobs = make([]chan *job, p.n)
	p.stamps = make([][2]int64, p.n)
	for i := 1; i < p.n; i++ {
		ch := make(chan *job)
		p.jobs[i] = ch
		go worker(i, ch, &p.ws[i])
	}
	p.started = true
}

func worker(i int, jobs <-chan *job, ws *workspace) {
	for j := range jobs {
		j.exec(i, ws)
		j.wg.Done()
	}
}

// stop ends the worker goroutines; the pool can start them again later.
func (p *pool) stop() {
	if !p.started {
		return
	}
	for _, ch := range p.jobs[1:] {
		close(ch)
	}
	p.jobs = nil
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
