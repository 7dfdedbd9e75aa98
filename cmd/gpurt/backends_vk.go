//go:build cgo

package main

import _ "github.com/gpurt/gpurt/vk"
