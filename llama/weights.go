package llama

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unsafe"

	"github.com/gpurt/gpurt/gguf"
	rt "github.com/gpurt/gpurt/runtime"
)

// Weights are bound by name: every *rt.Tensor field of a weight struct
// carries a tag
//
//	gguf:"attn_q.weight[,optional][,global]" shape:"embd,q"
//
// naming the tensor (prefixed with "blk.N." inside a block unless global),
// whether it may be absent (the field stays nil), and its dimensions in
// terms of the hyperparameters (see dimOf). Nested structs are walked, so
// blocks share their weight groups (attnWeights, ffnWeights, ...).

// placement groups the tensors that live on one device: weights in one
// buffer (usage WEIGHTS, which pins ops on them to the device) and the KV
// cache in another.
type placement struct {
	dev     rt.Device
	ctx     *rt.Context // weights
	cache   *rt.Context // KV cache
	weights []*rt.Tensor
	global  map[string]*rt.Tensor // one copy per device of shared tensors
}

// binder creates the weight tensors of tagged structs, checking names and
// shapes against the file.
type binder struct {
	f   *gguf.File
	h   *Hparams
	cpu *placement // where matrices go whose type a device cannot multiply
	err error
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

// dimOf resolves a symbolic dimension of a shape tag.
func (h *Hparams) dimOf(sym string) (int, bool) {
	switch sym {
	case "embd":
		return h.NEmbd, true
	case "vocab":
		return h.NVocab, true
	case "q":
		return h.NHead * h.HeadDim, true
	case "vq":
		return h.NHead * h.HeadDimV, true
	case "kv":
		return h.NEmbdKV(), true
	case "vkv":
		return h.NEmbdVKV(), true
	case "qkv":
		return h.NHead*h.HeadDim + h.NEmbdKV() + h.NEmbdVKV(), true
	case "ff":
		return h.NFF, true
	case "ff2":
		return 2 * h.NFF, true
	case "head":
		return h.HeadDim, true
	case "rope2":
		return h.RopeDims / 2, true
	}
	return 0, false
}

var tensorType = reflect.TypeOf((*rt.Tensor)(nil))

// bind fills the tagged *rt.Tensor fields of the struct dst points to with
// new tensors in p, named prefix+tag.
func (b *binder) bind(dst any, prefix string, p *placement) {
	b.bindValue(reflect.ValueOf(dst).Elem(), prefix, p)
}

func (b *binder) bindValue(v reflect.Value, prefix string, p *placement) {
	t := v.Type()
	for i := range t.NumField() {
		field, fv := t.Field(i), v.Field(i)
		if field.Type.Kind() == reflect.Struct {
			b.bindValue(fv, prefix, p)
			continue
		}
		tag, ok := field.Tag.Lookup("gguf")
		if !ok || field.Type != tensorType {
			continue
		}
		parts := strings.Split(tag, ",")
		name, optional, global := parts[0], false, false
		for _, o := range parts[1:] {
			switch o {
			case "optional":
				optional = true
			case "global":
				global = true
			default:
				panic("llama: unknown weight tag option " + o + " on " + field.Name)
			}
		}
		if !global {
			name = prefix + name
		}
		if tt := b.tensor(name, field.Tag.Get("shape"), optional, global, p); tt != nil {
			fv.Set(reflect.ValueOf(tt))
		}
	}
}

// tensor creates the weight called name in p, or returns nil when it is
// absent and optional (an absent required one records an error).
func (b *binder) tensor(name, shape string, optional, global bool, p *placement) *rt.Tensor {
	if global {
		if t, ok := p.global[name]; ok {
			return t
		}
	}
	ti, ok := b.f.Tensor(name)
	if !ok {
		if !optional && b.err == nil {
			b.err = fmt.Errorf("llama: %w: tensor %s is missing", rt.ErrCorruptFile, name)
		}
		return nil
	}
	var want [rt.MaxDims]int
	for i := range want {
		want[i] = 1
	}
	if shape != "" {
		for i, sym := range strings.Split(shape, ",") {
			n, ok := b.h.dimOf(sym)
			if !ok {
				panic("llama: unknown shape symbol " + sym + " for " + name)
			}
			want[i] = n
		}
		if ti.Ne != want && b.err == nil {
			b.err = fmt.Errorf("llama: %w: tensor %s has shape %v, want %v (%s)", rt.ErrCorruptFile, name, ti.Shape(), want[:len(strings.Split(shape, ","))], shape)
		}
	}
	if err := ti.Runnable(); err != nil {
		if b.err == nil {
			b.err = fmt.Errorf("llama: %w", err)
		}
		return nil
	}
	if p != b.cpu && !multipliesWith(p.dev, ti) {
		p = b.cpu // the device's shaders lack the type: the CPU runs its products
		if global {
			if t, ok := p.global[name]; ok {
				return t
			}
		}
	}
	t := p.ctx.NewTensor(ti.Type, ti.Shape()...).SetName(name)
	p.weights = append(p.weights, t)
	if global {
		p.global[name] = t
	}
	return t
}

// blocksInFile counts the blocks named in f (one more than the largest N of
// the blk.N.* tensors), so block_count is checked before anything is sized
// by it.
func blocksInFile(f *gguf.File) int {
	n := 0
	for _, ti := range f.Tensors {
		rest, ok := strings.CutPrefix(ti.Name, "blk.")
		if !ok {
			continue
		}
		num, _, ok := strings.Cut(rest, ".")
		if !ok {
			continue
		}
		if il, err := strconv.Atoi(num); err == nil && il >= n {
			n = il + 1
		}
	}
	return n
}

// modelWeights are the tensors outside the blocks.
type modelWeights struct {
	TokEmbd *rt.Tensor // token_embd.weight, on the CPU
	OutNorm *rt.Tensor `gguf:"output_norm.weight" shape:"embd"`
	OutNrmB *rt.Tensor `gguf:"output_norm.bias,optional" shape:"embd"`
	Output  *rt.Tensor `gguf:"output.weight,optional" shape:"embd,vocab"` // nil: tied to token_embd
}

// loadWeights creates every weight tensor on its device, the KV cache next
// to its block, and copies (or maps) the data from f.
func (m *Model) loadWeights(f *gguf.File) error {
	h := &m.H
	if got := blocksInFile(f); got != h.NLayer {
		return fmt.Errorf("llama: %w: %s.block_count is %d but the file has %d blocks", rt.ErrCorruptFile, h.Arch, h.NLayer, got)
	}
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
	// among the non-CPU backends by Options.TensorSplit (as llama.cpp's
	// layer split).
	offloaded, outDev := splitDevices(h.NLayer-firstGPU, len(gpuDevs), m.opts.TensorSplit)
	layerDev := func(il int) rt.Device {
		if il < firstGPU {
			return cpuDev
		}
		return gpuDevs[offloaded[il-firstGPU]]
	}
	on := func(d rt.Device) *placement {
		for _, p := range m.places {
			if p.dev == d {
				return p
			}
		}
		p := &placement{dev: d, ctx: rt.NewContext(), cache: rt.NewContext(), global: map[string]*rt.Tensor{}}
		m.places = append(m.places, p)
		return p
	}
	// Token embeddings stay on the CPU: GET_ROWS reads a few rows per token.
	cpu := on(cpuDev)
	b := &binder{f: f, h: h, cpu: cpu}
	m.w.TokEmbd = b.tensor("token_embd.weight", "embd,vocab", false, false, cpu)
	m.layers = make([]any, h.NLayer)
	for il := range m.layers {
		p := on(layerDev(il))
		m.layers[il] = m.arch.NewLayer()
		b.bind(m.layers[il], "blk."+strconv.Itoa(il)+".", p)
		m.blockDevs = append(m.blockDevs, p.dev.Name())
	}
	out := cpu
	if gpuLayers > h.NLayer {
		out = on(gpuDevs[outDev])
	}
	b.bind(&m.w, "", out)
	if m.w.Output == nil { // tied embeddings
		m.w.Output = b.tensor("token_embd.weight", "embd,vocab", false, true, out)
	}
	if b.err != nil {
		return b.err
	}
	if err := m.cache.init(m, layerDev, on); err != nil {
		return err
	}
	m.Placement = placementSummary(cpuDev.Name(), m.blockDevs, out.dev.Name())

	var total, done int64
	for _, p := range m.places {
		for _, t := range p.weights {
			total += int64(t.Nbytes())
		}
	}
	for _, p := range m.places {
		if err := m.upload(f, p, func(n int) {
			done += int64(n)
			if m.opts.Progress != nil {
				m.opts.Progress(done, total)
			}
		}); err != nil {
			return err
		}
	}
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

// mapAlignment is the alignment mapped weights need: GGUF's default, the
// width of an AVX2 load (the CPU kernels take unaligned data; its own
// buffers align to a cache line for speed only).
const mapAlignment = 32

// mappable says whether t's data can serve as a CPU tensor in place: the
// device wraps host memory, and the data is aligned.
func mappable(d rt.Device, data []byte) bool {
	if !d.Props().Caps.BufferFromHostPtr || d.Props().Type != rt.DeviceCPU || len(data) == 0 {
		return false
	}
	align := min(max(d.BufferType().Alignment(), 1), mapAlignment)
	return uintptr(unsafe.Pointer(&data[0]))%uintptr(align) == 0
}

// upload allocates p's weights and cache and copies the weights from f;
// on the CPU, unless Options.NoMmap, aligned weights are used in place.
func (m *Model) upload(f *gguf.File, p *placement, progress func(int)) error {
	for _, c := range []*rt.Context{p.ctx, p.cache} {
		if err := c.Err(); err != nil {
			return fmt.Errorf("llama: %w", err)
		}
	}
	inPlace := map[*rt.Tensor]bool{}
	if !m.opts.NoMmap {
		for _, t := range p.weights {
			data, err := f.TensorData(t.Name)
			if err != nil {
				return fmt.Errorf("llama: %w", err)
			}
			if !mappable(p.dev, data) || p.dev.BufferType().AllocSize(t) > len(data) {
				continue
			}
			buf, err := p.dev.BufferFromHost(data, len(data))
			if err != nil {
				return fmt.Errorf("llama: map %s: %w", t.Name, err)
			}
			m.bufs = append(m.bufs, buf)
			buf.SetUsage(rt.UsageWeights)
			if err := rt.AllocTensor(buf, t, 0); err != nil {
				return fmt.Errorf("llama: map %s: %w", t.Name, err)
			}
			f.PrefaultTensor(t.Name) // as llama.cpp's MAP_POPULATE: no page faults mid-step
			inPlace[t] = true
			m.mapped++
			progress(len(data))
		}
	}
	buf, err := rt.AllocContextTensors(p.ctx, p.dev.BufferType())
	if err != nil {
		return fmt.Errorf("llama: weights on %s: %w", p.dev.Name(), err)
	}
	if buf != nil {
		m.bufs = append(m.bufs, buf)
		buf.SetUsage(rt.UsageWeights)
	}
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
		if !inPlace[t] {
			data, err := f.TensorData(t.Name)
			if err != nil {
				return fmt.Errorf("llama: %w", err)
			}
			if err := rt.TensorSet(t, data, 0); err != nil {
				return fmt.Errorf("llama: load %s to %s: %w", t.Name, p.dev.Name(), err)
			}
			progress(len(data))
		}
	}
	return nil
}
