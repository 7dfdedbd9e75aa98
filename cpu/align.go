package cpu

import "unsafe"

// alignOffset is how far into b the first Alignment-aligned byte lies.
func alignOffset(b []byte) int {
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return int((Alignment - p%Alignment) % Alignment)
}
