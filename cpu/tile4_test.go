package cpu

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
)

// TestDotF32x4c4 checks the four-column f32 tile against the two-column
// calls it stands for: the same bits for every row length, tails
// included, and results rows ldo apart.
func TestDotF32x4c4(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	for _, k := range kernelSets() {
		if k.dotF32x4c4 == nil {
			continue
		}
		for _, K := range []int{1, 7, 8, 16, 24, 64, 100, 172, 288} {
			const ldw, ldo = 300 * 4, 9
			w := make([]byte, 4*ldw)
			for i := 0; i < len(w); i += 4 {
				binary.LittleEndian.PutUint32(w[i:], math.Float32bits(float32(rng.Float64()*2-1)))
			}
			var x [4][]float32
			for c := range x {
				x[c] = randF32(rng, K, -1, 1)
			}
			got, want := make([]float32, 3*ldo+4), make([]float32, 3*ldo+4)
			k.dotF32x4c4(w, ldw, x[0], x[1], x[2], x[3], got, ldo)
			k.dotF32x4(w, ldw, x[0], x[1], nil, want, ldo)
			k.dotF32x4(w, ldw, x[2], x[3], nil, want[2*ldo:], ldo)
			for c := range 4 {
				for r := range 4 {
					if g, e := got[c*ldo+r], want[c*ldo+r]; math.Float32bits(g) != math.Float32bits(e) {
						t.Fatalf("%s K=%d row %d column %d: %v, want %v (two 2-column tiles)", k.name, K, r, c, g, e)
					}
				}
			}
		}
	}
}
