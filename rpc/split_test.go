package rpc_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/llama"
	"github.com/gpurt/gpurt/rpc"
	rt "github.com/gpurt/gpurt/runtime"
)

// TestStoriesWithTensorSplit deals stories260K's blocks (5 of them) over
// two remote devices by a tensor split: the placement follows the
// proportions and the greedy tokens stay the local CPU's.
func TestStoriesWithTensorSplit(t *testing.T) {
	f := openStories(t)
	want := localTokens(t, f, 60)
	_, addr := startServer(t, rpc.ServerOptions{Devices: []rt.Device{cpu.Device(), cpu.Device()}})
	c := connect(t, addr, rpc.ClientOptions{Timeout: 20 * time.Second})
	devs := c.Devices()
	if len(devs) != 2 {
		t.Fatalf("devices %v", devs)
	}
	d0, d1 := devs[0].Name(), devs[1].Name()
	for _, tc := range []struct {
		name      string
		split     []float64
		gpuLayers int
		placement []string
	}{
		{"1,3", []float64{1, 3}, -1, []string{"token_embd: CPU", "blk.0-1: " + d0, "blk.2-4: " + d1, "output: " + d1}},
		{"0,1", []float64{0, 1}, -1, []string{"token_embd: CPU", "blk.0-4: " + d1, "output: " + d1}},
		{"1,0 ngl 3", []float64{1, 0}, 3, []string{"token_embd: CPU", "blk.0-1: CPU", "blk.2-4: " + d0, "output: CPU"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b0, err := devs[0].NewBackend()
			if err != nil {
				t.Fatal(err)
			}
			defer b0.Close()
			b1, err := devs[1].NewBackend()
			if err != nil {
				t.Fatal(err)
			}
			defer b1.Close()
			local, err := cpu.NewBackend(1)
			if err != nil {
				t.Fatal(err)
			}
			defer local.Close()
			m, err := llama.Load(f, llama.Options{Backends: []rt.Backend{b0, b1, local}, GPULayers: tc.gpuLayers, TensorSplit: tc.split})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			if !slices.Equal(m.Placement, tc.placement) {
				t.Fatalf("placement\n got %s\nwant %s", strings.Join(m.Placement, "; "), strings.Join(tc.placement, "; "))
			}
			s, _ := llama.NewSampler(llama.SamplerConfig{})
			got, _, err := m.Generate([]int32{m.Tok.BOS()}, 60, s, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("tokens with tensor split %v differ from local:\n got %v\nwant %v", tc.split, got, want)
			}
		})
	}
}
