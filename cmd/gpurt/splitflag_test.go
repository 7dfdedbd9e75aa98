package main

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestTensorSplitUsageErrors: a bad -ts exits 2 with a clear message
// before any model loads, in every subcommand that takes it.
func TestTensorSplitUsageErrors(t *testing.T) {
	text := filepath.Join(t.TempDir(), "text.txt")
	if err := os.WriteFile(text, []byte("Once upon a time"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"run", "-ts", "1,x"}, `gpurt run: -ts/--tensor-split "1,x"`},
		{[]string{"run", "--tensor-split", "0,0"}, "must not all be zero"},
		{[]string{"run", "-ts", "-1,2"}, "want a finite number >= 0"},
		{[]string{"run", "-ts", "nan"}, "want a finite number >= 0"},
		{[]string{"run", "-d", "cpu", "-ts", "1,1"}, "gpurt run: usage: -ts/--tensor-split has 2 proportions but there are 0 non-CPU devices"},
		{[]string{"perplexity", "-f", "x", "-ts", "a"}, `gpurt perplexity: -ts/--tensor-split "a"`},
		{[]string{"perplexity", "-f", text, "-d", "cpu", "-ts", "1"}, "gpurt perplexity: usage: -ts/--tensor-split has 1 proportions but there are 0 non-CPU devices"},
		{[]string{"serve", "-ts", "0"}, `gpurt serve: -ts/--tensor-split "0"`},
		{[]string{"chat", "-ts", "1,-3"}, `gpurt chat: -ts/--tensor-split "1,-3"`},
	} {
		code, _, errOut := runCLI(t, tc.args...)
		if code != exitUsage || !strings.Contains(errOut, tc.msg) {
			t.Errorf("gpurt %v: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.msg)
		}
	}
	for _, name := range []string{"run", "perplexity", "serve", "chat"} {
		if _, out, _ := runCLI(t, name, "-h"); !strings.Contains(out, "  -ts, --tensor-split") {
			t.Errorf("gpurt %s -h lacks -ts, --tensor-split:\n%s", name, out)
		}
	}
}

// TestRunTensorSplitOverRPC runs gpurt run with stories260K on two devices
// of a loopback gpurt rpc-server and -ts 1,3: the placement follows the
// split and the greedy text is the local CPU's.
func TestRunTensorSplitOverRPC(t *testing.T) {
	model := storiesPathOrSkip(t)
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
	defer func() {
		cancel()
		if got := <-code; got != 0 {
			t.Errorf("rpc-server exited with %d", got)
		}
	}()
	var addr string
	select {
	case addr = <-ready:
	case <-time.After(10 * time.Second):
		t.Fatal("rpc-server did not start")
	}
	args := []string{"run", "-m", model, "--temp", "0", "-n", "40", "-t", "1", "-p", "Once upon a time"}
	wantCode, want, _ := runCLI(t, append(args, "-d", "cpu")...)
	if wantCode != 0 || strings.TrimSpace(want) == "" {
		t.Fatalf("local run: exit %d, text %q", wantCode, want)
	}
	gotCode, got, errOut := runCLI(t, append(args, "-d", "cpu", "--rpc", addr, "-ts", "1,3")...)
	if gotCode != 0 {
		t.Fatalf("run with -ts: exit %d: %s", gotCode, errOut)
	}
	wantPlace := "placement: token_embd: CPU; blk.0-1: RPC[" + addr + "]; blk.2-4: RPC[" + addr + "]#1; output: RPC[" + addr + "]#1"
	if !strings.Contains(errOut, wantPlace) {
		t.Errorf("stderr lacks %q:\n%s", wantPlace, errOut)
	}
	if got != want {
		t.Errorf("text with -ts 1,3 over RPC differs from local:\n got %q\nwant %q", got, want)
	}
}
