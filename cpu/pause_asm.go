//go:build amd64 || arm64

package cpu

// spinPause tells the core that this is a spin-wait loop (PAUSE, YIELD),
// which saves power and frees the sibling hyperthread.
//
//go:noescape
func spinPause()
