package vk

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// The tests run with the Khronos validation layer (core and synchronization
// validation), configured through a layer settings file to log errors,
// warnings and performance warnings to a file; every test checks that the
// log did not grow while it ran.

var validationLog string

// syncValidation is true when this process enabled synchronization validation.
var syncValidation bool

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	dir, err := os.MkdirTemp("", "gpurt-vk-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	if os.Getenv("GPURT_VK_NO_VALIDATION") == "" {
		if !validationLayerInstalled() {
			fmt.Fprintln(os.Stderr, "vk tests: VK_LAYER_KHRONOS_validation is not installed (apt install vulkan-validationlayers), or set GPURT_VK_NO_VALIDATION=1")
			return 1
		}
		validationLog = filepath.Join(dir, "validation.log")
		settings := "khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG\n" +
			"khronos_validation.report_flags = error,warn,perf\n" +
			"khronos_validation.log_filename = " + validationLog + "\n"
		if err := os.WriteFile(filepath.Join(dir, "vk_layer_settings.txt"), []byte(settings), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		os.Setenv("VK_LAYER_SETTINGS_PATH", dir)
		os.Setenv("VK_INSTANCE_LAYERS", "VK_LAYER_KHRONOS_validation")
		// Synchronization validation checks the barriers against the
		// descriptor ranges each dispatch binds.
		// GPURT_VK_SYNC_VALIDATION=0 turns it off (its bookkeeping grows
		// the process, which the leak test cannot tell from a leak).
		if os.Getenv("VK_LAYER_ENABLES") == "" && os.Getenv("GPURT_VK_SYNC_VALIDATION") != "0" {
			os.Setenv("VK_LAYER_ENABLES", "VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT")
			syncValidation = true
		}
	}
	code := m.Run()
	if msgs := validationMessages(0); msgs != "" {
		fmt.Fprintf(os.Stderr, "validation layer messages:\n%s\n", msgs)
		code = 1
	}
	return code
}

func validationLayerInstalled() bool {
	dirs := []string{"/usr/share/vulkan/explicit_layer.d", "/usr/local/share/vulkan/explicit_layer.d", "/etc/vulkan/explicit_layer.d"}
	if p := os.Getenv("VK_LAYER_PATH"); p != "" {
		dirs = append(filepath.SplitList(p), dirs...)
	}
	for _, d := range dirs {
		if m, _ := filepath.Glob(filepath.Join(d, "*khronos_validation*.json")); len(m) > 0 {
			return true
		}
	}
	return false
}

// expected are log ranges that tests provoked on purpose.
var expected [][2]int64

// validationMessages returns the log from byte from on, less expected ranges.
func validationMessages(from int64) string {
	if validationLog == "" {
		return ""
	}
	b, err := os.ReadFile(validationLog)
	if err != nil || int64(len(b)) <= from {
		return ""
	}
	for _, r := range expected {
		for i := max(r[0], from); i < min(r[1], int64(len(b))); i++ {
			b[i] = ' '
		}
	}
	return string(bytes.TrimSpace(b[from:]))
}

func logSize() int64 {
	if validationLog == "" {
		return 0
	}
	st, err := os.Stat(validationLog)
	if err != nil {
		return 0
	}
	return st.Size()
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

var shared struct {
	once sync.Once
	dev  *Device
	be   *Backend
	err  error
}

// testDevice returns the first Vulkan device and one backend on it, shared
// by the package's tests.
func testDevice(t *testing.T) (*Device, *Backend) {
	t.Helper()
	checkValidation(t)
	shared.once.Do(func() {
		devs, err := Devices()
		if err != nil {
			shared.err = err
			return
		}
		shared.dev = devs[0]
		b, err := shared.dev.NewBackend()
		if err != nil {
			shared.err = err
			return
		}
		shared.be = b.(*Backend)
	})
	if shared.err != nil {
		if strings.Contains(shared.err.Error(), "cannot load the Vulkan loader") {
			t.Skipf("no Vulkan loader on this machine: %v", shared.err)
		}
		t.Fatalf("no Vulkan device: %v", shared.err)
	}
	return shared.dev, shared.be
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
