// Package rpc speaks ggml's RPC protocol (version 5.0.0, as the llama.cpp
// build in ../shared/tools/llama.cpp), so that gpurt and llama.cpp hosts mix
// freely: gpurt uses llama.cpp's rpc-server hosts as devices, and serves its
// own devices to llama.cpp's --rpc clients.
//
// # Wire format
//
// A request is | command (1 byte) | size (8 bytes) | size bytes |; a response
// is | size (8 bytes) | size bytes |; integers are little-endian. Tensors
// travel as rpc_tensor, 296 packed bytes: id, type, buffer handle, ne and nb
// (32-bit), op, 16 op parameters, flags, ten source ids, view source id and
// offset, a data address and a 64-byte name. The first command is HELLO,
// which checks the version; SET_TENSOR, GRAPH_COMPUTE and GRAPH_RECOMPUTE
// have no answer, and a server that refuses a request closes the
// connection.
//
// # Ops and types
//
// rt.DType values are ggml's type ids, so types pass unchanged. Ops are
// mapped case by case in both directions (mapping.go), with ggml's
// parameter layouts (ROPE's ten parameters, SOFT_MAX's max_bias, UNARY's
// sub-op). The server rebuilds every received node with gpurt's op
// constructors, so shapes, dtypes and parameters are checked exactly as for
// a local graph. What gpurt computes in several steps (one-source GLU,
// REGLU and GEGLU_ERF; I64 row indices, narrowed to I32 on the host before
// each compute) becomes several nodes with scratch memory on the server.
// ggml ops with no gpurt equivalent are refused with a log line naming
// them; protocol 5.0.0 has no way to tell a client beforehand.
//
// # Client
//
// Connect opens one connection to an endpoint; each device it serves is a
// GPU-class rt.Device named RPC[host:port] (RPC[host:port]#i past the
// first), with its own buffer type, so the scheduler places layers on it
// like on any device. SetTensor of more than ClientOptions.HashThreshold
// bytes first offers the data's FNV-1a hash (SET_TENSOR_HASH); a server that
// has it in its cache skips the transfer. A graph equal to the one sent last
// is run again with GRAPH_RECOMPUTE. Every exchange has a deadline: a dead
// or hung server gives an error wrapping ErrDisconnected, and Reconnect
// starts a new connection.
//
// # Server
//
// Server serves a list of gpurt devices. It trusts nothing: request sizes
// are checked before anything is allocated, every buffer handle must be
// one this connection allocated, every tensor's whole span (computed from
// ne and nb without overflow) must lie inside its buffer, every region
// inside its tensor, types and ops must be known, and graphs with unknown
// ids, duplicate ids or cycles are rejected. Buffers belong to the
// connection and are freed when it ends. Listen warns through the logger
// when asked to bind to anything but loopback: the protocol has no
// authentication.
//
// # Speed
//
// A generated token costs one round trip. The client buffers SET_TENSOR
// (the token's inputs) until the next command that is flushed, so inputs
// and GRAPH_RECOMPUTE leave in one write, and Synchronize does not wait:
// the read of the logits does. The scheduler runs the same split graph
// token after token; the client keeps, for the graph it sent last, each
// tensor's state (shape, op, parameters, sources, memory) and recognises
// an unchanged graph by comparing them, without encoding it again (a graph
// rebuilt identical is still found equal by its encoding). The graph
// changes, and is sent again, each time the attended cache grows by
// llama.Options.KVPad cells (32 by default). The server reuses its
// request, header and small-answer storage, and runs a stored graph again
// as it was built, on the same backend.
//
// BenchmarkLoopback compares gpurt client → gpurt server with llama.cpp's
// llama-bench → rpc-server (one CPU thread each, 128 greedy tokens, every
// layer remote), the crossed pairs and llama.cpp's KV padding of 256, and
// reports the bytes sent per token; docs/performance.md has the figures.
// Padding 256 sends the graph once instead of every 32 tokens, but attends
// over more masked cells and sends a wider mask; at these context lengths
// it was slower (padding 32 was 1.16–1.30× faster on stories260K, on a par
// on the synthetic llamas) and not always smaller on the wire, so it is an
// option (llama.Options.KVPad), not the default.
//
// # Fuzzing
//
// FuzzServerRequests feeds arbitrary command streams to a server session.
// make test runs 50,000 executions; the long run, `go test ./rpc -run '^$'
// -fuzz FuzzServerRequests -fuzztime 1000000x`, passed 10⁶ executions with
// no panic on 2026-12-02 (13 minutes on 2 cores).
package rpc
