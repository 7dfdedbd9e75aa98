package runtime

import (
	"errors"
	"fmt"
)

// Context creates tensors and op nodes. Building is error-sticky, like
// bufio.Writer: the first invalid op (a shape mismatch, a wrong dtype) is
// recorded and returned by Err, and every later op is a no-op returning a
// placeholder tensor, so graph code reads straight and checks once.
type Context struct {
	tensors []*Tensor
	err     error
}

// NewContext returns an empty context.
func NewContext() *Context { return &Context{} }

// Err returns the first error met while building, or nil.
func (c *Context) Err() error { return c.err }

// Tensors lists every tensor created by the context, in creation order.
func (c *Context) Tensors() []*Tensor { return c.tensors }

// BuildGraph returns the graph computing outs, or the first build error.
func (c *Context) BuildGraph(outs ...*Tensor) (*Graph, error) {
	if c.err != nil {
		return nil, c.err
	}
	g := NewGraph()
	for _, o := range outs {
		if o == nil {
			return nil, errors.New("build graph: nil output tensor")
		}
		g.BuildForward(o)
	}
	return g, nil
}

// fail records the first error, a shape error (ErrShape: operands, shapes
// or dtypes that do not fit); the returned placeholder keeps callers going.
func (c *Context) fail(op Op, format string, args ...any) *Tensor {
	return c.failWith(ErrShape, op, format, args...)
}

// failWith records the first error, wrapping sentinel.
func (c *Context) failWith(sentinel error, op Op, format string, args ...any) *Tensor {
	if c.err == nil {
		c.err = fmt.Errorf("%v: %s: %w", op, fmt.Sprintf(format, args...), sentinel)
	}
	return &Tensor{Type: F32, Ne: [MaxDims]int{1, 1, 1, 1}, Nb: contiguousStrides(F32, [MaxDims]int{1, 1, 1, 1})}
}

// failNode rejects node r, just created for op and found invalid: it
// leaves the context, and err (which wraps a sentinel) is recorded so that
// errors.Is matches it. It returns a placeholder like fail.
func (c *Context) failNode(op Op, r *Tensor, err error) *Tensor {
	if n := len(c.tensors); n > 0 && c.tensors[n-1] == r {
		c.tensors = c.tensors[:n-1]
	}
	if c.err == nil {
		c.err = fmt.Errorf("%v: %w", op, err)
	}
	return c.fail(op, "")
}

// NewTensor creates a contiguous leaf tensor with up to 4 dims (missing dims are 1).
func (c *Context) NewTensor(t DType, ne ...int) *Tensor {
	if c.err != nil {
		return c.fail(OpNone, "")
	}
	if !t.Valid() {
		return c.failWith(ErrUnsupported, OpNone, "new tensor: unsupported dtype %v", t)
	}
	if len(ne) == 0 || len(ne) > MaxDims {
		return c.fail(OpNone, "new tensor: %d dims, want 1 to %d", len(ne), MaxDims)
	}
	shape := [MaxDims]int{1, 1, 1, 1}
	for i, n := range ne {
		if n < 0 {
			return c.fail(OpNone, "new tensor: negative dim %d in %v", i, ne)
		}
		shape[i] = n
	}
	if shape[0]%t.BlockSize() != 0 {
		return c.fail(OpNone, "new tensor: ne0=%d is not a multiple of %v's block size %d", shape[0], t, t.BlockSize())
	}
	if _, ok := contiguousBytes(t, shape); !ok {
		return c.failWith(ErrOutOfRange, OpNone, "new tensor: %v%s is larger than an int can address", t, ShapeString(shape))
	}
	return c.newTensor(t, shape, OpNone)
}

func (c *Context) newTensor(t DType, ne [MaxDims]int, op Op, src ...*Tensor) *Tensor {
	x := &Tensor{Type: t, Ne: ne, Nb: contiguousStrides(t, ne), Op: op}
	copy(x.Src[:], src)
	c.tensors = append(c.tensors, x)
	return x
}

// newView creates a tensor that aliases src's memory at byte offset offs.
func (c *Context) newView(src *Tensor, t DType, ne, nb [MaxDims]int, offs int, op Op) *Tensor {
	x := &Tensor{Type: t, Ne: ne, Nb: nb, Op: op, ViewOffs: offs}
	base := src
	if src.ViewSrc != nil {
		base = src.ViewSrc
		x.ViewOffs += src.ViewOffs
	}
	x.ViewSrc = base
	x.Src[0] = src
	if base.Buffer != nil {
		x.Buffer = base.Buffer
		x.Offset = base.Offset + x.ViewOffs
	}
	c.tensors = append(c.tensors, x)
	return x
}

// contiguousBytes is the size of a packed tensor, and false on overflow.
func contiguousBytes(t DType, ne [MaxDims]int) (int, bool) {
	n, ok := mulInt(ne[0]/t.BlockSize(), t.TypeSize())
	for i := 1; i < MaxDims && ok; i++ {
		n, ok = mulInt(n, ne[i])
	}
	return n, ok
}
