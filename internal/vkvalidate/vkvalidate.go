// Package vkvalidate turns on the Khronos validation layer for a test
// process, with its messages logged to a file the test reads back, so Vulkan
// tests can fail on any validation error or warning without a Go callback.
package vkvalidate

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
)

// Log is the validation layer's message log for this process.
type Log struct {
	dir, path string
	ignored   [][2]int64 // byte ranges provoked on purpose
}

// Installed reports whether VK_LAYER_KHRONOS_validation's manifest exists.
func Installed() bool {
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

// Options select extra validation.
type Options struct {
	// Sync turns on synchronization validation (barriers against the
	// memory each dispatch touches) unless VK_LAYER_ENABLES is already set.
	Sync bool
}

// Enable writes a layer settings file and sets the environment so that every
// Vulkan instance created afterwards by this process loads the layer and
// logs errors, warnings and performance warnings to the returned Log. Call
// it in TestMain, before any Vulkan instance exists.
func Enable(opts Options) (*Log, error) {
	if !Installed() {
		return nil, errors.New("VK_LAYER_KHRONOS_validation is not installed (apt-get install vulkan-validationlayers)")
	}
	dir, err := os.MkdirTemp("", "gpurt-vk-validation")
	if err != nil {
		return nil, err
	}
	l := &Log{dir: dir, path: filepath.Join(dir, "validation.log")}
	settings := "khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG\n" +
		"khronos_validation.report_flags = error,warn,perf\n" +
		"khronos_validation.log_filename = " + l.path + "\n"
	if err := os.WriteFile(filepath.Join(dir, "vk_layer_settings.txt"), []byte(settings), 0o644); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	os.Setenv("VK_LAYER_SETTINGS_PATH", dir)
	os.Setenv("VK_INSTANCE_LAYERS", "VK_LAYER_KHRONOS_validation")
	if opts.Sync && os.Getenv("VK_LAYER_ENABLES") == "" {
		os.Setenv("VK_LAYER_ENABLES", "VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT")
	}
	return l, nil
}

// Path is the log file's path.
func (l *Log) Path() string { return l.path }

// Size is the log's current length, a mark for Since.
func (l *Log) Size() int64 {
	st, err := os.Stat(l.path)
	if err != nil {
		return 0
	}
	return st.Size()
}

// Ignore excludes the log bytes in [from, to) (messages provoked on purpose).
func (l *Log) Ignore(from, to int64) { l.ignored = append(l.ignored, [2]int64{from, to}) }

// Since returns the messages logged from byte from on, less ignored ranges.
func (l *Log) Since(from int64) string {
	b, err := os.ReadFile(l.path)
	if err != nil || int64(len(b)) <= from {
		return ""
	}
	for _, r := range l.ignored {
		for i := max(r[0], from); i < min(r[1], int64(len(b))); i++ {
			b[i] = ' '
		}
	}
	return string(bytes.TrimSpace(b[from:]))
}

// Close removes the log and its settings file.
func (l *Log) Close() error { return os.RemoveAll(l.dir) }
