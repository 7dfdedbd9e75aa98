package runtime

import (
	"reflect"
	"testing"
)

func TestArenaBestFitAndMerge(t *testing.T) {
	a := newArena(16, 0)
	mustAlloc := func(size int) place {
		t.Helper()
		p, err := a.alloc(size)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p0 := mustAlloc(100) // rounds to 112
	p1 := mustAlloc(32)
	p2 := mustAlloc(64)
	p3 := mustAlloc(16)
	if got, want := []int{p0.off, p1.off, p2.off, p3.off}, []int{0, 112, 144, 208}; !reflect.DeepEqual(got, want) {
		t.Fatalf("offsets %v, want %v", got, want)
	}
	if got := a.sizes(); !reflect.DeepEqual(got, []int{224}) {
		t.Fatalf("sizes %v, want [224]", got)
	}

	// Free 112 and 64 bytes: a 48-byte request takes the smaller block.
	a.free(p0, 100)
	a.free(p2, 64)
	if p := mustAlloc(48); p.off != 144 {
		t.Errorf("best fit took offset %d, want 144 (the 64-byte block)", p.off)
	}
	// The 16 bytes left at 192 merge with p3's block on both sides.
	a.free(p3, 16)
	a.free(p1, 32)
	want := []block{{0, 144}, {192, a.maxChunk - 192}}
	if got := a.chunks[0].free; !reflect.DeepEqual(got, want) {
		t.Fatalf("free list %v, want %v", got, want)
	}
	// A request that fits no inner block extends the high-water mark.
	if p := mustAlloc(160); p.off != 192 {
		t.Errorf("large block at %d, want 192", p.off)
	}
	if got := a.sizes(); !reflect.DeepEqual(got, []int{352}) {
		t.Errorf("sizes %v, want [352]", got)
	}
}

func TestArenaChunks(t *testing.T) {
	a := newArena(8, 64)
	var ps []place
	for i := 0; i < 5; i++ {
		p, err := a.alloc(21) // 24 bytes aligned: two fit a 64-byte chunk
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	want := []place{{0, 0}, {0, 24}, {1, 0}, {1, 24}, {2, 0}}
	if !reflect.DeepEqual(ps, want) {
		t.Fatalf("places %v, want %v", ps, want)
	}
	if got := a.sizes(); !reflect.DeepEqual(got, []int{48, 48, 24}) {
		t.Errorf("sizes %v", got)
	}
	// A freed block between tensors is reused before any chunk's tail.
	a.free(ps[2], 24)
	if p, _ := a.alloc(16); p != (place{1, 0}) {
		t.Errorf("reuse at %v, want {1 0}", p)
	}
	// With no inner block free, the first chunk whose tail fits is used.
	if p, _ := a.alloc(16); p != (place{0, 48}) {
		t.Errorf("tail allocation at %v, want {0 48}", p)
	}
	if _, err := a.alloc(65); err == nil {
		t.Error("a block larger than a chunk must fail")
	}
	a.reset()
	if len(a.sizes()) != 0 {
		t.Error("reset must drop the chunks")
	}
}
