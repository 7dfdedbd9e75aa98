package bench

import (
	"testing"
	"time"

	"github.com/gpurt/gpurt/cpu"
	rt "github.com/gpurt/gpurt/runtime"
)

// TestPipelineThroughput: the PIPELINE records come in a serial and a
// parallel flavour, with tokens per second and the ratio in the note.
func TestPipelineThroughput(t *testing.T) {
	dev := &fakeDevice{}
	fb, _ := dev.NewBackend()
	cb, err := cpu.NewBackend(1)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close()
	d := LlamaDims{Embd: 32, Heads: 4, KVHeads: 2, FF: 48, Vocab: 64, Tokens: 8}
	recs, err := PipelineThroughput([]rt.Backend{fb, cb}, d, 2, 4, Policy{MinRuns: 1, MaxRuns: 2, MinTime: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[0].Type != "serial" || recs[1].Type != "parallel" {
		t.Fatalf("records %+v", recs)
	}
	for _, r := range recs {
		if r.Op != "PIPELINE" || !(r.TokS > 0) || !r.OK() {
			t.Errorf("record %+v", r)
		}
	}
	if _, err := PipelineThroughput([]rt.Backend{cb}, d, 2, 4, Policy{MaxRuns: 1}); err == nil {
		t.Error("a single backend was accepted")
	}
}
