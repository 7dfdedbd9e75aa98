package vk

import (
	"os"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/llama"
	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/runtime/optest"
)

// TestMMQModel evaluates synthetic models with Q8_0, Q4_0 and Q4_K/Q6_K
// weights on Vulkan through MMQ, a prompt at once (the tiled kernel) and
// then token by token (the mat-vec kernel): the logits must match the
// CPU's as closely as the float kernels' do (random weights make greedy
// tokens a poor check: near ties flip on rounding), and MMQ must quantize
// fewer src1 than it runs products (q, k and v share the attention norm's
// output, gate and up the feed-forward norm's).
func TestMMQModel(t *testing.T) {
	dev, _ := testDevice(t)
	forceMMQ(t, dev)
	for _, name := range []string{"qwen2-q8_0", "qwen2-q4_0", "llama-q4_k_m", "llama3-q6_k"} {
		t.Run(name, func(t *testing.T) { mmqModel(t, dev, "../../shared/models/synth/"+name+".gguf") })
	}
}

func mmqModel(t *testing.T, dev *Device, path string) {
	if _, err := os.Stat(path); err != nil {
		t.Skipf("synthetic model absent (%v): ../shared/models/synth is not mounted", err)
	}
	f, err := gguf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	beI, err := dev.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	be := beI.(*Backend)
	defer be.Close()
	cpuB, err := cpu.NewBackend(1)
	if err != nil {
		t.Fatal(err)
	}
	defer cpuB.Close()
	load := func(backends ...rt.Backend) *llama.Model {
		m, err := llama.Load(f, llama.Options{Backends: backends, GPULayers: -1, NCtx: 64})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { m.Close() })
		return m
	}
	prompt := []int32{1, 76, 499, 101, 220, 402, 338, 17, 90, 45, 300, 12, 7, 250, 33, 480}
	const decoded = 3 // the prompt's last tokens, one at a time; 13 at once
	// logits evaluates the prompt: its head at once, then one token per
	// step, all logits in order.
	logits := func(m *llama.Model) []float32 {
		m.ResetCache()
		head := prompt[:len(prompt)-decoded]
		out, err := m.Eval(head, true)
		if err != nil {
			t.Fatal(err)
		}
		for _, tok := range prompt[len(head):] {
			l, err := m.Eval([]int32{tok}, false)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, l...)
		}
		return out
	}
	want := logits(load(cpuB))
	mv := load(be, cpuB)
	dev.mmq = mmqOff
	before := be.Stats()
	floatLogits := logits(mv)
	floatDispatches := be.Stats().Dispatches - before.Dispatches
	dev.mmq = mmqOn
	before = be.Stats()
	mmqLogits := logits(mv)
	mmqDispatches := be.Stats().Dispatches - before.Dispatches

	eFloat, eMMQ := optest.NMSE(floatLogits, want), optest.NMSE(mmqLogits, want)
	if !(eMMQ <= max(2*eFloat, 1e-4)) {
		t.Errorf("logits NMSE against the CPU: %.3g through MMQ, %.3g through the float kernels", eMMQ, eFloat)
	}
	quantizes := mmqDispatches - floatDispatches
	// 1 + decoded forward passes; per block q, k, v, o, gate, up, down,
	// of which 4 quantize.
	passes := 1 + decoded
	if products, least := passes*7*mv.H.NLayer, passes*4*mv.H.NLayer; quantizes < least || quantizes >= products {
		t.Errorf("%d src1 quantizations in %d passes of %d blocks, want from %d (4 per block) to under %d products", quantizes, passes, mv.H.NLayer, least, products)
	}
	t.Logf("logits NMSE against the CPU: MMQ %.3g, float %.3g; %d quantizations in %d passes", eMMQ, eFloat, quantizes, passes)
}
