package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/rpc"
	rt "github.com/gpurt/gpurt/runtime"
)

func init() {
	register("rpc-server", "serve this machine's devices to gpurt and llama.cpp --rpc clients", runRPCServer)
}

func runRPCServer(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return rpcServer(ctx, args, os.Stderr, nil)
}

// rpcServerConfig is the validated command line of gpurt rpc-server.
type rpcServerConfig struct {
	addr    string
	devices []string
	cache   string
	threads int
}

func parseRPCServer(args []string, stderr io.Writer) (rpcServerConfig, int) {
	fs := flag.NewFlagSet("rpc-server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gpurt rpc-server [--host 127.0.0.1] [--port 50052] [--device NAME[,NAME…]] [--cache DIR] [--threads N]")
		fmt.Fprintln(stderr, "\nServes devices over ggml's RPC protocol 5.0.0, to gpurt run --rpc and to llama.cpp's --rpc.")
		fmt.Fprintln(stderr, "The protocol has no authentication: bind to anything but loopback only on a trusted network.")
		fmt.Fprintln(stderr, "\nflags:")
		fs.PrintDefaults()
		fmt.Fprintln(stderr, "\nexample:\n  gpurt rpc-server --port 50052 --device cpu --threads 4 --cache ~/.cache/gpurt-rpc")
	}
	var c rpcServerConfig
	host := fs.String("host", "127.0.0.1", "address to bind to (also -H)")
	fs.StringVar(host, "H", "127.0.0.1", "short for --host")
	port := fs.Int("port", 50052, "TCP port to listen on (also -p)")
	fs.IntVar(port, "p", 50052, "short for --port")
	device := fs.String("device", "auto", "devices to serve, comma-separated: auto, cpu, vulkan, webgpu or a name from gpurt devices (also -d)")
	fs.StringVar(device, "d", "auto", "short for --device")
	fs.StringVar(&c.cache, "cache", "", "directory caching received tensor data by hash, so clients can skip resending weights (also -c; default: off)")
	fs.StringVar(&c.cache, "c", "", "short for --cache")
	fs.IntVar(&c.threads, "threads", 0, "CPU threads per client (0: all; also -t)")
	fs.IntVar(&c.threads, "t", 0, "short for --threads")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return c, 0
		}
		return c, 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "gpurt rpc-server: unexpected arguments %q\n", fs.Args())
		return c, 2
	}
	if *port < 1 || *port > 65535 {
		fmt.Fprintf(stderr, "gpurt rpc-server: --port %d: want 1 to 65535\n", *port)
		return c, 2
	}
	if c.threads < 0 {
		fmt.Fprintf(stderr, "gpurt rpc-server: --threads %d: cannot be negative\n", c.threads)
		return c, 2
	}
	if strings.TrimSpace(*host) == "" {
		fmt.Fprintln(stderr, "gpurt rpc-server: --host is empty")
		return c, 2
	}
	for _, d := range strings.Split(*device, ",") {
		if d = strings.TrimSpace(d); d == "" {
			fmt.Fprintf(stderr, "gpurt rpc-server: --device %q: empty device name\n", *device)
			return c, 2
		}
		c.devices = append(c.devices, d)
	}
	c.addr = net.JoinHostPort(*host, strconv.Itoa(*port))
	return c, -1
}

// rpcServer serves until ctx ends; ready, if not nil, receives the
// listening address.
func rpcServer(ctx context.Context, args []string, stderr io.Writer, ready chan<- string) int {
	c, code := parseRPCServer(args, stderr)
	if code >= 0 {
		return code
	}
	var devs []rt.Device
	for _, name := range c.devices {
		d, err := resolveDevice(name)
		if err != nil {
			fmt.Fprintf(stderr, "gpurt rpc-server: --device %s: %v\n", name, err)
			return 2
		}
		devs = append(devs, d)
	}
	log := slog.New(slog.NewTextHandler(prefixWriter{"gpurt rpc-server: ", stderr}, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && a.Key == slog.TimeKey {
				return slog.Attr{} // the log is read live; no timestamps
			}
			return a
		},
	}))
	srv, err := rpc.NewServer(rpc.ServerOptions{
		Devices:  devs,
		CacheDir: c.cache,
		Logger:   log,
		NewBackend: func(d rt.Device) (rt.Backend, error) {
			if d.Props().Type == rt.DeviceCPU {
				return cpu.NewBackend(c.threads)
			}
			return d.NewBackend()
		},
	})
	if err != nil {
		fmt.Fprintln(stderr, "gpurt rpc-server:", err)
		return 1
	}
	ln, err := rpc.Listen(c.addr, log)
	if err != nil {
		fmt.Fprintln(stderr, "gpurt rpc-server:", err)
		return 1
	}
	fmt.Fprintf(stderr, "gpurt rpc-server: protocol %d.%d.%d on %s\n", rpc.ProtoMajor, rpc.ProtoMinor, rpc.ProtoPatch, ln.Addr())
	for i, d := range devs {
		p := d.Props()
		fmt.Fprintf(stderr, "gpurt rpc-server: device %d: %s (%s, %d MiB free of %d)\n", i, d.Name(), p.Description, p.MemoryFree>>20, p.MemoryTotal>>20)
	}
	if c.cache != "" {
		fmt.Fprintf(stderr, "gpurt rpc-server: tensor cache in %s\n", c.cache)
	}
	if ready != nil {
		ready <- ln.Addr().String()
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		srv.Close()
		<-done
		fmt.Fprintln(stderr, "gpurt rpc-server: stopped")
		return 0
	case err := <-done:
		srv.Close()
		fmt.Fprintln(stderr, "gpurt rpc-server:", err)
		return 1
	}
}

// prefixWriter starts every line of a logger's output (one record per
// Write) with the command's name, as all its messages.
type prefixWriter struct {
	prefix string
	w      io.Writer
}

func (p prefixWriter) Write(b []byte) (int, error) {
	if _, err := io.WriteString(p.w, p.prefix); err != nil {
		return 0, err
	}
	return p.w.Write(b)
}

// resolveDevice finds a device by family (auto, cpu, vulkan, webgpu) or name.
func resolveDevice(name string) (rt.Device, error) {
	switch strings.ToLower(name) {
	case "auto":
		return rt.BestDevice()
	case "cpu":
		return cpu.Device(), nil
	}
	if devs := rt.DevicesOf(name); len(devs) > 0 {
		return devs[0], nil
	}
	d, err := rt.DeviceByName(name)
	if err != nil {
		return nil, fmt.Errorf("no such device or backend family (see gpurt devices)")
	}
	return d, nil
}
