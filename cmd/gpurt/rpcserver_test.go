package main

import (
	"io"
	"testing"
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
