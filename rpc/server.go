package rpc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"os"
	"path/filepath"
	"sync"

	rt "github.com/gpurt/gpurt/runtime"
)

// ServerOptions configure a Server.
type ServerOptions struct {
	// Devices are served in order: device i of the protocol is Devices[i].
	// Empty means the automatic choice (rt.BestDevice).
	Devices []rt.Device
	// NewBackend starts an execution stream on a device for one client
	// connection (default: the device's NewBackend); it lets the caller set
	// the CPU's thread count.
	NewBackend func(rt.Device) (rt.Backend, error)
	// CacheDir, when set, keeps tensor data over HashThreshold bytes under
	// its FNV-1a hash, so a client that reconnects can send the hash alone
	// (SET_TENSOR_HASH).
	CacheDir string
	// CacheThreshold is the size from which received data is cached
	// (default HashThreshold, the size from which ggml's client offers a
	// hash).
	CacheThreshold int
	// MaxMessage caps a request's size (default 4 GiB); a client announcing
	// more is disconnected before anything is allocated.
	MaxMessage uint64
	// MaxAlloc caps the bytes one connection may hold in buffers (0: what
	// the devices give); an allocation past it is refused like one the
	// device cannot satisfy.
	MaxAlloc uint64
	// Logger receives connection events and the reason each rejected request
	// was rejected (default: discarded).
	Logger *slog.Logger
}

// Server serves gpurt devices over ggml's RPC protocol. Each connection is
// a session with its own buffers, which are freed when it ends.
type Server struct {
	opts ServerOptions
	log  *slog.Logger

	mu       sync.Mutex
	ln       []net.Listener
	sessions map[*session]struct{}
	closed   bool
	wg       sync.WaitGroup
	liveBufs int // buffers held by all sessions, for Stats
	graphs   int // graphs computed, for Stats
}

// NewServer returns a server for opts.Devices.
func NewServer(opts ServerOptions) (*Server, error) {
	if len(opts.Devices) == 0 {
		d, err := rt.BestDevice()
		if err != nil {
			return nil, fmt.Errorf("rpc: server: %w", err)
		}
		opts.Devices = []rt.Device{d}
	}
	for i, d := range opts.Devices {
		if d == nil {
			return nil, fmt.Errorf("rpc: server: device %d is nil: %w", i, rt.ErrInvalidArgument)
		}
	}
	if opts.NewBackend == nil {
		opts.NewBackend = func(d rt.Device) (rt.Backend, error) { return d.NewBackend() }
	}
	if opts.CacheThreshold <= 0 {
		opts.CacheThreshold = HashThreshold
	}
	if opts.MaxMessage == 0 {
		opts.MaxMessage = 4 << 30
	}
	if opts.CacheDir != "" {
		if err := os.MkdirAll(opts.CacheDir, 0o755); err != nil {
			return nil, fmt.Errorf("rpc: server cache: %w", err)
		}
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Server{opts: opts, log: log, sessions: map[*session]struct{}{}}, nil
}

// IsLoopback reports whether host (a name or address, without port) only
// reaches this machine.
func IsLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Listen opens a TCP listener on addr (host:port). The protocol has no
// authentication, so a host other than a loopback address is reported on
// log as a warning: anyone who reaches the port can use the devices.
func Listen(addr string, log *slog.Logger) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("rpc: listen %q: %w: %w", addr, err, rt.ErrInvalidArgument)
	}
	if !IsLoopback(host) && log != nil {
		log.Warn("rpc server bound to a non-loopback address: the protocol has no authentication, anyone who can reach it can use this machine's devices and memory", "addr", addr)
	}
	network := "tcp"
	if ip := net.ParseIP(host); ip != nil && ip.To4() != nil {
		network = "tcp4" // 0.0.0.0 means IPv4's any address, as for ggml's server
	}
	ln, err := net.Listen(network, addr)
	if err != nil {
		return nil, fmt.Errorf("rpc: %w", err)
	}
	return ln, nil
}

// Serve accepts connections on ln until Close; each one is served in its
// own goroutine. It returns nil after Close.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		ln.Close()
		return fmt.Errorf("rpc: server: %w", rt.ErrClosed)
	}
	s.ln = append(s.ln, ln)
	s.mu.Unlock()
	for {
		c, err := ln.Accept()
		if err != nil {
			s.mu.Lock()
			closed := s.closed
			s.mu.Unlock()
			if closed {
				return nil
			}
			return fmt.Errorf("rpc: accept: %w", err)
		}
		if tc, ok := c.(*net.TCPConn); ok {
			tc.SetNoDelay(true)
		}
		ss := &session{srv: s, c: c, r: bufio.NewReaderSize(c, 1<<16), w: bufio.NewWriterSize(c, 1<<16),
			buffers: map[uint64]*srvBuffer{}}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			c.Close()
			return nil
		}
		s.sessions[ss] = struct{}{}
		s.wg.Add(1)
		s.mu.Unlock()
		go func() {
			defer s.wg.Done()
			ss.serve()
		}()
	}
}

// Close stops accepting, disconnects every client (freeing their buffers)
// and waits for the sessions to end.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	for _, ln := range s.ln {
		ln.Close()
	}
	for ss := range s.sessions {
		ss.c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
	return nil
}

// ServerStats counts what the server holds now.
type ServerStats struct {
	Sessions int // connected clients
	Buffers  int // buffers allocated by them
	Graphs   int // graphs computed since the server started (recomputes included)
}

// Stats reports the live sessions and buffers.
func (s *Server) Stats() ServerStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return ServerStats{Sessions: len(s.sessions), Buffers: s.liveBufs, Graphs: s.graphs}
}

// bufferSpan is the address space reserved for each buffer: data addresses
// are base + offset with base = handle * bufferSpan, so no two buffers'
// ranges meet and a handle is found from nothing but its address.
const bufferSpan = 1 << 47

// srvBuffer is a buffer a session allocated.
type srvBuffer struct {
	handle, base, size uint64
	buf                rt.Buffer
	dev                int
}

// storedGraph is the last graph computed on a device, for GRAPH_RECOMPUTE.
type storedGraph struct {
	g       *rt.Graph
	scratch rt.Buffer
	convert []indexTwin
	uses    map[uint64]bool // handles of the buffers its tensors live in
}

// session is one client connection.
type session struct {
	srv *Server
	c   net.Conn
	r   *bufio.Reader
	w   *bufio.Writer

	buffers    map[uint64]*srvBuffer
	nextHandle uint64
	allocated  uint64 // bytes held in buffers
	backends   []rt.Backend
	graphs     []*storedGraph
	body       []byte // reused request storage
	out        []byte // reused GET_TENSOR answer storage
	scratch    []byte // reused index narrowing storage
	hdr        [tensorBytes + 8]byte
}

// maxKeptAnswer is the largest GET_TENSOR answer (or narrowed index
// tensor) whose storage a session keeps for the next one.
const maxKeptAnswer = 1 << 20

// errProtocol marks a request the server refuses; the connection is closed.
var errProtocol = fmt.Errorf("protocol violation: %w", rt.ErrInvalidArgument)

func reject(format string, args ...any) error {
	return fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), errProtocol)
}

func (ss *session) serve() {
	log := ss.srv.log.With("client", ss.c.RemoteAddr().String())
	log.Info("rpc client connected")
	err := ss.loop()
	ss.release()
	ss.c.Close()
	ss.srv.mu.Lock()
	delete(ss.srv.sessions, ss)
	ss.srv.mu.Unlock()
	switch {
	case err == nil || errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed):
		log.Info("rpc client disconnected")
	default:
		log.Warn("rpc client dropped", "err", err)
	}
}

// release frees everything the session allocated.
func (ss *session) release() {
	for _, g := range ss.graphs {
		if g != nil && g.scratch != nil {
			g.scratch.Free()
		}
	}
	ss.graphs = nil
	for h, b := range ss.buffers {
		b.buf.Free()
		delete(ss.buffers, h)
		ss.srv.mu.Lock()
		ss.srv.liveBufs--
		ss.srv.mu.Unlock()
	}
	for _, b := range ss.backends {
		if b != nil {
			b.Close()
		}
	}
	ss.backends = nil
}

// readBody reads a request body of n bytes into reused storage. Storage
// past what the session has used grows with the bytes that arrive, so a
// header that announces gigabytes costs nothing until they are sent.
func (ss *session) readBody(n uint64) ([]byte, error) {
	if n > ss.srv.opts.MaxMessage || n > math.MaxInt {
		return nil, reject("request of %d bytes exceeds the limit of %d", n, ss.srv.opts.MaxMessage)
	}
	const chunk = 1 << 20
	b := ss.body[:0]
	for uint64(len(b)) < n {
		step := min(n-uint64(len(b)), chunk)
		if uint64(cap(b)-len(b)) < step {
			b = append(b, make([]byte, step)...)[:len(b)]
		}
		m := len(b)
		b = b[:m+int(step)]
		if _, err := io.ReadFull(ss.r, b[m:]); err != nil {
			return nil, err
		}
	}
	ss.body = b
	return b, nil
}

// fixedSizes are the request sizes of the fixed-size commands.
var fixedSizes = map[Cmd]uint64{
	CmdHello: helloReqBytes, CmdDeviceCount: 0, CmdAllocBuffer: 12, CmdGetAlignment: 4,
	CmdGetMaxSize: 4, CmdBufferGetBase: 8, CmdFreeBuffer: 8, CmdBufferClear: 9,
	CmdSetTensorHash: tensorBytes + 16, CmdGetTensor: tensorBytes + 16, CmdCopyTensor: 2 * tensorBytes,
	CmdGetDeviceMemory: 4, CmdInitTensor: tensorBytes, CmdGetAllocSize: 4 + (1+maxSrc)*tensorBytes,
	CmdGraphRecompute: 4, CmdMemsetTensor: tensorBytes + 17,
}

func (ss *session) loop() error {
	first := true
	for {
		cmdByte, err := ss.r.ReadByte()
		if err != nil {
			return err
		}
		cmd := Cmd(cmdByte)
		n, err := readSize(ss.r)
		if err != nil {
			return err
		}
		if cmd >= cmdCount {
			return reject("unknown command %d", cmdByte)
		}
		if first != (cmd == CmdHello) {
			if first {
				return reject("%v before HELLO", cmd)
			}
			return reject("a second HELLO")
		}
		first = false
		if want, fixed := fixedSizes[cmd]; fixed && n != want {
			return reject("%v request of %d bytes, want %d", cmd, n, want)
		}
		var body []byte
		if cmd != CmdSetTensor { // SET_TENSOR reads its data once the region is checked
			if body, err = ss.readBody(n); err != nil {
				return err
			}
		}
		rsp, err := ss.handle(cmd, body, n)
		if err != nil {
			return fmt.Errorf("%v: %w", cmd, err)
		}
		if cmd.hasResponse() {
			if err := writeResponse(ss.w, rsp); err != nil {
				return err
			}
		}
	}
}

func (ss *session) device(id uint32) (int, error) {
	if uint64(id) >= uint64(len(ss.srv.opts.Devices)) {
		return 0, reject("device %d of %d", id, len(ss.srv.opts.Devices))
	}
	return int(id), nil
}

func (ss *session) backend(dev int) (rt.Backend, error) {
	if ss.backends == nil {
		ss.backends = make([]rt.Backend, len(ss.srv.opts.Devices))
		ss.graphs = make([]*storedGraph, len(ss.srv.opts.Devices))
	}
	if ss.backends[dev] == nil {
		b, err := ss.srv.opts.NewBackend(ss.srv.opts.Devices[dev])
		if err != nil {
			return nil, err
		}
		ss.backends[dev] = b
	}
	return ss.backends[dev], nil
}

func (ss *session) handle(cmd Cmd, body []byte, n uint64) ([]byte, error) {
	d := &decoder{b: body}
	var e encoder
	devs := ss.srv.opts.Devices
	switch cmd {
	case CmdHello:
		e.u8(ProtoMajor)
		e.u8(ProtoMinor)
		e.u8(ProtoPatch)
		e.u8(0)
		e.bytes(make([]byte, connCaps)) // no transport upgrade offered
	case CmdDeviceCount:
		e.u32(uint32(len(devs)))
	case CmdAllocBuffer:
		dev, err := ss.device(d.u32())
		if err != nil {
			return nil, err
		}
		handle, got := ss.alloc(dev, d.u64())
		e.u64(handle)
		e.u64(got)
	case CmdGetAlignment:
		dev, err := ss.device(d.u32())
		if err != nil {
			return nil, err
		}
		e.u64(uint64(devs[dev].BufferType().Alignment()))
	case CmdGetMaxSize:
		dev, err := ss.device(d.u32())
		if err != nil {
			return nil, err
		}
		e.u64(uint64(min(devs[dev].BufferType().MaxSize(), bufferSpan)))
	case CmdBufferGetBase:
		b, err := ss.buffer(d.u64())
		if err != nil {
			return nil, err
		}
		e.u64(b.base)
	case CmdFreeBuffer:
		b, err := ss.buffer(d.u64())
		if err != nil {
			return nil, err
		}
		ss.free(b)
	case CmdBufferClear:
		b, err := ss.buffer(d.u64())
		if err != nil {
			return nil, err
		}
		if err := b.buf.Clear(d.u8()); err != nil {
			return nil, err
		}
	case CmdSetTensor:
		return nil, ss.setTensor(n)
	case CmdSetTensorHash:
		w := d.tensor()
		ok, err := ss.setTensorHash(&w, d.u64(), d.u64())
		if err != nil {
			return nil, err
		}
		e.u8(b2u8(ok))
	case CmdGetTensor:
		w := d.tensor()
		offset, size := d.u64(), d.u64()
		t, err := ss.region(&w, offset, size)
		if err != nil {
			return nil, err
		}
		// Small answers (a token's logits) reuse one slice; large ones are
		// not kept past the request.
		var out []byte
		if size <= maxKeptAnswer {
			if uint64(cap(ss.out)) < size {
				ss.out = make([]byte, size)
			}
			out = ss.out[:size]
		} else {
			out = make([]byte, size)
		}
		if err := t.Buffer.GetTensor(t, out, int(offset)); err != nil {
			return nil, err
		}
		return out, nil
	case CmdCopyTensor:
		ws, wd := d.tensor(), d.tensor()
		src, _, err := ss.tensor(&ws)
		if err != nil {
			return nil, err
		}
		dst, _, err := ss.tensor(&wd)
		if err != nil {
			return nil, err
		}
		if src.Nbytes() > dst.Nbytes() {
			return nil, reject("copy of %d bytes into a tensor of %d", src.Nbytes(), dst.Nbytes())
		}
		ok, err := dst.Buffer.CopyTensor(src, dst)
		if err != nil {
			return nil, err
		}
		e.u8(b2u8(ok))
	case CmdGraphCompute:
		return nil, ss.graphCompute(body)
	case CmdGraphRecompute:
		dev, err := ss.device(d.u32())
		if err != nil {
			return nil, err
		}
		if ss.graphs == nil || ss.graphs[dev] == nil {
			return nil, reject("GRAPH_RECOMPUTE on device %d before any GRAPH_COMPUTE", dev)
		}
		return nil, ss.compute(dev, ss.graphs[dev])
	case CmdGetDeviceMemory:
		dev, err := ss.device(d.u32())
		if err != nil {
			return nil, err
		}
		p := devs[dev].Props()
		e.u64(p.MemoryFree)
		e.u64(p.MemoryTotal)
	case CmdInitTensor:
		w := d.tensor()
		t, _, err := ss.tensor(&w)
		if err != nil {
			return nil, err
		}
		if err := t.Buffer.InitTensor(t); err != nil {
			return nil, err
		}
	case CmdGetAllocSize:
		dev, err := ss.device(d.u32())
		if err != nil {
			return nil, err
		}
		w := d.tensor()
		t, err := shapeOf(&w)
		if err != nil {
			return nil, err
		}
		bt := devs[dev].BufferType()
		if w.Buffer != 0 {
			b, err := ss.buffer(w.Buffer)
			if err != nil {
				return nil, err
			}
			bt = b.buf.Type()
		}
		e.u64(uint64(bt.AllocSize(t)))
	case CmdMemsetTensor:
		w := d.tensor()
		offset, size, value := d.u64(), d.u64(), d.u8()
		t, err := ss.region(&w, offset, size)
		if err != nil {
			return nil, err
		}
		if err := t.Buffer.MemsetTensor(t, value, int(offset), int(size)); err != nil {
			return nil, err
		}
	default:
		return nil, reject("unhandled command %v", cmd)
	}
	return e.b, nil
}

func b2u8(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// alloc allocates a buffer; a failure is answered with handle 0, as ggml.
func (ss *session) alloc(dev int, size uint64) (handle, got uint64) {
	bt := ss.srv.opts.Devices[dev].BufferType()
	if size > uint64(min(bt.MaxSize(), bufferSpan)) {
		return 0, 0
	}
	if ss.nextHandle+1 >= math.MaxUint64/bufferSpan {
		return 0, 0
	}
	if limit := ss.srv.opts.MaxAlloc; limit > 0 && (size > limit || ss.allocated > limit-size) {
		ss.srv.log.Warn("rpc alloc refused: the connection's allocation limit is reached", "size", size, "held", ss.allocated, "limit", limit)
		return 0, 0
	}
	buf, err := bt.Alloc(int(size))
	if err != nil {
		ss.srv.log.Warn("rpc alloc failed", "size", size, "err", err)
		return 0, 0
	}
	ss.nextHandle++
	h := ss.nextHandle
	b := &srvBuffer{handle: h, base: h * bufferSpan, size: uint64(buf.Size()), buf: buf, dev: dev}
	ss.buffers[h] = b
	ss.allocated += b.size
	ss.srv.mu.Lock()
	ss.srv.liveBufs++
	ss.srv.mu.Unlock()
	return h, b.size
}

func (ss *session) free(b *srvBuffer) {
	// The stored graph must not run on freed memory: forget it if it uses
	// the buffer.
	for i, g := range ss.graphs {
		if g != nil && g.uses[b.handle] {
			if g.scratch != nil {
				g.scratch.Free()
			}
			ss.graphs[i] = nil
		}
	}
	b.buf.Free()
	delete(ss.buffers, b.handle)
	ss.allocated -= b.size
	ss.srv.mu.Lock()
	ss.srv.liveBufs--
	ss.srv.mu.Unlock()
}

func (ss *session) buffer(handle uint64) (*srvBuffer, error) {
	b, ok := ss.buffers[handle]
	if !ok {
		return nil, reject("unknown buffer %#x", handle)
	}
	return b, nil
}

// shapeOf makes a tensor of w's type and layout, checking that its span is
// representable; it has no memory.
func shapeOf(w *wireTensor) (*rt.Tensor, error) {
	typ := rt.DType(w.Type)
	if w.Type > math.MaxInt32 || !typ.Known() || typ.BlockSize() <= 0 {
		return nil, reject("tensor %q: unknown type %d", w.name(), w.Type)
	}
	t := &rt.Tensor{Type: typ, Name: w.name(), Flags: rt.Flag(w.Flags) & (rt.FlagInput | rt.FlagOutput | rt.FlagParam)}
	var span uint64 = uint64(typ.TypeSize())
	for i := 0; i < maxDims; i++ {
		t.Ne[i], t.Nb[i] = int(w.Ne[i]), int(w.Nb[i])
		if w.Ne[i] == 0 {
			span = 0
		}
	}
	if span == 0 {
		return t, nil
	}
	if typ.BlockSize() > 1 && (w.Ne[0]%uint32(typ.BlockSize()) != 0 || int(w.Nb[0]) != typ.TypeSize()) {
		return nil, reject("tensor %q: %v rows of %d elements with stride %d", w.name(), typ, w.Ne[0], w.Nb[0])
	}
	// Each term is below 2^32 * 2^32; their sum of four can overflow 2^64
	// only past 2^66, so check each product against a bound first.
	for i := 0; i < maxDims; i++ {
		ne := uint64(w.Ne[i])
		if i == 0 && typ.BlockSize() > 1 {
			ne /= uint64(typ.BlockSize())
		}
		term := (ne - 1) * uint64(w.Nb[i])
		if ne-1 != 0 && term/(ne-1) != uint64(w.Nb[i]) || term > 1<<60 {
			return nil, reject("tensor %q spans more than 2^60 bytes", w.name())
		}
		span += term
	}
	if span > 1<<60 || uint64(t.Nbytes()) != span {
		return nil, reject("tensor %q spans %d bytes", w.name(), span)
	}
	// Views may overlap (short or zero strides), but not without bound: the
	// work of an op stays proportional to the memory the client allocated.
	const maxOverlap = 64
	limit := maxOverlap*span + 4096
	elems := uint64(w.Ne[0]) / uint64(typ.BlockSize()) * uint64(typ.TypeSize())
	for i := 1; i < maxDims && elems <= limit; i++ {
		elems *= uint64(w.Ne[i])
	}
	if elems > limit {
		return nil, reject("tensor %q: strides %v repeat its %v elements more than %d times over", w.name(), w.Nb, w.Ne, maxOverlap)
	}
	return t, nil
}

// tensor makes w with its memory: a buffer this session allocated, and a
// data address whose whole span lies inside it.
func (ss *session) tensor(w *wireTensor) (*rt.Tensor, *srvBuffer, error) {
	t, err := shapeOf(w)
	if err != nil {
		return nil, nil, err
	}
	if err := ss.place(t, w); err != nil {
		return nil, nil, err
	}
	return t, ss.buffers[w.Buffer], nil
}

// place gives t the memory w names, after checking it lies in the buffer.
func (ss *session) place(t *rt.Tensor, w *wireTensor) error {
	b, err := ss.buffer(w.Buffer)
	if err != nil {
		return fmt.Errorf("tensor %q: %w", w.name(), err)
	}
	if w.Data < b.base || w.Data-b.base > b.size {
		return reject("tensor %q: data %#x outside buffer [%#x, %#x)", w.name(), w.Data, b.base, b.base+b.size)
	}
	off := w.Data - b.base
	if uint64(t.Nbytes()) > b.size-off {
		return reject("tensor %q: %d bytes at offset %d overrun the buffer of %d", w.name(), t.Nbytes(), off, b.size)
	}
	t.Buffer, t.Offset = b.buf, int(off)
	return nil
}

// region is tensor plus a check that [offset, offset+size) lies inside it.
func (ss *session) region(w *wireTensor, offset, size uint64) (*rt.Tensor, error) {
	t, _, err := ss.tensor(w)
	if err != nil {
		return nil, err
	}
	nb := uint64(t.Nbytes())
	if offset > nb || size > nb-offset {
		return nil, reject("tensor %q: region (offset %d, size %d) out of its %d bytes", w.name(), offset, size, nb)
	}
	return t, nil
}

func (ss *session) setTensor(n uint64) error {
	if n < tensorBytes+8 {
		return reject("SET_TENSOR request of %d bytes", n)
	}
	hdr := ss.hdr[:]
	if _, err := io.ReadFull(ss.r, hdr); err != nil {
		return err
	}
	d := &decoder{b: hdr}
	w := d.tensor()
	offset := d.u64()
	size := n - uint64(len(hdr))
	t, err := ss.region(&w, offset, size)
	if err != nil {
		return err
	}
	data, err := ss.readBody(size)
	if err != nil {
		return err
	}
	if ss.srv.opts.CacheDir != "" && size > uint64(ss.srv.opts.CacheThreshold) {
		if err := ss.srv.cacheStore(fnvHash(data), data); err != nil {
			ss.srv.log.Warn("rpc cache store failed", "err", err)
		}
	}
	return t.Buffer.SetTensor(t, data, int(offset))
}

func (s *Server) cachePath(hash uint64) string {
	return filepath.Join(s.opts.CacheDir, fmt.Sprintf("%016x", hash))
}

// cacheStore writes data atomically: a temporary file in the same
// directory, synced, then renamed.
func (s *Server) cacheStore(hash uint64, data []byte) error {
	path := s.cachePath(hash)
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	f, err := os.CreateTemp(s.opts.CacheDir, ".tmp-*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// setTensorHash writes cached data with the given hash, if the cache has it.
func (ss *session) setTensorHash(w *wireTensor, offset, hash uint64) (bool, error) {
	if ss.srv.opts.CacheDir == "" {
		return false, nil
	}
	path := ss.srv.cachePath(hash)
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return false, nil
	}
	t, err := ss.region(w, offset, uint64(fi.Size()))
	if err != nil {
		return false, err
	}
	data, err := os.ReadFile(path)
	if err != nil || uint64(len(data)) != uint64(fi.Size()) || fnvHash(data) != hash {
		ss.srv.log.Warn("rpc cache entry unreadable or corrupt; asking for the data", "file", path)
		return false, nil
	}
	return true, t.Buffer.SetTensor(t, data, int(offset))
}

// ListenAndServe listens on addr (see Listen) and serves until ctx ends.
func (s *Server) ListenAndServe(ctx context.Context, addr string) error {
	ln, err := Listen(addr, s.log)
	if err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { s.Close() })
	defer stop()
	return s.Serve(ln)
}
