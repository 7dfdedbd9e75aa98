//go:build race

package llama

// raceEnabled: the race detector slows the kernels tenfold, so the
// numeric checks over every synthetic file are sampled under it (the plain
// run checks them all).
const raceEnabled = true
