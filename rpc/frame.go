package rpc

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"

	rt "github.com/gpurt/gpurt/runtime"
)

// Framing, as ggml-rpc.cpp:
//
//	request:  | cmd (1 byte) | size (8 bytes) | size bytes |
//	response: | size (8 bytes) | size bytes |
//
// All integers are little-endian.

// writeRequest writes one request whose body is the concatenation of parts.
// SET_TENSOR stays in w's buffer (when it fits) until the next command
// flushes it: the server acts on it only once a later command arrives
// anyway, and the inputs of a graph then travel in one write with it.
func writeRequest(w *bufio.Writer, cmd Cmd, parts ...[]byte) error {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	var hdr [9]byte
	hdr[0] = byte(cmd)
	binary.LittleEndian.PutUint64(hdr[1:], uint64(n))
	if _, err := w.Write(hdr[:]); err != nil {
		return err
	}
	for _, p := range parts {
		if _, err := w.Write(p); err != nil {
			return err
		}
	}
	if cmd == CmdSetTensor {
		return nil
	}
	return w.Flush()
}

// writeResponse writes one response.
func writeResponse(w *bufio.Writer, body []byte) error {
	var hdr [8]byte
	binary.LittleEndian.PutUint64(hdr[:], uint64(len(body)))
	if _, err := w.Write(hdr[:]); err != nil {
		return err
	}
	if _, err := w.Write(body); err != nil {
		return err
	}
	return w.Flush()
}

// readSize reads a frame's 8-byte size.
func readSize(r *bufio.Reader) (uint64, error) {
	var hdr [8]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(hdr[:]), nil
}

// readResponseInto reads a response that must be exactly len(dst) bytes.
func readResponseInto(r *bufio.Reader, cmd Cmd, dst []byte) error {
	n, err := readSize(r)
	if err != nil {
		return err
	}
	if n != uint64(len(dst)) {
		return fmt.Errorf("rpc: %v: response of %d bytes, want %d: %w", cmd, n, len(dst), rt.ErrCorruptFile)
	}
	_, err = io.ReadFull(r, dst)
	return err
}
