package llama

import (
	"testing"

	"github.com/gpurt/gpurt/gguf"
)

// FuzzLoadHparams: a real architecture's file (llama, llama 3, qwen2,
// qwen3, gemma 2 and 3, phi3) with any one numeric or boolean metadata
// value changed to anything either fails to load with an error or loads
// and evaluates a few tokens, without a panic or a hang: hyperparameters
// are a downloaded file's data.
func FuzzLoadHparams(f *testing.F) {
	var files []*gguf.File
	for _, name := range []string{"llama-f16.gguf", "llama3-q4_k_m.gguf", "qwen2-f16.gguf", "qwen3-f16.gguf", "gemma2-f16.gguf", "gemma3-f16.gguf", "phi3-f16.gguf"} {
		files = append(files, openSynth(f, name))
	}
	f.Add(uint8(0), uint8(0), int64(0), 0.0)
	f.Add(uint8(1), uint8(3), int64(-1), 1e30)
	f.Add(uint8(2), uint8(5), int64(1<<40), -1.0)
	f.Add(uint8(4), uint8(7), int64(3), 0.5)
	f.Fuzz(func(t *testing.T, file, key uint8, i int64, x float64) {
		src := files[int(file)%len(files)]
		var kvs []gguf.KV
		for _, kv := range src.KVs {
			switch kv.Value.Interface().(type) {
			case uint32, int32, uint64, int64, float32, float64, bool:
				kvs = append(kvs, kv)
			}
		}
		kv := kvs[int(key)%len(kvs)]
		var v any
		switch kv.Value.Interface().(type) {
		case uint32:
			v = uint32(i)
		case int32:
			v = int32(i)
		case uint64:
			v = uint64(i)
		case int64:
			v = i
		case float32:
			v = float32(x)
		case float64:
			v = x
		case bool:
			v = i&1 == 1
		}
		m, err := Load(rewrite(t, src, map[string]any{kv.Key: v}, nil), Options{Backends: cpuBackends(t), NCtx: 64})
		if err != nil {
			return
		}
		defer m.Close()
		m.Eval([]int32{1, 2, 3}, false) // an error is fine; a panic fails
	})
}
