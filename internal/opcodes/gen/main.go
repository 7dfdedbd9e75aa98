// Command gen writes the files generated from package opcodes' tables (run
// by `go generate ./internal/opcodes`, from that directory).
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/gpurt/gpurt/internal/atomicfile"
	"github.com/gpurt/gpurt/internal/opcodes"
)

func main() {
	root := filepath.Join("..", "..") // go generate runs in internal/opcodes
	if len(os.Args) == 2 {
		root = os.Args[1]
	} else if len(os.Args) > 2 {
		fmt.Fprintln(os.Stderr, "usage: gen [REPO_ROOT]")
		os.Exit(2)
	}
	files, err := opcodes.Files()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if err := atomicfile.WriteFile(filepath.Join(root, p), files[p], atomicfile.Options{}); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
}
