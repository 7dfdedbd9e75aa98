package rpc

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// elfNameTable reads a table of C string pointers (GGML_OP_NAME and the
// like) out of a position-independent x86-64 binary: the pointers are
// R_X86_64_RELATIVE relocations whose addends point at the strings. first
// and second are the table's entries 1 and 2 (entry 0 is read too when
// withZero).
func elfNameTable(t *testing.T, f *elf.File, first, second string, n int, withZero bool) []string {
	t.Helper()
	rela := f.Section(".rela.dyn")
	if rela == nil {
		t.Skip("skipped: the binary has no .rela.dyn")
	}
	data, err := rela.Data()
	if err != nil {
		t.Fatal(err)
	}
	addends := map[uint64]uint64{} // slot address -> pointed-to address
	for i := 0; i+24 <= len(data); i += 24 {
		off := binary.LittleEndian.Uint64(data[i:])
		info := binary.LittleEndian.Uint64(data[i+8:])
		if uint32(info) == uint32(elf.R_X86_64_RELATIVE) {
			addends[off] = binary.LittleEndian.Uint64(data[i+16:])
		}
	}
	str := func(addr uint64) (string, bool) {
		for _, p := range f.Progs {
			if p.Type == elf.PT_LOAD && addr >= p.Vaddr && addr < p.Vaddr+p.Filesz {
				buf := make([]byte, 64)
				n, _ := p.ReadAt(buf, int64(addr-p.Vaddr))
				if i := bytes.IndexByte(buf[:n], 0); i >= 0 {
					return string(buf[:i]), true
				}
			}
		}
		return "", false
	}
	for slot, target := range addends {
		if s, _ := str(target); s != first {
			continue
		}
		if s, _ := str(addends[slot+8]); s != second {
			continue
		}
		start := slot
		if withZero {
			start -= 8
		}
		var names []string
		for i := 0; i < n; i++ {
			s, ok := str(addends[start+uint64(8*i)])
			if !ok {
				break
			}
			names = append(names, s)
		}
		return names
	}
	t.Fatalf("no table starting %q, %q in the binary", first, second)
	return nil
}

// TestEnumsMatchLlamaBuild reads ggml's op, unary-op and GLU-op name tables
// out of the llama.cpp rpc-server this package interoperates with, and
// checks them against the enums here: the op ids on the wire must agree.
func TestEnumsMatchLlamaBuild(t *testing.T) {
	path := filepath.Join("..", "..", "shared", "tools", "llama.cpp", "rpc-server")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("skipped: llama.cpp's rpc-server is not present at %s", path)
	}
	f, err := elf.Open(path)
	if err != nil {
		t.Skipf("skipped: %s is not an ELF binary: %v", path, err)
	}
	defer f.Close()
	if f.Machine != elf.EM_X86_64 {
		t.Skipf("skipped: %s is for %v", path, f.Machine)
	}
	for _, tc := range []struct {
		name          string
		first, second string
		want          []string
		withZero      bool
	}{
		{"ggml_op", "DUP", "ADD", ggmlOpNames[:], true},
		{"ggml_unary_op", "ABS", "SGN", ggmlUnaryNames[:], false},
		{"ggml_glu_op", "REGLU", "GEGLU", ggmlGluNames[:], false},
	} {
		got := elfNameTable(t, f, tc.first, tc.second, len(tc.want), tc.withZero)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s in the binary:\n%v\nhere:\n%v", tc.name, got, tc.want)
		}
	}
}
