package ggmloracle

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"

	rt "github.com/gpurt/gpurt/runtime"
)

// ErrNoData means the oracle directory is not there.
var ErrNoData = errors.New("ggml oracle data not found")

// Row is one quantizer row of quant.json.
type Row struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	K        int    `json:"k"`
	X        string `json:"x"`
	Ref      string `json:"ref"`
	Deq      string `json:"deq"`
	RefEqCPU bool   `json:"ref_eq_cpu"`
}

// Set is the quantizer rows of a directory.
type Set struct {
	Dir  string
	Rows []Row
}

// Load reads the quantizer rows (quant.json) in dir.
func Load(dir string) (*Set, error) {
	var q struct {
		Rows []Row `json:"rows"`
	}
	if err := readJSON(filepath.Join(dir, "quant.json"), &q); err != nil {
		return nil, err
	}
	return &Set{Dir: dir, Rows: q.Rows}, nil
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%s: %w", path, ErrNoData)
	}
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w: %v", path, rt.ErrCorruptFile, err)
	}
	return nil
}

func (s *Set) read(name string) ([]byte, error) { return os.ReadFile(filepath.Join(s.Dir, name)) }

// Target is where cases run: a backend and a buffer type of its device.
type Target struct {
	Backend    rt.Backend
	BufferType rt.BufferType
}

// Result is the outcome of one case.
type Result struct {
	Name string
	NMSE float64
	Err  error // nil when the case passed
}

// RunDequant copies quantizer row r (ggml's reference bytes) to dst (F32 or
// F16) on tg and requires ggml's dequantized values, converted to dst.
func (s *Set) RunDequant(tg Target, r Row, dst rt.DType) Result {
	res := Result{Name: fmt.Sprintf("CPY_%s_%v", r.Name, dst)}
	wt, err := rt.ParseDType(r.Type)
	if err != nil {
		res.Err = err
		return res
	}
	ctx := rt.NewContext()
	a := ctx.NewTensor(wt, r.K)
	out := ctx.Cpy(a, ctx.NewTensor(dst, r.K))
	got, err := s.computeF32(tg, ctx, out, map[*rt.Tensor]string{a: r.Ref})
	if err != nil {
		res.Err = err
		return res
	}
	want, err := s.readF32(r.Deq)
	if err != nil {
		res.Err = err
		return res
	}
	if dst == rt.F16 {
		for i, v := range want {
			want[i] = rt.F16ToF32(rt.F32ToF16(v))
		}
	}
	res.Err = bitExact(got, want)
	return res
}

// RunQuantize copies quantizer row r's F32 values to r's type on tg and
// requires ggml's reference bytes. Rows whose reference quantizer differs
// from ggml's CPU conversion (RefEqCPU false) have no single answer and are
// not run; an op tg does not support fails with rt.ErrUnsupported.
func (s *Set) RunQuantize(tg Target, r Row) Result {
	if !r.RefEqCPU {
		return Result{Name: "CPY_f32_" + r.Name, Err: fmt.Errorf("%s: ggml's reference and CPU quantizers differ: %w", r.Name, rt.ErrUnsupported)}
	}
	return s.runCopyBytes(tg, r, "CPY_f32_", false)
}

// RunCopy copies quantizer row r's reference bytes to a tensor of the same
// type on tg (a block-for-block copy) and requires the same bytes.
func (s *Set) RunCopy(tg Target, r Row) Result { return s.runCopyBytes(tg, r, "CPY_same_", true) }

// runCopyBytes copies row r (its reference bytes when fromRef, else its F32
// values) into r's type on tg and requires ggml's reference bytes.
func (s *Set) runCopyBytes(tg Target, r Row, prefix string, fromRef bool) Result {
	res := Result{Name: prefix + r.Name}
	wt, err := rt.ParseDType(r.Type)
	if err != nil {
		res.Err = err
		return res
	}
	src, file := rt.F32, r.X
	if fromRef {
		src, file = wt, r.Ref
	}
	ctx := rt.NewContext()
	a := ctx.NewTensor(src, r.K)
	out := ctx.Cpy(a, ctx.NewTensor(wt, r.K))
	got, err := s.compute(tg, ctx, out, map[*rt.Tensor]string{a: file})
	if err != nil {
		res.Err = err
		return res
	}
	want, err := s.read(r.Ref)
	if err != nil {
		res.Err = err
		return res
	}
	res.Err = sameBytes(got, want, wt)
	return res
}

// RunRows runs every quantized row of the set through tg: quantizing from
// F32 (skipped where the backend lacks the quantizer, ErrUnsupported), a
// same-type copy, and dequantizing to F32 and F16. Each failure goes to
// fail; it returns how many checks ran.
func (s *Set) RunRows(tg Target, fail func(name string, err error)) int {
	ran := 0
	for _, r := range s.Rows {
		wt, err := rt.ParseDType(r.Type)
		if err != nil || !wt.IsQuantized() {
			continue
		}
		if res := s.RunQuantize(tg, r); res.Err != nil && !errors.Is(res.Err, rt.ErrUnsupported) {
			fail(res.Name, res.Err)
		} else if res.Err == nil {
			ran++
		}
		if res := s.RunCopy(tg, r); res.Err != nil {
			fail(res.Name, res.Err)
		}
		ran++
		for _, dst := range []rt.DType{rt.F32, rt.F16} {
			if res := s.RunDequant(tg, r, dst); res.Err != nil {
				fail(res.Name, res.Err)
			}
			ran++
		}
	}
	return ran
}

func sameBytes(got, want []byte, t rt.DType) error {
	if len(got) != len(want) {
		return fmt.Errorf("%w: %d bytes, want %d", rt.ErrShape, len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			return fmt.Errorf("byte %d (block %d): got %#02x, want %#02x", i, i/t.TypeSize(), got[i], want[i])
		}
	}
	return nil
}

// compute allocates ctx on tg, fills the leaves from their files, runs the
// graph of out and returns out's bytes.
func (s *Set) compute(tg Target, ctx *rt.Context, out *rt.Tensor, files map[*rt.Tensor]string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	g, err := ctx.BuildGraph(out)
	if err != nil {
		return nil, err
	}
	for _, n := range g.Nodes {
		if !tg.Backend.Device().SupportsOp(n) {
			return nil, fmt.Errorf("%v %v: %w on %s", n.Op, n.Src[0].Type, rt.ErrUnsupported, tg.Backend.Name())
		}
	}
	buf, err := rt.AllocContextTensors(ctx, tg.BufferType)
	if err != nil {
		return nil, err
	}
	defer buf.Free()
	for t, f := range files {
		data, err := s.read(f)
		if err != nil {
			return nil, err
		}
		if len(data) != t.Nbytes() {
			return nil, fmt.Errorf("%w: %s has %d bytes, want %d", rt.ErrCorruptFile, f, len(data), t.Nbytes())
		}
		if err := rt.TensorSet(t, data, 0); err != nil {
			return nil, err
		}
	}
	if err := tg.Backend.GraphCompute(g); err != nil {
		return nil, err
	}
	if err := tg.Backend.Synchronize(); err != nil {
		return nil, err
	}
	raw := make([]byte, out.Nbytes())
	if err := rt.TensorGet(out, raw, 0); err != nil {
		return nil, err
	}
	return raw, nil
}

// computeF32 is compute, decoding out's values to float32.
func (s *Set) computeF32(tg Target, ctx *rt.Context, out *rt.Tensor, files map[*rt.Tensor]string) ([]float32, error) {
	raw, err := s.compute(tg, ctx, out, files)
	if err != nil {
		return nil, err
	}
	return rt.DecodeF32(out, raw)
}

func (s *Set) readF32(name string) ([]float32, error) {
	b, err := s.read(name)
	if err != nil {
		return nil, err
	}
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("%w: %s is %d bytes", rt.ErrCorruptFile, name, len(b))
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}

func bitExact(got, want []float32) error {
	if len(got) != len(want) {
		return fmt.Errorf("%w: got %d values, want %d", rt.ErrShape, len(got), len(want))
	}
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !(got[i] == 0 && want[i] == 0) {
			return fmt.Errorf("element %d: got %v, want %v", i, got[i], want[i])
		}
	}
	return nil
}
