package main

import (
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"

	"github.com/gpurt/gpurt/rpc"
	rt "github.com/gpurt/gpurt/runtime"
)

// The --rpc flag, as llama.cpp spells it: remote devices served by gpurt
// rpc-server or llama.cpp's rpc-server join the scheduler before the local
// devices, and --gpu-layers shares the offloaded blocks among all of them.

// rpcFlag registers --rpc on a subcommand's flags.
func rpcFlag(c *cli) *string {
	return c.String("rpc", "", "remote devices: `host:port[,host:port…]` of gpurt or llama.cpp rpc-servers; each device is RPC[host:port]")
}

// parseRPCList validates --rpc before anything is loaded.
func parseRPCList(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []string
	seen := map[string]bool{}
	for _, ep := range strings.Split(s, ",") {
		ep = strings.TrimSpace(ep)
		host, port, err := net.SplitHostPort(ep)
		if err != nil || host == "" {
			return nil, fmt.Errorf("--rpc %q: want host:port", ep)
		}
		if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 {
			return nil, fmt.Errorf("--rpc %q: port %q is not 1 to 65535", ep, port)
		}
		if seen[ep] {
			return nil, fmt.Errorf("--rpc %q is listed twice", ep)
		}
		seen[ep] = true
		out = append(out, ep)
	}
	return out, nil
}

// rpcBackends connects to the endpoints and returns a backend for each of
// their devices; done closes the backends and ends the connections.
func rpcBackends(endpoints []string) (remote []rt.Backend, done func(), err error) {
	var clients []*rpc.Client
	done = func() {
		closeBackends(remote)
		for _, c := range clients {
			c.Close()
		}
	}
	for _, ep := range endpoints {
		c, err := rpc.Connect(ep, rpc.ClientOptions{})
		if err != nil {
			done()
			return nil, nil, err
		}
		clients = append(clients, c)
		for _, d := range c.Devices() {
			b, err := d.NewBackend()
			if err != nil {
				done()
				return nil, nil, err
			}
			remote = append(remote, b)
		}
	}
	return remote, done, nil
}

// printRPCDevices lists the devices of each endpoint, as gpurt devices
// lists the local ones.
func printRPCDevices(w io.Writer, endpoints []string) error {
	for _, ep := range endpoints {
		c, err := rpc.Connect(ep, rpc.ClientOptions{})
		if err != nil {
			return err
		}
		for _, d := range c.Devices() {
			printDevice(w, d, "rpc")
		}
		c.Close()
	}
	return nil
}
