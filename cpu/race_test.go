//go:build race

package cpu_test

// raceEnabled: the race detector slows the kernels tenfold, so the long
// catalogue runs are sampled.
const raceEnabled = true
