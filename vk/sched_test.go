package vk

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/internal/schedcheck"
	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/sched"
)

// A llama-style block: embeddings, layers of RMS norm, attention with rope,
// a causal mask and soft max, a SiLU-gated feed-forward, and a head.
const (
	blEmbd, blHeads, blFF, blVocab, blLayers, blTokens = 64, 4, 128, 32, 2, 5
	blHead                                             = blEmbd / blHeads
)

type blockWeights struct {
	tokEmbd, outNorm, output *rt.Tensor
	layers                   [][9]*rt.Tensor // attn_norm wq wk wv wo ffn_norm w1 w2 w3
}

// newBlockWeights creates the weights in one buffer of bt (Q8_0 for the big
// matrices, as a quantized model has them), with seeded values.
func newBlockWeights(t *testing.T, bt rt.BufferType) *blockWeights {
	ctx := rt.NewContext()
	w := &blockWeights{
		tokEmbd: ctx.NewTensor(rt.Q8_0, blEmbd, blVocab).SetName("tok_embd"),
		outNorm: ctx.NewTensor(rt.F32, blEmbd).SetName("out_norm"),
		output:  ctx.NewTensor(rt.F16, blEmbd, blVocab).SetName("output"),
	}
	for l := 0; l < blLayers; l++ {
		mat := func(n string, dt rt.DType, ne ...int) *rt.Tensor {
			return ctx.NewTensor(dt, ne...).SetName(fmt.Sprintf("blk.%d.%s", l, n))
		}
		w.layers = append(w.layers, [9]*rt.Tensor{
			mat("attn_norm", rt.F32, blEmbd), mat("wq", rt.Q8_0, blEmbd, blEmbd), mat("wk", rt.Q4_0, blEmbd, blEmbd),
			mat("wv", rt.F16, blEmbd, blEmbd), mat("wo", rt.F32, blEmbd, blEmbd), mat("ffn_norm", rt.F32, blEmbd),
			mat("w1", rt.Q8_0, blEmbd, blFF), mat("w2", rt.Q8_0, blFF, blEmbd), mat("w3", rt.Q8_0, blEmbd, blFF),
		})
	}
	buf := alloc(t, ctx, bt)
	buf.SetUsage(rt.UsageWeights)
	r := rand.New(rand.NewPCG(3, 5))
	for _, x := range ctx.Tensors() {
		v := make([]float32, x.Nelements())
		for i := range v {
			v[i] = (r.Float32()*2 - 1) / float32(math.Sqrt(float64(x.Ne[0])))
			if x.Ne[1] == 1 {
				v[i] = 1 + v[i]
			}
		}
		if err := rt.TensorSetF32(x, v); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

type blockInputs struct{ tokens, pos, mask *rt.Tensor }

func buildBlock(t *testing.T, w *blockWeights) (*rt.Graph, blockInputs, *rt.Tensor) {
	ctx := rt.NewContext()
	in := blockInputs{
		tokens: ctx.NewTensor(rt.I32, blTokens).SetName("tokens"),
		pos:    ctx.NewTensor(rt.I32, blTokens).SetName("pos"),
		mask:   ctx.NewTensor(rt.F32, blTokens, blTokens).SetName("mask"),
	}
	for _, x := range []*rt.Tensor{in.tokens, in.pos, in.mask} {
		x.SetInput()
	}
	const eps = 1e-5
	x := ctx.GetRows(w.tokEmbd, in.tokens)
	for _, ly := range w.layers {
		cur := ctx.Mul(ctx.RmsNorm(x, eps), ly[0])
		q := ctx.Rope(ctx.Reshape(ctx.MulMat(ly[1], cur), blHead, blHeads, blTokens), in.pos, blHead, rt.RopeNeox, 10000, 1)
		k := ctx.Rope(ctx.Reshape(ctx.MulMat(ly[2], cur), blHead, blHeads, blTokens), in.pos, blHead, rt.RopeNeox, 10000, 1)
		v := ctx.Reshape(ctx.MulMat(ly[3], cur), blHead, blHeads, blTokens)
		q = ctx.Permute(q, 0, 2, 1, 3)
		k = ctx.Permute(k, 0, 2, 1, 3)
		kq := ctx.SoftMax(ctx.MulMat(k, q), in.mask, float32(1/math.Sqrt(blHead)))
		vt := ctx.Cont(ctx.Permute(v, 1, 2, 0, 3))
		kqv := ctx.MulMat(vt, kq)
		merged := ctx.ContReshape(ctx.Permute(kqv, 0, 2, 1, 3), blEmbd, blTokens)
		x = ctx.Add(x, ctx.MulMat(ly[4], merged))
		cur = ctx.Mul(ctx.RmsNorm(x, eps), ly[5])
		h := ctx.Mul(ctx.Silu(ctx.MulMat(ly[6], cur)), ctx.MulMat(ly[8], cur))
		x = ctx.Add(x, ctx.MulMat(ly[7], h))
	}
	logits := ctx.MulMat(w.output, ctx.Mul(ctx.RmsNorm(x, eps), w.outNorm)).SetName("logits")
	g, err := ctx.BuildGraph(logits)
	if err != nil {
		t.Fatal(err)
	}
	return g, in, logits
}

func setBlockInputs(t *testing.T, in blockInputs) {
	tokens, pos := make([]int32, blTokens), make([]int32, blTokens)
	for j := range tokens {
		tokens[j], pos[j] = int32((j*7+3)%blVocab), int32(j+2)
	}
	mask := make([]float32, blTokens*blTokens)
	for q := 0; q < blTokens; q++ {
		for k := q + 1; k < blTokens; k++ {
			mask[q*blTokens+k] = float32(math.Inf(-1))
		}
	}
	if err := rt.TensorSetI32(in.tokens, tokens); err != nil {
		t.Fatal(err)
	}
	if err := rt.TensorSetI32(in.pos, pos); err != nil {
		t.Fatal(err)
	}
	if err := rt.TensorSetF32(in.mask, mask); err != nil {
		t.Fatal(err)
	}
}

// TestSchedLlamaBlock runs the block through the scheduler with backends
// [vulkan, cpu], weights in Vulkan device-local memory and SOFT_MAX made
// unsupported on the Vulkan device, so attention crosses to the CPU and
// back in every layer; the logits must match a CPU-only run.
func TestSchedLlamaBlock(t *testing.T) {
	dev, be := testDevice(t)

	// Reference: the CPU alone.
	cb := cpuBackend(t)
	wc := newBlockWeights(t, cpu.BufferType())
	gc, inc, logitsC := buildBlock(t, wc)
	ga, err := rt.AllocGraphOn(gc, cpu.BufferType())
	if err != nil {
		t.Fatal(err)
	}
	defer ga.Free()
	setBlockInputs(t, inc)
	if err := cb.GraphCompute(gc); err != nil {
		t.Fatal(err)
	}
	want, err := rt.TensorGetF32(logitsC)
	if err != nil {
		t.Fatal(err)
	}

	dev.disabled = map[rt.Op]bool{rt.OpSoftMax: true}
	defer func() { dev.disabled = nil }()
	w := newBlockWeights(t, dev.BufferType())
	g, in, logits := buildBlock(t, w)
	t.Setenv("GPURT_SCHED_DEBUG", "1") // the scheduler prints its splits and their input copies
	s, err := sched.New([]rt.Backend{be, cb}, nil, 4096, false, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var dbg bytes.Buffer
	s.SetDebugOutput(&dbg)
	if err := s.AllocGraph(g); err != nil {
		t.Fatal(err)
	}
	setBlockInputs(t, in)
	before := be.Stats()
	got := computeF32(t, s, g, logits)
	after := be.Stats()

	// Embeddings (on the weights' device), then per layer: Vulkan, the
	// CPU's soft max, Vulkan again.
	if n := s.NSplits(); n < 1+2*blLayers {
		t.Errorf("%d splits, want at least %d", n, 1+2*blLayers)
	}
	var softmaxOnCPU, mulmatOnVK int
	for _, n := range g.Nodes {
		b := s.TensorBackend(n)
		switch {
		case n.Op == rt.OpSoftMax && b == rt.Backend(cb):
			softmaxOnCPU++
		case n.Op == rt.OpMulMat && b == rt.Backend(be):
			mulmatOnVK++
		}
	}
	if softmaxOnCPU != blLayers || mulmatOnVK < 7*blLayers {
		t.Errorf("soft max on the CPU %d times (want %d), MUL_MAT on Vulkan %d times", softmaxOnCPU, blLayers, mulmatOnVK)
	}
	t.Logf("%d splits; Vulkan ran %d dispatches in %d submits with %d barriers", s.NSplits(), after.Dispatches-before.Dispatches, after.Submits-before.Submits, after.Barriers-before.Barriers)
	if err := closeEnough(got, want, 2e-2); err != nil {
		t.Errorf("logits differ from the CPU's: %v", err)
	}
	if strings.Count(dbg.String(), "SPLIT #") != s.NSplits() {
		t.Errorf("scheduler debug output does not list the %d splits:\n%s", s.NSplits(), dbg.String())
	}
	t.Logf("scheduler debug:\n%s", dbg.String())
}

// TestSchedPipeline queues 8 runs of a GPU → CPU → GPU graph with pipeline
// parallelism (CPU-side and pinned inputs, asynchronous reads) and checks
// each against plain Go. Recording an event after waiting for it in the same
// command buffer used to deadlock the first run.
func TestSchedPipeline(t *testing.T) {
	_, be := testDevice(t)
	schedcheck.Pipeline(t, be, cpuBackend(t), schedcheck.PipelineOptions{Timeout: 30 * time.Second})
}
