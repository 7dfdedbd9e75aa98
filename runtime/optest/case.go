package optest

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	rt "github.com/gpurt/gpurt/runtime"
)

// Case is one op test: a small graph around one op, built on a fresh context
// and run on two backends with the same inputs. A Case may also have an
// Inplace() bool method; when it returns true the harness places the output
// over its first source, as the graph allocator does for ops that allow it.
type Case interface {
	// Name identifies the case stably: the op and its parameters, e.g.
	// "MUL_MAT(type_a=q4_0,m=16,n=1,k=256,bs=[1,1],nr=[1,1])".
	Name() string
	// Op is the op under test.
	Op() rt.Op
	// Group files the case in the support matrix.
	Group() Group
	// Build creates the case's graph on ctx and returns its output. Every
	// leaf gets a name that Init recognizes.
	Build(ctx *rt.Context) (*rt.Tensor, error)
	// Init returns the initial bytes of leaf t, which Build created and
	// which is contiguous, drawn from r in a range that suits the op.
	Init(t *rt.Tensor, r *rand.Rand) ([]byte, error)
	// MaxNMSE is the largest normalized mean squared error accepted between
	// the backend's output and the reference's.
	MaxNMSE() float64
}

// Group is a case's row and column in the support matrix: usually the op
// and its main dtype (the weight type for MUL_MAT). CPY rows name the source
// dtype ("CPY from f16") and file the case under the destination dtype.
type Group struct {
	Row   string
	DType rt.DType
}

// initFn fills one leaf.
type initFn func(t *rt.Tensor, r *rand.Rand) ([]byte, error)

// opCase is the catalogue's Case: a build function plus per-leaf fills.
type opCase struct {
	op      rt.Op
	params  string
	group   Group
	build   func(ctx *rt.Context) *rt.Tensor
	inits   map[string]initFn // by leaf name; others get uniform(-1, 1)
	nmse    float64
	inplace bool // the output shares its first source's memory
}

func (c *opCase) Name() string     { return c.op.String() + "(" + c.params + ")" }
func (c *opCase) Op() rt.Op        { return c.op }
func (c *opCase) Group() Group     { return c.group }
func (c *opCase) MaxNMSE() float64 { return c.nmse }

func (c *opCase) Build(ctx *rt.Context) (*rt.Tensor, error) {
	out := c.build(ctx)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", c.Name(), err)
	}
	out.SetName("out")
	return out, nil
}

func (c *opCase) Init(t *rt.Tensor, r *rand.Rand) ([]byte, error) {
	if f, ok := c.inits[t.Name]; ok {
		return f(t, r)
	}
	return uniform(-1, 1)(t, r)
}

// Inplace reports whether the harness must place the output over its first
// source, to check that the backend handles aliased operands.
func (c *opCase) Inplace() bool { return c.inplace }

// with sets the fill of the named leaves and returns c, for chaining.
func (c *opCase) with(name string, f initFn) *opCase {
	if c.inits == nil {
		c.inits = map[string]initFn{}
	}
	c.inits[name] = f
	return c
}

// encode converts values to t's dtype as t's contiguous bytes.
func encode(t *rt.Tensor, vals []float32) ([]byte, error) {
	if !t.IsContiguous() {
		return nil, fmt.Errorf("init %q: leaf %s is not contiguous", t.Name, rt.ShapeString(t.Ne))
	}
	b := make([]byte, t.Type.RowSize(len(vals)))
	if err := rt.QuantizeRow(t.Type, vals, b); err != nil {
		return nil, fmt.Errorf("init %q: %w", t.Name, err)
	}
	return b, nil
}

// uniform draws values in [lo, hi); I32 leaves get whole numbers.
func uniform(lo, hi float32) initFn {
	return func(t *rt.Tensor, r *rand.Rand) ([]byte, error) {
		vals := make([]float32, t.Nelements())
		for i := range vals {
			vals[i] = lo + (hi-lo)*r.Float32()
			if t.Type == rt.I32 {
				vals[i] = float32(int(vals[i]))
			}
		}
		return encode(t, vals)
	}
}

// awayFromZero draws values with magnitude in [lo, hi) and a random sign,
// for divisors.
func awayFromZero(lo, hi float32) initFn {
	return func(t *rt.Tensor, r *rand.Rand) ([]byte, error) {
		vals := make([]float32, t.Nelements())
		for i := range vals {
			vals[i] = lo + (hi-lo)*r.Float32()
			if r.IntN(2) == 0 {
				vals[i] = -vals[i]
			}
		}
		return encode(t, vals)
	}
}

// indices draws I32 values in [0, n). With distinct, each run of Ne[0]
// values (one target slice) holds no repeats, so that writes never race.
func indices(n int, distinct bool) initFn {
	return func(t *rt.Tensor, r *rand.Rand) ([]byte, error) {
		vals := make([]float32, 0, t.Nelements())
		for len(vals) < t.Nelements() {
			if !distinct {
				vals = append(vals, float32(r.IntN(n)))
				continue
			}
			if t.Ne[0] > n {
				return nil, fmt.Errorf("init %q: %d distinct indices below %d do not exist", t.Name, t.Ne[0], n)
			}
			for _, p := range r.Perm(n)[:t.Ne[0]] {
				vals = append(vals, float32(p))
			}
		}
		return encode(t, vals)
	}
}

// causalMask fills a [kv, q, …] mask: uniform values, with -Inf where key i
// lies after query j (shifted so that every row keeps at least one key).
func causalMask(t *rt.Tensor, r *rand.Rand) ([]byte, error) {
	kv, q := t.Ne[0], t.Ne[1]
	shift := kv - min(kv, q)
	vals := make([]float32, t.Nelements())
	for i := range vals {
		col, row := i%kv, (i/kv)%q
		vals[i] = 2*r.Float32() - 1
		if col > row+shift {
			vals[i] = float32(negInf)
		}
	}
	return encode(t, vals)
}

// Formatting helpers for case names.

func fmtNe(ne [rt.MaxDims]int) string { return fmtInts(ne[:]) }

func fmtInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return "[" + strings.Join(s, ",") + "]"
}

func fmtF(f float32) string { return strconv.FormatFloat(float64(f), 'g', -1, 32) }
