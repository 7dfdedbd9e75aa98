package llama

import "fmt"

// Hparams are a llama model's hyperparameters, from the llama.* GGUF keys.
type Hparams struct {
	NEmbd    int     // llama.embedding_length
	NLayer   int     // llama.block_count
	NHead    int     // llama.attention.head_count
	NHeadKV  int     // llama.attention.head_count_kv (GQA when < NHead)
	HeadDim  int     // NEmbd / NHead
	NFF      int     // llama.feed_forward_length
	NVocab   int     // rows of token_embd.weight
	NCtx     int     // llama.context_length
	RopeDims int     // llama.rope.dimension_count (default HeadDim)
	RopeBase float32 // llama.rope.freq_base (default 10000)
	NormEps  float32 // llama.attention.layer_norm_rms_epsilon
}

// NEmbdKV is the width of one token's keys (and values) over all KV heads.
func (h Hparams) NEmbdKV() int { return h.HeadDim * h.NHeadKV }

// Validate rejects hyperparameters the graph cannot be built from.
func (h Hparams) Validate() error {
	switch {
	case h.NEmbd <= 0 || h.NLayer <= 0 || h.NHead <= 0 || h.NFF <= 0 || h.NVocab <= 0:
		return fmt.Errorf("llama: hyperparameters must be positive: %+v", h)
	case h.NEmbd%h.NHead != 0:
		return fmt.Errorf("llama: embedding length %d is not a multiple of %d heads", h.NEmbd, h.NHead)
	case h.NHeadKV <= 0 || h.NHead%h.NHeadKV != 0:
		return fmt.Errorf("llama: %d heads cannot share %d KV heads", h.NHead, h.NHeadKV)
	case h.RopeDims <= 0 || h.RopeDims > h.HeadDim || h.RopeDims%2 != 0:
		return fmt.Errorf("llama: rope dimension count %d does not fit head size %d", h.RopeDims, h.HeadDim)
	case h.NCtx <= 0:
		return fmt.Errorf("llama: context length %d", h.NCtx)
	}
	return nil
}
