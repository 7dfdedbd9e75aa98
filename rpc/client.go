package rpc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"sync"
	"sync/atomic"
	"time"

	rt "github.com/gpurt/gpurt/runtime"
)

// ClientOptions configure a connection to an RPC server.
type ClientOptions struct {
	// Timeout bounds every exchange with the server, a graph's compute
	// included (default 120s): a server that dies or hangs gives an error
	// after at most this long, never a hang.
	Timeout time.Duration
	// DialTimeout bounds connecting (default 10s).
	DialTimeout time.Duration
	// HashThreshold: SetTensor of more bytes first offers the data's hash,
	// which a server with a cache answers without the data (default
	// HashThreshold, as ggml; negative: never).
	HashThreshold int
	// Logger receives connection events (default: discarded).
	Logger *slog.Logger
}

// ErrDisconnected wraps every error caused by a lost connection: the
// server's buffers of that connection are gone (so it also matches
// rt.ErrClosed); Reconnect starts afresh.
var ErrDisconnected = fmt.Errorf("rpc: connection to the server lost: %w", rt.ErrClosed)

// Client is one connection to an RPC server (an endpoint host:port) and the
// devices it serves. Its methods are safe for concurrent use; commands are
// sent one at a time, in order.
type Client struct {
	endpoint string
	opts     ClientOptions
	log      *slog.Logger

	mu      sync.Mutex
	cn      net.Conn
	r       *bufio.Reader
	w       *bufio.Writer
	gen     uint64 // connection generation: buffers of an older one are dead
	lost    error  // why the current connection failed, nil while healthy
	pending bool   // a one-way command was sent since the last answer
	closed  bool
	devices []*Device

	sent, recv             atomic.Uint64
	graphsSent, rerunsSent atomic.Uint64
}

// Connect dials endpoint ("host:port"), checks the protocol version with
// HELLO and discovers the server's devices.
func Connect(endpoint string, opts ClientOptions) (*Client, error) {
	if _, _, err := net.SplitHostPort(endpoint); err != nil {
		return nil, fmt.Errorf("rpc: endpoint %q: want host:port: %w", endpoint, rt.ErrInvalidArgument)
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 120 * time.Second
	}
	if opts.DialTimeout <= 0 {
		opts.DialTimeout = 10 * time.Second
	}
	if opts.HashThreshold == 0 {
		opts.HashThreshold = HashThreshold
	}
	c := &Client{endpoint: endpoint, opts: opts, log: opts.Logger}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.dialLocked(); err != nil {
		return nil, err
	}
	return c, nil
}

// Endpoint is the server's host:port.
func (c *Client) Endpoint() string { return c.endpoint }

// Devices lists the server's devices.
func (c *Client) Devices() []*Device {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*Device(nil), c.devices...)
}

// Stats counts the traffic over the connection (all generations).
type Stats struct {
	Sent, Received uint64 // bytes
	Graphs         uint64 // graphs sent in full (GRAPH_COMPUTE)
	Recomputes     uint64 // graphs run again by GRAPH_RECOMPUTE
}

// Stats reports the traffic so far.
func (c *Client) Stats() Stats {
	return Stats{Sent: c.sent.Load(), Received: c.recv.Load(), Graphs: c.graphsSent.Load(), Recomputes: c.rerunsSent.Load()}
}

// Close ends the connection; the server frees the buffers it held.
func (c *Client) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	if c.cn != nil {
		c.cn.Close()
		c.cn = nil
	}
	return nil
}

// Reconnect opens a new connection after a loss (or to start clean): the
// old connection's buffers are invalid, the devices stay usable.
func (c *Client) Reconnect() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return fmt.Errorf("rpc: %s: %w", c.endpoint, rt.ErrClosed)
	}
	if c.cn != nil {
		c.cn.Close()
		c.cn = nil
	}
	return c.dialLocked()
}

func (c *Client) dialLocked() error {
	cn, err := net.DialTimeout("tcp", c.endpoint, c.opts.DialTimeout)
	if err != nil {
		return fmt.Errorf("rpc: connect %s: %w: %w", c.endpoint, err, ErrDisconnected)
	}
	if tc, ok := cn.(*net.TCPConn); ok {
		tc.SetNoDelay(true)
	}
	c.cn, c.r, c.w = cn, bufio.NewReaderSize(cn, 1<<16), bufio.NewWriterSize(cn, 1<<16)
	c.gen++
	c.lost, c.pending = nil, false
	rsp := make([]byte, helloRspBytes)
	if err := c.callLocked(CmdHello, [][]byte{make([]byte, helloReqBytes)}, rsp); err != nil {
		cn.Close()
		c.cn = nil
		return err
	}
	if rsp[0] != ProtoMajor || rsp[1] > ProtoMinor {
		cn.Close()
		c.cn = nil
		return fmt.Errorf("rpc: %s speaks protocol %d.%d.%d, this client %d.%d.%d: %w",
			c.endpoint, rsp[0], rsp[1], rsp[2], ProtoMajor, ProtoMinor, ProtoPatch, rt.ErrUnsupported)
	}
	cnt := make([]byte, 4)
	if err := c.callLocked(CmdDeviceCount, nil, cnt); err != nil {
		return err
	}
	n := int(cnt[0]) | int(cnt[1])<<8 | int(cnt[2])<<16 | int(cnt[3])<<24
	if n <= 0 || n > 1024 {
		return fmt.Errorf("rpc: %s reports %d devices: %w", c.endpoint, n, rt.ErrCorruptFile)
	}
	if c.devices == nil {
		for i := 0; i < n; i++ {
			d := &Device{c: c, index: uint32(i)}
			d.bt = &bufferType{dev: d}
			c.devices = append(c.devices, d)
		}
	}
	for _, d := range c.devices {
		var e encoder
		e.u32(d.index)
		out := make([]byte, 8)
		if err := c.callLocked(CmdGetAlignment, [][]byte{e.b}, out); err != nil {
			return err
		}
		d.bt.alignment = int(le64(out))
		if err := c.callLocked(CmdGetMaxSize, [][]byte{e.b}, out); err != nil {
			return err
		}
		d.bt.maxSize = int(min(le64(out), math.MaxInt))
		d.lastGraph = nil
	}
	c.log.Info("rpc connected", "endpoint", c.endpoint, "devices", n)
	return nil
}

func le64(b []byte) uint64 {
	var v uint64
	for i := 7; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}

// fail records a connection loss; every later call reports it.
func (c *Client) failLocked(cmd Cmd, err error) error {
	if c.cn != nil {
		c.cn.Close()
		c.cn = nil
	}
	if c.lost == nil {
		c.lost = fmt.Errorf("rpc: %s: %v: %v: %w", c.endpoint, cmd, err, ErrDisconnected)
		c.log.Warn("rpc connection lost", "endpoint", c.endpoint, "cmd", cmd.String(), "err", err)
	}
	return c.lost
}

// callLocked sends one request and, for commands that have one, reads an
// answer of exactly len(rsp) bytes. A nil rsp with an answering command
// expects an empty answer.
func (c *Client) callLocked(cmd Cmd, req [][]byte, rsp []byte) error {
	if c.closed {
		return fmt.Errorf("rpc: %s: %w", c.endpoint, rt.ErrClosed)
	}
	if c.lost != nil {
		return c.lost
	}
	if c.cn == nil {
		return fmt.Errorf("rpc: %s: not connected: %w", c.endpoint, ErrDisconnected)
	}
	c.cn.SetDeadline(time.Now().Add(c.opts.Timeout))
	n := uint64(9)
	for _, p := range req {
		n += uint64(len(p))
	}
	if err := writeRequest(c.w, cmd, req...); err != nil {
		return c.failLocked(cmd, err)
	}
	c.sent.Add(n)
	if !cmd.hasResponse() {
		c.pending = true
		return nil
	}
	if rsp == nil {
		rsp = []byte{}
	}
	if err := readResponseInto(c.r, cmd, rsp); err != nil {
		if c.pending {
			err = fmt.Errorf("%w (the server may have failed on an earlier graph)", err)
		}
		return c.failLocked(cmd, err)
	}
	c.recv.Add(8 + uint64(len(rsp)))
	c.pending = false
	return nil
}

func (c *Client) call(gen uint64, cmd Cmd, req [][]byte, rsp []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != 0 && gen != c.gen {
		return fmt.Errorf("rpc: %s: %v on a buffer of an earlier connection: %w", c.endpoint, cmd, ErrDisconnected)
	}
	return c.callLocked(cmd, req, rsp)
}

// Ping makes one round trip: when it returns, the server has finished
// every command sent before (graphs included), or the error says why not.
func (c *Client) Ping() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.callLocked(CmdDeviceCount, nil, make([]byte, 4))
}

// lostErr is the recorded connection loss, if any.
func (c *Client) lostErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lost
}

// Device is one device of an RPC server. It is GPU-class for placement:
// its memory is not the client's.
type Device struct {
	c     *Client
	index uint32
	bt    *bufferType
	// lastGraph is the graph last sent to this device, for GRAPH_RECOMPUTE
	// (the server keeps one per device and connection).
	lastGraph []byte
	encMu     sync.Mutex
	enc       graphEncoder // reused storage for encoding graphs

	memMu             sync.Mutex
	memAt             time.Time
	memFree, memTotal uint64
}

// graphEncoder holds the storage encodeGraph reuses from graph to graph,
// and what the last encoded graph was made of, so that a graph run again
// unchanged (the scheduler re-runs the same split graph token after token)
// is recognised without encoding it again.
type graphEncoder struct {
	ids     map[*rt.Tensor]uint64
	nodes   map[*rt.Tensor]bool
	tensors []wireTensor
	buf     []byte

	lastNodes []*rt.Tensor  // the nodes of the graph encoded last
	order     []*rt.Tensor  // every tensor it reached, in encoding order
	states    []tensorState // their state when encoded
}

// tensorState is what a tensor's wire form is made of: its shape, op,
// parameters, flags, name, sources and memory.
type tensorState struct {
	typ      rt.DType
	ne, nb   [rt.MaxDims]int
	op       rt.Op
	params   [rt.MaxParams]int32
	src      [rt.MaxSrc]*rt.Tensor
	viewSrc  *rt.Tensor
	viewOffs int
	flags    rt.Flag
	name     string
	buf      rt.Buffer
	offset   int
}

func stateOf(t *rt.Tensor, g *rt.Graph) tensorState {
	return tensorState{typ: t.Type, ne: t.Ne, nb: t.Nb, op: t.Op, params: t.Params, src: t.Src, viewSrc: t.ViewSrc,
		viewOffs: t.ViewOffs, flags: wireFlags(t, g), name: t.Name, buf: t.Buffer, offset: t.Offset}
}

// wireFlags are the flags t is sent with: its own, and output when the
// scheduler copies it to another split (Graph.MarkReadOutside), so that
// the server keeps it (its backend may fuse away intermediates no one
// reads).
func wireFlags(t *rt.Tensor, g *rt.Graph) rt.Flag {
	if g.ReadOutside(t) {
		return t.Flags | rt.FlagOutput
	}
	return t.Flags
}

// unchanged reports whether g would encode exactly as the graph encoded
// last: the same nodes, and every tensor they reach in the state it was
// encoded in. The tensors reached are then the same too, since each one's
// sources are part of its state. Buffers compare by identity: all of this
// client's are pointers, and a freed one forgets the last graph.
func (ge *graphEncoder) unchanged(g *rt.Graph) bool {
	if len(ge.order) == 0 || len(g.Nodes) != len(ge.lastNodes) {
		return false
	}
	for i, n := range g.Nodes {
		if n != ge.lastNodes[i] {
			return false
		}
	}
	for i, t := range ge.order {
		if stateOf(t, g) != ge.states[i] {
			return false
		}
	}
	return true
}

// forget drops the record of the last graph.
func (ge *graphEncoder) forget() {
	clear(ge.lastNodes)
	clear(ge.order)
	ge.lastNodes, ge.order, ge.states = ge.lastNodes[:0], ge.order[:0], ge.states[:0]
}

// Name is RPC[host:port] for the server's first device and RPC[host:port]#i
// for the others.
func (d *Device) Name() string {
	if d.index == 0 {
		return "RPC[" + d.c.endpoint + "]"
	}
	return fmt.Sprintf("RPC[%s]#%d", d.c.endpoint, d.index)
}

// Client is the connection the device belongs to.
func (d *Device) Client() *Client { return d.c }

// Props describes the device; its memory is asked of the server at most
// once a second (GET_DEVICE_MEMORY).
func (d *Device) Props() rt.DeviceProps {
	p := rt.DeviceProps{Name: d.Name(), Description: "ggml RPC device " + fmt.Sprint(d.index) + " at " + d.c.endpoint, Type: rt.DeviceGPU}
	d.memMu.Lock()
	defer d.memMu.Unlock()
	if time.Since(d.memAt) > time.Second {
		var e encoder
		e.u32(d.index)
		out := make([]byte, 16)
		if err := d.c.call(0, CmdGetDeviceMemory, [][]byte{e.b}, out); err == nil {
			d.memFree, d.memTotal, d.memAt = le64(out[:8]), le64(out[8:]), time.Now()
		}
	}
	p.MemoryFree, p.MemoryTotal = d.memFree, d.memTotal
	return p
}

func (d *Device) NewBackend() (rt.Backend, error) { return &Backend{dev: d}, nil }
func (d *Device) BufferType() rt.BufferType       { return d.bt }
func (d *Device) HostBufferType() rt.BufferType   { return nil }
func (d *Device) BufferFromHost([]byte, int) (rt.Buffer, error) {
	return nil, fmt.Errorf("rpc: %s cannot wrap host memory: %w", d.Name(), rt.ErrUnsupported)
}

// SupportsOp reports whether the node can be expressed in ggml's op set.
// Protocol 5.0.0 has no command to ask the server, so a server that lacks
// an op fails the graph (and says why in its log).
func (d *Device) SupportsOp(t *rt.Tensor) bool { return supportedRemotely(t) }
func (d *Device) SupportsBufferType(bt rt.BufferType) bool {
	return bt == rt.BufferType(d.bt)
}
func (d *Device) OffloadOp(*rt.Tensor) bool { return false }
func (d *Device) NewEvent() (rt.Event, error) {
	return nil, fmt.Errorf("rpc: %s has no events: %w", d.Name(), rt.ErrUnsupported)
}

type bufferType struct {
	dev       *Device
	alignment int
	maxSize   int
}

func (bt *bufferType) Name() string      { return bt.dev.Name() }
func (bt *bufferType) Alignment() int    { return bt.alignment }
func (bt *bufferType) MaxSize() int      { return bt.maxSize }
func (bt *bufferType) IsHost() bool      { return false }
func (bt *bufferType) Device() rt.Device { return bt.dev }

// AllocSize asks the server only where its backend may pad (quantized rows
// not a multiple of 512), as ggml's client does.
func (bt *bufferType) AllocSize(t *rt.Tensor) int {
	if !t.Type.IsQuantized() || t.Ne[0]%512 == 0 || t.ViewSrc != nil {
		return t.Nbytes()
	}
	var e encoder
	e.u32(bt.dev.index)
	w, err := bt.dev.c.wire(t, 1)
	if err != nil {
		return t.Nbytes()
	}
	e.tensor(&w)
	var empty wireTensor
	for i := 0; i < maxSrc; i++ {
		e.tensor(&empty)
	}
	out := make([]byte, 8)
	if err := bt.dev.c.call(0, CmdGetAllocSize, [][]byte{e.b}, out); err != nil {
		return t.Nbytes()
	}
	return max(int(min(le64(out), math.MaxInt)), t.Nbytes())
}

func (bt *bufferType) Alloc(size int) (rt.Buffer, error) {
	if size < 0 {
		return nil, fmt.Errorf("rpc: negative buffer size %d: %w", size, rt.ErrInvalidArgument)
	}
	c := bt.dev.c
	c.mu.Lock()
	defer c.mu.Unlock()
	var e encoder
	e.u32(bt.dev.index)
	e.u64(uint64(size))
	out := make([]byte, 16)
	if err := c.callLocked(CmdAllocBuffer, [][]byte{e.b}, out); err != nil {
		return nil, err
	}
	handle, got := le64(out[:8]), le64(out[8:])
	if handle == 0 {
		return nil, fmt.Errorf("rpc: %s cannot allocate %d bytes: %w", bt.Name(), size, rt.ErrOutOfMemory)
	}
	var h encoder
	h.u64(handle)
	base := make([]byte, 8)
	if err := c.callLocked(CmdBufferGetBase, [][]byte{h.b}, base); err != nil {
		return nil, err
	}
	return &buffer{bt: bt, handle: handle, base: le64(base), size: int(min(got, math.MaxInt)), gen: c.gen}, nil
}

// buffer is memory on the server, named by its handle; tensor addresses are
// base + offset in the server's address space.
type buffer struct {
	bt           *bufferType
	handle, base uint64
	size         int
	gen          uint64
	usage        rt.BufferUsage
	freed        bool
}

func (b *buffer) Type() rt.BufferType       { return b.bt }
func (b *buffer) Size() int                 { return b.size }
func (b *buffer) Reset()                    {}
func (b *buffer) SetUsage(u rt.BufferUsage) { b.usage = u }
func (b *buffer) Usage() rt.BufferUsage     { return b.usage }
func (b *buffer) client() *Client           { return b.bt.dev.c }
func (b *buffer) call(cmd Cmd, req [][]byte, rsp []byte) error {
	if b.freed {
		return fmt.Errorf("rpc: buffer of %s: %w", b.bt.Name(), rt.ErrClosed)
	}
	return b.client().call(b.gen, cmd, req, rsp)
}

func (b *buffer) wire(t *rt.Tensor) ([]byte, error) {
	w, err := b.client().wire(t, 1)
	if err != nil {
		return nil, err
	}
	var e encoder
	e.tensor(&w)
	return e.b, nil
}

// InitTensor tells the server about quantized tensors whose rows its
// backend may pad, as ggml's client does; other tensors need nothing.
func (b *buffer) InitTensor(t *rt.Tensor) error {
	if !t.Type.IsQuantized() || t.Ne[0]%512 == 0 || t.ViewSrc != nil {
		return nil
	}
	w, err := b.wire(t)
	if err != nil {
		return err
	}
	return b.call(CmdInitTensor, [][]byte{w}, nil)
}

func (b *buffer) SetTensor(t *rt.Tensor, data []byte, offset int) error {
	w, err := b.wire(t)
	if err != nil {
		return err
	}
	var off encoder
	off.u64(uint64(offset))
	if th := b.client().opts.HashThreshold; th > 0 && len(data) > th {
		var h encoder
		h.u64(fnvHash(data))
		out := make([]byte, 1)
		if err := b.call(CmdSetTensorHash, [][]byte{w, off.b, h.b}, out); err != nil {
			return err
		}
		if out[0] == 1 {
			return nil // the server had the data in its cache
		}
	}
	return b.call(CmdSetTensor, [][]byte{w, off.b, data}, nil)
}

func (b *buffer) GetTensor(t *rt.Tensor, data []byte, offset int) error {
	w, err := b.wire(t)
	if err != nil {
		return err
	}
	var e encoder
	e.u64(uint64(offset))
	e.u64(uint64(len(data)))
	return b.call(CmdGetTensor, [][]byte{w, e.b}, data)
}

func (b *buffer) MemsetTensor(t *rt.Tensor, value byte, offset, size int) error {
	w, err := b.wire(t)
	if err != nil {
		return err
	}
	var e encoder
	e.u64(uint64(offset))
	e.u64(uint64(size))
	e.u8(value)
	return b.call(CmdMemsetTensor, [][]byte{w, e.b}, nil)
}

// CopyTensor copies on the server when both tensors are on this
// connection.
func (b *buffer) CopyTensor(src, dst *rt.Tensor) (bool, error) {
	sb, ok := src.Buffer.(*buffer)
	if !ok || sb.client() != b.client() || sb.gen != b.gen {
		return false, nil
	}
	ws, err := b.wire(src)
	if err != nil {
		return false, err
	}
	wd, err := b.wire(dst)
	if err != nil {
		return false, err
	}
	out := make([]byte, 1)
	if err := b.call(CmdCopyTensor, [][]byte{ws, wd}, out); err != nil {
		return false, err
	}
	return out[0] == 1, nil
}

func (b *buffer) Clear(value byte) error {
	var e encoder
	e.u64(b.handle)
	e.u8(value)
	return b.call(CmdBufferClear, [][]byte{e.b}, nil)
}

// Free releases the server's memory. After a lost connection the server
// has freed it already.
func (b *buffer) Free() error {
	if b.freed {
		return nil
	}
	var e encoder
	e.u64(b.handle)
	// The server forgets a stored graph that used the buffer: send the next
	// graph in full.
	b.bt.dev.encMu.Lock()
	b.bt.dev.lastGraph = b.bt.dev.lastGraph[:0]
	b.bt.dev.enc.forget()
	b.bt.dev.encMu.Unlock()
	err := b.call(CmdFreeBuffer, [][]byte{e.b}, nil)
	b.freed = true
	if errors.Is(err, ErrDisconnected) {
		return nil
	}
	return err
}

// wire serializes a tensor for a single-tensor command or a graph (id is
// its id there; sources are filled in by the graph encoder).
func (c *Client) wire(t *rt.Tensor, id uint64) (wireTensor, error) {
	w := wireTensor{ID: id, Type: uint32(t.Type), Flags: int32(t.Flags)}
	for i := 0; i < maxDims; i++ {
		if t.Ne[i] < 0 || t.Ne[i] > math.MaxUint32 || t.Nb[i] < 0 || t.Nb[i] > math.MaxUint32 {
			return w, fmt.Errorf("rpc: tensor %q: shape %v strides %v do not fit 32 bits: %w", t.Name, t.Ne, t.Nb, rt.ErrOutOfRange)
		}
		w.Ne[i], w.Nb[i] = uint32(t.Ne[i]), uint32(t.Nb[i])
	}
	op, params, err := toGGML(t)
	if err != nil {
		return w, err
	}
	w.Op, w.Params = uint32(op), params
	if b, ok := t.Buffer.(*buffer); ok && b.client() == c {
		w.Buffer, w.Data = b.handle, b.base+uint64(t.Offset)
	} else if t.Buffer != nil {
		return w, fmt.Errorf("rpc: tensor %q is in %s memory, not on %s: %w", t.Name, t.Buffer.Type().Name(), c.endpoint, rt.ErrUnsupported)
	}
	w.ViewOffs = uint64(t.ViewOffs)
	w.setName(t.Name)
	return w, nil
}

// Backend runs graphs on a remote device.
type Backend struct {
	dev    *Device
	closed bool
}

func (b *Backend) Name() string      { return b.dev.Name() }
func (b *Backend) Device() rt.Device { return b.dev }
func (b *Backend) Close() error      { b.closed = true; return nil }

// Synchronize reports a lost connection but does not wait: the server runs
// one connection's commands in order, so every later read (GetTensor, a
// copy) waits for the graphs before it, as in ggml's client. This saves a
// round trip per split; Client.Ping is the explicit barrier.
func (b *Backend) Synchronize() error {
	if b.closed {
		return fmt.Errorf("rpc: backend %s: %w", b.Name(), rt.ErrClosed)
	}
	return b.dev.c.lostErr()
}

// GraphCompute sends g (GRAPH_RECOMPUTE when it is the graph sent last).
// It returns before the server has finished; a failure shows at the next
// command that waits for an answer.
func (b *Backend) GraphCompute(g *rt.Graph) error {
	if b.closed {
		return fmt.Errorf("rpc: backend %s: %w", b.Name(), rt.ErrClosed)
	}
	c := b.dev.c
	d := b.dev
	d.encMu.Lock()
	defer d.encMu.Unlock()
	// A graph run again unchanged, as the scheduler's split graphs are
	// token after token, has its last encoding in d.enc.buf already.
	msg, same := d.enc.buf, d.enc.unchanged(g)
	if !same {
		var err error
		if msg, err = c.encodeGraph(d.index, g, &d.enc); err != nil {
			d.enc.forget()
			return err
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(d.lastGraph) > 0 && (same || bytes.Equal(msg, d.lastGraph)) {
		return c.recomputeLocked(d.index)
	}
	d.lastGraph = d.lastGraph[:0]
	if err := c.callLocked(CmdGraphCompute, [][]byte{msg}, nil); err != nil {
		return err
	}
	c.graphsSent.Add(1)
	d.lastGraph = append(d.lastGraph, msg...)
	return nil
}

// recomputeLocked runs the graph sent last to the device again.
func (c *Client) recomputeLocked(device uint32) error {
	var e encoder
	e.u32(device)
	if err := c.callLocked(CmdGraphRecompute, [][]byte{e.b}, nil); err != nil {
		return err
	}
	c.rerunsSent.Add(1)
	return nil
}

// encodeGraph serializes g's nodes and every tensor they reach, sources
// before users, with ids numbered in that order.
func (c *Client) encodeGraph(device uint32, g *rt.Graph, ge *graphEncoder) ([]byte, error) {
	if ge.ids == nil {
		ge.ids, ge.nodes = map[*rt.Tensor]uint64{}, map[*rt.Tensor]bool{}
	}
	clear(ge.ids)
	clear(ge.nodes)
	ids, nodes, tensors := ge.ids, ge.nodes, ge.tensors[:0]
	ge.forget()
	for _, n := range g.Nodes {
		nodes[n] = true
	}
	var add func(t *rt.Tensor) error
	add = func(t *rt.Tensor) error {
		if t == nil {
			return nil
		}
		if _, ok := ids[t]; ok {
			return nil
		}
		ids[t] = 0 // in progress
		for _, s := range t.Src {
			if err := add(s); err != nil {
				return err
			}
		}
		if err := add(t.ViewSrc); err != nil {
			return err
		}
		w, err := c.wire(t, uint64(len(tensors)+1))
		if err != nil {
			return err
		}
		w.Flags = int32(wireFlags(t, g))
		if t.Buffer == nil {
			return fmt.Errorf("rpc: tensor %q has no memory: %w", t.Name, rt.ErrInvalidArgument)
		}
		for i, s := range t.Src {
			if s != nil {
				w.Src[i] = ids[s]
			}
		}
		if t.ViewSrc != nil {
			w.ViewSrc = ids[t.ViewSrc]
		}
		if nodes[t] && t.Op != rt.OpNone {
			w.Flags |= ggmlFlagCompute // ggml's backends skip nodes without it
		}
		ids[t] = w.ID
		tensors = append(tensors, w)
		ge.order = append(ge.order, t)
		ge.states = append(ge.states, stateOf(t, g))
		return nil
	}
	for _, n := range g.Nodes {
		if err := add(n); err != nil {
			return nil, err
		}
	}
	ge.tensors = tensors
	ge.lastNodes = append(ge.lastNodes, g.Nodes...)
	e := encoder{b: ge.buf[:0]}
	e.u32(device)
	e.u32(uint32(len(g.Nodes)))
	for _, n := range g.Nodes {
		e.u64(ids[n])
	}
	e.u32(uint32(len(tensors)))
	for i := range tensors {
		e.tensor(&tensors[i])
	}
	ge.buf = e.b
	return e.b, nil
}
