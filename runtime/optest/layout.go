package optest

import (
	rt "github.com/gpurt/gpurt/runtime"
)

// layout is how a case presents an input to the op under test: packed, as
// a permuted view of a packed leaf, or as a view at a non-zero offset into
// a larger leaf (with gaps between rows), the shapes GPU kernels get wrong.
type layout struct {
	perm   [rt.MaxDims]int
	offset bool
}

var (
	packed     = layout{perm: [rt.MaxDims]int{0, 1, 2, 3}}
	swap12     = layout{perm: [rt.MaxDims]int{0, 2, 1, 3}}
	transposed = layout{perm: [rt.MaxDims]int{1, 0, 2, 3}}
	atOffset   = layout{perm: [rt.MaxDims]int{0, 1, 2, 3}, offset: true}
)

func permuted(p0, p1, p2, p3 int) layout { return layout{perm: [rt.MaxDims]int{p0, p1, p2, p3}} }

func (l layout) isPacked() bool { return l == packed }

// String names the layout in case parameters; packed is "".
func (l layout) String() string {
	switch {
	case l.isPacked():
		return ""
	case l.offset:
		return "offset"
	case l == transposed:
		return "transpose"
	}
	return "permute" + fmtInts(l.perm[:])
}

// param is ",key=layout", or "" for packed.
func (l layout) param(key string) string {
	if l.isPacked() {
		return ""
	}
	return "," + key + "=" + l.String()
}

// input creates the leaf called name and returns a tensor of dtype t and
// logical shape ne presented in layout l. The leaf itself is packed.
func input(ctx *rt.Context, name string, t rt.DType, ne [rt.MaxDims]int, l layout) *rt.Tensor {
	switch {
	case l.offset:
		// One extra element (block) per row and one extra row per plane;
		// the view starts at row 1, element 1.
		bs := t.BlockSize()
		big := leaf(ctx, name, t, [rt.MaxDims]int{ne[0] + bs, ne[1] + 1, ne[2], ne[3]})
		return ctx.View4D(big, ne[0], ne[1], ne[2], ne[3], big.Nb[1], big.Nb[2], big.Nb[3], big.Nb[1]+t.TypeSize())
	case l.isPacked():
		return leaf(ctx, name, t, ne)
	}
	// Source dim i lands on result dim perm[i], so the leaf holds ne[perm[i]].
	var src [rt.MaxDims]int
	for i, p := range l.perm {
		src[i] = ne[p]
	}
	x := leaf(ctx, name, t, src)
	return ctx.Permute(x, l.perm[0], l.perm[1], l.perm[2], l.perm[3])
}

// leaf creates a packed input tensor.
func leaf(ctx *rt.Context, name string, t rt.DType, ne [rt.MaxDims]int) *rt.Tensor {
	x := ctx.NewTensor(t, ne[:]...)
	x.SetName(name)
	x.SetInput()
	return x
}

func shape(ne ...int) [rt.MaxDims]int {
	s := [rt.MaxDims]int{1, 1, 1, 1}
	copy(s[:], ne)
	return s
}
