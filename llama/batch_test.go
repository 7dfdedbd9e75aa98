package llama

import (
	"errors"
	"fmt"
	"math"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// maxRelDiff is the largest difference between two logit rows, relative to
// the largest logit (at least 1).
func maxRelDiff(a, b []float32) float64 {
	d, scale := 0.0, 1.0
	for i := range a {
		d = max(d, math.Abs(float64(a[i]-b[i])))
		scale = max(scale, math.Abs(float64(a[i])))
	}
	return d / scale
}

// TestDecodeSequencesMatchAlone: three sequences decoded together, with
// prompts in one batch, then one token of each per step, one sequence
// paused (the others' streams then not adjacent) and one removed and
// restarted, give each sequence the logits it gets alone. On gemma2
// (sliding-window layers of 32) with sequences past the window, with each
// cache layout: transposed F16 values, Q8_0 rows, flash attention.
func TestDecodeSequencesMatchAlone(t *testing.T) {
	for _, c := range []struct {
		name string
		opts Options
	}{
		{"f16", Options{}},
		{"q8_0", Options{KVType: rt.Q8_0}},
		{"flash", Options{FlashAttn: true}},
	} {
		t.Run(c.name, func(t *testing.T) { decodeSequencesMatchAlone(t, c.opts) })
	}
}

func decodeSequencesMatchAlone(t *testing.T, opts Options) {
	readSynthExpected(t)
	f := openSynth(t, "gemma2-f16.gguf")
	seqTokens := func(s, n int) []int32 {
		out := make([]int32, n)
		for i := range out {
			out[i] = int32(3 + (s*131+i*17)%500)
		}
		out[0] = 1
		return out
	}
	const n = 48
	one := opts
	one.NCtx = 64
	alone := loadOn(t, f, cpuBackends(t), one)
	want := map[int][]float32{}
	for s := range 4 {
		alone.ResetCache()
		logits, err := alone.Eval(seqTokens(s, n), true)
		if err != nil {
			t.Fatal(err)
		}
		want[s] = logits
	}
	nv := alone.H.NVocab
	opts.NCtx, opts.NSeq = 3*n, 3
	m := loadOn(t, f, cpuBackends(t), opts)
	worst, tol := 0.0, 5e-3
	if opts.KVType == rt.Q8_0 {
		tol = 1e-2 // Q8_0 products take other kernels (dot, panel) at other batch sizes
	}
	check := func(what string, batchIdx int, s, pos int) {
		t.Helper()
		got := m.Logits(batchIdx)
		if got == nil {
			t.Fatalf("%s: no logits for batch index %d", what, batchIdx)
		}
		d := maxRelDiff(got, want[s][pos*nv:(pos+1)*nv])
		worst = max(worst, d)
		if d > tol {
			t.Fatalf("%s: sequence %d position %d: logits differ from the sequence alone by %.3g", what, s, pos, d)
		}
	}
	// Prompts of sequences 0 and 1 (sequence id 2 holds stream 2) in one batch.
	var b Batch
	add := func(stream int, seq int32, pos int, logits bool) {
		b.Tokens = append(b.Tokens, seqTokens(stream, n)[pos])
		b.Pos = append(b.Pos, int32(pos))
		b.Seq = append(b.Seq, seq)
		b.Logits = append(b.Logits, logits)
	}
	for p := range 10 {
		add(0, 0, p, true)
	}
	for p := range 20 {
		add(1, 1, p, p == 19)
	}
	if err := m.Decode(b); err != nil {
		t.Fatal(err)
	}
	for p := range 10 {
		check("prompt batch", p, 0, p)
	}
	check("prompt batch", 29, 1, 19)
	// One token of every live sequence per step; stream 2 joins at step 5;
	// at step 20 sequence 1 is removed and restarts with stream 3.
	pos := map[int32]int{0: 10, 1: 20}
	stream := map[int32]int{0: 0, 1: 1, 2: 2}
	for step := range 36 {
		if step == 5 {
			pos[2] = 0
		}
		if step == 20 {
			m.SeqRemove(1)
			if got := m.SeqPosMax(1); got != -1 {
				t.Fatalf("SeqPosMax after SeqRemove = %d", got)
			}
			pos[1], stream[1] = 0, 3
		}
		b = Batch{}
		var order []int32
		for _, s := range []int32{0, 1, 2} {
			p, live := pos[s]
			if !live || p >= n || (s == 1 && step >= 10 && step < 13) {
				continue
			}
			add(stream[s], s, p, true)
			order = append(order, s)
		}
		if len(order) == 0 {
			break
		}
		if err := m.Decode(b); err != nil {
			t.Fatal(err)
		}
		for i, s := range order {
			check(fmt.Sprintf("step %d", step), i, stream[s], pos[s])
			pos[s]++
		}
	}
	for i, p := range m.cache.pos {
		if p >= 0 && m.cache.seq[i] == padSeq {
			t.Fatalf("cell %d still holds a padding token (steps 10-12 padded stream 1)", i)
		}
	}
	t.Logf("largest difference %.2g of the largest logit", worst)
}

// TestDecodeErrors: bad batches are refused with errors naming the problem.
func TestDecodeErrors(t *testing.T) {
	readSynthExpected(t)
	m := loadOn(t, openSynth(t, "llama-f16.gguf"), cpuBackends(t), Options{NCtx: 8, NSeq: 2})
	cases := []struct {
		name string
		b    Batch
		want error
	}{
		{"empty", Batch{}, rt.ErrInvalidArgument},
		{"positions missing", Batch{Tokens: []int32{1, 2}, Pos: []int32{0}}, rt.ErrInvalidArgument},
		{"token out of vocabulary", Batch{Tokens: []int32{512}, Pos: []int32{0}}, rt.ErrOutOfRange},
		{"sequence out of range", Batch{Tokens: []int32{1}, Pos: []int32{0}, Seq: []int32{2}}, rt.ErrOutOfRange},
		{"negative position", Batch{Tokens: []int32{1}, Pos: []int32{-1}}, rt.ErrOutOfRange},
		{"larger than the cache", Batch{Tokens: make([]int32, 9), Pos: make([]int32, 9)}, rt.ErrContextFull},
	}
	for _, c := range cases {
		if err := m.Decode(c.b); !errors.Is(err, c.want) {
			t.Errorf("%s: error %v, want %v", c.name, err, c.want)
		}
	}
	// Filling the cache: 8 cells, then one more token is ErrContextFull.
	for i := range 8 {
		if err := m.Decode(Batch{Tokens: []int32{5}, Pos: []int32{int32(i)}, Seq: []int32{int32(i % 2)}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Decode(Batch{Tokens: []int32{5}, Pos: []int32{4}, Seq: []int32{1}}); !errors.Is(err, rt.ErrContextFull) {
		t.Errorf("a token past the full cache: error %v, want ErrContextFull", err)
	}
	m.SeqRemove(1)
	if err := m.Decode(Batch{Tokens: []int32{5}, Pos: []int32{0}, Seq: []int32{1}}); err != nil {
		t.Errorf("after SeqRemove the cells are free again: %v", err)
	}
	if _, err := m.Eval([]int32{1}, false); err != nil && !errors.Is(err, rt.ErrContextFull) {
		t.Errorf("Eval: %v", err)
	}
}

// TestKVCacheTypes: F32 and Q8_0 caches give llama.cpp's distributions
// on the first chunks (its base is made with an F16 cache): F32 as closely
// as F16, Q8_0 with the KLD llama.cpp's own Q8_0 cache gives there
// (llama-perplexity -ctk q8_0 -ctv q8_0 -fa on --chunks 4: 0.000298),
// within 15%.
func TestKVCacheTypes(t *testing.T) {
	readSynthExpected(t)
	f := openSynth(t, "llama-f16.gguf")
	base := readBase(t, "llama-f16.kld").FirstChunks(4)
	for _, c := range []struct {
		dtype          rt.DType
		minKLD, maxKLD float64
	}{{rt.F32, 0, 1e-4}, {rt.Q8_0, 0.85 * 0.000298, 1.15 * 0.000298}} {
		t.Run(c.dtype.String(), func(t *testing.T) {
			m := loadOn(t, f, cpuBackends(t), Options{KVType: c.dtype, NCtx: 128})
			s, err := m.KLDivergence(base, nil)
			if err != nil {
				t.Fatal(err)
			}
			kld := s.Summary().KLD.Value
			t.Logf("%v cache: mean KLD %.3g against llama.cpp's F16-cache base", c.dtype, kld)
			if kld < c.minKLD || kld > c.maxKLD {
				t.Errorf("mean KLD %.3g is outside [%.3g, %.3g]", kld, c.minKLD, c.maxKLD)
			}
		})
	}
}

// TestEmbedIsMeanHiddenState: the pooled embedding times the output matrix
// is the mean of the tokens' logits (the output is linear in the final
// hidden states), and embedding in between leaves sequence 0 as it was.
func TestEmbedIsMeanHiddenState(t *testing.T) {
	readSynthExpected(t)
	f := openSynth(t, "llama-f16.gguf")
	m := loadOn(t, f, cpuBackends(t), Options{NCtx: 64})
	tokens := []int32{1, 304, 504, 368, 261, 259, 502, 325}
	logits, err := m.Eval(tokens, true)
	if err != nil {
		t.Fatal(err)
	}
	next, err := m.Eval([]int32{42}, false)
	if err != nil {
		t.Fatal(err)
	}
	m.ResetCache()
	if _, err := m.Eval(tokens, false); err != nil {
		t.Fatal(err)
	}
	emb, err := m.Embed(tokens)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Logits(0); got != nil {
		t.Error("Logits after Embed returns a row")
	}
	after, err := m.Eval([]int32{42}, false)
	if err != nil {
		t.Fatal(err)
	}
	if d := maxRelDiff(after, next); d > 1e-5 {
		t.Errorf("sequence 0 after Embed: logits differ by %.3g", d)
	}
	w, err := f.TensorF32("output.weight")
	if err != nil {
		t.Fatal(err)
	}
	nv, d := m.H.NVocab, m.H.NEmbd
	got, want := make([]float32, nv), make([]float32, nv)
	for v := range nv {
		var s float64
		for i := range d {
			s += float64(w[v*d+i]) * float64(emb[i])
		}
		got[v] = float32(s)
		for j := range tokens {
			want[v] += logits[j*nv+v] / float32(len(tokens))
		}
	}
	if diff := maxRelDiff(got, want); diff > 1e-3 {
		t.Errorf("output · embedding differs from the mean logits by %.3g", diff)
	}
}

// TestSplitUbatches: a batch is cut into ubatches of equal tokens per
// stream over runs of adjacent streams, in the order llama.cpp's equal
// split takes them; an idle stream between busy ones with the same count
// gets padding tokens instead, when it has free cells and the idle
// streams are no more than the busy ones.
func TestSplitUbatches(t *testing.T) {
	const cells = 4
	pad := padIndex
	for _, c := range []struct {
		name    string
		streams int
		full    []int // streams with no free cell
		seqs    []int32
		want    []ubatch
	}{
		{"one stream", 1, nil, []int32{0, 0, 0}, []ubatch{{0, 1, 3, []int{0, 1, 2}}}},
		{"one token each", 4, nil, []int32{0, 1, 2, 3}, []ubatch{{0, 4, 1, []int{0, 1, 2, 3}}}},
		{"out of order", 4, nil, []int32{3, 1, 2, 0}, []ubatch{{0, 4, 1, []int{3, 1, 2, 0}}}},
		{"a gap, padded", 4, nil, []int32{0, 1, 3}, []ubatch{{0, 4, 1, []int{0, 1, pad(2), 2}}}},
		{"a gap, full", 4, []int{2}, []int32{0, 1, 3}, []ubatch{{0, 2, 1, []int{0, 1}}, {3, 1, 1, []int{2}}}},
		{"more idle than busy", 5, nil, []int32{0, 4}, []ubatch{{0, 1, 1, []int{0}}, {4, 1, 1, []int{1}}}},
		{"two tokens each, padded", 3, nil, []int32{0, 0, 2, 2}, []ubatch{{0, 3, 2, []int{0, 1, pad(1), pad(1), 2, 3}}}},
		{"a prompt joins", 3, nil, []int32{0, 1, 1, 1, 2}, []ubatch{{0, 3, 1, []int{0, 1, 4}}, {1, 1, 2, []int{2, 3}}}},
		{"two prompts", 2, nil, []int32{0, 0, 1, 1, 1, 1}, []ubatch{{0, 2, 2, []int{0, 1, 2, 3}}, {1, 1, 2, []int{4, 5}}}},
	} {
		kv := kvCache{streams: c.streams, streamSize: cells, pos: make([]int32, c.streams*cells), seq: make([]int32, c.streams*cells)}
		for i := range kv.pos {
			kv.pos[i] = -1
		}
		for _, st := range c.full {
			for i := range cells {
				kv.pos[st*cells+i] = int32(i)
			}
		}
		m := &Model{cache: kv}
		got := m.split(c.seqs)
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: ubatches %v, want %v", c.name, got, c.want)
		}
	}
}

// TestDecodeStepIsOneForwardPass: a step of one token of each of four
// sequences is one forward pass (one profile step), and the graph is
// built once for the steps that follow, a step with one sequence idle
// (padded) and one with a prompt joining (every row computed) included;
// the prompt's rest runs on the other scheduler, so the decode steps'
// graph survives it, and a second prompt of the same shape reuses the
// first one's graph.
func TestDecodeStepIsOneForwardPass(t *testing.T) {
	prof := rt.NewProfile()
	m := loadOn(t, openSynth(t, "llama-f16.gguf"), cpuBackends(t), Options{NCtx: 4 * 64, NSeq: 4, Profile: prof})
	next := map[int32]int32{}
	step := func(what string, seqs []int32, prompt int32, promptLen int) {
		t.Helper()
		var b Batch
		for _, s := range seqs {
			b.Tokens, b.Pos, b.Seq, b.Logits = append(b.Tokens, 5+s), append(b.Pos, next[s]), append(b.Seq, s), append(b.Logits, true)
			next[s]++
		}
		for i := range promptLen {
			b.Tokens, b.Pos, b.Seq, b.Logits = append(b.Tokens, 7), append(b.Pos, next[prompt]), append(b.Seq, prompt), append(b.Logits, i == promptLen-1)
			next[prompt]++
		}
		prof.Reset()
		if err := m.Decode(b); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		want := 1
		if promptLen > 1 {
			want = 2 // the prompt's first token with the others, then its rest
		}
		if got := prof.Report().Steps; got != want {
			t.Errorf("%s: %d forward passes, want %d", what, got, want)
		}
		for i := range b.Tokens {
			if b.Logits[i] && m.Logits(i) == nil {
				t.Fatalf("%s: no logits for batch index %d", what, i)
			}
		}
	}
	all := []int32{0, 1, 2, 3}
	step("first tokens", all, 0, 0)
	builds := m.builds
	for i := range 5 {
		step(fmt.Sprintf("step %d", i), all, 0, 0)
	}
	step("sequence 2 idle", []int32{0, 1, 3}, 0, 0)
	m.SeqRemove(2)
	next[2] = 0
	step("sequence 2 joins with a prompt", []int32{0, 1, 3}, 2, 4)
	builds++ // the prompt's rest has a shape of its own, on the other scheduler
	step("all four again", all, 0, 0)
	m.SeqRemove(2)
	next[2] = 0
	step("sequence 2 joins again with a prompt", []int32{0, 1, 3}, 2, 4) // the first prompt's graph again
	step("all four again", all, 0, 0)
	if m.builds != builds {
		t.Errorf("%d graphs built, want %d: the decode steps' graph was not reused", m.builds, builds)
	}
}
