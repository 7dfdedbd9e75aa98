package llama

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	rt "github.com/gpurt/gpurt/runtime"
)

// Perplexity and KL divergence as llama-perplexity measures them: the text
// is cut into chunks of NCtx tokens, each evaluated from an empty cache with
// its first token replaced by BOS, and only the second half of each chunk
// is scored (positions NCtx/2 .. NCtx-2 predict the next token), so every
// scored token has at least NCtx/2 tokens of context.
//
// The KL-divergence base file is llama.cpp's (--kl-divergence-base): magic
// "_logits_", int32 n_ctx, n_vocab, n_chunk, the n_chunk*n_ctx tokens, then
// per scored position a record of 2*((n_vocab+1)/2)+4 uint16: float32
// scale and min_log_prob, then the log-probabilities quantized to 16 bits
// over the top 16 nats.

// kldMagic starts a llama.cpp logits file.
const kldMagic = "_logits_"

// kldFloor is how far below the most likely token a base log-probability
// is still recorded and counted in the KL sum (llama.cpp's 16 nats).
const kldFloor = 16

// PerplexityResult is llama-perplexity's "Final estimate".
type PerplexityResult struct {
	PPL, PPLErr float64
	Chunks      int // chunks evaluated
	Count       int // tokens scored
}

// ChunkCount is how many chunks of nCtx tokens the text gives.
func ChunkCount(nTokens, nCtx int) int { return nTokens / nCtx }

// chunkGroup is how many chunks of nCtx tokens are evaluated together, as
// llama-perplexity's n_seq: one sequence each, as far as Options.NSeq and
// the cache allow.
func (m *Model) chunkGroup(nCtx int) int {
	return max(1, min(m.opts.NSeq, m.H.NCtx/nCtx))
}

// chunkLogits evaluates chunks c0 .. c0+k-1 of tokens from an empty cache,
// each as its own sequence with BOS first, and returns the logits of their
// scored positions, [NCtx/2 .. NCtx-2] of each chunk in turn.
func (m *Model) chunkLogits(tokens []int32, nCtx, c0, k int) ([]float32, error) {
	first := nCtx / 2
	n := k * nCtx
	b := Batch{Tokens: slices.Clone(tokens[c0*nCtx : (c0+k)*nCtx]), Pos: make([]int32, n), Seq: make([]int32, n), Logits: make([]bool, n)}
	for s := range k {
		b.Tokens[s*nCtx] = m.Tok.BOS()
		for j := range nCtx {
			i := s*nCtx + j
			b.Pos[i], b.Seq[i] = int32(j), int32(s)
			b.Logits[i] = j >= first && j < nCtx-1
		}
	}
	m.ResetCache()
	if err := m.Decode(b); err != nil {
		return nil, err
	}
	return m.logits[:k*(nCtx-1-first)*m.H.NVocab], nil
}

func (m *Model) checkChunks(nTokens, nCtx int) error {
	if nCtx < 4 || nCtx > m.H.NCtx {
		return fmt.Errorf("llama: %w: perplexity context %d is outside 4..%d (the model's context)", rt.ErrInvalidArgument, nCtx, m.H.NCtx)
	}
	if nTokens < nCtx {
		return fmt.Errorf("llama: %w: the text has %d tokens, not one chunk of %d", rt.ErrInvalidArgument, nTokens, nCtx)
	}
	return nil
}

// Perplexity measures the perplexity of tokens (the text tokenized with BOS)
// in chunks of nCtx. With base set it also writes llama.cpp's KL-divergence
// base file there. onChunk, if set, sees the running PPL after each chunk.
func (m *Model) Perplexity(tokens []int32, nCtx int, base io.Writer, onChunk func(chunk int, ppl float64)) (PerplexityResult, error) {
	var res PerplexityResult
	if err := m.checkChunks(len(tokens), nCtx); err != nil {
		return res, err
	}
	nChunk := ChunkCount(len(tokens), nCtx)
	nv := m.H.NVocab
	var bw *bufio.Writer
	var rec []uint16
	if base != nil {
		bw = bufio.NewWriter(base)
		bw.WriteString(kldMagic)
		hdr := []int32{int32(nCtx), int32(nv), int32(nChunk)}
		binary.Write(bw, binary.LittleEndian, hdr)
		binary.Write(bw, binary.LittleEndian, tokens[:nChunk*nCtx])
		rec = make([]uint16, kldRecordLen(nv))
	}
	var nll, nll2 float64
	first := nCtx / 2
	perChunk := nCtx - 1 - first
	group := m.chunkGroup(nCtx)
	for c0 := 0; c0 < nChunk; c0 += group {
		k := min(group, nChunk-c0)
		all, err := m.chunkLogits(tokens, nCtx, c0, k)
		if err != nil {
			return res, err
		}
		for c := c0; c < c0+k; c++ {
			logits := all[(c-c0)*perChunk*nv : (c-c0+1)*perChunk*nv]
			if err := m.scoreChunk(logits, tokens, nCtx, c, bw, rec, &nll, &nll2); err != nil {
				return res, err
			}
			res.Count += perChunk
			res.Chunks++
			if onChunk != nil {
				onChunk(c, math.Exp(nll/float64(res.Count)))
			}
		}
	}
	if bw != nil {
		if err := bw.Flush(); err != nil {
			return res, err
		}
	}
	mean, mean2 := nll/float64(res.Count), nll2/float64(res.Count)
	res.PPL = math.Exp(mean)
	if v := mean2 - mean*mean; v > 0 {
		res.PPLErr = math.Sqrt(v/float64(res.Count-1)) * res.PPL
	}
	return res, nil
}

// scoreChunk adds the negative log-likelihoods of chunk c's scored
// positions (logits: one row each) and writes their base records to bw.
func (m *Model) scoreChunk(logits []float32, tokens []int32, nCtx, c int, bw *bufio.Writer, rec []uint16, nll, nll2 *float64) error {
	nv, first := m.H.NVocab, nCtx/2
	for j := first; j < nCtx-1; j++ {
		row := logits[(j-first)*nv : (j-first+1)*nv]
		next := tokens[c*nCtx+j+1]
		var v float64
		if bw != nil {
			v = encodeLogProbs(row, rec, next)
			if err := binary.Write(bw, binary.LittleEndian, rec); err != nil {
				return err
			}
		} else {
			v = -logSoftmaxAt(row, next)
		}
		*nll += v
		*nll2 += v * v
	}
	return nil
}

func kldRecordLen(nVocab int) int { return 2*((nVocab+1)/2) + 4 }

// logSoftmaxAt is log softmax(row)[tok], accumulated as llama.cpp does.
func logSoftmaxAt(row []float32, tok int32) float64 {
	mx := slices.Max(row)
	var sum float64
	for _, v := range row {
		sum += float64(float32(math.Exp(float64(v - mx))))
	}
	return float64(row[tok]-mx) - math.Log(sum)
}

// encodeLogProbs writes one base-file record of row into rec and returns
// the negative log-likelihood of tok.
func encodeLogProbs(row []float32, rec []uint16, tok int32) float64 {
	mx, mn := slices.Max(row), slices.Min(row)
	mn = max(mn, mx-kldFloor)
	var sum float64
	for _, v := range row {
		sum += float64(float32(math.Exp(float64(v - mx))))
	}
	logSum := float32(math.Log(sum))
	minLogProb := mn - mx - logSum
	scale := (mx - mn) / 65535
	putF32 := func(i int, f float32) {
		b := math.Float32bits(f)
		rec[i], rec[i+1] = uint16(b), uint16(b>>16)
	}
	putF32(0, scale)
	putF32(2, minLogProb)
	q := rec[4:]
	clear(q)
	if scale != 0 {
		inv := 1 / scale
		for i, v := range row {
			if v > mn {
				q[i] = uint16(nearestInt(inv * (v - mn)))
			}
		}
	}
	return float64(mx + logSum - row[tok])
}

// nearestInt rounds to the nearest integer, ties to even, as ggml's nearest_int.
func nearestInt(f float32) int { return int(math.RoundToEven(float64(f))) }

// KLDBase is a KL-divergence base file read into memory.
type KLDBase struct {
	NCtx, NVocab, NChunk int
	Tokens               []int32
	records              []uint16 // NChunk * (NCtx-1-NCtx/2) records
}

// ReadKLDBase reads a llama.cpp logits file (made by llama-perplexity
// --kl-divergence-base or by gpurt perplexity).
func ReadKLDBase(r io.Reader) (*KLDBase, error) {
	corrupt := func(format string, args ...any) error {
		return fmt.Errorf("llama: %w: KL-divergence base: "+format, append([]any{rt.ErrCorruptFile}, args...)...)
	}
	br := bufio.NewReader(r)
	magic := make([]byte, len(kldMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != kldMagic {
		return nil, corrupt("no %q magic", kldMagic)
	}
	var hdr [3]int32
	if err := binary.Read(br, binary.LittleEndian, &hdr); err != nil {
		return nil, corrupt("header: %v", err)
	}
	b := &KLDBase{NCtx: int(hdr[0]), NVocab: int(hdr[1]), NChunk: int(hdr[2])}
	if b.NCtx < 4 || b.NCtx > maxContext || b.NVocab <= 0 || b.NVocab > 1<<24 || b.NChunk <= 0 || b.NChunk > 1<<20 {
		return nil, corrupt("n_ctx %d, n_vocab %d, n_chunk %d are out of range", b.NCtx, b.NVocab, b.NChunk)
	}
	nTok := b.NCtx * b.NChunk
	nRec := b.NChunk * (b.NCtx - 1 - b.NCtx/2)
	if int64(nRec)*int64(kldRecordLen(b.NVocab)) > 1<<34 {
		return nil, corrupt("%d records of %d values are too large", nRec, kldRecordLen(b.NVocab))
	}
	var err error
	if b.Tokens, err = readLittleEndian[int32](br, nTok); err != nil {
		return nil, corrupt("tokens: %v", err)
	}
	for i, t := range b.Tokens {
		if t < 0 || int(t) >= b.NVocab {
			return nil, corrupt("token %d at %d is outside the vocabulary of %d", t, i, b.NVocab)
		}
	}
	if b.records, err = readLittleEndian[uint16](br, nRec*kldRecordLen(b.NVocab)); err != nil {
		return nil, corrupt("log-probabilities: %v (the file is truncated)", err)
	}
	if _, err := br.ReadByte(); !errors.Is(err, io.EOF) {
		return nil, corrupt("data after the last record")
	}
	return b, nil
}

// readLittleEndian reads n little-endian values from r a megabyte at a
// time, so that a header claiming more than the file holds costs what the
// file holds, not what it claims.
func readLittleEndian[T int32 | uint16](r io.Reader, n int) ([]T, error) {
	const chunk = 1 << 20 / 4
	var out []T
	for len(out) < n {
		m := len(out)
		out = slices.Grow(out, min(n-m, chunk))[:m+min(n-m, chunk)]
		if err := binary.Read(r, binary.LittleEndian, out[m:]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// KLDStats accumulates llama-perplexity's --kl-divergence statistics.
type KLDStats struct {
	sumNLL, sumNLL2, sumNLLBase, sumNLLBase2, sumNLLNLLBase float64
	sumKLD, sumKLD2, sumPDiff, sumPDiff2, sumPDiff4         float64
	maxPDiff                                                float64
	sameTop, count                                          int
	kld, pDiff                                              []float32
}

// add scores one position: logits of the model under test, the base's
// record and the next token.
func (s *KLDStats) add(logits []float32, rec []uint16, tok int32) {
	nv := len(logits)
	imax := 0
	for i, v := range logits {
		if v > logits[imax] {
			imax = i
		}
	}
	mx := logits[imax]
	var sumExp float64
	for _, v := range logits {
		sumExp += float64(float32(math.Exp(float64(v - mx))))
	}
	logSum := float32(math.Log(sumExp))
	f32 := func(i int) float32 { return math.Float32frombits(uint32(rec[i]) | uint32(rec[i+1])<<16) }
	scale, minLogProb := f32(0), f32(2)
	q := rec[4 : 4+nv]
	nll := float64(mx + logSum - logits[tok])
	nllBase := float64(-(scale*float32(q[tok]) + minLogProb))
	s.sumNLL += nll
	s.sumNLL2 += nll * nll
	s.sumNLLBase += nllBase
	s.sumNLLBase2 += nllBase * nllBase
	s.sumNLLNLLBase += nll * nllBase
	top := mx + logSum
	var kl float64
	imaxBase, pMax := -1, float32(0)
	for i := range nv {
		lp := scale*float32(q[i]) + minLogProb
		if i == 0 || lp > pMax {
			pMax, imaxBase = lp, i
		}
		if lp > -kldFloor {
			kl += float64(float32(math.Exp(float64(lp)))) * float64(lp-logits[i]+top)
		}
	}
	s.sumKLD += kl
	s.sumKLD2 += kl * kl
	s.count++
	if imax == imaxBase {
		s.sameTop++
	}
	pd := float64(float32(math.Exp(-nll)) - float32(math.Exp(-nllBase)))
	s.sumPDiff += pd
	s.sumPDiff2 += pd * pd
	s.sumPDiff4 += pd * pd * pd * pd
	s.maxPDiff = max(s.maxPDiff, math.Abs(pd))
	s.kld = append(s.kld, float32(kl))
	s.pDiff = append(s.pDiff, float32(pd))
}

// KLDivergence evaluates the base's tokens chunk by chunk and compares the
// model's distributions with the base's. onChunk, if set, sees the running
// statistics after each chunk.
func (m *Model) KLDivergence(base *KLDBase, onChunk func(chunk int, s *KLDStats)) (*KLDStats, error) {
	if base.NVocab != m.H.NVocab {
		return nil, fmt.Errorf("llama: %w: the base has a vocabulary of %d, the model %d", rt.ErrInvalidArgument, base.NVocab, m.H.NVocab)
	}
	if base.NCtx > m.H.NCtx {
		return nil, fmt.Errorf("llama: %w: the base was computed with a context of %d, over the model's %d", rt.ErrInvalidArgument, base.NCtx, m.H.NCtx)
	}
	nCtx, nv := base.NCtx, base.NVocab
	first, rl := nCtx/2, kldRecordLen(nv)
	perChunk := nCtx - 1 - first
	s := &KLDStats{}
	group := m.chunkGroup(nCtx)
	for c0 := 0; c0 < base.NChunk; c0 += group {
		k := min(group, base.NChunk-c0)
		logits, err := m.chunkLogits(base.Tokens, nCtx, c0, k)
		if err != nil {
			return nil, err
		}
		for c := c0; c < c0+k; c++ {
			for j := range perChunk {
				r := (c-c0)*perChunk + j
				rec := base.records[(c*perChunk+j)*rl : (c*perChunk+j+1)*rl]
				s.add(logits[r*nv:(r+1)*nv], rec, base.Tokens[c*nCtx+first+j+1])
			}
			if onChunk != nil {
				onChunk(c, s)
			}
		}
	}
	return s, nil
}

// Estimate is a value and its uncertainty.
type Estimate struct{ Value, Err float64 }

func meanAndUncertainty(sum, sum2 float64, n int) Estimate {
	if n < 1 {
		return Estimate{}
	}
	f := sum / float64(n)
	df := sum2/float64(n) - f*f
	if df > 0 && n > 10 {
		df = math.Sqrt(df / float64(n-1))
	} else {
		df = 0
	}
	return Estimate{f, df}
}

func covariance(a, b, ab float64, n int) float64 {
	if n < 10 {
		return 0
	}
	return (ab/float64(n) - (a/float64(n))*(b/float64(n))) / float64(n-1)
}

// KLDSummary holds the figures llama-perplexity prints, under its labels.
type KLDSummary struct {
	Count                           int
	PPL, PPLBase                    Estimate // Mean PPL(Q), Mean PPL(base)
	CorLnPPL                        float64  // Cor(ln(PPL(Q)), ln(PPL(base)))
	LnPPLRatio, PPLRatio, PPLDiff   Estimate
	KLD                             Estimate // Mean    KLD
	KLDMax, KLDMin, KLDMedian       float64
	KLDPercentiles                  map[string]float64 // "99.9%" .. "0.1%"
	PDiff                           Estimate           // Mean    Δp (fraction)
	PDiffMax, PDiffMin, PDiffMedian float64
	PDiffPercentiles                map[string]float64
	RMSPDiff, SameTop               Estimate // fractions
}

// KLDPercentileLabels and PDiffPercentileLabels are the quantiles printed,
// in llama-perplexity's order.
var (
	KLDPercentileLabels   = []string{"99.9%", "99.0%", "95.0%", "90.0%", "10.0%", " 5.0%", " 1.0%", " 0.1%"}
	PDiffPercentileLabels = []string{"99.9%", "99.0%", "95.0%", "90.0%", "75.0%", "25.0%", "10.0%", " 5.0%", " 1.0%", " 0.1%"}
	percentileFraction    = map[string]float32{"99.9%": 0.999, "99.0%": 0.990, "95.0%": 0.950, "90.0%": 0.900, "75.0%": 0.750, "25.0%": 0.250, "10.0%": 0.100, " 5.0%": 0.050, " 1.0%": 0.010, " 0.1%": 0.001}
)

// percentile interpolates sorted values as llama-perplexity does.
func percentile(v []float32, fraction float32) float64 {
	if fraction <= 0 {
		return float64(v[0])
	}
	if fraction >= 1 {
		return float64(v[len(v)-1])
	}
	p := fraction * float32(len(v)-1)
	ip := int(p)
	p -= float32(ip)
	return float64((1-p)*v[ip] + p*v[min(ip+1, len(v)-1)])
}

func median(v []float32) float64 {
	n := len(v)
	if n%2 == 0 {
		return float64(0.5 * (v[n/2] + v[n/2-1]))
	}
	return float64(v[n/2])
}

// Running are the figures of llama-perplexity's per-chunk line: PPL,
// ln(PPL(Q)/PPL(base)), KL divergence, RMS Δp and same-top (fractions).
func (s *KLDStats) Running() (ppl, lnRatio, kld, rmsDP, sameTop Estimate) {
	lp := meanAndUncertainty(s.sumNLL, s.sumNLL2, s.count)
	ppl = Estimate{math.Exp(lp.Value), math.Exp(lp.Value) * lp.Err}
	lb := meanAndUncertainty(s.sumNLLBase, s.sumNLLBase2, s.count)
	cov := covariance(s.sumNLL, s.sumNLLBase, s.sumNLLNLLBase, s.count)
	lnRatio = Estimate{lp.Value - lb.Value, math.Sqrt(max(0, lp.Err*lp.Err+lb.Err*lb.Err-2*cov))}
	kld = meanAndUncertainty(s.sumKLD, s.sumKLD2, s.count)
	mse := meanAndUncertainty(s.sumPDiff2, s.sumPDiff4, s.count)
	rms := math.Sqrt(mse.Value)
	rmsDP = Estimate{rms, 0}
	if rms > 0 {
		rmsDP.Err = 0.5 / rms * mse.Err
	}
	p := float64(s.sameTop) / float64(s.count)
	sameTop = Estimate{p, 0}
	if s.count > 1 {
		sameTop.Err = math.Sqrt(p * (1 - p) / float64(s.count-1))
	}
	return
}

// Summary computes the final statistics (llama-perplexity prints them from
// 100 scored tokens on).
func (s *KLDStats) Summary() KLDSummary {
	var r KLDSummary
	r.Count = s.count
	if s.count == 0 {
		return r
	}
	lp := meanAndUncertainty(s.sumNLL, s.sumNLL2, s.count)
	lb := meanAndUncertainty(s.sumNLLBase, s.sumNLLBase2, s.count)
	r.PPL = Estimate{math.Exp(lp.Value), math.Exp(lp.Value) * lp.Err}
	r.PPLBase = Estimate{math.Exp(lb.Value), math.Exp(lb.Value) * lb.Err}
	cov := covariance(s.sumNLL, s.sumNLLBase, s.sumNLLNLLBase, s.count)
	if lp.Err > 0 && lb.Err > 0 {
		r.CorLnPPL = cov / (lp.Err * lb.Err)
	}
	r.LnPPLRatio = Estimate{lp.Value - lb.Value, math.Sqrt(max(0, lp.Err*lp.Err+lb.Err*lb.Err-2*cov))}
	r.PPLRatio = Estimate{math.Exp(r.LnPPLRatio.Value), math.Exp(r.LnPPLRatio.Value) * r.LnPPLRatio.Err}
	pplCov := r.PPL.Value * r.PPLBase.Value * cov
	r.PPLDiff = Estimate{r.PPL.Value - r.PPLBase.Value, math.Sqrt(max(0, r.PPL.Err*r.PPL.Err+r.PPLBase.Err*r.PPLBase.Err-2*pplCov))}
	r.KLD = meanAndUncertainty(s.sumKLD, s.sumKLD2, s.count)
	kld, pd := slices.Clone(s.kld), slices.Clone(s.pDiff)
	slices.Sort(kld)
	slices.Sort(pd)
	r.KLDMax, r.KLDMin, r.KLDMedian = float64(kld[len(kld)-1]), float64(kld[0]), median(kld)
	r.KLDPercentiles = map[string]float64{}
	for _, l := range KLDPercentileLabels {
		r.KLDPercentiles[l] = percentile(kld, percentileFraction[l])
	}
	r.PDiff = meanAndUncertainty(s.sumPDiff, s.sumPDiff2, s.count)
	r.PDiffMax, r.PDiffMin, r.PDiffMedian = float64(pd[len(pd)-1]), float64(pd[0]), median(pd)
	r.PDiffPercentiles = map[string]float64{}
	for _, l := range PDiffPercentileLabels {
		r.PDiffPercentiles[l] = percentile(pd, percentileFraction[l])
	}
	_, _, _, r.RMSPDiff, r.SameTop = s.Running()
	return r
}

// FirstChunks is the base restricted to its first n chunks (all when n
// is out of range), for quicker checks.
func (b *KLDBase) FirstChunks(n int) *KLDBase {
	if n <= 0 || n >= b.NChunk {
		return b
	}
	perChunk := (b.NCtx - 1 - b.NCtx/2) * kldRecordLen(b.NVocab)
	return &KLDBase{NCtx: b.NCtx, NVocab: b.NVocab, NChunk: n, Tokens: b.Tokens[:n*b.NCtx], records: b.records[:n*perChunk]}
}
