//go:build linux

package cpu

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// totalMemory is the machine's RAM plus swap, capped by the cgroup's limit.
func totalMemory() uint64 {
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) != nil {
		return 0
	}
	total := (uint64(si.Totalram) + uint64(si.Totalswap)) * uint64(si.Unit)
	if limit, ok := cgroupLimit(); ok && limit < total {
		total = limit
	}
	return total
}

// availableMemory is what an allocation can still get without the kernel
// killing the process: MemAvailable plus free swap, capped by the room
// left under the cgroup's limit. ok is false when it cannot be read.
func availableMemory() (uint64, bool) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	var avail, swap uint64
	var haveAvail bool
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 {
			continue
		}
		kb, err := strconv.ParseUint(fields[1], 10, 64)
		if err != nil {
			continue
		}
		switch fields[0] {
		case "MemAvailable:":
			avail, haveAvail = kb<<10, true
		case "SwapFree:":
			swap = kb << 10
		}
	}
	if !haveAvail {
		return 0, false
	}
	n := avail + swap
	if limit, ok := cgroupLimit(); ok {
		if used, ok := readUint("/sys/fs/cgroup/memory.current"); ok {
			room := uint64(0)
			if used < limit {
				room = limit - used
			}
			n = min(n, room)
		}
	}
	return n, true
}

// cgroupLimit is the cgroup v2 memory limit, when there is one.
func cgroupLimit() (uint64, bool) { return readUint("/sys/fs/cgroup/memory.max") }

func readUint(path string) (uint64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	v, err := strconv.ParseUint(string(bytes.TrimSpace(b)), 10, 64)
	return v, err == nil // "max" means no limit
}
