package main

import (
	"fmt"
	"os"
)

// checkModelPath makes sure path is a regular file before anything opens
// it: a FIFO would block forever and a directory fail obscurely.
func checkModelPath(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file (%v)", path, st.Mode().Type())
	}
	return nil
}

// sameFile reports whether in and out name the same file (the same inode,
// through a symlink or a hard link too). An out that does not exist yet is
// not the same file.
func sameFile(in, out string) (bool, error) {
	a, err := os.Stat(in)
	if err != nil {
		return false, err
	}
	b, err := os.Stat(out)
	if os.IsNotExist(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return os.SameFile(a, b), nil
}

// checkQuantizePaths refuses an input that is not a regular file and an
// output that is the input itself: writing over the input while its memory
// map is read destroyed it (SIGBUS, a 0-byte file).
func checkQuantizePaths(in, out string) error {
	if err := checkModelPath(in); err != nil {
		return err
	}
	same, err := sameFile(in, out)
	if err != nil {
		return err
	}
	if same {
		return fmt.Errorf("%s and %s are the same file; write the output to another path", in, out)
	}
	return nil
}
