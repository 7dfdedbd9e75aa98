package main

import (
	"context"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpurt/gpurt/rpc"
)

func TestParseRPCServer(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		addr string
	}{
		{nil, -1, "127.0.0.1:50052"},
		{[]string{"--host", "0.0.0.0", "-p", "9000"}, -1, "0.0.0.0:9000"},
		{[]string{"-H", "::1", "--port", "1"}, -1, "[::1]:1"},
		{[]string{"-h"}, 0, ""},
		{[]string{"--port", "0"}, 2, ""},
		{[]string{"--port", "70000"}, 2, ""},
		{[]string{"--threads", "-1"}, 2, ""},
		{[]string{"--device", "cpu,"}, 2, ""},
		{[]string{"--host", ""}, 2, ""},
		{[]string{"extra"}, 2, ""},
		{[]string{"--bogus"}, 2, ""},
	} {
		c, code := parseRPCServer(tc.args, io.Discard)
		if code != tc.code || code == -1 && c.addr != tc.addr {
			t.Errorf("%q: code %d addr %q, want %d %q", tc.args, code, c.addr, tc.code, tc.addr)
		}
	}
}

func TestParseRPCList(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		fail bool
	}{
		{"", 0, false},
		{"127.0.0.1:50052", 1, false},
		{"a:1, b:2", 2, false},
		{"[::1]:50052", 1, false},
		{"nohost", 0, true},
		{":50052", 0, true},
		{"a:0", 0, true},
		{"a:x", 0, true},
		{"a:1,a:1", 0, true},
	} {
		eps, err := parseRPCList(tc.in)
		if (err != nil) != tc.fail || len(eps) != tc.n {
			t.Errorf("%q: %v %v", tc.in, eps, err)
		}
	}
}

// TestRPCServerCommand runs gpurt rpc-server on a free port, lists its
// devices over the protocol, and stops it as SIGINT would.
func TestRPCServerCommand(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	code := make(chan int, 1)
	var log strings.Builder
	go func() {
		code <- rpcServer(ctx, []string{"--port", strconv.Itoa(port), "--device", "cpu,cpu", "-t", "1"}, &syncWriter{w: &log}, ready)
	}()
	var addr string
	select {
	case addr = <-ready:
	case c := <-code:
		t.Fatalf("rpc-server exited with %d", c)
	case <-time.After(10 * time.Second):
		t.Fatal("rpc-server did not start")
	}
	c, err := rpc.Connect(addr, rpc.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(c.Devices()); n != 2 {
		t.Errorf("%d devices, want 2", n)
	}
	c.Close()
	cancel()
	if got := <-code; got != 0 {
		t.Fatalf("rpc-server exited with %d", got)
	}
}

// syncWriter serializes writes from the server's goroutines.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
