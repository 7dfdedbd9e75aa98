// Package backendcheck holds checks that every backend's tests run on their
// own device, so that the same misuse gets the same answer everywhere.
//
// # Misuse
//
// Misuse checks the answers to a careless or hostile caller: tensor I/O at
// offsets that overflow (rt.ErrOutOfRange, never a panic or a silent short
// read), use after Free and after Close (rt.ErrClosed), a second Free (a
// no-op) and an ARGMAX of 0-wide rows (rt.ErrShape when the graph is
// built).
//
// # Leak
//
// Leak runs thousands of allocate-write-free cycles and fails when the
// process's resident memory grows by more than a bound: freed buffers must
// give their memory back.
package backendcheck

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// Misuse runs the misuse cases on dev.
func Misuse(t *testing.T, dev rt.Device) {
	t.Helper()
	t.Run("OffsetOverflow", func(t *testing.T) { offsetOverflow(t, dev) })
	t.Run("UseAfterFree", func(t *testing.T) { useAfterFree(t, dev) })
	t.Run("UseAfterClose", func(t *testing.T) { useAfterClose(t, dev) })
	t.Run("ArgmaxEmptyRows", func(t *testing.T) { argmaxEmptyRows(t) })
	t.Run("RowsOutOfRange", func(t *testing.T) { rowsOutOfRange(t, dev) })
}

// rowsOutOfRange: GET_ROWS and SET_ROWS with an index outside the rows
// fail with ErrOutOfRange by the end of Synchronize (GPUs find out while
// the shader runs), and the backend works normally afterwards.
func rowsOutOfRange(t *testing.T, dev rt.Device) {
	be, err := dev.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	type graph struct {
		g   *rt.Graph
		idx *rt.Tensor
	}
	build := func(set bool) graph {
		ctx := rt.NewContext()
		rows := ctx.NewTensor(rt.F32, 4, 3).SetName("rows")
		idx := ctx.NewTensor(rt.I32, 2).SetName("idx")
		var out *rt.Tensor
		if set {
			out = ctx.SetRows(ctx.NewTensor(rt.F32, 4, 3).SetName("dst"), ctx.NewTensor(rt.F32, 4, 2).SetName("src"), idx)
		} else {
			out = ctx.GetRows(rows, idx)
		}
		g, err := ctx.BuildGraph(out)
		if err != nil {
			t.Fatal(err)
		}
		return graph{g, idx}
	}
	for _, set := range []bool{false, true} {
		gr := build(set)
		a, err := rt.AllocGraphOn(gr.g, dev.BufferType())
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range gr.g.Leafs {
			if l.Type == rt.F32 {
				if err := rt.TensorSetF32(l, make([]float32, l.Nelements())); err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, tc := range []struct {
			idx     []int32
			wantErr bool
		}{{[]int32{0, 7}, true}, {[]int32{-1, 1}, true}, {[]int32{2, 0}, false}} {
			if err := rt.TensorSetI32(gr.idx, tc.idx); err != nil {
				t.Fatal(err)
			}
			err := errors.Join(call(func() error { return be.GraphCompute(gr.g) }), call(be.Synchronize))
			if tc.wantErr && !errors.Is(err, rt.ErrOutOfRange) {
				t.Errorf("set %v, indices %v of 3 rows: %v, want an error wrapping ErrOutOfRange", set, tc.idx, err)
			}
			if !tc.wantErr && err != nil {
				t.Errorf("set %v, indices %v after an out-of-range run: %v", set, tc.idx, err)
			}
		}
		a.Free()
	}
}

func allocOne(t *testing.T, dev rt.Device, n int) (*rt.Tensor, rt.Buffer) {
	t.Helper()
	ctx := rt.NewContext()
	x := ctx.NewTensor(rt.F32, n).SetName("x")
	buf, err := rt.AllocContextTensors(ctx, dev.BufferType())
	if err != nil {
		t.Fatal(err)
	}
	return x, buf
}

func offsetOverflow(t *testing.T, dev rt.Device) {
	x, buf := allocOne(t, dev, 64)
	defer buf.Free()
	be, err := dev.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	data := make([]byte, 16)
	for _, off := range []int{math.MaxInt, math.MaxInt - 8, math.MaxInt - 15, -1, math.MinInt, 256 - 15} {
		ops := map[string]func() error{
			"TensorSet":      func() error { return rt.TensorSet(x, data, off) },
			"TensorGet":      func() error { return rt.TensorGet(x, data, off) },
			"TensorMemset":   func() error { return rt.TensorMemset(x, 1, off, len(data)) },
			"TensorSetAsync": func() error { return rt.TensorSetAsync(be, x, data, off) },
			"TensorGetAsync": func() error { return rt.TensorGetAsync(be, x, data, off) },
			"Buffer.SetTensor": func() error {
				return buf.SetTensor(x, data, off)
			},
			"Buffer.GetTensor": func() error {
				return buf.GetTensor(x, data, off)
			},
		}
		for name, op := range ops {
			if err := call(op); !errors.Is(err, rt.ErrOutOfRange) {
				t.Errorf("%s at offset %d: %v, want an error wrapping ErrOutOfRange", name, off, err)
			}
		}
	}
	// A size that overflows with the offset.
	if err := call(func() error { return rt.TensorMemset(x, 0, 8, math.MaxInt-4) }); !errors.Is(err, rt.ErrOutOfRange) {
		t.Errorf("TensorMemset of MaxInt-4 bytes at 8: %v, want ErrOutOfRange", err)
	}
	if err := be.Synchronize(); err != nil {
		t.Errorf("synchronize after refused transfers: %v", err)
	}
}

// call runs f and turns a panic into an error, which no case accepts.
func call(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f()
}

func useAfterFree(t *testing.T, dev rt.Device) {
	x, buf := allocOne(t, dev, 16)
	if err := buf.Free(); err != nil {
		t.Fatal(err)
	}
	if err := buf.Free(); err != nil {
		t.Errorf("second Free: %v, want nil (a no-op on every backend)", err)
	}
	data := make([]byte, 16)
	for name, op := range map[string]func() error{
		"TensorSet":    func() error { return rt.TensorSet(x, data, 0) },
		"TensorGet":    func() error { return rt.TensorGet(x, data, 0) },
		"TensorMemset": func() error { return rt.TensorMemset(x, 0, 0, 16) },
		"Clear":        func() error { return buf.Clear(0) },
	} {
		if err := call(op); !errors.Is(err, rt.ErrClosed) {
			t.Errorf("%s after Free: %v, want an error wrapping ErrClosed", name, err)
		}
	}
}

func useAfterClose(t *testing.T, dev rt.Device) {
	be, err := dev.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	if err := be.Close(); err != nil {
		t.Fatal(err)
	}
	if err := call(be.Close); err != nil && !errors.Is(err, rt.ErrClosed) {
		t.Errorf("second Close: %v, want nil or ErrClosed", err)
	}
	if err := call(be.Synchronize); !errors.Is(err, rt.ErrClosed) {
		t.Errorf("Synchronize after Close: %v, want an error wrapping ErrClosed", err)
	}
	ctx := rt.NewContext()
	y := ctx.Silu(ctx.NewTensor(rt.F32, 4))
	g, err := ctx.BuildGraph(y)
	if err != nil {
		t.Fatal(err)
	}
	a, err := rt.AllocGraphOn(g, dev.BufferType())
	if err != nil {
		t.Fatal(err)
	}
	defer a.Free()
	if err := call(func() error { return be.GraphCompute(g) }); !errors.Is(err, rt.ErrClosed) {
		t.Errorf("GraphCompute after Close: %v, want an error wrapping ErrClosed", err)
	}
}

func argmaxEmptyRows(t *testing.T) {
	ctx := rt.NewContext()
	y := ctx.Argmax(ctx.NewTensor(rt.F32, 0, 3))
	if _, err := ctx.BuildGraph(y); !errors.Is(err, rt.ErrShape) {
		t.Errorf("ARGMAX of 0-wide rows: %v, want an error wrapping ErrShape", err)
	}
}

// LeakOptions configures Leak.
type LeakOptions struct {
	Cycles  int   // allocate-write-free cycles (2,000 when zero)
	Size    int   // bytes per buffer (1 MiB when zero)
	MaxGrow int64 // the most RSS may grow, in bytes (256 MiB when zero)
}

// Leak allocates a buffer of dev's default type, writes it and frees it,
// Cycles times, and fails when the resident set grows by more than MaxGrow.
func Leak(t *testing.T, dev rt.Device, o LeakOptions) {
	t.Helper()
	if o.Cycles == 0 {
		o.Cycles = 2000
	}
	if o.Size == 0 {
		o.Size = 1 << 20
	}
	if o.MaxGrow == 0 {
		o.MaxGrow = 256 << 20
	}
	before := rss()
	if before < 0 {
		t.Skip("resident memory is not readable on this system (/proc/self/statm)")
	}
	data := make([]byte, o.Size)
	for i := range data {
		data[i] = byte(i)
	}
	bt := dev.BufferType()
	peak := before
	for i := 0; i < o.Cycles; i++ {
		ctx := rt.NewContext()
		x := ctx.NewTensor(rt.F32, o.Size/4)
		buf, err := rt.AllocContextTensors(ctx, bt)
		if err != nil {
			t.Fatalf("cycle %d: %v", i, err)
		}
		if err := rt.TensorSet(x, data[:x.Nbytes()], 0); err != nil {
			t.Fatalf("cycle %d: %v", i, err)
		}
		if err := buf.Free(); err != nil {
			t.Fatalf("cycle %d: free: %v", i, err)
		}
		if i%100 == 99 {
			peak = max(peak, rss())
		}
	}
	after := max(peak, rss())
	t.Logf("%d cycles of %d bytes on %s: RSS %d MiB -> %d MiB", o.Cycles, o.Size, dev.Name(), before>>20, after>>20)
	if after-before > o.MaxGrow {
		t.Errorf("RSS grew by %d MiB over %d alloc-write-free cycles of %d KiB (limit %d MiB): freed buffers are not reclaimed",
			(after-before)>>20, o.Cycles, o.Size>>10, o.MaxGrow>>20)
	}
}

// rss is the resident set size in bytes, or -1.
func rss() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return -1
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return -1
	}
	return pages * int64(os.Getpagesize())
}
