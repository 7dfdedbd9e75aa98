package tokenizer

import "unsafe"

// unsafeBytes views a string's bytes without a copy; they must not be
// modified or kept.
func unsafeBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
