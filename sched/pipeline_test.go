package sched

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/runtime"
)

// A llama-style model: token embeddings, layers of RMS norm, attention with
// rope and a causal mask, a SiLU-gated feed-forward block, and an output
// head.
const (
	llEmbd   = 32
	llHeads  = 4
	llHead   = llEmbd / llHeads
	llFF     = 64
	llVocab  = 16
	llLayers = 4
	llTokens = 4
	llEps    = 1e-5
)

// llamaWeights holds the weight tensors of one placement of the model.
type llamaWeights struct {
	tokEmbd, outNorm, output *runtime.Tensor
	layers                   []llamaLayer
}

type llamaLayer struct {
	attnNorm, wq, wk, wv, wo, ffnNorm, w1, w2, w3 *runtime.Tensor
}

// newLlamaWeights creates the weights, placing the token embeddings in
// embdBT's memory, layer l in layerBT(l)'s and the head in headBT's, all
// holding the same seeded values for every placement.
func newLlamaWeights(t testing.TB, layers int, embdBT runtime.BufferType, layerBT func(l int) runtime.BufferType, headBT runtime.BufferType) *llamaWeights {
	ctx := runtime.NewContext()
	mat := func(name string, ne ...int) *runtime.Tensor { return named(ctx.NewTensor(runtime.F32, ne...), name) }
	w := &llamaWeights{tokEmbd: mat("tok_embd", llEmbd, llVocab), outNorm: mat("out_norm", llEmbd), output: mat("output", llEmbd, llVocab)}
	placed := map[runtime.BufferType][]*runtime.Tensor{embdBT: {w.tokEmbd}}
	placed[headBT] = append(placed[headBT], w.outNorm, w.output)
	for l := 0; l < layers; l++ {
		p := func(n string) string { return fmt.Sprintf("blk.%d.%s", l, n) }
		ly := llamaLayer{
			attnNorm: mat(p("attn_norm"), llEmbd), wq: mat(p("wq"), llEmbd, llEmbd), wk: mat(p("wk"), llEmbd, llEmbd),
			wv: mat(p("wv"), llEmbd, llEmbd), wo: mat(p("wo"), llEmbd, llEmbd), ffnNorm: mat(p("ffn_norm"), llEmbd),
			w1: mat(p("w1"), llEmbd, llFF), w2: mat(p("w2"), llFF, llEmbd), w3: mat(p("w3"), llEmbd, llFF),
		}
		w.layers = append(w.layers, ly)
		bt := layerBT(l)
		placed[bt] = append(placed[bt], ly.attnNorm, ly.wq, ly.wk, ly.wv, ly.wo, ly.ffnNorm, ly.w1, ly.w2, ly.w3)
	}
	for bt, ts := range placed {
		allocIn(t, bt, runtime.UsageWeights, ts...)
	}
	r := rand.New(rand.NewPCG(7, 11))
	for _, x := range ctx.Tensors() {
		v := randomValues(r, x.Nelements())
		if x.Ne[1] == 1 { // norm weights around 1
			for i := range v {
				v[i] = 1 + v[i]/4
			}
		} else {
			for i := range v {
				v[i] /= float32(math.Sqrt(float64(x.Ne[0])))
			}
		}
		if err := runtime.TensorSetF32(x, v); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// llamaInputs are the graph inputs of one run.
type llamaInputs struct {
	tokens, pos, mask *runtime.Tensor
}

// buildLlama builds the forward graph for llTokens tokens.
func buildLlama(t testing.TB, w *llamaWeights) (*runtime.Graph, llamaInputs, *runtime.Tensor) {
	ctx := runtime.NewContext()
	in := llamaInputs{
		tokens: named(ctx.NewTensor(runtime.I32, llTokens), "tokens"),
		pos:    named(ctx.NewTensor(runtime.I32, llTokens), "pos"),
		mask:   named(ctx.NewTensor(runtime.F32, llTokens, llTokens), "mask"),
	}
	in.tokens.SetInput()
	in.pos.SetInput()
	in.mask.SetInput()

	x := named(ctx.GetRows(w.tokEmbd, in.tokens), "inp_embd")
	for l, ly := range w.layers {
		nm := func(s string) string { return fmt.Sprintf("%s-%d", s, l) }
		cur := named(ctx.Mul(ctx.RmsNorm(x, llEps), ly.attnNorm), nm("attn_norm"))
		q := ctx.Rope(ctx.Reshape(ctx.MulMat(ly.wq, cur), llHead, llHeads, llTokens), in.pos, llHead, runtime.RopeNeox, 10000, 1)
		k := ctx.Rope(ctx.Reshape(ctx.MulMat(ly.wk, cur), llHead, llHeads, llTokens), in.pos, llHead, runtime.RopeNeox, 10000, 1)
		v := ctx.Reshape(ctx.MulMat(ly.wv, cur), llHead, llHeads, llTokens)
		q = ctx.Permute(q, 0, 2, 1, 3) // [head, tokens, heads]
		k = ctx.Permute(k, 0, 2, 1, 3)
		kq := named(ctx.SoftMax(ctx.MulMat(k, q), in.mask, float32(1/math.Sqrt(llHead))), nm("kq_soft_max"))
		vt := ctx.Cont(ctx.Permute(v, 1, 2, 0, 3)) // [tokens, head, heads]
		kqv := ctx.MulMat(vt, kq)                  // [head, tokens, heads]
		merged := ctx.ContReshape(ctx.Permute(kqv, 0, 2, 1, 3), llEmbd, llTokens)
		x = named(ctx.Add(x, ctx.MulMat(ly.wo, merged)), nm("attn_out"))

		cur = ctx.Mul(ctx.RmsNorm(x, llEps), ly.ffnNorm)
		h := ctx.Mul(ctx.Silu(ctx.MulMat(ly.w1, cur)), ctx.MulMat(ly.w3, cur))
		x = named(ctx.Add(x, ctx.MulMat(ly.w2, h)), nm("l_out"))
	}
	logits := named(ctx.MulMat(w.output, ctx.Mul(ctx.RmsNorm(x, llEps), w.outNorm)), "logits")
	return buildGraph(t, ctx, logits), in, logits
}

// setLlamaInputs fills run it's inputs: tokens and positions change per run,
// the mask is causal.
func setLlamaInputs(t testing.TB, in llamaInputs, run int) {
	tokens, pos := make([]int32, llTokens), make([]int32, llTokens)
	for j := range tokens {
		tokens[j] = int32((run*5 + j*3 + 1) % llVocab)
		pos[j] = int32(run*llTokens + j)
	}
	mask := make([]float32, llTokens*llTokens)
	for q := 0; q < llTokens; q++ {
		for k := q + 1; k < llTokens; k++ {
			mask[q*llTokens+k] = float32(math.Inf(-1))
		}
	}
	if err := runtime.TensorSetI32(in.tokens, tokens); err != nil {
		t.Fatal(err)
	}
	if err := runtime.TensorSetI32(in.pos, pos); err != nil {
		t.Fatal(err)
	}
	if err := runtime.TensorSetF32(in.mask, mask); err != nil {
		t.Fatal(err)
	}
}

// cpuReference runs each input set sequentially on the CPU alone.
func cpuReference(t *testing.T, runs int) [][]float32 {
	cb := newCPU(t)
	bt := cpu.BufferType()
	w := newLlamaWeights(t, llLayers, bt, func(int) runtime.BufferType { return bt }, bt)
	var out [][]float32
	for run := 0; run < runs; run++ {
		g, in, logits := buildLlama(t, w)
		alloc, err := runtime.AllocGraphOn(g, bt)
		if err != nil {
			t.Fatal(err)
		}
		setLlamaInputs(t, in, run)
		if err := cb.GraphCompute(g); err != nil {
			t.Fatal(err)
		}
		v, err := runtime.TensorGetF32(logits)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
		alloc.Free()
	}
	return out
}

// TestPipelineLlama runs the model over two asynchronous fake GPUs (the
// first lacking SOFT_MAX, so attention goes back and forth to the CPU) and
// the CPU with 4-way pipeline parallelism: each run is queued without
// waiting for the previous one, its logits read asynchronously, and only
// after 8 runs does the test synchronize. Every run must match the CPU
// exactly. The race detector checks the events and copies order every
// access.
func TestPipelineLlama(t *testing.T) {
	const runs = 8
	want := cpuReference(t, runs)

	gpu0 := newFake(t, fakeOpts{name: "GPU0", async: true, events: true, kernels: true, ops: allOpsBut(runtime.OpSoftMax)})
	gpu1 := newFake(t, fakeOpts{name: "GPU1", async: true, events: true, kernels: true})
	cb := newCPU(t)
	w := newLlamaWeights(t, llLayers, cpu.BufferType(), func(l int) runtime.BufferType {
		if l < llLayers/2 {
			return gpu0.dev.bt
		}
		return gpu1.dev.bt
	}, gpu1.dev.bt)

	s := newSched(t, backends(gpu0, gpu1, cb), true, false)
	if s.NCopies() != 4 {
		t.Fatalf("%d copies, want 4", s.NCopies())
	}
	raw := make([][]byte, runs)
	var logitsT []*runtime.Tensor
	var copiesUsed []int
	for run := 0; run < runs; run++ {
		s.Reset()
		g, in, logits := buildLlama(t, w)
		if err := s.AllocGraph(g); err != nil {
			t.Fatal(err)
		}
		copiesUsed = append(copiesUsed, s.curCopy)
		setLlamaInputs(t, in, run)
		if err := s.GraphComputeAsync(g); err != nil {
			t.Fatal(err)
		}
		if b := s.TensorBackend(logits); b != runtime.Backend(gpu1) {
			t.Fatalf("logits on %v, want GPU1", b)
		}
		raw[run] = make([]byte, logits.Nbytes())
		if err := runtime.TensorGetAsync(gpu1, logits, raw[run], 0); err != nil {
			t.Fatal(err)
		}
		logitsT = append(logitsT, logits)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}

	if want := []int{0, 1, 2, 3, 0, 1, 2, 3}; !slices.Equal(copiesUsed, want) {
		t.Errorf("runs used copies %v, want %v", copiesUsed, want)
	}
	// Embeddings on the CPU; layers 0-1 on GPU0 but for their soft max,
	// which goes to the CPU (it holds the mask); layers 2-3 and the head on
	// GPU1.
	if s.NSplits() != 7 {
		t.Errorf("%d splits, want 7: %v", s.NSplits(), splitSummary(s))
	}
	if gpu1.asyncCopies.Load() == 0 || gpu0.records.Load() == 0 || gpu1.waits.Load() == 0 {
		t.Errorf("async copies %d, GPU0 event records %d, GPU1 event waits %d: the pipeline path was not used",
			gpu1.asyncCopies.Load(), gpu0.records.Load(), gpu1.waits.Load())
	}
	for run := range runs {
		got, err := runtime.DecodeF32(logitsT[run], raw[run])
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want[run]) {
			t.Errorf("run %d: logits differ from the CPU's\n got %v\nwant %v", run, got[:8], want[run][:8])
		}
		if run > 0 && slices.Equal(want[run], want[run-1]) {
			t.Errorf("runs %d and %d have the same logits: the inputs did not change", run-1, run)
		}
	}
}

// TestPipelineUserInputs queues 8 runs on a slow asynchronous GPU that reads
// a user input through its copies: the scheduler may only overwrite a copy
// once the GPU's event says the run that used it 4 runs ago is done.
func TestPipelineUserInputs(t *testing.T) {
	const runs = 8
	gpu := newFake(t, fakeOpts{name: "GPU", async: true, events: true, kernels: true, delay: time.Millisecond})
	cb := newCPU(t)
	ctx := runtime.NewContext()
	w1 := named(ctx.NewTensor(runtime.F32, 16, 16), "w1")
	w2 := named(ctx.NewTensor(runtime.F32, 16, 16), "w2")
	weightsOn(t, gpu, w1, w2)
	r := rand.New(rand.NewPCG(3, 4))
	for _, w := range []*runtime.Tensor{w1, w2} {
		if err := runtime.TensorSetF32(w, randomValues(r, w.Nelements())); err != nil {
			t.Fatal(err)
		}
	}
	build := func(c *runtime.Context) (*runtime.Graph, *runtime.Tensor, *runtime.Tensor) {
		x := input(c, "x", 16, 4)
		y := named(c.MulMat(w2, c.Silu(c.MulMat(w1, x))), "y")
		return buildGraph(t, c, y), x, y
	}
	inputs := make([][]float32, runs)
	for i := range inputs {
		inputs[i] = randomValues(r, 16*4)
	}

	s := newSched(t, backends(gpu, cb), true, false)
	raw := make([][]byte, runs)
	var outs []*runtime.Tensor
	for run := 0; run < runs; run++ {
		s.Reset()
		g, x, y := build(runtime.NewContext())
		if err := s.AllocGraph(g); err != nil {
			t.Fatal(err)
		}
		if err := runtime.TensorSetF32(x, inputs[run]); err != nil {
			t.Fatal(err)
		}
		if err := s.GraphComputeAsync(g); err != nil {
			t.Fatal(err)
		}
		raw[run] = make([]byte, y.Nbytes())
		if err := runtime.TensorGetAsync(gpu, y, raw[run], 0); err != nil {
			t.Fatal(err)
		}
		outs = append(outs, y)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}

	// The same graph on the GPU alone, one run at a time.
	for run := 0; run < runs; run++ {
		g, x, y := build(runtime.NewContext())
		alloc, err := runtime.AllocGraphOn(g, gpu.dev.bt)
		if err != nil {
			t.Fatal(err)
		}
		if err := runtime.TensorSetF32(x, inputs[run]); err != nil {
			t.Fatal(err)
		}
		if err := gpu.GraphCompute(g); err != nil {
			t.Fatal(err)
		}
		if err := gpu.Synchronize(); err != nil {
			t.Fatal(err)
		}
		want, err := runtime.TensorGetF32(y)
		if err != nil {
			t.Fatal(err)
		}
		got, err := runtime.DecodeF32(outs[run], raw[run])
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("run %d: pipelined result differs from a sequential run", run)
		}
		alloc.Free()
	}
}

// TestComputeAllocatedGraphAgain computes one allocated graph three times
// with new inputs and pipeline parallelism: every run must fill the copies
// its nodes read, although the current copy moves on after each run.
func TestComputeAllocatedGraphAgain(t *testing.T) {
	gpu := newFake(t, fakeOpts{name: "GPU", async: true, events: true, kernels: true, ops: []runtime.Op{runtime.OpMulMat}})
	cb := newCPU(t)
	r := rand.New(rand.NewPCG(5, 6))
	build := func(bt runtime.BufferType) (*runtime.Graph, *runtime.Tensor, *runtime.Tensor) {
		ctx := runtime.NewContext()
		w1 := named(ctx.NewTensor(runtime.F32, 8, 8), "w1")
		w2 := named(ctx.NewTensor(runtime.F32, 8, 8), "w2")
		allocIn(t, bt, runtime.UsageWeights, w1, w2)
		wr := rand.New(rand.NewPCG(1, 1))
		for _, w := range []*runtime.Tensor{w1, w2} {
			if err := runtime.TensorSetF32(w, randomValues(wr, w.Nelements())); err != nil {
				t.Fatal(err)
			}
		}
		x := input(ctx, "x", 8, 2)
		// GPU, then CPU (the GPU lacks GELU), then GPU.
		o := named(ctx.MulMat(w2, ctx.Gelu(ctx.MulMat(w1, x))), "o")
		return buildGraph(t, ctx, o), x, o
	}
	ref, refX, refO := build(cpu.BufferType())
	alloc, err := runtime.AllocGraphOn(ref, cpu.BufferType())
	if err != nil {
		t.Fatal(err)
	}
	defer alloc.Free()

	g, x, o := build(gpu.dev.bt)
	s := newSched(t, backends(gpu, cb), true, false)
	if err := s.AllocGraph(g); err != nil {
		t.Fatal(err)
	}
	if s.NSplits() != 3 {
		t.Fatalf("splits %v, want GPU, CPU, GPU", splitSummary(s))
	}
	for run := 0; run < 3; run++ {
		in := randomValues(r, 16)
		for _, xt := range []*runtime.Tensor{x, refX} {
			if err := runtime.TensorSetF32(xt, in); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.GraphCompute(g); err != nil {
			t.Fatal(err)
		}
		if err := cb.GraphCompute(ref); err != nil {
			t.Fatal(err)
		}
		got, err1 := runtime.TensorGetF32(o)
		want, err2 := runtime.TensorGetF32(refO)
		if err1 != nil || err2 != nil || !slices.Equal(got, want) {
			t.Errorf("run %d: got %v, want %v (%v, %v)", run, got, want, err1, err2)
		}
	}
}
