package shaders

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

// The WGSL kernels of the WebGPU backend. Each file is one compute entry
// point "main" written against helpers the backend generates per variant
// (bindings, loads and stores per dtype, constants); see wgpu/shadergen.go.
// Lines starting with #if NAME, #if !NAME, #else and #endif select code per
// variant; the backend replaces them with empty lines so that compiler line
// numbers still match the file.
//
//go:embed wgsl/*.wgsl
var wgslFiles embed.FS

// WGSL returns the source of the embedded WGSL file name ("binary.wgsl";
// the extension may be omitted).
func WGSL(name string) (string, error) {
	if !strings.HasSuffix(name, ".wgsl") {
		name += ".wgsl"
	}
	b, err := wgslFiles.ReadFile("wgsl/" + name)
	if err != nil {
		return "", fmt.Errorf("no WGSL shader %q", name)
	}
	return string(b), nil
}

// WGSLNames lists the embedded WGSL files in sorted order.
func WGSLNames() []string {
	ents, err := fs.ReadDir(wgslFiles, "wgsl")
	if err != nil {
		return nil
	}
	names := make([]string, 0, len(ents))
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}
