package vk

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// vulkanIncludeDir returns the directory holding vulkan/vulkan_core.h (and
// the vk_video headers it includes): the Vulkan SDK's, else the system's.
func vulkanIncludeDir() string {
	dirs := []string{"/usr/include", "/usr/local/include"}
	if sdk := os.Getenv("VULKAN_SDK"); sdk != "" {
		dirs = append([]string{filepath.Join(sdk, "include"), filepath.Join(sdk, "Include")}, dirs...)
	}
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "vulkan", "vulkan_core.h")); err == nil {
			return d
		}
	}
	return ""
}

// TestVkminMatchesVulkanHeaders compiles testdata/vkmin_check.c, which
// asserts that vkmin.h's declarations match vulkan_core.h, for the host and
// for whichever other targets the installed compilers reach: layouts differ
// on 32-bit targets, and only 32-bit Windows uses stdcall.
func TestVkminMatchesVulkanHeaders(t *testing.T) {
	inc := vulkanIncludeDir()
	if inc == "" {
		t.Skip("no Vulkan headers (vulkan/vulkan_core.h) to compare vkmin.h with")
	}
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	// Cross targets compile freestanding: the check needs only the
	// compiler's own stddef.h and stdint.h, not the target's libc.
	targets := []struct {
		name     string
		cc       string
		flags    []string
		optional bool // not every machine has the compiler for it
	}{
		{"host", cc, nil, false},
		{"linux-386", "gcc", []string{"-m32", "-ffreestanding"}, true},
		{"windows-amd64", "x86_64-w64-mingw32-gcc", nil, true},
		{"windows-386", "clang", []string{"-target", "i686-w64-windows-gnu", "-ffreestanding"}, true},
		{"darwin-arm64", "clang", []string{"-target", "arm64-apple-macos11", "-ffreestanding"}, true},
	}
	for _, tc := range targets {
		t.Run(tc.name, func(t *testing.T) {
			base := slices.Concat([]string{"-std=c11", "-fsyntax-only"}, tc.flags)
			if tc.optional {
				probe := exec.Command(tc.cc, slices.Concat(base, []string{"-x", "c", os.DevNull})...)
				if out, err := probe.CombinedOutput(); err != nil {
					t.Skipf("%s cannot compile for this target: %v %s", tc.cc, err, out)
				}
			}
			// -idirafter: the target's own stddef.h and stdint.h come first.
			args := slices.Concat(base, []string{"-Wall", "-Wextra", "-Werror", "-idirafter", inc, filepath.Join("testdata", "vkmin_check.c")})
			out, err := exec.Command(tc.cc, args...).CombinedOutput()
			if err != nil {
				t.Fatalf("%s %s: %v\n%s", tc.cc, strings.Join(args, " "), err, out)
			}
		})
	}
}
