package llama

import (
	"fmt"
	"os"
	"strconv"

	"github.com/gpurt/gpurt/gguf"
	rt "github.com/gpurt/gpurt/runtime"
)

// placement groups the tensors that live on one device: weights in one
// buffer (usage WEIGHTS, which pins ops on them to the device) and the KV
// cache in another.
type placement struct {
	dev     rt.Device
	ctx     *rt.Context // weights
	cache   *rt.Context // KV cache
	weights []*rt.Tensor
}

// multipliesWith reports whether dev runs MUL_MAT with weights like ti
// (its type and row length) against one F32 column.
func multipliesWith(dev rt.Device, ti *gguf.TensorInfo) bool {
	if ti.NDims != 2 {
		return true // norms and biases: not matrix weights
	}
	ctx := rt.NewContext()
	w := ctx.NewTensor(ti.Type, ti.Ne[0], ti.Ne[1])
	mm := ctx.MulMat(w, ctx.NewTensor(rt.F32, ti.Ne[0], 1))
	return ctx.Err() == nil && dev.SupportsOp(mm)
}

// loadWeights creates every weight tensor on its device, the KV cache next
// to its block, and copies the data from f.
func (m *Model) loadWeights(f *gguf.File) error {
	h := m.H
	cpuDev := m.opts.Backends[len(m.opts.Backends)-1].Device()
	var gpuDevs []rt.Device
	for _, b := range m.opts.Backends[:len(m.opts.Backends)-1] {
		gpuDevs = append(gpuDevs, b.Device())
	}
	gpuLayers := m.opts.GPULayers
	if gpuLayers < 0 || gpuLayers > h.NLayer {
		gpuLayers = h.NLayer + 1
	}
	if len(gpuDevs) == 0 {
		gpuLayers = 0
	}
	firstGPU := h.NLayer - min(gpuLayers, h.NLayer)
	// The offloaded blocks are shared out in order, in contiguous runs,
	// among the non-CPU backends (as llama.cpp's layer split).
	layerDev := func(il int) rt.Device {
		if il < firstGPU {
			return cpuDev
		}
		return gpuDevs[(il-firstGPU)*len(gpuDevs)/(h.NLayer-firstGPU)]
	}
	var places []*placement
	on := func(d rt.Device) *placement {
		for _, p := range places {
			if p.dev == d {
				return p
			}
		}
		p := &placement{dev: d, ctx: rt.NewContext(), cache: rt.NewContext()}
		places = append(places, p)
		return p
	}
	var loadErr error
	weight := func(p *placement, name string, ne ...int) *rt.Tensor {
		ti, ok := f.Tensor(name)
		if !ok {
			if loadErr == nil {
				loadErr = fmt.Errorf("llama: tensor %s is missing", name)
			}
			return p.ctx.NewTensor(rt.F32, 1)
		}
		if err := ti.Runnable(); err != nil {
			if loadErr == nil {
				loadErr = fmt.Errorf("llama: %w", err)
			}
			return p.ctx.NewTensor(rt.F32, 1)
		}
		for i, n := range ne {
			if ti.Ne[i] != n && loadErr == nil {
				loadErr = fmt.Errorf("llama: tensor %s has shape %v, want %v", name, ti.Shape(), ne)
			}
		}
		if p.dev != cpuDev && !multipliesWith(p.dev, ti) {
			p = on(cpuDev) // the device's shaders lack the type: the CPU runs its products
		}
		t := p.ctx.NewTensor(ti.Type, ti.Shape()...).SetName(name)
		p.weights = append(p.weights, t)
		return t
	}

	// Token embeddings stay on the CPU: GET_ROWS reads a few rows per token.
	cpu := on(cpuDev)
	m.tokEmbd = weight(cpu, "token_embd.weight", h.NEmbd, h.NVocab)
	m.blocks = make([]block, h.NLayer)
	for il := range m.blocks {
		p := on(layerDev(il))
		b := &m.blocks[il]
		pre := "blk." + strconv.Itoa(il) + "."
		b.attnNorm = weight(p, pre+"attn_norm.weight", h.NEmbd)
		b.wq = weight(p, pre+"attn_q.weight", h.NEmbd, h.NEmbd)
		b.wk = weight(p, pre+"attn_k.weight", h.NEmbd, h.NEmbdKV())
		b.wv = weight(p, pre+"attn_v.weight", h.NEmbd, h.NEmbdKV())
		b.wo = weight(p, pre+"attn_output.weight", h.NEmbd, h.NEmbd)
		b.ffnNorm = weight(p, pre+"ffn_norm.weight", h.NEmbd)
		b.gate = weight(p, pre+"ffn_gate.weight", h.NEmbd, h.NFF)
		b.up = weight(p, pre+"ffn_up.weight", h.NEmbd, h.NFF)
		b.down = weight(p, pre+"ffn_down.weight", h.NFF, h.NEmbd)
		b.kCache = p.cache.NewTensor(m.opts.KVType, h.NEmbdKV(), h.NCtx).SetName(pre + "k_cache")
		b.vCache = p.cache.NewTensor(m.opts.KVType, h.NCtx, h.NEmbdKV()).SetName(pre + "v_cache")
		m.blockDevs = append(m.blockDevs, p.dev.Name())
	}
	out := cpu
	if gpuLayers > h.NLayer {
		out = on(gpuDevs[len(gpuDevs)-1])
	}
	m.outNorm = weight(out, "output_norm.weight", h.NEmbd)
	if _, ok := f.Tensor("output.weight"); ok {
		m.output = weight(out, "output.weight", h.NEmbd, h.NVocab)
	} else { // tied embeddings
		m.output = weight(out, "token_embd.weight", h.NEmbd, h.NVocab)
	}
	m.Placement = placementSummary(cpuDev.Name(), m.blockDevs, out.dev.Name())
	if loadErr != nil {
		return loadErr
	}

	progress := newProgress(f.Size())
	for _, p := range places {
		if err := m.upload(f, p, progress); err != nil {
			return err
		}
	}
	progress.done()
	return nil
}

// placementSummary describes where weights live, e.g.
// "token_embd: CPU; blk.0-1: CPU; blk.2-4: Vulkan0; output: Vulkan0".
func placementSummary(embd string, blocks []string, out string) []string {
	parts := []string{"token_embd: " + embd}
	for i := 0; i < len(blocks); {
		j := i
		for j+1 < len(blocks) && blocks[j+1] == blocks[i] {
			j++
		}
		span := strconv.Itoa(i)
		if j > i {
			span += "-" + strconv.Itoa(j)
		}
		parts = append(parts, "blk."+span+": "+blocks[i])
		i = j + 1
	}
	return append(parts, "output: "+out)
}

// upload allocates p's weights and cache and copies the weights from f.
func (m *Model) upload(f *gguf.File, p *placement, progress *progress) error {
	for _, c := range []*rt.Context{p.ctx, p.cache} {
		if err := c.Err(); err != nil {
			return fmt.Errorf("llama: %w", err)
		}
	}
	buf, err := rt.AllocContextTensors(p.ctx, p.dev.BufferType())
	if err != nil {
		return fmt.Errorf("llama: weights on %s: %w", p.dev.Name(), err)
	}
	m.bufs = append(m.bufs, buf)
	buf.SetUsage(rt.UsageWeights)
	cache, err := rt.AllocContextTensors(p.cache, p.dev.BufferType())
	if err != nil {
		return fmt.Errorf("llama: KV cache on %s: %w", p.dev.Name(), err)
	}
	if cache != nil {
		m.bufs = append(m.bufs, cache)
		if err := cache.Clear(0); err != nil {
			return fmt.Errorf("llama: KV cache on %s: %w", p.dev.Name(), err)
		}
	}
	for _, t := range p.weights {
		data, err := f.TensorData(t.Name)
		if err != nil {
			return fmt.Errorf("llama: %w", err)
		}
		if err := rt.TensorSet(t, data, 0); err != nil {
			return fmt.Errorf("llama: load %s to %s: %w", t.Name, p.dev.Name(), err)
		}
		progress.add(len(data))
	}
	return nil
}

// progress draws a bar on stderr while loading files over 100 MB.
type progress struct {
	total, done_ int64
	shown        int
}

func newProgress(total int64) *progress { return &progress{total: total, shown: -1} }

func (p *progress) add(n int) {
	if p.total < 100<<20 {
		return
	}
	p.done_ += int64(n)
	pct := int(100 * p.done_ / p.total)
	if pct/2 != p.shown {
		p.shown = pct / 2
		fmt.Fprintf(os.Stderr, "\rloading [%-50s] %3d%%", bar(p.shown), pct)
	}
}

func (p *progress) done() {
	if p.total >= 100<<20 {
		fmt.Fprintln(os.Stderr)
	}
}

func bar(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = '='
	}
	return string(b)
}
