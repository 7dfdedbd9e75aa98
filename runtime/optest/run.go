package optest

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/gpurt/gpurt/cpu"
	rt "github.com/gpurt/gpurt/runtime"
)

// Status is the outcome of one case.
type Status int

const (
	OK           Status = iota
	Fail                // wrong result, a build or compute error, or a panic
	NotSupported        // the backend (or the reference) rejects a node; never a pass
)

func (s Status) String() string {
	switch s {
	case OK:
		return "OK"
	case Fail:
		return "FAIL"
	case NotSupported:
		return "not supported"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Result is the outcome of one case on one backend.
type Result struct {
	Case    string
	Op      rt.Op
	Status  Status
	Err     error   // why it failed, or which node is not supported
	NMSE    float64 // the measured error, when the outputs were compared
	MaxNMSE float64
	Time    time.Duration // the whole case, both backends included
	Compute time.Duration // the backend's GraphCompute and Synchronize
}

// Summary counts results. Skipped counts cases that are not supported.
type Summary struct {
	Passed, Failed, Skipped int
}

// Add counts r.
func (s *Summary) Add(r Result) {
	switch r.Status {
	case OK:
		s.Passed++
	case NotSupported:
		s.Skipped++
	default:
		s.Failed++
	}
}

// Merge adds o's counts to s.
func (s *Summary) Merge(o Summary) {
	s.Passed += o.Passed
	s.Failed += o.Failed
	s.Skipped += o.Skipped
}

// String is "N passed, N failed", plus ", N skipped" when some cases were
// not supported.
func (s Summary) String() string {
	str := fmt.Sprintf("%d passed, %d failed", s.Passed, s.Failed)
	if s.Skipped > 0 {
		str += fmt.Sprintf(", %d skipped", s.Skipped)
	}
	return str
}

// Filter selects cases. The zero Filter selects every case.
type Filter struct {
	// Ops keeps the cases of these ops; empty keeps all.
	Ops []rt.Op
	// Name keeps the cases whose name matches; nil keeps all.
	Name *regexp.Regexp
	// MaxCost drops cases whose graph costs more than this many
	// multiply-adds or element visits (see Cost); 0 means no limit.
	MaxCost int64
	// Sample keeps every Sample-th remaining case of each op, always
	// including the op's first; 0 or 1 keeps all.
	Sample int
}

// Select returns the cases f keeps, in order.
func (f Filter) Select(cases []Case) []Case {
	var out []Case
	seen := map[rt.Op]int{}
	for _, c := range cases {
		if len(f.Ops) > 0 && !slices.Contains(f.Ops, c.Op()) {
			continue
		}
		if f.Name != nil && !f.Name.MatchString(c.Name()) {
			continue
		}
		if f.MaxCost > 0 {
			if cost, err := Cost(c); err == nil && cost > f.MaxCost {
				continue
			}
		}
		i := seen[c.Op()]
		seen[c.Op()]++
		if f.Sample > 1 && i%f.Sample != 0 {
			continue
		}
		out = append(out, c)
	}
	return out
}

// Cost estimates a case's work: for MUL_MAT, multiply-adds; for other ops,
// the larger of the elements read from the first source and written.
func Cost(c Case) (int64, error) {
	ctx := rt.NewContext()
	out, err := c.Build(ctx)
	if err != nil {
		return 0, err
	}
	g, err := ctx.BuildGraph(out)
	if err != nil {
		return 0, err
	}
	var cost int64
	for _, n := range g.Nodes {
		switch {
		case n.Op.IsView():
		case n.Op == rt.OpMulMat:
			cost += int64(n.Nelements()) * int64(n.Src[0].Ne[0])
		case n.Src[0] != nil:
			cost += int64(max(n.Nelements(), n.Src[0].Nelements()))
		default:
			cost += int64(n.Nelements())
		}
	}
	return cost, nil
}

// Runner runs cases on a backend and compares with a reference backend.
type Runner struct {
	// Ref is the reference backend; nil means a CPU backend running the
	// plain reference loops (cpu.NewReferenceBackend), closed when Run returns.
	Ref rt.Backend
	// Seed seeds the inputs. Each case draws from its own stream, derived
	// from Seed and its name, so filtering never changes a case's data.
	Seed uint64
	// Cases is the catalogue; nil means Cases().
	Cases []Case
}

// Run checks every case f selects on backend b against a CPU backend and
// calls report (if not nil) with each result as it comes.
func Run(b rt.Backend, f Filter, report func(Result)) Summary {
	return (&Runner{}).Run(b, f, report)
}

// Run checks every case f selects on b against r.Ref.
func (r *Runner) Run(b rt.Backend, f Filter, report func(Result)) Summary {
	cases := r.Cases
	if cases == nil {
		cases = Cases()
	}
	var sum Summary
	ref := r.Ref
	if ref == nil {
		cb, err := cpu.NewReferenceBackend(0)
		if err != nil {
			for _, c := range f.Select(cases) {
				res := Result{Case: c.Name(), Op: c.Op(), Status: Fail, Err: fmt.Errorf("reference CPU backend: %w", err)}
				sum.Add(res)
				if report != nil {
					report(res)
				}
			}
			return sum
		}
		defer cb.Close()
		ref = cb
	}
	rr := *r
	rr.Ref = ref
	for _, c := range f.Select(cases) {
		res := rr.RunCase(b, c)
		sum.Add(res)
		if report != nil {
			report(res)
		}
	}
	return sum
}

// RunCase runs one case on b and on r.Ref (which must not be nil) and
// compares the outputs.
func (r *Runner) RunCase(b rt.Backend, c Case) (res Result) {
	res = Result{Case: c.Name(), Op: c.Op(), MaxNMSE: c.MaxNMSE()}
	start := time.Now()
	defer func() {
		// A kernel that panics fails its case, not the whole run.
		if p := recover(); p != nil {
			res.Status = Fail
			res.Err = fmt.Errorf("panic: %v\n%s", p, trimStack(debug.Stack()))
		}
		res.Time = time.Since(start)
	}()
	if r.Ref == nil {
		return failed(res, errors.New("no reference backend"))
	}
	ctx := rt.NewContext()
	out, err := c.Build(ctx)
	if err != nil {
		return failed(res, fmt.Errorf("build: %w", err))
	}
	g, err := ctx.BuildGraph(out)
	if err != nil {
		return failed(res, fmt.Errorf("build graph: %w", err))
	}
	for _, be := range []rt.Backend{b, r.Ref} {
		if n := unsupported(be.Device(), g); n != nil {
			res.Status = NotSupported
			res.Err = fmt.Errorf("%s does not support %s", be.Device().Name(), describe(n))
			if be == r.Ref && be != b {
				res.Err = fmt.Errorf("reference %w", res.Err)
			}
			return res
		}
	}
	refG, m := cloneGraph(g)
	var inplace, refInplace *rt.Tensor
	if ip, ok := c.(interface{ Inplace() bool }); ok && ip.Inplace() {
		inplace, refInplace = out, m[out]
	}

	// Draw every leaf's bytes once and give both sides the same.
	rng := rand.New(rand.NewPCG(r.Seed, nameHash(c.Name())))
	data := make(map[*rt.Tensor][]byte, len(g.Leafs))
	for _, l := range g.Leafs {
		d, err := c.Init(l, rng)
		if err != nil {
			return failed(res, err)
		}
		if len(d) != l.Nbytes() {
			return failed(res, fmt.Errorf("init %q: %d bytes for a %d-byte tensor", l.Name, len(d), l.Nbytes()))
		}
		data[l] = d
	}

	got, err := runSide(b, g, out, inplace, data, nil, &res.Compute)
	if err != nil {
		return failed(res, fmt.Errorf("%s: %w", b.Device().Name(), err))
	}
	var refTime time.Duration
	want, err := runSide(r.Ref, refG, m[out], refInplace, data, m, &refTime)
	if err != nil {
		return failed(res, fmt.Errorf("reference %s: %w", r.Ref.Device().Name(), err))
	}
	res.NMSE, err = compare(got, want, out.Ne, out.Type == rt.I32, res.MaxNMSE)
	if err != nil {
		return failed(res, err)
	}
	res.Status = OK
	return res
}

func failed(res Result, err error) Result {
	res.Status, res.Err = Fail, err
	return res
}

// runSide places g on b's device, fills the leaves, computes, checks that
// nothing but the outputs changed, and reads the output. m maps the
// original leaves (the keys of data) to g's, or is nil. It stores the
// compute time in *took.
func runSide(b rt.Backend, g *rt.Graph, out, inplace *rt.Tensor, data map[*rt.Tensor][]byte, m map[*rt.Tensor]*rt.Tensor, took *time.Duration) (vals []float32, err error) {
	p, err := place(g, b.Device().BufferType(), inplace)
	if err != nil {
		return nil, err
	}
	defer func() {
		if ferr := p.free(); ferr != nil && err == nil {
			err = fmt.Errorf("free: %w", ferr)
		}
	}()
	for orig, d := range data {
		l := orig
		if m != nil {
			l = m[orig]
		}
		if err := rt.TensorSet(l, d, 0); err != nil {
			return nil, err
		}
	}
	if err := p.snap(); err != nil {
		return nil, err
	}
	start := time.Now()
	if err := b.GraphCompute(g); err != nil {
		return nil, fmt.Errorf("compute: %w", err)
	}
	if err := b.Synchronize(); err != nil {
		return nil, fmt.Errorf("synchronize: %w", err)
	}
	*took = time.Since(start)
	if err := p.check(); err != nil {
		return nil, err
	}
	return rt.TensorGetF32(out)
}

// unsupported is the first node of g that dev rejects, or nil.
func unsupported(dev rt.Device, g *rt.Graph) *rt.Tensor {
	for _, n := range g.Nodes {
		if !dev.SupportsOp(n) {
			return n
		}
	}
	return nil
}

// describe names a node with its dtypes and shapes.
func describe(n *rt.Tensor) string {
	var srcs []string
	for _, s := range n.Src {
		if s != nil {
			srcs = append(srcs, fmt.Sprintf("%v%s", s.Type, rt.ShapeString(s.Ne)))
		}
	}
	return fmt.Sprintf("%v %v%s from %s", n.Op, n.Type, rt.ShapeString(n.Ne), strings.Join(srcs, ", "))
}

func nameHash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// trimStack keeps the frames below the panic, which name the faulty kernel.
func trimStack(s []byte) string {
	lines := strings.Split(string(s), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "panic(") && i+2 < len(lines) {
			lines = lines[i+2:]
			break
		}
	}
	return strings.Join(lines[:min(len(lines), 12)], "\n")
}
