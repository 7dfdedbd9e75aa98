package optest

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// The ggml oracle: MUL_MAT and GET_ROWS cases for every weight type,
// computed by upstream ggml's CPU backend (../shared/oracle/ggml, see its
// README). Any backend runs them with RunGGMLOracleT; from a backend's
// package directory (vk, wgpu), for example:
//
//	func TestGGMLOracle(t *testing.T) {
//		b := newBackend(t) // the package's own test backend
//		optest.RunGGMLOracleT(t, b, "../../shared/oracle/ggml", optest.GGMLOracleOptions{})
//	}
//
// A case whose op or types the backend does not support is skipped, so
// backends can add types one at a time.

// GGMLOracleTensor is one input or output of a case: its ggml type name,
// shape and file.
type GGMLOracleTensor struct {
	Type string `json:"type"`
	Ne   [rt.MaxDims]int
	File string `json:"file"`
}

// UnmarshalJSON reads ne as a list of up to four sizes.
func (g *GGMLOracleTensor) UnmarshalJSON(b []byte) error {
	var raw struct {
		Type string `json:"type"`
		Ne   []int  `json:"ne"`
		File string `json:"file"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if len(raw.Ne) == 0 || len(raw.Ne) > rt.MaxDims {
		return fmt.Errorf("ne %v: want 1 to %d sizes: %w", raw.Ne, rt.MaxDims, rt.ErrCorruptFile)
	}
	g.Type, g.File, g.Ne = raw.Type, raw.File, [rt.MaxDims]int{1, 1, 1, 1}
	copy(g.Ne[:], raw.Ne)
	return nil
}

// GGMLOracleCase is one op case of the oracle's manifest.json.
type GGMLOracleCase struct {
	Name   string             `json:"name"`
	Kind   string             `json:"kind"` // "mul_mat" or "get_rows"
	WType  string             `json:"wtype"`
	Inputs []GGMLOracleTensor `json:"inputs"`
	Out    GGMLOracleTensor   `json:"out"`
}

// GGMLOracleOptions tunes RunGGMLOracleT.
type GGMLOracleOptions struct {
	// GetRowsNMSE is GET_ROWS's bound; 0 demands bit-identical values (the
	// CPU dequantizes exactly as ggml does). ggml's test-backend-ops allows
	// 1e-7, which a GPU that fuses d*q+m may need.
	GetRowsNMSE float64
}

// ggmlMulMatNMSE is test-backend-ops' bound for MUL_MAT (test_mul_mat::max_nmse_err).
const ggmlMulMatNMSE = 5e-4

// LoadGGMLOracle reads the cases of the oracle in dir. The error wraps
// fs.ErrNotExist when the directory is absent.
func LoadGGMLOracle(dir string) ([]GGMLOracleCase, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil, err
	}
	var m struct {
		Cases []GGMLOracleCase `json:"cases"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("%s: %v: %w", filepath.Join(dir, "manifest.json"), err, rt.ErrCorruptFile)
	}
	return m.Cases, nil
}

// RunGGMLOracleT runs every oracle case in dir on b as a subtest: MUL_MAT
// within NMSE 5e-4 of ggml's result, GET_ROWS exact (or within
// opt.GetRowsNMSE). It skips t cleanly when the oracle is absent, and each
// case b's device does not support.
func RunGGMLOracleT(t *testing.T, b rt.Backend, dir string, opt GGMLOracleOptions) {
	t.Helper()
	cases, err := LoadGGMLOracle(dir)
	if errors.Is(err, os.ErrNotExist) {
		t.Skipf("ggml oracle vectors not present at %s; skipping", dir)
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatalf("%s lists no cases", dir)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			nmse, limit, err := RunGGMLOracleCase(b, dir, c, opt)
			switch {
			case errors.Is(err, rt.ErrUnsupported):
				t.Skipf("not supported: %v", err)
			case err != nil:
				t.Fatal(err)
			case nmse > limit:
				t.Errorf("NMSE %.3g against ggml exceeds %.0e", nmse, limit)
			default:
				t.Logf("NMSE %.3g (max %.0e)", nmse, limit)
			}
		})
	}
}

// CheckGGMLOracleCase runs case c on b and fails t where it errs or its
// NMSE exceeds the case's bound.
func CheckGGMLOracleCase(t testing.TB, b rt.Backend, dir string, c GGMLOracleCase) {
	t.Helper()
	nmse, limit, err := RunGGMLOracleCase(b, dir, c, GGMLOracleOptions{})
	switch {
	case err != nil:
		t.Errorf("%s: %v", c.Name, err)
	case nmse > limit:
		t.Errorf("%s: NMSE %.3g against ggml exceeds %.0e", c.Name, nmse, limit)
	}
}

// RunGGMLOracleCase computes case c on b and returns its NMSE against
// ggml's output and the bound that applies. An error wrapping
// rt.ErrUnsupported means b's device does not run the case.
func RunGGMLOracleCase(b rt.Backend, dir string, c GGMLOracleCase, opt GGMLOracleOptions) (nmse, limit float64, err error) {
	if len(c.Inputs) != 2 {
		return 0, 0, fmt.Errorf("%s: %d inputs, want 2: %w", c.Name, len(c.Inputs), rt.ErrCorruptFile)
	}
	ctx := rt.NewContext()
	var ins [2]*rt.Tensor
	for i, in := range c.Inputs {
		typ, err := rt.ParseDType(in.Type)
		if err != nil {
			return 0, 0, fmt.Errorf("%s: input %d: %w", c.Name, i, err)
		}
		if !typ.Valid() {
			return 0, 0, fmt.Errorf("%s: input type %v: %w", c.Name, typ, rt.ErrUnsupported)
		}
		ins[i] = ctx.NewTensor(typ, in.Ne[:]...)
	}
	var out *rt.Tensor
	switch c.Kind {
	case "mul_mat":
		out, limit = ctx.MulMat(ins[0], ins[1]), ggmlMulMatNMSE
	case "get_rows":
		out, limit = ctx.GetRows(ins[0], ins[1]), opt.GetRowsNMSE
	default:
		return 0, 0, fmt.Errorf("%s: unknown kind %q: %w", c.Name, c.Kind, rt.ErrCorruptFile)
	}
	g, err := ctx.BuildGraph(out)
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w", c.Name, err)
	}
	if out.Ne != c.Out.Ne {
		return 0, 0, fmt.Errorf("%s: result %s, ggml's %s: %w", c.Name, rt.ShapeString(out.Ne), rt.ShapeString(c.Out.Ne), rt.ErrShape)
	}
	if n := unsupported(b.Device(), g); n != nil {
		return 0, 0, fmt.Errorf("%s: %s: %w", c.Name, describe(n), rt.ErrUnsupported)
	}
	buf, err := rt.AllocContextTensors(ctx, b.Device().BufferType())
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w", c.Name, err)
	}
	defer buf.Free()
	for i, in := range c.Inputs {
		raw, err := os.ReadFile(filepath.Join(dir, in.File))
		if err != nil {
			return 0, 0, err
		}
		if len(raw) != ins[i].Nbytes() {
			return 0, 0, fmt.Errorf("%s: %s has %d bytes, want %d: %w", c.Name, in.File, len(raw), ins[i].Nbytes(), rt.ErrCorruptFile)
		}
		if err := rt.TensorSet(ins[i], raw, 0); err != nil {
			return 0, 0, err
		}
	}
	if err := b.GraphCompute(g); err != nil {
		return 0, 0, fmt.Errorf("%s: %w", c.Name, err)
	}
	if err := b.Synchronize(); err != nil {
		return 0, 0, fmt.Errorf("%s: %w", c.Name, err)
	}
	got, err := rt.TensorGetF32(out)
	if err != nil {
		return 0, 0, err
	}
	raw, err := os.ReadFile(filepath.Join(dir, c.Out.File))
	if err != nil {
		return 0, 0, err
	}
	if len(raw) != 4*len(got) {
		return 0, 0, fmt.Errorf("%s: %s has %d bytes, want %d: %w", c.Name, c.Out.File, len(raw), 4*len(got), rt.ErrCorruptFile)
	}
	want := make([]float32, len(got))
	for i := range want {
		want[i] = math.Float32frombits(uint32(raw[4*i]) | uint32(raw[4*i+1])<<8 | uint32(raw[4*i+2])<<16 | uint32(raw[4*i+3])<<24)
	}
	if limit == 0 {
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				return 0, 0, fmt.Errorf("%s: value %d is %v, ggml's %v (want bit-identical)", c.Name, i, got[i], want[i])
			}
		}
		return 0, 0, nil
	}
	return NMSE(got, want), limit, nil
}
