package cpu

import (
	"fmt"
	"os"
	"strings"

	rt "github.com/gpurt/gpurt/runtime"
)

// cpuLevelEnv names the environment variable that caps the kernel set the
// CPU backend picks at start-up on amd64 (see doc.go).
const cpuLevelEnv = "GPURT_CPU_LEVEL"

// KernelSet names the kernel set NewBackend runs: "avx512", "avx2",
// "neon", "neon-dotprod" or "go".
func KernelSet() string { return defaultKernels().name }

// CheckLevelEnv reports an error wrapping rt.ErrInvalidArgument when
// GPURT_CPU_LEVEL holds a value other than avx512, avx2 or go in any case
// (or is empty): the backend then ignores it and runs the best set the CPU has,
// so a command line tool can tell its user.
func CheckLevelEnv() error {
	switch v := os.Getenv(cpuLevelEnv); strings.ToLower(v) {
	case "", "avx512", "avx2", "go":
		return nil
	default:
		return fmt.Errorf("%s=%q: %w: want avx512, avx2 or go (running %s kernels)", cpuLevelEnv, v, rt.ErrInvalidArgument, KernelSet())
	}
}
