package main

// The backends this binary offers; each registers itself from init().
import (
	_ "github.com/gpurt/gpurt/cpu"
)
