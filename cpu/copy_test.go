package cpu

import (
	"fmt"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// flatCopy is the reference for DUP, CONT and CPY: src's values in logical
// order laid into shape ne, then stored as dtype to. A quantized copy into
// its own dtype keeps the blocks (requantizing a K-quant's values is not
// exact), which is what ggml does.
func flatCopy(src arr, ne [4]int, to rt.DType, from ...rt.DType) arr {
	out := newArr(ne)
	copy(out.v, src.v)
	if to.IsQuantized() && (len(from) == 0 || from[0] != to) {
		return quantRows(to, out)
	}
	for i, v := range out.v {
		out.v[i] = roundTo(to, v)
	}
	return out
}

// source makes a tensor of dtype typ and logical shape ne in one of three
// layouts: a contiguous leaf, a view at an offset, or a transposed view.
func source(b *tb, layout string, typ rt.DType, ne ...int) *rt.Tensor {
	switch layout {
	case "view":
		return b.offsetView(typ, ne...)
	case "transposed":
		return b.transposed(typ, ne...)
	}
	return b.rand(typ, ne...)
}

func TestDupCont(t *testing.T) {
	var cases []opCase
	for _, typ := range rt.DTypes {
		layouts := []string{"leaf", "view", "transposed"}
		if typ.IsQuantized() && typ != rt.Q8_0 && typ != rt.Q4_0 {
			layouts = []string{"view"} // block copies are the same code for every block type
		}
		for _, layout := range layouts {
			cases = append(cases,
				opCase{name: fmt.Sprintf("dup %v %s", typ, layout), build: func(b *tb) (*rt.Tensor, func() arr) {
					x := source(b, layout, typ, rowLen(typ), 3, 2)
					out := b.ctx.Dup(x)
					return out, func() arr { return flatCopy(read(x), out.Ne, typ, typ) }
				}},
				opCase{name: fmt.Sprintf("cont %v %s", typ, layout), build: func(b *tb) (*rt.Tensor, func() arr) {
					x := source(b, layout, typ, max(32, typ.BlockSize()), 5, 1, 2)
					out := b.ctx.Cont(x)
					return out, func() arr { return flatCopy(read(x), out.Ne, typ, typ) }
				}},
				opCase{name: fmt.Sprintf("cont reshape %v %s", typ, layout), build: func(b *tb) (*rt.Tensor, func() arr) {
					x := source(b, layout, typ, rowLen(typ), 3, 2)
					out := b.ctx.ContReshape(x, 2*rowLen(typ), 3)
					return out, func() arr { return flatCopy(read(x), out.Ne, typ, typ) }
				}},
			)
		}
	}
	cases = append(cases, opCase{name: "cont reshape odd rows", build: func(b *tb) (*rt.Tensor, func() arr) {
		x := b.transposed(rt.F16, 17, 3)
		out := b.ctx.ContReshape(x, 3, 1, 17)
		return out, func() arr { return flatCopy(read(x), out.Ne, rt.F16) }
	}})
	runOpCases(t, cases)
}

func TestCpyEveryDTypePair(t *testing.T) {
	var cases []opCase
	for _, from := range rt.DTypes {
		for _, to := range rt.DTypes {
			probe := rt.NewContext()
			n := max(rowLen(from), rowLen(to))
			probe.Cpy(probe.NewTensor(from, n), probe.NewTensor(to, n))
			if probe.Err() != nil {
				continue // I32 <-> quantized, rejected by the constructor
			}
			layouts := []string{"leaf", "view", "transposed"}
			legacy := func(t rt.DType) bool { return t == rt.Q8_0 || t == rt.Q4_0 }
			if from.IsQuantized() && to.IsQuantized() && !legacy(from) && !legacy(to) && from != to {
				continue // requantizing between two newer types: Q8_0 and Q4_0 cover the path
			}
			if (from.IsQuantized() || to.IsQuantized()) && !legacy(from) && !legacy(to) {
				layouts = layouts[:1] // the layouts are the same code for every block type
			}
			for _, layout := range layouts {
				cases = append(cases, opCase{
					name: fmt.Sprintf("%v to %v %s", from, to, layout),
					build: func(b *tb) (*rt.Tensor, func() arr) {
						var x *rt.Tensor
						if from == rt.I32 || from.IsQuantized() {
							x = source(b, layout, from, n, 3, 2)
						} else {
							// Values beyond ±1 so that I32 results are not all zero.
							x = b.randIn(-50, 50, from, n, 3, 2)
							if layout == "view" {
								x = b.ctx.View3D(x, n/2, 3, 2, x.Nb[1], x.Nb[2], 2*x.Nb[0])
							} else if layout == "transposed" {
								x = b.ctx.Permute(x, 2, 0, 1, 3) // [3, 2, 64]
							}
						}
						dst := b.rand(to, n, x.Nelements()/n)
						out := b.ctx.Cpy(x, dst)
						return out, func() arr { return flatCopy(read(x), out.Ne, to, from) }
					},
				})
			}
		}
	}
	// Rows of different lengths on each side, and strided destinations.
	cases = append(cases,
		opCase{name: "f32 rows of 32 to q8_0 rows of 64", build: func(b *tb) (*rt.Tensor, func() arr) {
			x := b.transposed(rt.F32, 32, 6)
			out := b.ctx.Cpy(x, b.rand(rt.Q8_0, 64, 3))
			return out, func() arr { return flatCopy(read(x), out.Ne, rt.Q8_0) }
		}},
		opCase{name: "q4_0 rows of 64 to f16 rows of 32", build: func(b *tb) (*rt.Tensor, func() arr) {
			x := b.transposed(rt.Q4_0, 64, 3, 2)
			out := b.ctx.Cpy(x, b.rand(rt.F16, 32, 12))
			return out, func() arr { return flatCopy(read(x), out.Ne, rt.F16) }
		}},
		opCase{name: "f32 into transposed f16 destination", build: func(b *tb) (*rt.Tensor, func() arr) {
			x := b.rand(rt.F32, 6, 4)
			out := b.ctx.Cpy(x, b.transposed(rt.F16, 6, 4))
			return out, func() arr { return flatCopy(read(x), out.Ne, rt.F16) }
		}},
		opCase{name: "i32 into offset i32 view", build: func(b *tb) (*rt.Tensor, func() arr) {
			x := b.transposed(rt.I32, 5, 3)
			out := b.ctx.Cpy(x, b.offsetView(rt.I32, 3, 5))
			return out, func() arr { return flatCopy(read(x), out.Ne, rt.I32) }
		}},
		opCase{name: "cast bf16 to q8_0", build: func(b *tb) (*rt.Tensor, func() arr) {
			x := b.rand(rt.BF16, 96, 2)
			out := b.ctx.Cast(x, rt.Q8_0)
			return out, func() arr { return flatCopy(read(x), out.Ne, rt.Q8_0) }
		}},
		opCase{name: "q8_0 to q4_0", build: func(b *tb) (*rt.Tensor, func() arr) {
			x := b.offsetView(rt.Q8_0, 64, 2, 3)
			out := b.ctx.Cast(x, rt.Q4_0)
			return out, func() arr { return flatCopy(read(x), out.Ne, rt.Q4_0) }
		}},
	)
	runOpCases(t, cases)
}

// TestCpyLargeIntsExact checks that I32 to I32 copies do not go through
// float32, which would round values above 2^24.
func TestCpyLargeIntsExact(t *testing.T) {
	runOpCases(t, []opCase{{name: "big i32", build: func(b *tb) (*rt.Tensor, func() arr) {
		x := b.ints([]int32{1<<24 + 1, -(1<<30 + 3), 2147483647, -2147483648}, 2, 2)
		out := b.ctx.Cpy(b.ctx.Transpose(x), b.ctx.NewTensor(rt.I32, 2, 2))
		return out, func() arr {
			want := newArr(out.Ne)
			want.v = []float64{1<<24 + 1, 2147483647, -(1<<30 + 3), -2147483648}
			return want
		}
	}}})
}

func TestGetRows(t *testing.T) {
	idx := []int32{2, 0, 4, 2, 1, 3, 3, 0}
	var cases []opCase
	for _, typ := range rt.DTypes {
		cases = append(cases,
			opCase{name: fmt.Sprintf("%v 3d", typ), build: func(b *tb) (*rt.Tensor, func() arr) {
				a := b.rand(typ, rowLen(typ), 5, 2)
				i := b.ints(idx, 4, 2)
				out := b.ctx.GetRows(a, i)
				return out, func() arr { return refGetRows(read(a), read(i)) }
			}},
			opCase{name: fmt.Sprintf("%v views", typ), build: func(b *tb) (*rt.Tensor, func() arr) {
				a := b.offsetView(typ, max(32, typ.BlockSize()), 5, 2)
				i := b.ctx.Transpose(b.ints(idx, 2, 4)) // [4, 2], non-contiguous
				out := b.ctx.GetRows(a, i)
				return out, func() arr { return refGetRows(read(a), read(i)) }
			}},
		)
	}
	cases = append(cases, opCase{name: "transposed f16 rows", build: func(b *tb) (*rt.Tensor, func() arr) {
		a := b.transposed(rt.F16, 17, 5)
		i := b.ints([]int32{4, 4, 0}, 3)
		out := b.ctx.GetRows(a, i)
		return out, func() arr { return refGetRows(read(a), read(i)) }
	}})
	runOpCases(t, cases)
}

func refGetRows(a, idx arr) arr {
	out := newArr([4]int{a.ne[0], idx.ne[0], idx.ne[1], idx.ne[2]})
	out.each(func(i0, i1, i2, i3 int) {
		out.set(i0, i1, i2, i3, a.at(i0, int(idx.at(i1, i2, i3, 0)), i2, i3))
	})
	return out
}

func TestSetRows(t *testing.T) {
	var cases []opCase
	for _, typ := range []rt.DType{rt.F32, rt.F16, rt.BF16, rt.Q8_0, rt.Q4_0} {
		cases = append(cases,
			opCase{name: fmt.Sprintf("%v broadcast indices", typ), build: func(b *tb) (*rt.Tensor, func() arr) {
				dst := b.rand(typ, 64, 6, 2, 2)
				rows := b.rand(rt.F32, 64, 3, 2, 2)
				idx := b.ints([]int32{5, 0, 5, 1, 2, 3}, 3, 2, 1) // repeats: the later row wins
				out := b.ctx.SetRows(dst, rows, idx)
				return out, func() arr { return refSetRows(read(dst), read(rows), read(idx), typ) }
			}},
			opCase{name: fmt.Sprintf("%v transposed rows into a view", typ), build: func(b *tb) (*rt.Tensor, func() arr) {
				dst := b.offsetView(typ, 32, 4)
				rows := b.transposed(rt.F32, 32, 3)
				idx := b.ints([]int32{3, 1, 0}, 3)
				out := b.ctx.SetRows(dst, rows, idx)
				return out, func() arr { return refSetRows(read(dst), read(rows), read(idx), typ) }
			}},
		)
	}
	// One-element rows: a token's values scattered into a transposed V
	// cache, with broadcast indices and a transposed source.
	for _, typ := range []rt.DType{rt.F32, rt.F16} {
		cases = append(cases,
			opCase{name: fmt.Sprintf("%v one-element rows", typ), build: func(b *tb) (*rt.Tensor, func() arr) {
				dst := b.rand(typ, 1, 40, 2)
				rows := b.rand(rt.F32, 1, 6, 2)
				idx := b.ints([]int32{7, 0, 39, 8, 1, 7}, 6) // repeats: the later row wins
				out := b.ctx.SetRows(dst, rows, idx)
				return out, func() arr { return refSetRows(read(dst), read(rows), read(idx), typ) }
			}},
			opCase{name: fmt.Sprintf("%v one-element rows, all in one row", typ), build: func(b *tb) (*rt.Tensor, func() arr) {
				// The V cache write of a batch: values and indices as flat rows.
				dst := b.rand(typ, 1, 40)
				rows := b.rand(rt.F32, 1, 9)
				idx := b.ints([]int32{7, 0, 39, 8, 1, 7, 20, 21, 3}, 9)
				out := b.ctx.SetRows(dst, rows, idx)
				return out, func() arr { return refSetRows(read(dst), read(rows), read(idx), typ) }
			}},
			opCase{name: fmt.Sprintf("%v one-element rows from a strided source", typ), build: func(b *tb) (*rt.Tensor, func() arr) {
				dst := b.rand(typ, 1, 12)
				rows := b.ctx.View2D(b.rand(rt.F32, 2, 6), 1, 6, 8, 4) // the second of each pair
				idx := b.ints([]int32{11, 3, 5, 0, 2, 9}, 6)
				out := b.ctx.SetRows(dst, rows, idx)
				return out, func() arr { return refSetRows(read(dst), read(rows), read(idx), typ) }
			}},
		)
	}
	runOpCases(t, cases)
}

// refSetRows applies the row writes in order to the target's old values.
func refSetRows(dst, rows, idx arr, typ rt.DType) arr {
	out := newArr(dst.ne)
	copy(out.v, dst.v)
	rows.each(func(i0, i, i2, i3 int) {
		if i0 != 0 {
			return
		}
		r := int(idx.at(i, i2%idx.ne[1], i3%idx.ne[2], 0))
		row := newArr([4]int{rows.ne[0], 1, 1, 1})
		for k := range row.v {
			row.v[k] = rows.at(k, i, i2, i3)
		}
		if typ.IsQuantized() {
			row = quantRows(typ, row)
		}
		for k, v := range row.v {
			out.set(k, r, i2, i3, roundTo(typ, v))
		}
	})
	return out
}

func TestConcat(t *testing.T) {
	var cases []opCase
	for dim := 0; dim < 4; dim++ {
		for _, typ := range []rt.DType{rt.F32, rt.F16, rt.BF16, rt.I32} {
			na := [4]int{3, 2, 2, 2}
			nb := na
			na[dim], nb[dim] = 3, 2
			cases = append(cases, opCase{name: fmt.Sprintf("dim %d %v", dim, typ), build: func(b *tb) (*rt.Tensor, func() arr) {
				a := b.transposed(typ, na[:]...)
				c := b.offsetView(typ, nb[:]...)
				out := b.ctx.Concat(a, c, dim)
				return out, func() arr { return refConcat(read(a), read(c), dim) }
			}})
		}
	}
	cases = append(cases, opCase{name: "odd f32 dim 1", build: func(b *tb) (*rt.Tensor, func() arr) {
		a, c := b.rand(rt.F32, 17, 1), b.rand(rt.F32, 17, 33)
		out := b.ctx.Concat(a, c, 1)
		return out, func() arr { return refConcat(read(a), read(c), 1) }
	}})
	runOpCases(t, cases)
}

func refConcat(a, c arr, dim int) arr {
	ne := a.ne
	ne[dim] += c.ne[dim]
	out := newArr(ne)
	out.each(func(i0, i1, i2, i3 int) {
		i := [4]int{i0, i1, i2, i3}
		if i[dim] < a.ne[dim] {
			out.set(i0, i1, i2, i3, a.at(i0, i1, i2, i3))
			return
		}
		i[dim] -= a.ne[dim]
		out.set(i0, i1, i2, i3, c.at(i[0], i[1], i[2], i[3]))
	})
	return out
}
