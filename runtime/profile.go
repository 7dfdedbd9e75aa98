package runtime

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Profile collects where compute time goes: per op type and per layer
// (backends that implement Profiled time each node), the CPU worker pool's
// busy and waiting time, and named phases outside ops (graph building,
// allocation, input copies, sampling) that callers such as the llama package
// record with AddPhase. It is safe for concurrent use; a nil *Profile
// ignores every call, so callers need no checks.
type Profile struct {
	mu     sync.Mutex
	ops    map[ProfileKey]*ProfileStat
	nodes  map[nodeKey]*ProfileStat // per node kind, over layers
	phases map[string]*ProfileStat
	order  []string // phases in first-seen order
	pool   PoolStat
	steps  int
}

// ProfileKey names one row of the per-op table. Layer is the block index
// parsed from the node's name ("blk.3.attn_q" is layer 3), or -1.
type ProfileKey struct {
	Op    Op
	Layer int
}

// nodeKey is a kind of node summed over the layers: its op, its name
// without the layer ("attn_q" for "blk.3.attn_q") and its first source's
// type (the weight type of a MUL_MAT).
type nodeKey struct {
	op   Op
	name string
	src  DType
}

// ProfileStat is a count and its summed time.
type ProfileStat struct {
	Count int
	Time  time.Duration
}

// PoolStat is a worker pool's accounting, summed over workers.
type PoolStat struct {
	Threads  int           // workers in the pool (the largest seen)
	Parallel int           // ops handed to more than one worker
	Busy     time.Duration // worker time inside kernels
	Wake     time.Duration // from an op's dispatch until each helper's share started (by its helper or, taken over, by the dispatcher)
	Barrier  time.Duration // from a worker's end of its share until the op's end
	Taken    int           // helpers' shares that the dispatching worker ran, their helper not having started
}

// Profiled is implemented by backends that can time each node into a
// Profile. SetProfile(nil) turns timing off.
type Profiled interface {
	SetProfile(p *Profile)
}

// NewProfile returns an empty profile.
func NewProfile() *Profile {
	return &Profile{ops: map[ProfileKey]*ProfileStat{}, nodes: map[nodeKey]*ProfileStat{}, phases: map[string]*ProfileStat{}}
}

// Enabled says whether p records anything (p is not nil).
func (p *Profile) Enabled() bool { return p != nil }

// AddOp records that node n took d.
func (p *Profile) AddOp(n *Tensor, d time.Duration) {
	if p == nil {
		return
	}
	k := ProfileKey{Op: n.Op, Layer: nodeLayer(n)}
	nk := nodeKey{op: n.Op, name: nodeStem(n.Name)}
	if n.Src[0] != nil {
		nk.src = n.Src[0].Type
	}
	p.mu.Lock()
	addStat(p.ops, k, d)
	addStat(p.nodes, nk, d)
	p.mu.Unlock()
}

func addStat[K comparable](m map[K]*ProfileStat, k K, d time.Duration) {
	s := m[k]
	if s == nil {
		s = &ProfileStat{}
		m[k] = s
	}
	s.Count++
	s.Time += d
}

// nodeStem is a node name without its layer: "blk.3.attn_q" and
// "attn_q-3" are "attn_q".
func nodeStem(name string) string {
	if rest, ok := strings.CutPrefix(name, "blk."); ok {
		if _, after, ok := strings.Cut(rest, "."); ok {
			name = after
		}
	}
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			name = name[:i]
		}
	}
	return name
}

// AddPhase records d spent in the named phase outside ops.
func (p *Profile) AddPhase(name string, d time.Duration) {
	if p == nil {
		return
	}
	p.mu.Lock()
	s := p.phases[name]
	if s == nil {
		s = &ProfileStat{}
		p.phases[name] = s
		p.order = append(p.order, name)
	}
	s.Count++
	s.Time += d
	p.mu.Unlock()
}

// AddPool adds a pool's accounting.
func (p *Profile) AddPool(s PoolStat) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.pool.Threads = max(p.pool.Threads, s.Threads)
	p.pool.Parallel += s.Parallel
	p.pool.Busy += s.Busy
	p.pool.Wake += s.Wake
	p.pool.Barrier += s.Barrier
	p.pool.Taken += s.Taken
	p.mu.Unlock()
}

// AddStep counts one step (a generated token, a prompt batch), the unit the
// report divides by.
func (p *Profile) AddStep() {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.steps++
	p.mu.Unlock()
}

// Reset empties p.
func (p *Profile) Reset() {
	if p == nil {
		return
	}
	p.mu.Lock()
	clear(p.ops)
	clear(p.nodes)
	clear(p.phases)
	p.order, p.pool, p.steps = nil, PoolStat{}, 0
	p.mu.Unlock()
}

// ProfileRow is one row of a report.
type ProfileRow struct {
	Name string
	ProfileStat
}

// ProfileReport is a snapshot of a Profile.
type ProfileReport struct {
	Steps   int
	ByOp    []ProfileRow // per op type over all layers, slowest first
	ByLayer []ProfileRow // per layer ("blk.N", "other"), in layer order
	ByNode  []ProfileRow // per node kind ("MUL_MAT attn_q q4_0") over the layers, slowest first
	Phases  []ProfileRow // phases outside ops, in first-seen order
	OpTime  time.Duration
	Pool    PoolStat
}

// Report summarizes p.
func (p *Profile) Report() ProfileReport {
	var r ProfileReport
	if p == nil {
		return r
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	r.Steps, r.Pool = p.steps, p.pool
	byOp := map[Op]*ProfileStat{}
	byLayer := map[int]*ProfileStat{}
	for k, s := range p.ops {
		o := byOp[k.Op]
		if o == nil {
			o = &ProfileStat{}
			byOp[k.Op] = o
		}
		l := byLayer[k.Layer]
		if l == nil {
			l = &ProfileStat{}
			byLayer[k.Layer] = l
		}
		o.Count += s.Count
		o.Time += s.Time
		l.Count += s.Count
		l.Time += s.Time
		r.OpTime += s.Time
	}
	for op, s := range byOp {
		r.ByOp = append(r.ByOp, ProfileRow{Name: op.String(), ProfileStat: *s})
	}
	slowestFirst := func(a, b ProfileRow) int {
		return cmp.Or(cmp.Compare(b.Time, a.Time), strings.Compare(a.Name, b.Name))
	}
	slices.SortFunc(r.ByOp, slowestFirst)
	for k, s := range p.nodes {
		name := k.op.String() + " " + cmp.Or(k.name, "(unnamed)")
		if k.src != 0 || k.op == OpMulMat {
			name += " " + k.src.String()
		}
		r.ByNode = append(r.ByNode, ProfileRow{Name: name, ProfileStat: *s})
	}
	slices.SortFunc(r.ByNode, slowestFirst)
	layers := make([]int, 0, len(byLayer))
	for l := range byLayer {
		layers = append(layers, l)
	}
	slices.Sort(layers)
	for _, l := range layers {
		name := "other"
		if l >= 0 {
			name = "blk." + strconv.Itoa(l)
		}
		r.ByLayer = append(r.ByLayer, ProfileRow{Name: name, ProfileStat: *byLayer[l]})
	}
	for _, name := range p.order {
		r.Phases = append(r.Phases, ProfileRow{Name: name, ProfileStat: *p.phases[name]})
	}
	return r
}

// nodeLayer is the layer of n's name or, for an unnamed node, of the first
// named source (a block's reshapes and views carry no name of their own).
func nodeLayer(n *Tensor) int {
	if l := LayerOf(n.Name); l >= 0 {
		return l
	}
	for _, s := range n.Src {
		if s != nil {
			if l := LayerOf(s.Name); l >= 0 {
				return l
			}
		}
	}
	return -1
}

// LayerOf parses the block index from a node name of the form
// "blk.N.what", or returns -1.
func LayerOf(name string) int {
	rest, ok := strings.CutPrefix(name, "blk.")
	if !ok {
		return -1
	}
	num, _, _ := strings.Cut(rest, ".")
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// Format writes the report as text in the manner of llama.cpp's perf
// output: per step (divided by Steps when it is positive) time, count and
// share of the step.
func (r ProfileReport) Format(w io.Writer) error {
	steps := max(r.Steps, 1)
	var total time.Duration
	for _, ph := range r.Phases {
		total += ph.Time
	}
	total = max(total, r.OpTime)
	per := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(steps) }
	share := func(d time.Duration) float64 {
		if total <= 0 {
			return 0
		}
		return 100 * float64(d) / float64(total)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "profile: %d steps; times are per step\n", r.Steps)
	row := func(name string, s ProfileStat) {
		fmt.Fprintf(&b, "  %-32s %10.3f ms %8.1f calls %6.1f%%\n", name, per(s.Time), float64(s.Count)/float64(steps), share(s.Time))
	}
	b.WriteString("phases (outside and around ops):\n")
	for _, ph := range r.Phases {
		row(ph.Name, ph.ProfileStat)
	}
	b.WriteString("ops by type:\n")
	for _, o := range r.ByOp {
		row(o.Name, o.ProfileStat)
	}
	row("all ops", ProfileStat{Count: sumCount(r.ByOp), Time: r.OpTime})
	b.WriteString("slowest nodes (op, name, first source's type; over the layers):\n")
	for _, nd := range r.ByNode[:min(len(r.ByNode), profileTopNodes)] {
		row(nd.Name, nd.ProfileStat)
	}
	b.WriteString("ops by layer:\n")
	for _, l := range r.ByLayer {
		row(l.Name, l.ProfileStat)
	}
	if p := r.Pool; p.Threads > 0 {
		fmt.Fprintf(&b, "cpu pool: %d threads, %.1f parallel ops per step\n", p.Threads, float64(p.Parallel)/float64(steps))
		fmt.Fprintf(&b, "  %-32s %10.3f ms (summed over workers)\n", "busy in kernels", per(p.Busy))
		fmt.Fprintf(&b, "  %-32s %10.3f ms\n", "wake-up after dispatch", per(p.Wake))
		fmt.Fprintf(&b, "  %-32s %10.3f ms\n", "waiting at op barrier", per(p.Barrier))
		if p.Taken > 0 {
			fmt.Fprintf(&b, "  %-32s %10.1f per step (their helper had not started)\n", "shares run by the dispatcher", float64(p.Taken)/float64(steps))
		}
		if idle := time.Duration(p.Threads)*r.OpTime - p.Busy - p.Wake - p.Barrier; idle > 0 {
			fmt.Fprintf(&b, "  %-32s %10.3f ms (helpers during serial ops)\n", "idle", per(idle))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// profileTopNodes is how many node kinds Format lists.
const profileTopNodes = 12

func sumCount(rows []ProfileRow) int {
	n := 0
	for _, r := range rows {
		n += r.Count
	}
	return n
}
