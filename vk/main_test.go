package vk

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/gpurt/gpurt/internal/vkvalidate"
	rt "github.com/gpurt/gpurt/runtime"
)

// The tests run with the Khronos validation layer (core and synchronization
// validation), configured through a layer settings file to log errors,
// warnings and performance warnings to a file; every test checks that the
// log did not grow while it ran.

// vlog is the validation log; nil when GPURT_VK_NO_VALIDATION is set.
var vlog *vkvalidate.Log

// syncValidation is true when this process enabled synchronization validation.
var syncValidation bool

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	// Tests keep the user's pipeline cache as it is.
	if os.Getenv("GPURT_VK_PIPELINE_CACHE") == "" {
		os.Setenv("GPURT_VK_PIPELINE_CACHE", "off")
	}
	if os.Getenv("GPURT_VK_NO_VALIDATION") == "" {
		// GPURT_VK_SYNC_VALIDATION=0 turns synchronization validation off
		// (its bookkeeping grows the process, which the leak test cannot
		// tell from a leak).
		syncValidation = os.Getenv("VK_LAYER_ENABLES") == "" && os.Getenv("GPURT_VK_SYNC_VALIDATION") != "0"
		l, err := vkvalidate.Enable(vkvalidate.Options{Sync: syncValidation})
		if err != nil {
			fmt.Fprintf(os.Stderr, "vk tests: %v, or set GPURT_VK_NO_VALIDATION=1\n", err)
			return 1
		}
		defer l.Close()
		vlog = l
	}
	code := m.Run()
	// Releasing everything before reading the log makes every run a leak
	// check: the layer reports each object still alive when its device or
	// instance is destroyed.
	if err := releaseShared(); err != nil {
		fmt.Fprintf(os.Stderr, "release: %v\n", err)
		code = 1
	}
	if msgs := validationMessages(0); msgs != "" {
		fmt.Fprintf(os.Stderr, "validation layer messages:\n%s\n", msgs)
		code = 1
	}
	return code
}

// validationMessages returns the log from byte from on, less ranges tests
// provoked on purpose.
func validationMessages(from int64) string {
	if vlog == nil {
		return ""
	}
	return vlog.Since(from)
}

func logSize() int64 {
	if vlog == nil {
		return 0
	}
	return vlog.Size()
}

// checkValidation fails t if the validation layer logs anything during it.
func checkValidation(t *testing.T) {
	t.Helper()
	start := logSize()
	t.Cleanup(func() {
		if msgs := validationMessages(start); msgs != "" {
			t.Errorf("validation layer:\n%s", msgs)
		}
	})
}

// shared is the device and backend the package's tests share, opened on
// first use and again after releaseShared.
var shared struct {
	mu     sync.Mutex
	opened bool
	dev    *Device
	be     *Backend
	err    error
}

// testDevice returns the first Vulkan device and one backend on it, shared
// by the package's tests.
func testDevice(t *testing.T) (*Device, *Backend) {
	t.Helper()
	checkValidation(t)
	shared.mu.Lock()
	if !shared.opened {
		shared.opened = true
		shared.dev, shared.be, shared.err = openShared()
	}
	dev, be, err := shared.dev, shared.be, shared.err
	shared.mu.Unlock()
	if err != nil {
		if strings.Contains(err.Error(), "cannot load the Vulkan loader") {
			t.Skipf("no Vulkan loader on this machine: %v", err)
		}
		t.Fatalf("no Vulkan device: %v", err)
	}
	return dev, be
}

func openShared() (*Device, *Backend, error) {
	devs, err := Devices()
	if err != nil {
		return nil, nil, err
	}
	b, err := devs[0].NewBackend()
	if err != nil {
		return nil, nil, err
	}
	return devs[0], b.(*Backend), nil
}

// releaseShared closes the shared backend and releases every device with
// runtime.Release; the next testDevice opens the rediscovered device.
func releaseShared() error {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	var err error
	if shared.be != nil {
		err = shared.be.Close()
	}
	shared.opened, shared.dev, shared.be, shared.err = false, nil, nil, nil
	return errors.Join(err, rt.Release())
}

// alloc places every tensor of ctx in one buffer of bt; freed at cleanup.
func alloc(t *testing.T, ctx *rt.Context, bt rt.BufferType) rt.Buffer {
	t.Helper()
	buf, err := rt.AllocContextTensors(ctx, bt)
	if err != nil {
		t.Fatal(err)
	}
	if buf != nil {
		t.Cleanup(func() {
			if err := buf.Free(); err != nil {
				t.Error(err)
			}
		})
	}
	return buf
}
