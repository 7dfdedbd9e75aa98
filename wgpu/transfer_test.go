//go:build cgo

package wgpu

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// byteTensor places an n-byte (n even) F16 tensor at offset of buf, so that
// tensor I/O can address any byte range.
func byteTensor(t *testing.T, buf rt.Buffer, offset, n int) *rt.Tensor {
	t.Helper()
	ctx := rt.NewContext()
	x := ctx.NewTensor(rt.F16, n/2).SetName("bytes")
	if err := rt.AllocTensor(buf, x, offset); err != nil {
		t.Fatal(err)
	}
	return x
}

func bufferTypes(d *Device) []rt.BufferType {
	bts := []rt.BufferType{d.BufferType()}
	if h := d.HostBufferType(); h != nil {
		bts = append(bts, h)
	}
	return bts
}

// TestSetGetUnaligned writes byte ranges at every alignment and checks that
// exactly those bytes change.
func TestSetGetUnaligned(t *testing.T) {
	d := device(t)
	for _, bt := range bufferTypes(d) {
		t.Run(bt.Name(), func(t *testing.T) {
			const size = 1002
			buf, err := bt.Alloc(size)
			if err != nil {
				t.Fatal(err)
			}
			defer buf.Free()
			x := byteTensor(t, buf, 0, size)
			r := rand.New(rand.NewPCG(1, 2))
			want := make([]byte, size)
			for i := range want {
				want[i] = byte(r.IntN(256))
			}
			if err := rt.TensorSet(x, want, 0); err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct{ off, n int }{
				{0, 1}, {1, 1}, {2, 2}, {3, 5}, {5, 3}, {7, 1}, {4, 4}, {9, 200}, {1001, 1}, {998, 4}, {0, size}, {13, 0},
			} {
				data := make([]byte, c.n)
				for i := range data {
					data[i] = byte(r.IntN(256))
				}
				if err := rt.TensorSet(x, data, c.off); err != nil {
					t.Fatalf("set [%d,+%d): %v", c.off, c.n, err)
				}
				copy(want[c.off:], data)
				got := make([]byte, size)
				if err := rt.TensorGet(x, got, 0); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("after set [%d,+%d): buffer differs", c.off, c.n)
				}
				part := make([]byte, c.n)
				if err := rt.TensorGet(x, part, c.off); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(part, want[c.off:c.off+c.n]) {
					t.Fatalf("get [%d,+%d) = %v, want %v", c.off, c.n, part, want[c.off:c.off+c.n])
				}
			}
		})
	}
}

func TestMemsetClearCopy(t *testing.T) {
	d := device(t)
	for _, bt := range bufferTypes(d) {
		t.Run(bt.Name(), func(t *testing.T) {
			const size = 258
			buf, err := bt.Alloc(size)
			if err != nil {
				t.Fatal(err)
			}
			defer buf.Free()
			x := byteTensor(t, buf, 0, size)
			if err := buf.Clear(7); err != nil {
				t.Fatal(err)
			}
			want := bytes.Repeat([]byte{7}, size)
			for _, c := range []struct {
				off, n int
				v      byte
			}{{0, 4, 0}, {4, 12, 0}, {3, 9, 1}, {17, 200, 0xab}, {255, 3, 0}} {
				if err := rt.TensorMemset(x, c.v, c.off, c.n); err != nil {
					t.Fatal(err)
				}
				for i := c.off; i < c.off+c.n; i++ {
					want[i] = c.v
				}
			}
			got := make([]byte, size)
			if err := rt.TensorGet(x, got, 0); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("memset result differs:\n got %v\nwant %v", got, want)
			}

			// Copies between buffers of either type: on the device when the
			// range is word-aligned, else through the runtime's fallback.
			for _, bt2 := range bufferTypes(d) {
				for _, n := range []int{256, size} {
					buf2, err := bt2.Alloc(size + 2)
					if err != nil {
						t.Fatal(err)
					}
					src := byteTensor(t, buf, 0, n)
					y := byteTensor(t, buf2, 0, n)
					done, err := buf2.CopyTensor(src, y)
					if err != nil || done != (n%4 == 0) {
						t.Fatalf("copy %d bytes %s -> %s: done %v, %v", n, bt.Name(), bt2.Name(), done, err)
					}
					if err := rt.TensorCopy(src, y); err != nil {
						t.Fatal(err)
					}
					if err := rt.TensorGet(y, got[:n], 0); err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got[:n], want[:n]) {
						t.Fatalf("copy %d bytes %s -> %s differs", n, bt.Name(), bt2.Name())
					}
					if err := buf2.Free(); err != nil {
						t.Fatal(err)
					}
				}
			}
		})
	}
}

func TestBoundsAndErrors(t *testing.T) {
	d := device(t)
	buf, err := d.BufferType().Alloc(64)
	if err != nil {
		t.Fatal(err)
	}
	x := byteTensor(t, buf, 0, 64)
	check := func(what string, err error, want string) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one mentioning %q", what, err, want)
		}
	}
	check("runtime set past end", rt.TensorSet(x, make([]byte, 8), 60), "do not fit the tensor")
	check("buffer set past end", buf.SetTensor(x, make([]byte, 8), 60), "outside the 64-byte buffer")
	check("buffer get before start", buf.GetTensor(x, make([]byte, 8), -4), "outside")
	check("memset past end", buf.MemsetTensor(x, 0, 32, 64), "outside")
	if err := buf.Free(); err != nil {
		t.Fatal(err)
	}
	check("use after free", buf.SetTensor(x, make([]byte, 4), 0), "after free")
	if err := buf.Free(); err != nil {
		t.Errorf("second free: %v", err)
	}
	_, err = d.BufferType().Alloc(d.BufferType().MaxSize() + 1)
	check("alloc too large", err, "WebGPU0")
	_, err = d.BufferType().Alloc(-1)
	check("alloc negative", err, "negative")
	_, err = d.BufferFromHost(make([]byte, 16), 16)
	check("buffer from host", err, "not supported")

	// A tensor in another device's buffer is rejected by GraphCompute.
	ctx := rt.NewContext()
	a := ctx.NewTensor(rt.F32, 4).SetName("a")
	out := ctx.Neg(a)
	g, _ := ctx.BuildGraph(out)
	b := newBackend(t, d)
	check("unallocated", b.GraphCompute(g), "not allocated")
}

func TestUncapturedError(t *testing.T) {
	d := device(t)
	d.provokeUncapturedError()
	_, err := d.BufferType().Alloc(16)
	if err == nil || !strings.Contains(err.Error(), "uncaptured validation error") {
		t.Fatalf("error after an uncaptured error: %v", err)
	}
	// The sink is drained: the device stays usable.
	buf, err := d.BufferType().Alloc(16)
	if err != nil {
		t.Fatal(err)
	}
	buf.Free()
}

func TestAsyncAndEvents(t *testing.T) {
	d := device(t)
	b := newBackend(t, d)
	buf, err := d.BufferType().Alloc(512)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Free()
	buf2, err := d.BufferType().Alloc(512)
	if err != nil {
		t.Fatal(err)
	}
	defer buf2.Free()
	x := byteTensor(t, buf, 0, 512)
	y := byteTensor(t, buf2, 0, 512)
	data := make([]byte, 512)
	for i := range data {
		data[i] = byte(i * 7)
	}
	if err := rt.TensorSetAsync(b, x, data, 0); err != nil {
		t.Fatal(err)
	}
	if err := rt.TensorCopyAsync(b, b, x, y); err != nil {
		t.Fatal(err)
	}
	ev, err := d.NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Free()
	if err := ev.Record(b); err != nil {
		t.Fatal(err)
	}
	if err := ev.Wait(b); err != nil {
		t.Fatal(err)
	}
	if err := ev.Synchronize(); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 509)
	if err := rt.TensorGetAsync(b, y, got, 3); err != nil {
		t.Fatal(err)
	}
	if err := b.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data[3:]) {
		t.Fatalf("async get returned wrong bytes")
	}
}

// TestLargeWritesInOrder writes ranges of at least uploadMin bytes, which
// go through the upload buffer, around small queue writes to the same
// bytes, and checks that the last write of each byte wins, at unaligned
// offsets and across more than one upload chunk.
func TestLargeWritesInOrder(t *testing.T) {
	d := device(t)
	const size = uploadChunk + 3<<20
	buf, err := d.BufferType().Alloc(size)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Free()
	x := byteTensor(t, buf, 0, size)
	r := rand.New(rand.NewPCG(3, 4))
	want := make([]byte, size)
	set := func(off int, data []byte) {
		t.Helper()
		if err := rt.TensorSet(x, data, off); err != nil {
			t.Fatal(err)
		}
		copy(want[off:], data)
	}
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		return b
	}
	set(0, random(size))         // two upload chunks
	set(100, random(64))         // a queue write, still pending...
	set(64, random(uploadMin+5)) // ...under an unaligned upload over it
	set(uploadMin, random(8))    // and a queue write over that
	set(size-uploadMin-3, random(uploadMin+3))
	got := make([]byte, size)
	if err := rt.TensorGet(x, got, 0); err != nil {
		t.Fatal(err)
	}
	if i := firstDiff(got, want); i >= 0 {
		t.Fatalf("byte %d = %d, want %d", i, got[i], want[i])
	}
}

func firstDiff(a, b []byte) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}
