package rpc

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"math"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	rt "github.com/gpurt/gpurt/runtime"
)

// request frames one command.
func request(cmd Cmd, body []byte) []byte {
	var e encoder
	e.u8(uint8(cmd))
	e.u64(uint64(len(body)))
	e.bytes(body)
	return e.b
}

func hello() []byte { return request(CmdHello, make([]byte, helloReqBytes)) }

// runSession feeds stream to a fresh session on the CPU and returns the
// error that ended it (nil or io.EOF when the stream simply ran out) and
// the responses written.
func runSession(t testing.TB, stream []byte) (error, []byte) {
	t.Helper()
	srv, err := NewServer(ServerOptions{
		Devices:    []rt.Device{cpu.Device()},
		NewBackend: func(rt.Device) (rt.Backend, error) { return cpu.NewBackend(1) },
		MaxMessage: 1 << 20,
		MaxAlloc:   1 << 16,
	})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	ss := &session{srv: srv, r: bufio.NewReader(bytes.NewReader(stream)), w: bufio.NewWriter(&out),
		buffers: map[uint64]*srvBuffer{}}
	err = ss.loop()
	ss.release()
	if srv.liveBufs != 0 {
		t.Fatalf("%d buffers left after the session", srv.liveBufs)
	}
	return err, out.Bytes()
}

// wireLeaf is an f32 leaf of n elements at offset off in buffer 1.
func wireLeaf(id uint64, n, off uint64) wireTensor {
	w := wireTensor{ID: id, Type: uint32(rt.F32), Buffer: 1, Data: 1*bufferSpan + off}
	w.Ne = [maxDims]uint32{uint32(n), 1, 1, 1}
	w.Nb = [maxDims]uint32{4, uint32(4 * n), uint32(4 * n), uint32(4 * n)}
	return w
}

func tensorBody(ws ...wireTensor) []byte {
	var e encoder
	for i := range ws {
		e.tensor(&ws[i])
	}
	return e.b
}

func u64s(vs ...uint64) []byte {
	var e encoder
	for _, v := range vs {
		e.u64(v)
	}
	return e.b
}

// graphBody serializes a graph message for device 0.
func graphBody(nodes []uint64, ts ...wireTensor) []byte {
	var e encoder
	e.u32(0)
	e.u32(uint32(len(nodes)))
	for _, n := range nodes {
		e.u64(n)
	}
	e.u32(uint32(len(ts)))
	e.bytes(tensorBody(ts...))
	return e.b
}

func add(id, a, b uint64, n, off uint64) wireTensor {
	w := wireLeaf(id, n, off)
	w.Op, w.Src[0], w.Src[1] = uint32(ggmlOpAdd), a, b
	return w
}

// TestServerRejects sends requests a server must refuse: each one closes
// the session with a protocol error, never a panic, and frees its buffers.
func TestServerRejects(t *testing.T) {
	alloc := request(CmdAllocBuffer, append([]byte{0, 0, 0, 0}, u64s(256)...)) // buffer 1, 256 bytes
	oob := wireLeaf(9, 64, 8)                                                  // 256 bytes at offset 8
	bigType := wireLeaf(9, 4, 0)
	bigType.Type = 1000
	huge := wireLeaf(9, 4, 0)
	huge.Ne = [maxDims]uint32{1 << 31, 1 << 31, 1 << 31, 1 << 31}
	huge.Nb = [maxDims]uint32{4, 1 << 31, 1 << 31, 1 << 31}
	overlap := wireLeaf(9, 4, 0)
	overlap.Ne[1], overlap.Nb[1] = 100000, 0
	badOp := add(3, 1, 2, 4, 32)
	badOp.Op = 999
	shape := add(3, 1, 2, 8, 32) // declared 8 elements, sources have 4
	cyc1, cyc2 := add(3, 4, 1, 4, 32), add(4, 3, 1, 4, 48)
	for _, tc := range []struct {
		name   string
		stream [][]byte
	}{
		{"command before HELLO", [][]byte{request(CmdDeviceCount, nil)}},
		{"HELLO of the wrong size", [][]byte{request(CmdHello, make([]byte, 3))}},
		{"second HELLO", [][]byte{hello(), hello()}},
		{"unknown command", [][]byte{hello(), request(200, nil)}},
		{"fixed request of the wrong size", [][]byte{hello(), request(CmdGetAlignment, make([]byte, 8))}},
		{"request over the size limit", [][]byte{hello(), request(CmdGraphCompute, make([]byte, 2<<20))}},
		{"device out of range", [][]byte{hello(), request(CmdGetMaxSize, []byte{7, 0, 0, 0})}},
		{"unknown buffer", [][]byte{hello(), request(CmdBufferGetBase, u64s(42))}},
		{"free twice", [][]byte{hello(), alloc, request(CmdFreeBuffer, u64s(1)), request(CmdFreeBuffer, u64s(1))}},
		{"set past the buffer", [][]byte{hello(), alloc, request(CmdSetTensor, append(append(tensorBody(oob), u64s(0)...), make([]byte, 256)...))}},
		{"get past the tensor", [][]byte{hello(), alloc, request(CmdGetTensor, append(tensorBody(wireLeaf(9, 4, 0)), u64s(8, 16)...))}},
		{"memset past the tensor", [][]byte{hello(), alloc, request(CmdMemsetTensor, append(append(tensorBody(wireLeaf(9, 4, 0)), u64s(0, 17)...), 0))}},
		{"copy into a smaller tensor", [][]byte{hello(), alloc, request(CmdCopyTensor, tensorBody(wireLeaf(8, 16, 0), wireLeaf(9, 4, 64)))}},
		{"unknown type", [][]byte{hello(), alloc, request(CmdGetTensor, append(tensorBody(bigType), u64s(0, 4)...))}},
		{"span overflow", [][]byte{hello(), alloc, request(CmdGetTensor, append(tensorBody(huge), u64s(0, 4)...))}},
		{"overlapping strides", [][]byte{hello(), alloc, request(CmdGetTensor, append(tensorBody(overlap), u64s(0, 4)...))}},
		{"data before the buffer", [][]byte{hello(), alloc, request(CmdGetTensor, append(tensorBody(wireTensor{ID: 1, Buffer: 1, Data: 5, Ne: [4]uint32{1, 1, 1, 1}, Nb: [4]uint32{4, 4, 4, 4}}), u64s(0, 4)...))}},
		{"graph: unknown source", [][]byte{hello(), alloc, request(CmdGraphCompute, graphBody([]uint64{3}, wireLeaf(1, 4, 0), add(3, 1, 77, 4, 32)))}},
		{"graph: unknown node", [][]byte{hello(), alloc, request(CmdGraphCompute, graphBody([]uint64{5}, wireLeaf(1, 4, 0)))}},
		{"graph: duplicate id", [][]byte{hello(), alloc, request(CmdGraphCompute, graphBody([]uint64{1}, wireLeaf(1, 4, 0), wireLeaf(1, 4, 16)))}},
		{"graph: cycle", [][]byte{hello(), alloc, request(CmdGraphCompute, graphBody([]uint64{3, 4}, wireLeaf(1, 4, 0), cyc1, cyc2))}},
		{"graph: unknown op", [][]byte{hello(), alloc, request(CmdGraphCompute, graphBody([]uint64{3}, wireLeaf(1, 4, 0), wireLeaf(2, 4, 16), badOp))}},
		{"graph: declared shape differs", [][]byte{hello(), alloc, request(CmdGraphCompute, graphBody([]uint64{3}, wireLeaf(1, 4, 0), wireLeaf(2, 4, 16), shape))}},
		{"graph: truncated tensors", [][]byte{hello(), alloc, request(CmdGraphCompute, graphBody([]uint64{1}, wireLeaf(1, 4, 0))[:100])}},
		{"recompute before compute", [][]byte{hello(), request(CmdGraphRecompute, []byte{0, 0, 0, 0})}},
		{"recompute after its buffer was freed", [][]byte{hello(), alloc,
			request(CmdGraphCompute, graphBody([]uint64{3}, wireLeaf(1, 4, 0), wireLeaf(2, 4, 16), add(3, 1, 2, 4, 32))),
			request(CmdFreeBuffer, u64s(1)), request(CmdGraphRecompute, []byte{0, 0, 0, 0})}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err, _ := runSession(t, bytes.Join(tc.stream, nil))
			if !errors.Is(err, errProtocol) && !errors.Is(err, rt.ErrUnsupported) && !errors.Is(err, rt.ErrShape) {
				t.Fatalf("session ended with %v, want a rejection", err)
			}
		})
	}
}

// TestServerAccepts runs a small valid exchange: the graph adds two
// vectors and the answer is read back.
func TestServerAccepts(t *testing.T) {
	a, b := make([]byte, 16), make([]byte, 16)
	for i := 0; i < 4; i++ {
		putF32(a[4*i:], float32(i))
		putF32(b[4*i:], 10)
	}
	sum := add(3, 1, 2, 4, 32)
	sum.Flags = ggmlFlagCompute
	stream := bytes.Join([][]byte{
		hello(),
		request(CmdAllocBuffer, append([]byte{0, 0, 0, 0}, u64s(256)...)),
		request(CmdSetTensor, append(append(tensorBody(wireLeaf(1, 4, 0)), u64s(0)...), a...)),
		request(CmdSetTensor, append(append(tensorBody(wireLeaf(2, 4, 16)), u64s(0)...), b...)),
		request(CmdGraphCompute, graphBody([]uint64{3}, wireLeaf(1, 4, 0), wireLeaf(2, 4, 16), sum)),
		// Freeing a buffer the graph does not use keeps it for RECOMPUTE.
		request(CmdAllocBuffer, append([]byte{0, 0, 0, 0}, u64s(64)...)),
		request(CmdFreeBuffer, u64s(2)),
		request(CmdGraphRecompute, []byte{0, 0, 0, 0}),
		request(CmdGetTensor, append(tensorBody(wireLeaf(3, 4, 32)), u64s(0, 16)...)),
	}, nil)
	err, out := runSession(t, stream)
	if !errors.Is(err, io.EOF) {
		t.Fatalf("session ended with %v", err)
	}
	// The last response: size 16 and the sums 10, 11, 12, 13.
	last := out[len(out)-16:]
	for i := 0; i < 4; i++ {
		if got := getF32(last[4*i:]); got != float32(10+i) {
			t.Fatalf("sum[%d] = %g, want %d", i, got, 10+i)
		}
	}
}

// FuzzServerRequests feeds arbitrary command streams (after HELLO, with a
// buffer allocated) to a session: it may reject them, never panic or hang.
func FuzzServerRequests(f *testing.F) {
	alloc := request(CmdAllocBuffer, append([]byte{0, 0, 0, 0}, u64s(256)...))
	sum := add(3, 1, 2, 4, 32)
	sum.Flags = ggmlFlagCompute
	f.Add(request(CmdGraphCompute, graphBody([]uint64{3}, wireLeaf(1, 4, 0), wireLeaf(2, 4, 16), sum)))
	f.Add(request(CmdGetTensor, append(tensorBody(wireLeaf(1, 4, 0)), u64s(0, 16)...)))
	f.Add(request(CmdSetTensor, append(append(tensorBody(wireLeaf(1, 4, 0)), u64s(0)...), make([]byte, 16)...)))
	f.Add(request(CmdCopyTensor, tensorBody(wireLeaf(1, 4, 0), wireLeaf(2, 4, 16))))
	f.Add(request(CmdGetAllocSize, append([]byte{0, 0, 0, 0}, make([]byte, (1+maxSrc)*tensorBytes)...)))
	f.Add(request(CmdMemsetTensor, append(append(tensorBody(wireLeaf(1, 4, 0)), u64s(0, 16)...), 7)))
	f.Fuzz(func(t *testing.T, data []byte) {
		runSession(t, append(append(hello(), alloc...), data...))
	})
}

func putF32(b []byte, f float32) {
	var e encoder
	e.u32(math.Float32bits(f))
	copy(b, e.b)
}

func getF32(b []byte) float32 {
	d := decoder{b: b}
	return math.Float32frombits(d.u32())
}

// TestEveryOpHasAGGMLCase: each gpurt op maps to a ggml op, and the server
// maps it back (by building it) — no op falls to the default case.
func TestEveryOpHasAGGMLCase(t *testing.T) {
	for _, op := range rt.AllOps() {
		x := &rt.Tensor{Op: op, Type: rt.F32}
		if op == rt.OpGLU {
			x.Params[0] = rt.GLUSwiGLU
		}
		g, _, err := toGGML(x)
		if err != nil {
			t.Errorf("%v: %v", op, err)
			continue
		}
		if g == ggmlOpNone || g >= ggmlOpCount {
			t.Errorf("%v maps to %v", op, g)
		}
	}
}
