package runtime

import "fmt"

func fullShape(ne []int) ([MaxDims]int, error) {
	shape := [MaxDims]int{1, 1, 1, 1}
	if len(ne) == 0 || len(ne) > MaxDims {
		return shape, fmt.Errorf("%d dims, want 1 to %d", len(ne), MaxDims)
	}
	for i, n := range ne {
		if n < 0 {
			return shape, fmt.Errorf("negative dim %d in %v", i, ne)
		}
		shape[i] = n
	}
	return shape, nil
}

// nel is the element count of a shape, and -1 when it overflows an int.
func nel(ne [MaxDims]int) int {
	n, ok := 1, true
	for i := 0; i < MaxDims && ok; i++ {
		n, ok = mulInt(n, ne[i])
	}
	if !ok {
		return -1
	}
	return n
}

// Reshape views contiguous a with a new shape of the same element count.
func (c *Context) Reshape(a *Tensor, ne ...int) *Tensor {
	if !c.check(OpReshape, a) {
		return c.fail(OpReshape, "")
	}
	shape, err := fullShape(ne)
	if err != nil {
		return c.fail(OpReshape, "%v", err)
	}
	if !a.IsContiguous() {
		return c.fail(OpReshape, "source %s is not contiguous (use Cont first)", shapes(a))
	}
	if nel(shape) != a.Nelements() {
		return c.fail(OpReshape, "cannot reshape %s to %s: element counts differ", shapes(a), ShapeString(shape))
	}
	if shape[0]%a.Type.BlockSize() != 0 {
		return c.fail(OpReshape, "ne0=%d is not a multiple of %v's block size", shape[0], a.Type)
	}
	return c.newView(a, a.Type, shape, contiguousStrides(a.Type, shape), 0, OpReshape)
}

// View returns a view of a with shape ne and byte strides nb[1..] (nb[0] is
// the element size) starting offset bytes into a. Missing dims are 1.
func (c *Context) View(a *Tensor, ne []int, nb []int, offset int) *Tensor {
	if !c.check(OpView, a) {
		return c.fail(OpView, "")
	}
	shape, err := fullShape(ne)
	if err != nil {
		return c.fail(OpView, "%v", err)
	}
	if len(nb) != len(ne)-1 {
		return c.fail(OpView, "%d dims need %d strides, got %d", len(ne), len(ne)-1, len(nb))
	}
	if shape[0]%a.Type.BlockSize() != 0 {
		return c.fail(OpView, "ne0=%d is not a multiple of %v's block size", shape[0], a.Type)
	}
	strides := contiguousStrides(a.Type, shape)
	for i, s := range nb {
		if s < 0 {
			return c.fail(OpView, "negative stride %d", s)
		}
		strides[i+1] = s
	}
	span, ok := spanBytes(a.Type, shape, strides)
	if !ok {
		return c.failWith(ErrOutOfRange, OpView, "view %s with strides %v spans more bytes than an int holds", ShapeString(shape), strides)
	}
	if !InRange(offset, span, a.Nbytes()) {
		return c.failWith(ErrOutOfRange, OpView, "view %s at offset %d spans %d bytes, beyond the %d bytes of %s", ShapeString(shape), offset, span, a.Nbytes(), shapes(a))
	}
	return c.newView(a, a.Type, shape, strides, offset, OpView)
}

// View1D views n elements of a starting offset bytes in.
func (c *Context) View1D(a *Tensor, n, offset int) *Tensor {
	return c.View(a, []int{n}, nil, offset)
}

// View2D views an n0×n1 matrix with row stride nb1.
func (c *Context) View2D(a *Tensor, n0, n1, nb1, offset int) *Tensor {
	return c.View(a, []int{n0, n1}, []int{nb1}, offset)
}

// View3D views an n0×n1×n2 block with strides nb1 and nb2.
func (c *Context) View3D(a *Tensor, n0, n1, n2, nb1, nb2, offset int) *Tensor {
	return c.View(a, []int{n0, n1, n2}, []int{nb1, nb2}, offset)
}

// View4D views an n0×n1×n2×n3 block with strides nb1, nb2 and nb3.
func (c *Context) View4D(a *Tensor, n0, n1, n2, n3, nb1, nb2, nb3, offset int) *Tensor {
	return c.View(a, []int{n0, n1, n2, n3}, []int{nb1, nb2, nb3}, offset)
}

// Permute moves source dimension i to result dimension axes[i], as ggml_permute.
func (c *Context) Permute(a *Tensor, ax0, ax1, ax2, ax3 int) *Tensor {
	if !c.check(OpPermute, a) {
		return c.fail(OpPermute, "")
	}
	axes := [MaxDims]int{ax0, ax1, ax2, ax3}
	var seen [MaxDims]bool
	for _, x := range axes {
		if x < 0 || x >= MaxDims || seen[x] {
			return c.fail(OpPermute, "axes %v are not a permutation of 0..3", axes)
		}
		seen[x] = true
	}
	var ne, nb [MaxDims]int
	for i, x := range axes {
		ne[x] = a.Ne[i]
		nb[x] = a.Nb[i]
	}
	if a.Type.IsQuantized() && axes[0] != 0 {
		return c.fail(OpPermute, "cannot move dim 0 of quantized %s", shapes(a))
	}
	r := c.newView(a, a.Type, ne, nb, 0, OpPermute)
	for i, x := range axes {
		r.Params[i] = int32(x)
	}
	return r
}

// Transpose swaps dims 0 and 1.
func (c *Context) Transpose(a *Tensor) *Tensor {
	if !c.check(OpTranspose, a) {
		return c.fail(OpTranspose, "")
	}
	if a.Type.IsQuantized() {
		return c.fail(OpTranspose, "cannot transpose quantized %s", shapes(a))
	}
	ne, nb := a.Ne, a.Nb
	ne[0], ne[1] = ne[1], ne[0]
	nb[0], nb[1] = nb[1], nb[0]
	return c.newView(a, a.Type, ne, nb, 0, OpTranspose)
}
