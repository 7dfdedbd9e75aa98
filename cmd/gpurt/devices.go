package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	rt "github.com/gpurt/gpurt/runtime"
)

func init() { register("devices", "list every registered device", runDevices) }

func runDevices(args []string) int {
	c := newCLI("devices", "[--rpc HOST:PORT[,…]]", "gpurt devices", "gpurt devices --rpc 127.0.0.1:50052")
	rpcList := rpcFlag(c)
	if code, ok := c.Parse(args); !ok {
		return code
	}
	endpoints, err := parseRPCList(*rpcList)
	if err != nil {
		return c.Usagef("%v", err)
	}
	printDevices(os.Stdout)
	if err := printRPCDevices(os.Stdout, endpoints); err != nil {
		return c.Fail(err)
	}
	return exitOK
}

func printDevices(w *os.File) {
	for _, r := range rt.Regs() {
		if r.Err != nil {
			fmt.Fprintf(w, "%s: no devices: %v\n", r.Name, r.Err)
			continue
		}
		if len(r.Devices) == 0 {
			fmt.Fprintf(w, "%s: no devices\n", r.Name)
		}
		for _, d := range r.Devices {
			printDevice(w, d, r.Name)
		}
	}
	if best, err := rt.BestDevice(); err == nil {
		fmt.Fprintf(w, "best device: %s\n", best.Name())
	}
}

// printDevice describes one device of a family.
func printDevice(w io.Writer, d rt.Device, family string) {
	p := d.Props()
	fmt.Fprintf(w, "%s (%s): %s\n", d.Name(), family, p.Description)
	sw := ""
	if p.Software {
		sw = ", software"
	}
	fmt.Fprintf(w, "  type:    %v%s\n", p.Type, sw)
	if p.MemoryTotal == 0 {
		fmt.Fprintln(w, "  memory:  not reported by the driver")
	} else {
		fmt.Fprintf(w, "  memory:  %s free of %s\n", mib(p.MemoryFree), mib(p.MemoryTotal))
	}
	bts := []string{describeBufferType(d.BufferType()) + " (default)"}
	if h := d.HostBufferType(); h != nil && h != d.BufferType() {
		bts = append(bts, describeBufferType(h))
	}
	fmt.Fprintf(w, "  buffers: %s\n", strings.Join(bts, ", "))
	fmt.Fprintf(w, "  caps:    async=%v events=%v host-buffer=%v buffer-from-host=%v\n",
		p.Caps.Async, p.Caps.Events, p.Caps.HostBuffer, p.Caps.BufferFromHostPtr)
	// GPU backends list their limits and optional features.
	if f, ok := d.(interface{ Features() []string }); ok {
		for i, line := range f.Features() {
			label := "          "
			if i == 0 {
				label = "  features:"
			}
			fmt.Fprintf(w, "%s %s\n", label, line)
		}
	}
}

func describeBufferType(bt rt.BufferType) string {
	kind := "device"
	if bt.IsHost() {
		kind = "host"
	}
	// A backend may describe its memory more precisely.
	if k, ok := bt.(interface{ Kind() string }); ok {
		kind = k.Kind()
	}
	return fmt.Sprintf("%s [%s, align %d, max %s]", bt.Name(), kind, bt.Alignment(), mib(uint64(bt.MaxSize())))
}

func mib(n uint64) string {
	if n >= 1<<40 {
		return fmt.Sprintf("%.0f TiB", float64(n)/(1<<40))
	}
	return fmt.Sprintf("%d MiB", n>>20)
}
