package cpu

import (
	"fmt"
	"sync"
)

// taskFunc is one worker's share of an op: worker ith of nth, with its own
// scratch space.
type taskFunc func(ith, nth int, ws *workspace) error

// pool is a persistent set of worker goroutines. The goroutine that calls
// run is worker 0; workers 1..n-1 wait on their own channels between ops, so
// no goroutine is spawned per op. The goroutines start on the first parallel
// run and live until stop.
type pool struct {
	n       int
	jobs    []chan *job // jobs[i] feeds worker i; jobs[0] is unused
	ws      []workspace // ws[i] belongs to worker i
	job     job         // reused by every run: one op runs at a time
	started bool
}

// job is one parallel run of a taskFunc.
type job struct {
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
		return runOne(fn, &p.ws[0]) // the common case for small ops: no job, no handoff
	}
	if !p.started {
		p.start()
	}
	j := &p.job
	j.fn, j.nth = fn, nth
	j.errs = grow(j.errs, nth)
	clear(j.errs)
	j.wg.Add(nth - 1)
	for i := 1; i < nth; i++ {
		p.jobs[i] <- j
	}
	j.exec(0, &p.ws[0])
	j.wg.Wait()
	j.fn = nil // let the op's closure go
	for _, err := range j.errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// exec runs worker i's share, turning a panic (a kernel bug) into an error.
func (j *job) exec(i int, ws *workspace) {
	defer func() {
		if r := recover(); r != nil {
			j.errs[i] = fmt.Errorf("internal error in worker %d: %v", i, r)
		}
	}()
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
