package synthmodel

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"sync"

	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/llama"
	"github.com/gpurt/gpurt/models"
	rt "github.com/gpurt/gpurt/runtime"
)

// Version is part of every cached file name; bump it when the generated
// bytes change so stale caches are not reused.
const Version = 1

// Shape is a llama model's hyperparameters.
type Shape struct {
	Dim, Blocks, Heads, KVHeads, FFN, Vocab, Ctx int
}

// Params is the number of weights.
func (s Shape) Params() int64 {
	kv := s.Dim / s.Heads * s.KVHeads
	perBlock := int64(2*s.Dim*s.Dim+2*s.Dim*kv+3*s.Dim*s.FFN) + 2*int64(s.Dim)
	return int64(s.Blocks)*perBlock + 2*int64(s.Dim)*int64(s.Vocab) + int64(s.Dim)
}

func (s Shape) validate() error {
	if s.Dim <= 0 || s.Blocks <= 0 || s.Heads <= 0 || s.KVHeads <= 0 || s.FFN <= 0 || s.Vocab <= 0 || s.Ctx <= 0 {
		return fmt.Errorf("synthmodel: shape %+v: every field must be positive: %w", s, rt.ErrInvalidArgument)
	}
	if s.Dim%s.Heads != 0 || s.Heads%s.KVHeads != 0 || (s.Dim/s.Heads)%2 != 0 {
		return fmt.Errorf("synthmodel: shape %+v: dim must split into even-sized heads and heads into KV groups: %w", s, rt.ErrInvalidArgument)
	}
	if s.Vocab < 512 {
		return fmt.Errorf("synthmodel: shape %+v: vocab below the tokenizer's 512 tokens: %w", s, rt.ErrInvalidArgument)
	}
	return nil
}

// Presets are the named shapes.
var Presets = map[string]Shape{
	"tiny": {Dim: 256, Blocks: 2, Heads: 4, KVHeads: 2, FFN: 512, Vocab: 1024, Ctx: 256},
	"155m": {Dim: 1024, Blocks: 8, Heads: 16, KVHeads: 4, FFN: 2816, Vocab: 32000, Ctx: 2048},
	"7b":   {Dim: 4096, Blocks: 32, Heads: 32, KVHeads: 8, FFN: 11008, Vocab: 32000, Ctx: 4096},
}

// directParams is the size above which Ensure writes types directly
// instead of quantizing an F16 master.
const directParams = 1_000_000_000

// Spec is a preset and a llama.cpp file type, written PRESET:TYPE.
type Spec struct {
	Preset   string
	FileType llama.FileType
}

// Prefix marks a synthetic model where a GGUF path is expected.
const Prefix = "synth:"

// IsSpec reports whether s names a synthetic model (synth:PRESET:TYPE).
func IsSpec(s string) bool { return strings.HasPrefix(s, Prefix) }

// ParseSpec parses "synth:PRESET:TYPE" (or "PRESET:TYPE"); TYPE defaults to f16.
func ParseSpec(s string) (Spec, error) {
	body := strings.TrimPrefix(s, Prefix)
	preset, typ, _ := strings.Cut(body, ":")
	if typ == "" {
		typ = "f16"
	}
	preset = strings.ToLower(preset)
	if _, ok := Presets[preset]; !ok {
		return Spec{}, fmt.Errorf("synthmodel: %q: unknown preset %q (want tiny, 155m or 7b): %w", s, preset, rt.ErrInvalidArgument)
	}
	ft, err := llama.ParseFileType(typ)
	if err != nil {
		return Spec{}, fmt.Errorf("synthmodel: %q: %w", s, err)
	}
	sp := Spec{Preset: preset, FileType: ft}
	if Presets[preset].Params() > directParams && !directType(ft) {
		return Spec{}, fmt.Errorf("synthmodel: %q: preset %s is generated directly, in f16, q8_0 or q4_0 only: %w", s, preset, rt.ErrUnsupported)
	}
	return sp, nil
}

func directType(ft llama.FileType) bool {
	return ft.Name == "f16" || ft.Name == "q8_0" || ft.Name == "q4_0"
}

// Name is the spec's model name, e.g. "synth-155m-q4_k_m".
func (s Spec) Name() string { return "synth-" + s.Preset + "-" + s.FileType.Name }

// FileName is the cached file's name, which includes Version.
func (s Spec) FileName() string {
	return fmt.Sprintf("synth-v%d-%s-%s.gguf", Version, s.Preset, s.FileType.Name)
}

// Options control generation.
type Options struct {
	Seed uint64 // default 1
	// Name is general.name; default "synth-TYPE".
	Name string
	// Threads draw and quantize rows in parallel; 0 means one per CPU.
	Threads int
}

// DefaultDir is the cache directory: $GPURT_SYNTH_DIR, else the user's
// cache directory's gpurt/synth.
func DefaultDir() (string, error) {
	if d := os.Getenv("GPURT_SYNTH_DIR"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("synthmodel: no cache directory (set GPURT_SYNTH_DIR): %w", err)
	}
	return filepath.Join(d, "gpurt", "synth"), nil
}

// Ensure returns the path of spec's file in dir, generating it (and the
// F16 master it is quantized from) when absent.
func Ensure(dir string, spec Spec, opt Options) (string, error) {
	path := filepath.Join(dir, spec.FileName())
	if _, err := os.Stat(path); err == nil {
		return path, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("synthmodel: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("synthmodel: %w", err)
	}
	shape := Presets[spec.Preset]
	if spec.FileType.Name == "f16" || shape.Params() > directParams {
		opt.Name = spec.Name()
		return path, Write(path, shape, spec.FileType, opt)
	}
	master, err := Ensure(dir, Spec{Preset: spec.Preset, FileType: mustFileType("f16")}, opt)
	if err != nil {
		return "", err
	}
	f, err := gguf.Open(master)
	if err != nil {
		return "", fmt.Errorf("synthmodel: %w", err)
	}
	defer f.Close()
	w, _, err := llama.Quantize(f, llama.QuantizeOptions{FileType: spec.FileType, Threads: opt.Threads})
	if err != nil {
		return "", fmt.Errorf("synthmodel: quantize %s: %w", spec.Name(), err)
	}
	if err := w.Set("general.name", spec.Name()); err != nil {
		return "", err
	}
	if err := w.WriteFile(path); err != nil {
		return "", fmt.Errorf("synthmodel: %w", err)
	}
	return path, nil
}

func mustFileType(name string) llama.FileType {
	ft, err := llama.ParseFileType(name)
	if err != nil {
		panic(err) // a constant name
	}
	return ft
}

// Write generates a model of shape whose 2-D weights are ft's default type
// (norms F32) and writes it to path atomically, one tensor at a time.
func Write(path string, shape Shape, ft llama.FileType, opt Options) error {
	if err := shape.validate(); err != nil {
		return err
	}
	wt := ft.Default
	if !rt.HasCodec(wt) || wt.BlockSize() > shape.Dim || shape.Dim%wt.BlockSize() != 0 || shape.FFN%wt.BlockSize() != 0 {
		return fmt.Errorf("synthmodel: cannot write %s weights of width %d/%d directly: %w", ft.Name, shape.Dim, shape.FFN, rt.ErrUnsupported)
	}
	if opt.Seed == 0 {
		opt.Seed = 1
	}
	if opt.Threads <= 0 {
		opt.Threads = goruntime.NumCPU()
	}
	w := gguf.NewWriter()
	if opt.Name == "" {
		opt.Name = "synth-" + ft.Name
	}
	if err := setMetadata(w, shape, ft, opt.Name); err != nil {
		return err
	}
	kv := shape.Dim / shape.Heads * shape.KVHeads
	idx := uint64(0)
	add := func(name string, t rt.DType, ne []int, std float32, zeroRow int) error {
		idx++
		g := tensorGen{seed: opt.Seed, index: idx, dtype: t, cols: ne[0], rows: 1, std: std, zeroRow: zeroRow, threads: opt.Threads}
		if len(ne) > 1 {
			g.rows = ne[1]
		}
		return w.AddTensorFunc(name, t, ne, g.fill)
	}
	const noZero = -1
	eos := 2
	if err := add("token_embd.weight", wt, []int{shape.Dim, shape.Vocab}, 0.02, noZero); err != nil {
		return err
	}
	for b := 0; b < shape.Blocks; b++ {
		p := fmt.Sprintf("blk.%d.", b)
		tensors := []struct {
			name string
			t    rt.DType
			ne   []int
			std  float32
		}{
			{"attn_norm.weight", rt.F32, []int{shape.Dim}, 0},
			{"attn_q.weight", wt, []int{shape.Dim, shape.Dim}, 0.02},
			{"attn_k.weight", wt, []int{shape.Dim, kv}, 0.02},
			{"attn_v.weight", wt, []int{shape.Dim, kv}, 0.02},
			{"attn_output.weight", wt, []int{shape.Dim, shape.Dim}, 0.02},
			{"ffn_norm.weight", rt.F32, []int{shape.Dim}, 0},
			{"ffn_gate.weight", wt, []int{shape.Dim, shape.FFN}, 0.02},
			{"ffn_up.weight", wt, []int{shape.Dim, shape.FFN}, 0.02},
			{"ffn_down.weight", wt, []int{shape.FFN, shape.Dim}, 0.02},
		}
		for _, t := range tensors {
			if err := add(p+t.name, t.t, t.ne, t.std, noZero); err != nil {
				return err
			}
		}
	}
	if err := add("output_norm.weight", rt.F32, []int{shape.Dim}, 0, noZero); err != nil {
		return err
	}
	if err := add("output.weight", wt, []int{shape.Dim, shape.Vocab}, 0.02, eos); err != nil {
		return err
	}
	if err := w.WriteFile(path); err != nil {
		return fmt.Errorf("synthmodel: %w", err)
	}
	return nil
}

// setMetadata writes the llama hyperparameters and the padded tokenizer.
func setMetadata(w *gguf.Writer, s Shape, ft llama.FileType, name string) error {
	tok, err := gguf.Parse(models.Default)
	if err != nil {
		return fmt.Errorf("synthmodel: embedded tokenizer: %w", err)
	}
	tokens, err := tok.StringArray("tokenizer.ggml.tokens")
	if err != nil {
		return fmt.Errorf("synthmodel: embedded tokenizer: %w", err)
	}
	scores, err := tok.Float32Array("tokenizer.ggml.scores")
	if err != nil {
		return fmt.Errorf("synthmodel: embedded tokenizer: %w", err)
	}
	types, err := tok.Int32Array("tokenizer.ggml.token_type")
	if err != nil {
		return fmt.Errorf("synthmodel: embedded tokenizer: %w", err)
	}
	const unusedType = 5 // llama.cpp's LLAMA_TOKEN_TYPE_UNUSED
	for i := len(tokens); i < s.Vocab; i++ {
		tokens = append(tokens, fmt.Sprintf("<unused%d>", i))
		scores = append(scores, 0)
		types = append(types, unusedType)
	}
	kvs := []struct {
		key string
		val any
	}{
		{"general.architecture", "llama"},
		{"general.name", name},
		{"general.file_type", ft.ID},
		{"llama.context_length", uint32(s.Ctx)},
		{"llama.embedding_length", uint32(s.Dim)},
		{"llama.block_count", uint32(s.Blocks)},
		{"llama.feed_forward_length", uint32(s.FFN)},
		{"llama.attention.head_count", uint32(s.Heads)},
		{"llama.attention.head_count_kv", uint32(s.KVHeads)},
		{"llama.rope.dimension_count", uint32(s.Dim / s.Heads)},
		{"llama.rope.freq_base", float32(10000)},
		{"llama.attention.layer_norm_rms_epsilon", float32(1e-5)},
		{"llama.vocab_size", uint32(s.Vocab)},
		{"tokenizer.ggml.model", "llama"},
		{"tokenizer.ggml.tokens", tokens[:s.Vocab]},
		{"tokenizer.ggml.scores", scores[:s.Vocab]},
		{"tokenizer.ggml.token_type", types[:s.Vocab]},
		{"tokenizer.ggml.bos_token_id", uint32(1)},
		{"tokenizer.ggml.eos_token_id", uint32(2)},
		{"tokenizer.ggml.unknown_token_id", uint32(0)},
		{"tokenizer.ggml.add_bos_token", true},
		{"tokenizer.ggml.add_eos_token", false},
	}
	if ft.ID != 1 && ft.ID != 0 {
		kvs = append(kvs, struct {
			key string
			val any
		}{"general.quantization_version", uint32(2)})
	}
	for _, kv := range kvs {
		if err := w.Set(kv.key, kv.val); err != nil {
			return err
		}
	}
	return nil
}

// chunkRows is how many rows share one generator stream.
const chunkRows = 16

// tensorGen draws one tensor's values: chunk c of rows comes from a PCG
// seeded by (seed, tensor index, c), so any split among threads gives the
// same bytes. std 0 means all ones (a norm weight).
type tensorGen struct {
	seed, index uint64
	dtype       rt.DType
	cols, rows  int
	std         float32
	zeroRow     int
	threads     int
}

func (g tensorGen) fill(dst []byte) error {
	rowBytes := g.dtype.RowSize(g.cols)
	chunks := (g.rows + chunkRows - 1) / chunkRows
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		firstEr error
		next    = make(chan int, chunks)
	)
	for c := 0; c < chunks; c++ {
		next <- c
	}
	close(next)
	for t := 0; t < min(g.threads, chunks); t++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			vals := make([]float32, g.cols*chunkRows)
			for c := range next {
				r0 := c * chunkRows
				n := min(chunkRows, g.rows-r0)
				v := vals[:n*g.cols]
				g.draw(c, r0, v)
				if err := quantizeRows(g.dtype, v, g.cols, dst[r0*rowBytes:(r0+n)*rowBytes]); err != nil {
					mu.Lock()
					if firstEr == nil {
						firstEr = err
					}
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	return firstEr
}

func (g tensorGen) draw(chunk, r0 int, v []float32) {
	if g.std == 0 {
		for i := range v {
			v[i] = 1
		}
		return
	}
	rng := rand.New(rand.NewPCG(g.seed, g.index<<32|uint64(chunk)))
	for i := range v {
		v[i] = float32(rng.NormFloat64()) * g.std
	}
	if z := g.zeroRow - r0; g.zeroRow >= 0 && z >= 0 && z < len(v)/g.cols {
		clear(v[z*g.cols : (z+1)*g.cols])
	}
}

// quantizeRows encodes rows of cols values as t (F32 written as is).
func quantizeRows(t rt.DType, v []float32, cols int, dst []byte) error {
	if t == rt.F32 {
		for i, x := range v {
			binary.LittleEndian.PutUint32(dst[4*i:], math.Float32bits(x))
		}
		return nil
	}
	rowBytes := t.RowSize(cols)
	for r := 0; r*cols < len(v); r++ {
		if err := rt.QuantizeRow(t, v[r*cols:(r+1)*cols], dst[r*rowBytes:(r+1)*rowBytes]); err != nil {
			return err
		}
	}
	return nil
}
