//go:build cgo

package wgpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/internal/schedcheck"
	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/sched"
)

// A small llama-style model: token embeddings, layers of RMS norm,
// attention with rope, a causal mask and softmax, a SiLU-gated
// feed-forward block, and an output head. Some weights are F16 and Q8_0.
const (
	tlEmbd, tlHeads, tlFF, tlVocab, tlLayers, tlTokens = 64, 4, 96, 48, 3, 5
	tlHead                                             = tlEmbd / tlHeads
)

type tlLayer struct{ attnNorm, wq, wk, wv, wo, ffnNorm, w1, w2, w3 *rt.Tensor }

type tlModel struct {
	tokEmbd, outNorm, output *rt.Tensor
	layers                   []tlLayer
	bufs                     []rt.Buffer
}

// newTinyLlama makes the weights with fixed values, layer l in place(l)'s
// memory (-1: the embeddings, tlLayers: the head).
func newTinyLlama(t *testing.T, place func(l int) rt.BufferType) *tlModel {
	t.Helper()
	ctx := rt.NewContext()
	m := &tlModel{}
	var order []*rt.Tensor
	where := map[*rt.Tensor]rt.BufferType{}
	mk := func(l int, typ rt.DType, ne ...int) *rt.Tensor {
		x := ctx.NewTensor(typ, ne...).SetName(fmt.Sprintf("w%d", len(order)))
		order = append(order, x)
		where[x] = place(l)
		return x
	}
	m.tokEmbd = mk(-1, rt.Q8_0, tlEmbd, tlVocab)
	for l := 0; l < tlLayers; l++ {
		m.layers = append(m.layers, tlLayer{
			attnNorm: mk(l, rt.F32, tlEmbd), wq: mk(l, rt.Q8_0, tlEmbd, tlEmbd), wk: mk(l, rt.F16, tlEmbd, tlEmbd),
			wv: mk(l, rt.F32, tlEmbd, tlEmbd), wo: mk(l, rt.Q4_0, tlEmbd, tlEmbd), ffnNorm: mk(l, rt.F32, tlEmbd),
			w1: mk(l, rt.F16, tlEmbd, tlFF), w2: mk(l, rt.F32, tlFF, tlEmbd), w3: mk(l, rt.Q8_0, tlEmbd, tlFF),
		})
	}
	m.outNorm = mk(tlLayers, rt.F32, tlEmbd)
	m.output = mk(tlLayers, rt.F32, tlEmbd, tlVocab)
	r := rand.New(rand.NewPCG(3, 5))
	for _, x := range order {
		bt := where[x]
		buf, err := bt.Alloc(bt.AllocSize(x))
		if err != nil {
			t.Fatal(err)
		}
		buf.SetUsage(rt.UsageWeights)
		m.bufs = append(m.bufs, buf)
		if err := rt.AllocTensor(buf, x, 0); err != nil {
			t.Fatal(err)
		}
		v := make([]float32, x.Nelements())
		for i := range v {
			v[i] = (2*r.Float32() - 1) / float32(math.Sqrt(float64(x.Ne[0])))
			if x.Ne[1] == 1 {
				v[i] = 1 + v[i]
			}
		}
		if err := rt.TensorSetF32(x, v); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		for _, b := range m.bufs {
			b.Free()
		}
	})
	return m
}

// forward computes the logits of the fixed token batch through a scheduler
// over backends.
func (m *tlModel) forward(t *testing.T, backends []rt.Backend) []float32 {
	t.Helper()
	ctx := rt.NewContext()
	tokens := ctx.NewTensor(rt.I32, tlTokens).SetName("tokens")
	pos := ctx.NewTensor(rt.I32, tlTokens).SetName("pos")
	mask := ctx.NewTensor(rt.F32, tlTokens, tlTokens).SetName("mask")
	for _, x := range []*rt.Tensor{tokens, pos, mask} {
		x.SetInput()
	}
	x := ctx.GetRows(m.tokEmbd, tokens)
	for _, ly := range m.layers {
		cur := ctx.Mul(ctx.RmsNorm(x, 1e-5), ly.attnNorm)
		q := ctx.Rope(ctx.Reshape(ctx.MulMat(ly.wq, cur), tlHead, tlHeads, tlTokens), pos, tlHead, rt.RopeNeox, 10000, 1)
		k := ctx.Rope(ctx.Reshape(ctx.MulMat(ly.wk, cur), tlHead, tlHeads, tlTokens), pos, tlHead, rt.RopeNormal, 10000, 1)
		v := ctx.Reshape(ctx.MulMat(ly.wv, cur), tlHead, tlHeads, tlTokens)
		q, k = ctx.Permute(q, 0, 2, 1, 3), ctx.Permute(k, 0, 2, 1, 3)
		kq := ctx.SoftMax(ctx.MulMat(k, q), mask, float32(1/math.Sqrt(tlHead)))
		kqv := ctx.MulMat(ctx.Cont(ctx.Permute(v, 1, 2, 0, 3)), kq)
		merged := ctx.ContReshape(ctx.Permute(kqv, 0, 2, 1, 3), tlEmbd, tlTokens)
		x = ctx.Add(x, ctx.MulMat(ly.wo, merged))
		cur = ctx.Mul(ctx.RmsNorm(x, 1e-5), ly.ffnNorm)
		x = ctx.Add(x, ctx.MulMat(ly.w2, ctx.Mul(ctx.Silu(ctx.MulMat(ly.w1, cur)), ctx.MulMat(ly.w3, cur))))
	}
	logits := ctx.MulMat(m.output, ctx.Mul(ctx.RmsNorm(x, 1e-5), m.outNorm))
	g, err := ctx.BuildGraph(logits)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sched.New(backends, nil, 4096, false, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.AllocGraph(g); err != nil {
		t.Fatal(err)
	}
	tok, ps := make([]int32, tlTokens), make([]int32, tlTokens)
	mk := make([]float32, tlTokens*tlTokens)
	for i := range tok {
		tok[i], ps[i] = int32((7*i+3)%tlVocab), int32(i)
		for j := i + 1; j < tlTokens; j++ {
			mk[i*tlTokens+j] = float32(math.Inf(-1))
		}
	}
	if err := rt.TensorSetI32(tokens, tok); err != nil {
		t.Fatal(err)
	}
	if err := rt.TensorSetI32(pos, ps); err != nil {
		t.Fatal(err)
	}
	if err := rt.TensorSetF32(mask, mk); err != nil {
		t.Fatal(err)
	}
	if err := s.GraphCompute(g); err != nil {
		t.Fatal(err)
	}
	out, err := rt.TensorGetF32(logits)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d splits", s.NSplits())
	return out
}

// TestSchedLlama runs the model with the weights on the CPU alone, then on
// [webgpu, cpu] and on [webgpu, vulkan, cpu] (layers split between the GPUs,
// the head on the CPU), and compares the logits.
func TestSchedLlama(t *testing.T) {
	d := device(t)
	cb, err := cpu.NewBackend(2)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close()
	cpuBT := cpu.Device().BufferType()
	want := newTinyLlama(t, func(int) rt.BufferType { return cpuBT }).forward(t, []rt.Backend{cb})

	// The CPU may round activations to q8_0 for quantized weights, as ggml
	// does; the op harness allows 5e-4 per quantized matmul for that.
	check := func(name string, got []float32) {
		t.Helper()
		if e := nmse(got, want); !(e < 5e-4) {
			t.Errorf("%s: logits nmse %.3g\n got %v\nwant %v", name, e, got[:6], want[:6])
		}
	}
	wb := newBackend(t, d)
	m := newTinyLlama(t, func(l int) rt.BufferType {
		if l == tlLayers {
			return cpuBT
		}
		return d.BufferType()
	})
	check("[webgpu, cpu]", m.forward(t, []rt.Backend{wb, cb}))

	vdevs := rt.DevicesOf("vulkan")
	if len(vdevs) == 0 {
		t.Skip("no Vulkan device for [webgpu, vulkan, cpu]")
	}
	vb, err := vdevs[0].NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	defer vb.Close()
	m = newTinyLlama(t, func(l int) rt.BufferType {
		switch {
		case l == tlLayers:
			return cpuBT
		case l%2 == 1:
			return vdevs[0].BufferType()
		}
		return d.BufferType()
	})
	check("[webgpu, vulkan, cpu]", m.forward(t, []rt.Backend{wb, vb, cb}))
}

// TestSchedPipeline queues 8 runs of a GPU → CPU → GPU graph with pipeline
// parallelism (CPU-side and pinned inputs, asynchronous reads) and checks
// each against plain Go.
func TestSchedPipeline(t *testing.T) {
	cb, err := cpu.NewBackend(1)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close()
	schedcheck.Pipeline(t, newBackend(t, device(t)), cb, schedcheck.PipelineOptions{Timeout: 30 * time.Second})
}
