package runtime_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// ggmlOracle is the directory of vectors produced by upstream ggml (see its
// README): quantizer rows with their reference bytes, CPU from_float bytes
// and dequantized values.
const ggmlOracle = "../../shared/oracle/ggml"

type oracleRow struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	K        int    `json:"k"`
	Dist     string `json:"dist"`
	X        string `json:"x"`
	Ref      string `json:"ref"`
	Deq      string `json:"deq"`
	CPU      string `json:"cpu"`
	RefEqCPU bool   `json:"ref_eq_cpu"`
}

func readOracleRows(t *testing.T) []oracleRow {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(ggmlOracle, "quant.json"))
	if os.IsNotExist(err) {
		t.Skipf("ggml oracle vectors not present at %s (../shared/oracle/ggml); skipping", ggmlOracle)
	}
	if err != nil {
		t.Fatal(err)
	}
	var q struct {
		Rows []oracleRow `json:"rows"`
	}
	if err := json.Unmarshal(raw, &q); err != nil {
		t.Fatal(err)
	}
	if len(q.Rows) == 0 {
		t.Fatal("quant.json lists no rows")
	}
	return q.Rows
}

func readOracleFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(ggmlOracle, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func f32s(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

// firstBlockDiff names the first block whose bytes differ.
func firstBlockDiff(typ rt.DType, got, want []byte) (int, []byte, []byte) {
	ts := typ.TypeSize()
	for b := 0; b*ts < len(want); b++ {
		g, w := got[b*ts:(b+1)*ts], want[b*ts:(b+1)*ts]
		if !bytes.Equal(g, w) {
			return b, g, w
		}
	}
	return -1, nil, nil
}

// TestGGMLOracleQuantizers checks every quantizer row of the oracle: the
// reference quantizer's bytes (ggml_quantize_chunk), the CPU's from_float
// bytes, and the dequantized values (to_float), all exactly.
func TestGGMLOracleQuantizers(t *testing.T) {
	for _, row := range readOracleRows(t) {
		t.Run(row.Name, func(t *testing.T) {
			typ, err := rt.ParseDType(row.Type)
			if err != nil {
				t.Fatal(err)
			}
			x := f32s(readOracleFile(t, row.X))
			ref := readOracleFile(t, row.Ref)
			if len(x) != row.K || len(ref) != typ.RowSize(row.K) {
				t.Fatalf("%d values and %d bytes, want %d and %d", len(x), len(ref), row.K, typ.RowSize(row.K))
			}
			got := make([]byte, len(ref))
			if err := rt.QuantizeRow(typ, x, got); err != nil {
				t.Fatal(err)
			}
			if b, g, w := firstBlockDiff(typ, got, ref); b >= 0 {
				t.Errorf("QuantizeRow: block %d differs\n got % x\nwant % x", b, g, w)
			}
			cpuWant := readOracleFile(t, row.CPU)
			if err := rt.QuantizeRowCPU(typ, x, got); err != nil {
				t.Fatal(err)
			}
			if b, g, w := firstBlockDiff(typ, got, cpuWant); b >= 0 {
				t.Errorf("QuantizeRowCPU: block %d differs\n got % x\nwant % x", b, g, w)
			}
			deq := f32s(readOracleFile(t, row.Deq))
			back := make([]float32, row.K)
			if err := rt.DequantizeRow(typ, ref, back); err != nil {
				t.Fatal(err)
			}
			bad := 0
			for i := range back {
				if math.Float32bits(back[i]) != math.Float32bits(deq[i]) {
					if bad < 3 {
						t.Errorf("DequantizeRow[%d] = %v (%#08x), ggml %v (%#08x)", i, back[i], math.Float32bits(back[i]), deq[i], math.Float32bits(deq[i]))
					}
					bad++
				}
			}
			if bad > 0 {
				t.Errorf("%d of %d dequantized values differ", bad, row.K)
			}
		})
	}
}
