package main

import (
	"fmt"
	"io"
	"strings"
)

// progressMinBytes is the model size from which loading draws a bar.
const progressMinBytes = 100 << 20

// loadProgress returns a llama.Options.Progress callback that draws a
// loading bar on w for models of progressMinBytes or more, ending the line
// when done reaches total.
func loadProgress(w io.Writer) func(done, total int64) {
	shown := -1
	return func(done, total int64) {
		if total < progressMinBytes {
			return
		}
		pct := int(100 * done / total)
		if pct/2 == shown {
			return
		}
		shown = pct / 2
		fmt.Fprintf(w, "\rloading [%-50s] %3d%%", strings.Repeat("=", shown), pct)
		if done >= total {
			fmt.Fprintln(w)
		}
	}
}
