// Package atomicfile writes files so that a reader, or the file system
// after a crash, sees either the old file or the complete new one, never a
// truncated mix.
//
// # How
//
// The content goes to a temporary file in the target's directory (so the
// rename cannot cross file systems), which is synced to disk and renamed
// over the target; the directory is synced so the rename itself is durable.
// On any failure the temporary file is removed and the target is untouched.
// A target that exists keeps its permission bits; a new one gets Options.Perm.
//
// # Use
//
//	err := atomicfile.Write(path, func(w io.Writer) error {
//		_, err := model.WriteTo(w)
//		return err
//	}, atomicfile.Options{})
//
// Every file gpurt writes (quantized models, bench reports and plots) goes
// through this package.
package atomicfile

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Options configures a write.
type Options struct {
	// Perm is the mode of a new file (0o644 when zero).
	Perm fs.FileMode
}

// Write creates or replaces path with what fill writes.
func Write(path string, fill func(w io.Writer) error, o Options) (err error) {
	perm := o.Perm
	if perm == 0 {
		perm = 0o644
	}
	if st, err := os.Stat(path); err == nil {
		if !st.Mode().IsRegular() {
			return fmt.Errorf("write %s: not a regular file", path)
		}
		perm = st.Mode().Perm()
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriterSize(tmp, 1<<20)
	if err := fill(bw); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: sync: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return syncDir(dir)
}

// WriteFile creates or replaces path with data.
func WriteFile(path string, data []byte, o Options) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}, o)
}

// syncDir makes a rename in dir durable, as far as the file system allows:
// some (network, FUSE) cannot sync a directory, and the new file is
// complete either way.
func syncDir(dir string) error {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
