package bench

import (
	"fmt"
	"sort"
	"strings"

	rt "github.com/gpurt/gpurt/runtime"
)

// Shapes sizes the op cases.
type Shapes struct {
	Name    string
	MK      int   // MUL_MAT M = K
	Ns      []int // MUL_MAT N values
	Embd    int   // row length of ADD, MUL, RMS_NORM, SILU and CPY, which are [Embd, Tokens]
	Tokens  int
	HeadDim int // ROPE is [HeadDim, Heads, Tokens]; SOFT_MAX is [Tokens, Tokens, Heads]
	Heads   int
	Rows    int // GET_ROWS picks Tokens rows out of [Embd, Rows]
	// WideK, when set, adds MUL_MAT cases of the WideKTypes at M = MK, K =
	// WideK: test-backend-ops' perf shape for the types its 4096² block
	// lacks, so that they too compare with llama.cpp on one shape.
	WideK int
}

// WideKTypes are the weight types test-backend-ops times at K = 14336 but
// not at 4096² (its extra perf block covers the others).
var WideKTypes = []rt.DType{rt.Q4_1, rt.Q5_0, rt.Q5_1, rt.IQ4_NL}

var (
	// FullShapes are llama-7B-like: 4096-wide weights, a 512-token batch.
	FullShapes = Shapes{Name: "full", MK: 4096, Ns: []int{1, 8, 512}, Embd: 4096, Tokens: 512, HeadDim: 128, Heads: 32, Rows: 4096, WideK: 14336}
	// SoftwareQuickShapes replace the 4096² matmuls and the 512-token batch
	// in quick runs on software GPUs (lavapipe), where the full ones take
	// tens of seconds each.
	SoftwareQuickShapes = Shapes{Name: "quick-software", MK: 1024, Ns: []int{1, 8, 64}, Embd: 4096, Tokens: 64, HeadDim: 128, Heads: 32, Rows: 1024}
	// TinyShapes are for tests; MK is one K-quant super-block.
	TinyShapes = Shapes{Name: "tiny", MK: 256, Ns: []int{1, 8}, Embd: 64, Tokens: 8, HeadDim: 16, Heads: 4, Rows: 16}
)

// MulMatTypes are the weight dtypes the MUL_MAT cases cover: the float
// types, Q8_0/Q4_0, and the weight types of llama.cpp's GGUF files (the
// K-quants first, as Q4_K_M and Q5_K_M files hold them).
var MulMatTypes = []rt.DType{rt.F32, rt.F16, rt.Q8_0, rt.Q4_0,
	rt.Q4_K, rt.Q5_K, rt.Q6_K, rt.Q3_K, rt.Q2_K, rt.IQ4_XS,
	rt.Q5_0, rt.IQ4_NL, rt.Q4_1, rt.Q5_1, rt.MXFP4, rt.TQ1_0, rt.TQ2_0}

// Case is one op benchmark: a graph with a single op node on random inputs.
type Case struct {
	Op      string   // record op name, e.g. "MUL_MAT"
	Type    rt.DType // the dtype that varies: the weight for MUL_MAT, the source for GET_ROWS, the destination for CPY
	M, N, K int      // MUL_MAT only
	Ne      [4]int   // output shape
	Flops   float64  // floating-point operations per run; 0 for memory-bound ops
	Bytes   float64  // bytes read plus bytes written per run
	build   func(b *builder) *rt.Tensor
}

// Name identifies the case, e.g. "MUL_MAT q4_0 4096x512x4096" or "ADD f32 [4096,512,1,1]".
func (c Case) Name() string {
	if c.Op == "MUL_MAT" {
		return fmt.Sprintf("%s %v %s", c.Op, c.Type, mnk(c.M, c.N, c.K))
	}
	return fmt.Sprintf("%s %v %s", c.Op, c.Type, rt.ShapeString(c.Ne))
}

// benchName is the case's name as a `go test -bench` sub-benchmark.
func (c Case) benchName() string {
	if c.Op == "MUL_MAT" {
		return fmt.Sprintf("%v/%s", c.Type, mnk(c.M, c.N, c.K))
	}
	return fmt.Sprintf("%s/%v/%dx%dx%d", c.Op, c.Type, c.Ne[0], c.Ne[1], c.Ne[2])
}

// mnk formats a matmul shape as M×N×K, the order the targets use.
func mnk(m, n, k int) string { return fmt.Sprintf("%dx%dx%d", m, n, k) }

// builder creates a case's tensors and remembers how to fill its I32 inputs.
type builder struct {
	ctx     *rt.Context
	indices map[*rt.Tensor]int // I32 leaf -> exclusive bound of its random values
}

func newBuilder() *builder { return &builder{ctx: rt.NewContext(), indices: map[*rt.Tensor]int{}} }

// index makes an I32 input of n values in [0, limit).
func (b *builder) index(n, limit int) *rt.Tensor {
	t := b.ctx.NewTensor(rt.I32, n)
	b.indices[t] = limit
	return t
}

func f32Bytes(n int) float64 { return 4 * float64(n) }

func rowBytes(t rt.DType, n int) float64 { return float64(t.RowSize(n)) }

// MulMatCase multiplies a [K,M] weight of dtype t by an F32 [K,N] input.
func MulMatCase(t rt.DType, m, n, k int) Case {
	return Case{
		Op: "MUL_MAT", Type: t, M: m, N: n, K: k, Ne: [4]int{m, n, 1, 1},
		Flops: 2 * float64(m) * float64(n) * float64(k),
		Bytes: rowBytes(t, k)*float64(m) + f32Bytes(k*n) + f32Bytes(m*n),
		build: func(b *builder) *rt.Tensor {
			return b.ctx.MulMat(b.ctx.NewTensor(t, k, m), b.ctx.NewTensor(rt.F32, k, n))
		},
	}
}

// BinaryCase is ADD or MUL of two F32 [ne0, ne1] tensors, or with a
// broadcast [ne0] row as src1 (a norm weight) when bcast is set.
func BinaryCase(op rt.Op, ne0, ne1 int, bcast bool) Case {
	n1 := ne1
	if bcast {
		n1 = 1
	}
	return Case{
		Op: op.String(), Type: rt.F32, Ne: [4]int{ne0, ne1, 1, 1},
		Bytes: f32Bytes(2*ne0*ne1 + ne0*n1),
		build: func(b *builder) *rt.Tensor {
			x, y := b.ctx.NewTensor(rt.F32, ne0, ne1), b.ctx.NewTensor(rt.F32, ne0, n1)
			if op == rt.OpMul {
				return b.ctx.Mul(x, y)
			}
			return b.ctx.Add(x, y)
		},
	}
}

// RowCase is a one-input F32 op over [ne0, ne1]: RMS_NORM or SILU.
func RowCase(op rt.Op, ne0, ne1 int) Case {
	return Case{
		Op: op.String(), Type: rt.F32, Ne: [4]int{ne0, ne1, 1, 1},
		Bytes: f32Bytes(2 * ne0 * ne1),
		build: func(b *builder) *rt.Tensor {
			x := b.ctx.NewTensor(rt.F32, ne0, ne1)
			if op == rt.OpRmsNorm {
				return b.ctx.RmsNorm(x, 1e-5)
			}
			return b.ctx.Unary(op, x)
		},
	}
}

// SoftMaxCase is attention's softmax: scores [kv, q, heads] with an F32
// [kv, q] mask and scale 1/sqrt(128).
func SoftMaxCase(kv, q, heads int) Case {
	return Case{
		Op: "SOFT_MAX", Type: rt.F32, Ne: [4]int{kv, q, heads, 1},
		Bytes: f32Bytes(2*kv*q*heads + kv*q),
		build: func(b *builder) *rt.Tensor {
			return b.ctx.SoftMax(b.ctx.NewTensor(rt.F32, kv, q, heads), b.ctx.NewTensor(rt.F32, kv, q), 0.08838835)
		},
	}
}

// RopeCase rotates F32 [headDim, heads, tokens] in llama's normal mode.
func RopeCase(headDim, heads, tokens int) Case {
	n := headDim * heads * tokens
	return Case{
		Op: "ROPE", Type: rt.F32, Ne: [4]int{headDim, heads, tokens, 1},
		Bytes: f32Bytes(2*n + tokens),
		build: func(b *builder) *rt.Tensor {
			return b.ctx.Rope(b.ctx.NewTensor(rt.F32, headDim, heads, tokens), b.index(tokens, 4096), headDim, rt.RopeNormal, 10000, 1)
		},
	}
}

// GetRowsCase picks n random rows of a [ne0, rows] table of dtype t (an
// embedding lookup); the result is F32 [ne0, n].
func GetRowsCase(t rt.DType, ne0, rows, n int) Case {
	return Case{
		Op: "GET_ROWS", Type: t, Ne: [4]int{ne0, n, 1, 1},
		Bytes: rowBytes(t, ne0)*float64(n) + f32Bytes(ne0*n+n),
		build: func(b *builder) *rt.Tensor {
			return b.ctx.GetRows(b.ctx.NewTensor(t, ne0, rows), b.index(n, rows))
		},
	}
}

// CpyCase converts F32 [ne0, ne1] into a tensor of dtype t.
func CpyCase(t rt.DType, ne0, ne1 int) Case {
	return Case{
		Op: "CPY", Type: t, Ne: [4]int{ne0, ne1, 1, 1},
		Bytes: f32Bytes(ne0*ne1) + rowBytes(t, ne0)*float64(ne1),
		build: func(b *builder) *rt.Tensor {
			return b.ctx.Cpy(b.ctx.NewTensor(rt.F32, ne0, ne1), b.ctx.NewTensor(t, ne0, ne1))
		},
	}
}

// OpCases is the op suite at shapes s.
func OpCases(s Shapes) []Case {
	var cs []Case
	for _, t := range MulMatTypes {
		// K is a whole number of blocks: tiny shapes round it up to the
		// 256-value super-blocks.
		bs := t.BlockSize()
		k := (s.MK + bs - 1) / bs * bs
		for _, n := range s.Ns {
			cs = append(cs, MulMatCase(t, s.MK, n, k))
		}
	}
	if s.WideK > 0 {
		for _, t := range WideKTypes {
			for _, n := range s.Ns {
				cs = append(cs, MulMatCase(t, s.MK, n, s.WideK))
			}
		}
	}
	return append(cs,
		BinaryCase(rt.OpAdd, s.Embd, s.Tokens, false),
		BinaryCase(rt.OpMul, s.Embd, s.Tokens, true),
		RowCase(rt.OpRmsNorm, s.Embd, s.Tokens),
		RowCase(rt.OpSilu, s.Embd, s.Tokens),
		SoftMaxCase(s.Tokens, s.Tokens, s.Heads),
		RopeCase(s.HeadDim, s.Heads, s.Tokens),
		GetRowsCase(rt.F32, s.Embd, s.Rows, s.Tokens),
		GetRowsCase(rt.Q8_0, s.Embd, s.Rows, s.Tokens),
		CpyCase(rt.F16, s.Embd, s.Tokens),
		CpyCase(rt.Q8_0, s.Embd, s.Tokens),
	)
}

// Filter selects what runs. Empty lists select everything; names are
// matched case-insensitively.
type Filter struct {
	Backends []string // backend family ("cpu", "vulkan", "webgpu") or device name
	Ops      []string // record op names; "E2E" selects both end-to-end records
	Types    []string // dtype names, e.g. "q8_0"
}

func matchAny(list []string, names ...string) bool {
	if len(list) == 0 {
		return true
	}
	for _, want := range list {
		for _, n := range names {
			if n != "" && strings.EqualFold(strings.TrimSpace(want), n) {
				return true
			}
		}
	}
	return false
}

// Op reports whether an op (or one of its alias names) is selected.
func (f Filter) Op(names ...string) bool { return matchAny(f.Ops, names...) }

// Type reports whether dtype t is selected.
func (f Filter) Type(t rt.DType) bool { return matchAny(f.Types, t.String()) }

// Backend reports whether a device of a backend family is selected.
func (f Filter) Backend(family, device string) bool { return matchAny(f.Backends, family, device) }

// Case reports whether an op case is selected.
func (f Filter) Case(c Case) bool { return f.Op(c.Op) && f.Type(c.Type) }

// validate rejects op and dtype names the suite does not know, so that a
// typo is an error rather than an empty run.
func (f Filter) validate() error {
	ops := map[string]bool{}
	types := map[string]bool{}
	for _, c := range OpCases(FullShapes) {
		ops[strings.ToLower(c.Op)] = true
		types[strings.ToLower(c.Type.String())] = true
	}
	for _, op := range []string{"DISPATCH", "TRANSFER", "UPLOAD", "DOWNLOAD", "ROUNDTRIP", "SCHED", "PIPELINE", "E2E", "E2E_PROMPT", "E2E_GEN", "READ", "COPY", "TOKENIZE"} {
		ops[strings.ToLower(op)] = true
	}
	check := func(what string, list []string, known map[string]bool) error {
		for _, name := range list {
			if !known[strings.ToLower(strings.TrimSpace(name))] {
				names := make([]string, 0, len(known))
				for n := range known {
					names = append(names, n)
				}
				sort.Strings(names)
				return fmt.Errorf("bench: unknown %s %q (known: %s)", what, name, strings.Join(names, ", "))
			}
		}
		return nil
	}
	if err := check("op", f.Ops, ops); err != nil {
		return err
	}
	return check("dtype", f.Types, types)
}

// SplitList splits a comma-separated flag value, dropping empty items.
func SplitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
