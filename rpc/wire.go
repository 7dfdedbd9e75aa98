package rpc

import (
	"encoding/binary"
	"fmt"
	"slices"

	rt "github.com/gpurt/gpurt/runtime"
)

// The protocol version spoken, as ggml-rpc.h's RPC_PROTO_*_VERSION. A peer
// is compatible when its major version is equal and its minor version is not
// newer.
const (
	ProtoMajor = 5
	ProtoMinor = 0
	ProtoPatch = 0
)

// Cmd is a command id, the first byte of every request (ggml-rpc.cpp's
// enum rpc_cmd). HELLO is 14 in every version of the protocol.
type Cmd uint8

const (
	CmdAllocBuffer Cmd = iota
	CmdGetAlignment
	CmdGetMaxSize
	CmdBufferGetBase
	CmdFreeBuffer
	CmdBufferClear
	CmdSetTensor
	CmdSetTensorHash
	CmdGetTensor
	CmdCopyTensor
	CmdGraphCompute
	CmdGetDeviceMemory
	CmdInitTensor
	CmdGetAllocSize
	CmdHello
	CmdDeviceCount
	CmdGraphRecompute
	CmdMemsetTensor
	cmdCount
)

var cmdNames = [cmdCount]string{
	"ALLOC_BUFFER", "GET_ALIGNMENT", "GET_MAX_SIZE", "BUFFER_GET_BASE", "FREE_BUFFER",
	"BUFFER_CLEAR", "SET_TENSOR", "SET_TENSOR_HASH", "GET_TENSOR", "COPY_TENSOR",
	"GRAPH_COMPUTE", "GET_DEVICE_MEMORY", "INIT_TENSOR", "GET_ALLOC_SIZE", "HELLO",
	"DEVICE_COUNT", "GRAPH_RECOMPUTE", "MEMSET_TENSOR",
}

func (c Cmd) String() string {
	if c < cmdCount {
		return cmdNames[c]
	}
	return fmt.Sprintf("CMD(%d)", uint8(c))
}

// hasResponse reports whether the server answers the command. SET_TENSOR,
// GRAPH_COMPUTE and GRAPH_RECOMPUTE are one-way: a failure shows as a closed
// connection at the next command that waits for an answer.
func (c Cmd) hasResponse() bool {
	return c != CmdSetTensor && c != CmdGraphCompute && c != CmdGraphRecompute
}

// Sizes of the fixed parts of the wire format (ggml-rpc.cpp, #pragma pack 1).
const (
	maxDims     = 4
	maxSrc      = 10 // GGML_MAX_SRC
	maxParams   = 16 // GGML_MAX_OP_PARAMS / sizeof(int32_t)
	maxName     = 64 // GGML_MAX_NAME
	connCaps    = 24 // RPC_CONN_CAPS_SIZE: transport upgrade (RDMA) offers, zero for plain TCP
	tensorBytes = 8 + 4 + 8 + 4*maxDims + 4*maxDims + 4 + 4*maxParams + 4 + 8*maxSrc + 8 + 8 + 8 + maxName + 4

	helloReqBytes = connCaps
	helloRspBytes = 4 + connCaps
	// HashThreshold is the size above which ggml's client offers a tensor's
	// FNV-1a hash (SET_TENSOR_HASH) before sending its data, and above which
	// a server with a cache directory stores received data.
	HashThreshold = 10 << 20

	// ggmlFlagCompute is GGML_TENSOR_FLAG_COMPUTE: ggml_build_forward_expand
	// marks every node with it, and ggml's backends compute only marked
	// nodes.
	ggmlFlagCompute = 16
)

// wireTensor is rpc_tensor: a ggml_tensor as it travels. Pointers become
// opaque ids (id, src, view_src), buffer is a handle returned by
// ALLOC_BUFFER, and data is an address inside the buffer's range as returned
// by BUFFER_GET_BASE.
type wireTensor struct {
	ID       uint64
	Type     uint32
	Buffer   uint64
	Ne       [maxDims]uint32
	Nb       [maxDims]uint32
	Op       uint32
	Params   [maxParams]int32
	Flags    int32
	Src      [maxSrc]uint64
	ViewSrc  uint64
	ViewOffs uint64
	Data     uint64
	Name     [maxName]byte
	// 4 bytes of padding follow on the wire.
}

func (t *wireTensor) name() string {
	for i, c := range t.Name {
		if c == 0 {
			return string(t.Name[:i])
		}
	}
	return string(t.Name[:])
}

func (t *wireTensor) setName(s string) {
	t.Name = [maxName]byte{}
	copy(t.Name[:maxName-1], s) // keep a terminating NUL, as snprintf does
}

// encoder appends little-endian fields to a byte slice.
type encoder struct{ b []byte }

func (e *encoder) u8(v uint8)   { e.b = append(e.b, v) }
func (e *encoder) u32(v uint32) { e.b = binary.LittleEndian.AppendUint32(e.b, v) }
func (e *encoder) u64(v uint64) { e.b = binary.LittleEndian.AppendUint64(e.b, v) }
func (e *encoder) bytes(p []byte) {
	e.b = append(e.b, p...)
}

func (e *encoder) tensor(t *wireTensor) {
	e.b = slices.Grow(e.b, tensorBytes)
	e.u64(t.ID)
	e.u32(t.Type)
	e.u64(t.Buffer)
	for _, v := range t.Ne {
		e.u32(v)
	}
	for _, v := range t.Nb {
		e.u32(v)
	}
	e.u32(t.Op)
	for _, v := range t.Params {
		e.u32(uint32(v))
	}
	e.u32(uint32(t.Flags))
	for _, v := range t.Src {
		e.u64(v)
	}
	e.u64(t.ViewSrc)
	e.u64(t.ViewOffs)
	e.u64(t.Data)
	e.bytes(t.Name[:])
	e.u32(0)
}

// decoder reads little-endian fields; reading past the end sets err and
// returns zeros, so a message is decoded straight and checked once.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) take(n int) []byte {
	if d.err != nil {
		return nil
	}
	if n < 0 || n > len(d.b) {
		d.err = fmt.Errorf("rpc: message truncated: need %d more bytes, have %d: %w", n, len(d.b), rt.ErrCorruptFile)
		return nil
	}
	p := d.b[:n]
	d.b = d.b[n:]
	return p
}

func (d *decoder) u8() uint8 {
	if p := d.take(1); p != nil {
		return p[0]
	}
	return 0
}

func (d *decoder) u32() uint32 {
	if p := d.take(4); p != nil {
		return binary.LittleEndian.Uint32(p)
	}
	return 0
}

func (d *decoder) u64() uint64 {
	if p := d.take(8); p != nil {
		return binary.LittleEndian.Uint64(p)
	}
	return 0
}

func (d *decoder) tensor() wireTensor {
	var t wireTensor
	p := d.take(tensorBytes)
	if p == nil {
		return t
	}
	sub := decoder{b: p}
	t.ID = sub.u64()
	t.Type = sub.u32()
	t.Buffer = sub.u64()
	for i := range t.Ne {
		t.Ne[i] = sub.u32()
	}
	for i := range t.Nb {
		t.Nb[i] = sub.u32()
	}
	t.Op = sub.u32()
	for i := range t.Params {
		t.Params[i] = int32(sub.u32())
	}
	t.Flags = int32(sub.u32())
	for i := range t.Src {
		t.Src[i] = sub.u64()
	}
	t.ViewSrc = sub.u64()
	t.ViewOffs = sub.u64()
	t.Data = sub.u64()
	copy(t.Name[:], sub.take(maxName))
	return t
}

// end reports an error when bytes are left over or the message was short:
// every fixed-size message must have exactly its size.
func (d *decoder) end(what string) error {
	if d.err != nil {
		return fmt.Errorf("%s: %w", what, d.err)
	}
	if len(d.b) != 0 {
		return fmt.Errorf("rpc: %s: %d unexpected trailing bytes: %w", what, len(d.b), rt.ErrCorruptFile)
	}
	return nil
}

// fnvHash is the 64-bit FNV-1a hash ggml uses to name cached tensor data.
func fnvHash(data []byte) uint64 {
	const prime = 0x100000001b3
	h := uint64(0xcbf29ce484222325)
	for _, c := range data {
		h ^= uint64(c)
		h *= prime
	}
	return h
}
