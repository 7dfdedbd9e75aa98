package llama

import (
	"errors"
	"fmt"
	"regexp"
	goruntime "runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gpurt/gpurt/gguf"
	rt "github.com/gpurt/gpurt/runtime"
)

// Quantization follows llama.cpp's llama-quantize without an importance
// matrix: the same file types (mixes), the same per-tensor type choice
// (llama_tensor_get_type: output and tied embeddings as Q6_K, the attn_v and
// ffn_down bumps of the _M mixes, fallbacks for rows that are not whole
// blocks), the same tensor order and ggml's reference quantizers, so the
// tensor bytes equal llama-quantize's.

// FileType is a llama.cpp file type (llama_ftype): a name such as "q4_k_m",
// its id in general.file_type, and the type most weights get.
type FileType struct {
	Name    string
	ID      uint32
	Default rt.DType
}

// FileTypes are the file types Quantize writes, in llama-quantize's order.
var FileTypes = []FileType{
	{"q4_0", 2, rt.Q4_0}, {"q4_1", 3, rt.Q4_1}, {"q5_0", 8, rt.Q5_0}, {"q5_1", 9, rt.Q5_1},
	{"iq4_nl", 25, rt.IQ4_NL}, {"iq4_xs", 30, rt.IQ4_XS},
	{"q2_k", 10, rt.Q2_K}, {"q3_k_s", 11, rt.Q3_K}, {"q3_k_m", 12, rt.Q3_K}, {"q3_k_l", 13, rt.Q3_K},
	{"q4_k_s", 14, rt.Q4_K}, {"q4_k_m", 15, rt.Q4_K}, {"q5_k_s", 16, rt.Q5_K}, {"q5_k_m", 17, rt.Q5_K},
	{"q6_k", 18, rt.Q6_K}, {"q8_0", 7, rt.Q8_0}, {"tq1_0", 36, rt.TQ1_0}, {"tq2_0", 37, rt.TQ2_0},
	{"f16", 1, rt.F16}, {"bf16", 32, rt.BF16}, {"f32", 0, rt.F32},
}

// fileTypeAliases are llama-quantize's short names for the _M mixes.
var fileTypeAliases = map[string]string{"q3_k": "q3_k_m", "q4_k": "q4_k_m", "q5_k": "q5_k_m"}

// ParseFileType finds a file type by name, case-insensitively.
func ParseFileType(name string) (FileType, error) {
	n := strings.ToLower(name)
	if a, ok := fileTypeAliases[n]; ok {
		n = a
	}
	for _, ft := range FileTypes {
		if ft.Name == n {
			return ft, nil
		}
	}
	names := make([]string, len(FileTypes))
	for i, ft := range FileTypes {
		names[i] = ft.Name
	}
	return FileType{}, fmt.Errorf("unknown quantization type %q (want one of %s): %w", name, strings.Join(names, ", "), rt.ErrInvalidArgument)
}

// TensorTypeRule sets the type of every quantizable tensor whose name the
// pattern matches (llama-quantize's --tensor-type); the first match wins.
type TensorTypeRule struct {
	Pattern *regexp.Regexp
	Type    rt.DType
}

// ParseTensorTypeRule parses NAME=TYPE, NAME a regular expression searched
// in tensor names, TYPE a dtype gpurt can quantize to.
func ParseTensorTypeRule(s string) (TensorTypeRule, error) {
	name, typ, ok := strings.Cut(s, "=")
	if !ok || name == "" || typ == "" {
		return TensorTypeRule{}, fmt.Errorf("tensor type %q: want NAME=TYPE: %w", s, rt.ErrInvalidArgument)
	}
	re, err := regexp.Compile(name)
	if err != nil {
		return TensorTypeRule{}, fmt.Errorf("tensor type %q: %v: %w", s, err, rt.ErrInvalidArgument)
	}
	t, err := ParseQuantType(typ)
	if err != nil {
		return TensorTypeRule{}, err
	}
	return TensorTypeRule{re, t}, nil
}

// ParseQuantType parses a tensor dtype gpurt can quantize to, by name,
// case-insensitively.
func ParseQuantType(name string) (rt.DType, error) {
	t, err := rt.ParseDType(name)
	if err != nil || !rt.HasCodec(t) || t == rt.I32 || t == rt.Q8_1 || t == rt.Q8_K {
		return 0, fmt.Errorf("cannot quantize to %q: %w", name, rt.ErrInvalidArgument)
	}
	return t, nil
}

// QuantizeOptions says how Quantize chooses each tensor's type.
type QuantizeOptions struct {
	FileType FileType
	// Pure gives every quantizable tensor the file type's default type (no
	// mix rules); the row-width fallbacks still apply.
	Pure bool
	// TensorTypes override the type of matching tensors.
	TensorTypes []TensorTypeRule
	// OutputType and TokenEmbeddingType, if not nil, set the type of
	// output.weight and token_embd.weight.
	OutputType, TokenEmbeddingType *rt.DType
	// Threads quantize rows in parallel; 0 means one per CPU. The bytes do
	// not depend on the count.
	Threads int
}

// QuantizedTensor is what Quantize did with one tensor.
type QuantizedTensor struct {
	Name     string
	From, To rt.DType
	// Requantized: the source was quantized and was dequantized first.
	Requantized bool
	// Fallback: its rows are not whole blocks of the chosen type, so it got
	// llama.cpp's fallback type.
	Fallback bool
}

// QuantizeReport lists every tensor of the output, in file order.
type QuantizeReport struct {
	Tensors           []QuantizedTensor
	BytesIn, BytesOut int64
}

// Converted counts the tensors whose type changed.
func (r QuantizeReport) Converted() (n int) {
	for _, t := range r.Tensors {
		if t.From != t.To {
			n++
		}
	}
	return n
}

// quantState is llama.cpp's quantize_state_impl without an imatrix.
type quantState struct {
	ft               FileType
	arch             string
	nGQA, nExpert    int
	is70B            bool
	nAttnV, nFFNDown int
	iAttnV, iFFNDown int
	tiedEmbeddings   bool
	opt              QuantizeOptions
}

// weightOrder sorts tensor names as llama.cpp's model loader does: tensors
// outside the blocks first, then block by block, by name within each.
func weightOrder(names []string) {
	layer := func(s string) int {
		if rest, ok := strings.CutPrefix(s, "blk."); ok {
			if i := strings.IndexByte(rest, '.'); i > 0 {
				if n, err := strconv.Atoi(rest[:i]); err == nil {
					return n
				}
			}
		}
		return -1
	}
	sort.SliceStable(names, func(i, j int) bool {
		li, lj := layer(names[i]), layer(names[j])
		if li != lj {
			return li < lj
		}
		return names[i] < names[j]
	})
}

// tensorCategory is llama.cpp's tensor_get_category.
type tensorCategory int

const (
	catOther tensorCategory = iota
	catTokenEmbd
	catOutput
	catAttnQKV
	catAttnKVB
	catAttnV
	catAttnK
	catAttnQ
	catAttnOutput
	catFFNUp
	catFFNGate
	catFFNDown
)

func categoryOf(name string) tensorCategory {
	switch {
	case name == "output.weight":
		return catOutput
	case name == "token_embd.weight" || name == "per_layer_token_embd.weight":
		return catTokenEmbd
	case strings.Contains(name, "attn_qkv.weight"):
		return catAttnQKV
	case strings.Contains(name, "attn_kv_b.weight"):
		return catAttnKVB
	case strings.Contains(name, "attn_v.weight"):
		return catAttnV
	case strings.Contains(name, "attn_k.weight"):
		return catAttnK
	case strings.Contains(name, "attn_q.weight"):
		return catAttnQ
	case strings.Contains(name, "attn_output.weight"):
		return catAttnOutput
	case strings.Contains(name, "ffn_up"):
		return catFFNUp
	case strings.Contains(name, "ffn_gate"):
		return catFFNGate
	case strings.Contains(name, "ffn_down"):
		return catFFNDown
	}
	return catOther
}

func (c tensorCategory) attnVLike() bool { return c == catAttnV || c == catAttnQKV || c == catAttnKVB }

// allowsQuantization is llama.cpp's tensor_allows_quantization: 2-D and
// 3-D weights, except norms, gating and position tables.
func allowsQuantization(ti *gguf.TensorInfo) bool {
	if ti.NDims < 2 {
		return false
	}
	name := ti.Name
	if !strings.HasSuffix(name, "weight") {
		return false
	}
	for _, s := range []string{"_norm.weight", "ffn_gate_inp.weight", "ffn_gate_tid2eid.weight", "altup", "laurel",
		"per_layer_model_proj", "ssm_conv1d", "shortconv.conv.weight", "indexer.k_proj.weight", "indexer.q_proj.weight",
		"time_mix_first.weight", "time_mix_w0.weight", "time_mix_w1.weight", "time_mix_w2.weight", "time_mix_v0.weight",
		"time_mix_v1.weight", "time_mix_v2.weight", "time_mix_a0.weight", "time_mix_a1.weight", "time_mix_a2.weight",
		"time_mix_g1.weight", "time_mix_g2.weight", "time_mix_decay_w1.weight", "time_mix_decay_w2.weight",
		"time_mix_lerp_fused.weight", "attn_rel_b.weight", ".position_embd", ".rel_pos", ".patch_embd", ".patch_merger"} {
		if strings.Contains(name, s) {
			return false
		}
	}
	return name != "position_embd.weight" && name != "token_types.weight"
}

func useMoreBits(i, n int) bool { return i < n/8 || i >= 7*n/8 || (i-n/8)%3 == 2 }

// mixType is llama.cpp's llama_tensor_get_type_impl for the file types
// gpurt writes: the type of a quantizable tensor under the file type's mix.
func (qs *quantState) mixType(t rt.DType, ti *gguf.TensorInfo, cat tensorCategory) rt.DType {
	ft := qs.ft.Name
	falcon := qs.arch == "falcon"
	switch {
	case cat == catOutput || (qs.tiedEmbeddings && cat == catTokenEmbd):
		if qs.opt.OutputType != nil {
			return *qs.opt.OutputType
		}
		if falcon || ti.Ne[0]%t.BlockSize() != 0 {
			return rt.Q8_0
		}
		if t != rt.Q8_0 {
			return rt.Q6_K
		}
	case cat == catTokenEmbd:
		if qs.opt.TokenEmbeddingType != nil {
			return *qs.opt.TokenEmbeddingType
		}
		if ft == "tq1_0" || ft == "tq2_0" {
			return rt.Q4_K
		}
	case cat.attnVLike():
		switch {
		case ft == "q2_k":
			t = rt.Q3_K
			if qs.nGQA >= 4 {
				t = rt.Q4_K
			}
		case ft == "q3_k_m":
			t = rt.Q4_K
			if qs.iAttnV < 2 {
				t = rt.Q5_K
			}
		case ft == "q3_k_l":
			t = rt.Q5_K
		case (ft == "iq4_nl" || ft == "iq4_xs") && qs.nGQA >= 4:
			t = rt.Q5_K
		case (ft == "q4_k_m" || ft == "q5_k_m") && useMoreBits(qs.iAttnV, qs.nAttnV):
			t = rt.Q6_K
		case ft == "q4_k_s" && qs.iAttnV < 4:
			t = rt.Q5_K
		}
		if qs.is70B && (t == rt.Q3_K || t == rt.Q4_K) {
			t = rt.Q5_K
		}
		if qs.nExpert == 8 {
			t = rt.Q8_0
		}
		qs.iAttnV++
	case cat == catAttnK:
		if qs.nExpert == 8 {
			t = rt.Q8_0
		}
	case cat == catFFNDown:
		i, n := qs.iFFNDown, qs.nFFNDown
		if qs.nExpert > 1 {
			i = blockIndex(ti.Name, i)
		}
		switch {
		case ft == "q2_k":
			t = rt.Q3_K
		case ft == "q3_k_m":
			switch {
			case i < n/16:
				t = rt.Q5_K
			case !falcon || useMoreBits(i, n):
				t = rt.Q4_K
			default:
				t = rt.Q3_K
			}
		case ft == "q3_k_l":
			t = rt.Q5_K
			if falcon {
				t = rt.Q4_K
			}
		case ft == "q4_k_m":
			if falcon {
				switch {
				case i < n/16:
					t = rt.Q6_K
				case useMoreBits(i, n):
					t = rt.Q5_K
				default:
					t = rt.Q4_K
				}
			} else if useMoreBits(i, n) {
				t = rt.Q6_K
			}
		case i < n/8 && (ft == "iq4_nl" || ft == "iq4_xs"):
			t = rt.Q5_K
		case ft == "q5_k_m" && useMoreBits(i, n):
			t = rt.Q6_K
		case ft == "q4_k_s" && !falcon && i < n/8:
			t = rt.Q5_K
		}
		qs.iFFNDown++
	case cat == catAttnOutput:
		if !falcon {
			if qs.nExpert == 8 {
				switch ft {
				case "q2_k", "q3_k_s", "q3_k_m", "iq4_nl", "q4_k_s", "q4_k_m", "iq4_xs":
					t = rt.Q5_K
				}
			} else {
				switch ft {
				case "q2_k":
					t = rt.Q3_K
				case "q3_k_m":
					t = rt.Q4_K
				case "q3_k_l":
					t = rt.Q5_K
				}
			}
		} else if ft == "q3_k_l" {
			t = rt.Q4_K
		}
	case cat == catAttnQKV:
		switch ft {
		case "q3_k_m", "q3_k_l":
			t = rt.Q4_K
		case "q4_k_m":
			t = rt.Q5_K
		case "q5_k_m":
			t = rt.Q6_K
		}
	}
	return t
}

// blockIndex is the N of a "blk.N." name, or def.
func blockIndex(name string, def int) int {
	if rest, ok := strings.CutPrefix(name, "blk."); ok {
		if i := strings.IndexByte(rest, '.'); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil {
				return n
			}
		}
	}
	return def
}

// fallbackType is llama.cpp's tensor_type_fallback: a type whose blocks
// fit rows of ncols values, or F16.
func fallbackType(t rt.DType, ncols int) (rt.DType, bool) {
	if ncols%t.BlockSize() == 0 {
		return t, false
	}
	fb := rt.F16
	switch t {
	case rt.IQ4_XS:
		fb = rt.IQ4_NL
	case rt.Q2_K, rt.Q3_K, rt.TQ1_0, rt.TQ2_0:
		fb = rt.Q4_0
	case rt.Q4_K:
		fb = rt.Q5_0
	case rt.Q5_K:
		fb = rt.Q5_1
	case rt.Q6_K:
		fb = rt.Q8_0
	}
	if ncols%fb.BlockSize() != 0 {
		fb = rt.F16
	}
	return fb, true
}

// targetType is llama.cpp's llama_tensor_get_type for one tensor.
func (qs *quantState) targetType(ti *gguf.TensorInfo) (rt.DType, bool) {
	if !allowsQuantization(ti) {
		return ti.Type, false
	}
	cat := categoryOf(ti.Name)
	if qs.opt.TokenEmbeddingType != nil && cat == catTokenEmbd {
		return *qs.opt.TokenEmbeddingType, false
	}
	if qs.opt.OutputType != nil && cat == catOutput {
		return *qs.opt.OutputType, false
	}
	t := qs.ft.Default
	if !t.IsQuantized() {
		return t, false
	}
	manual := false
	for _, r := range qs.opt.TensorTypes {
		if r.Pattern.MatchString(ti.Name) {
			t, manual = r.Type, true
			break
		}
	}
	if !manual && !qs.opt.Pure {
		t = qs.mixType(t, ti, cat)
	}
	if !t.IsQuantized() {
		return t, false
	}
	return fallbackType(t, ti.Ne[0])
}

// hparamInt reads "{arch}.key" as an integer, or def when absent.
func hparamInt(f *gguf.File, arch, key string, def int) int {
	if n, err := f.Int(arch + "." + key); err == nil {
		return n
	}
	return def
}

// PlanQuantize returns, in output order, the type each tensor of f gets
// under opt, without converting anything.
func PlanQuantize(f *gguf.File, opt QuantizeOptions) ([]QuantizedTensor, error) {
	arch, _ := f.String("general.architecture")
	nHead := hparamInt(f, arch, "attention.head_count", 1)
	nHeadKV := hparamInt(f, arch, "attention.head_count_kv", nHead)
	nLayer := hparamInt(f, arch, "block_count", 0)
	qs := &quantState{
		ft: opt.FileType, arch: arch, nExpert: hparamInt(f, arch, "expert_count", 0),
		nFFNDown: nLayer, tiedEmbeddings: true, opt: opt,
	}
	if nHeadKV > 0 {
		qs.nGQA = nHead / nHeadKV
	}
	qs.is70B = arch == "llama" && nLayer == 80 && nHead != nHeadKV
	names := make([]string, len(f.Tensors))
	for i, ti := range f.Tensors {
		names[i] = ti.Name
		cat := categoryOf(ti.Name)
		if cat.attnVLike() {
			qs.nAttnV++
		}
		if cat == catOutput {
			qs.tiedEmbeddings = false
		}
	}
	weightOrder(names)
	plan := make([]QuantizedTensor, 0, len(names))
	for _, name := range names {
		ti, _ := f.Tensor(name)
		if err := ti.Runnable(); err != nil && ti.Size < 0 {
			return nil, fmt.Errorf("quantize: %w", err)
		}
		to, fallback := qs.targetType(ti)
		qt := QuantizedTensor{Name: name, From: ti.Type, To: to, Fallback: fallback}
		if to != ti.Type {
			if !rt.HasCodec(ti.Type) {
				return nil, fmt.Errorf("quantize: %s is %v, which gpurt cannot dequantize to requantize it as %v: %w", name, ti.Type, to, rt.ErrUnsupported)
			}
			if ti.Ne[0]%to.BlockSize() != 0 {
				return nil, fmt.Errorf("quantize: %s: rows of %d values are not whole %v blocks: %w", name, ti.Ne[0], to, rt.ErrShape)
			}
			qt.Requantized = ti.Type.IsQuantized()
		}
		plan = append(plan, qt)
	}
	return plan, nil
}

// Quantize writes f's metadata and tensors to a writer, each tensor as
// PlanQuantize chooses: converted with ggml's reference quantizer, or
// copied when its type stays. A tensor that is already quantized to
// another type is dequantized and quantized again (its report entry says
// so). general.file_type and general.quantization_version are set as
// llama-quantize sets them.
func Quantize(f *gguf.File, opt QuantizeOptions) (*gguf.Writer, QuantizeReport, error) {
	var rep QuantizeReport
	plan, err := PlanQuantize(f, opt)
	if err != nil {
		return nil, rep, err
	}
	w := gguf.NewWriter()
	for _, kv := range f.KVs {
		if err := w.Set(kv.Key, kv.Value); err != nil {
			return nil, rep, err
		}
	}
	if err := w.Set("general.quantization_version", uint32(2)); err != nil {
		return nil, rep, err
	}
	if err := w.Set("general.file_type", opt.FileType.ID); err != nil {
		return nil, rep, err
	}
	for _, qt := range plan {
		ti, _ := f.Tensor(qt.Name)
		data, err := f.TensorData(qt.Name)
		if err != nil {
			return nil, rep, err
		}
		rep.BytesIn += int64(len(data))
		if qt.To == ti.Type {
			if err := w.AddTensor(qt.Name, ti.Type, ti.Shape(), data); err != nil {
				return nil, rep, err
			}
			rep.BytesOut += int64(len(data))
		} else {
			q, err := convertTensor(ti, data, qt.To, opt.Threads)
			if err != nil {
				return nil, rep, fmt.Errorf("quantize %s: %w", qt.Name, err)
			}
			if err := w.AddTensor(qt.Name, qt.To, ti.Shape(), q); err != nil {
				return nil, rep, err
			}
			rep.BytesOut += int64(len(q))
		}
		rep.Tensors = append(rep.Tensors, qt)
	}
	return w, rep, nil
}

// convertTensor decodes a tensor's rows and encodes them as dtype to with
// the reference quantizer, rows shared out among threads workers (each row
// is independent, so the bytes do not depend on the split).
func convertTensor(ti *gguf.TensorInfo, data []byte, to rt.DType, threads int) ([]byte, error) {
	ne0 := ti.Ne[0]
	rows := ti.Nelements() / max(ne0, 1)
	if ne0 == 0 || rows == 0 {
		return []byte{}, nil
	}
	if threads <= 0 {
		threads = goruntime.NumCPU()
	}
	threads = min(threads, rows)
	inRow, outRow := ti.Type.RowSize(ne0), to.RowSize(ne0)
	out := make([]byte, rows*outRow)
	errs := make([]error, threads)
	var wg sync.WaitGroup
	for w := 0; w < threads; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			vals := make([]float32, ne0)
			for r := w * rows / threads; r < (w+1)*rows/threads; r++ {
				if err := rt.DequantizeRow(ti.Type, data[r*inRow:(r+1)*inRow], vals); err != nil {
					errs[w] = err
					return
				}
				if err := rt.QuantizeRow(to, vals, out[r*outRow:(r+1)*outRow]); err != nil {
					errs[w] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	return out, errors.Join(errs...)
}
