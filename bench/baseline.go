package bench

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"sync"
	"unsafe"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

// DefaultProbeBytes is the size of the bandwidth probe's array: far beyond
// any last-level cache, so that it measures DRAM.
const DefaultProbeBytes = 256 << 20

// sink keeps the probe's sums alive so the compiler cannot drop the loads.
var sink uint64

// sumWords adds x with eight independent accumulators. The probe reads the
// float32 array as 64-bit words: pure Go has no SIMD, and scalar float adds
// top out near DRAM speed on one core, while integer adds of the same bytes
// run several times faster, so the loop stays bound by memory.
func sumWords(x []uint64) uint64 {
	var s0, s1, s2, s3, s4, s5, s6, s7 uint64
	for len(x) >= 8 {
		s0 += x[0]
		s1 += x[1]
		s2 += x[2]
		s3 += x[3]
		s4 += x[4]
		s5 += x[5]
		s6 += x[6]
		s7 += x[7]
		x = x[8:]
	}
	for _, v := range x {
		s0 += v
	}
	return s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7
}

// parallel runs f on threads contiguous chunks [lo, hi) of [0, n); t is the chunk's index.
func parallel(n, threads int, f func(t, lo, hi int)) {
	var wg sync.WaitGroup
	for t := 0; t < threads; t++ {
		lo, hi := n*t/threads, n*(t+1)/threads
		wg.Go(func() { f(t, lo, hi) })
	}
	wg.Wait()
}

// MemBW measures the streaming-read and copy bandwidth of a bytes-sized
// array with GOMAXPROCS threads, as the records READ (bytes read per second)
// and COPY (bytes read plus written per second).
func MemBW(bytes int, p Policy) ([]Record, error) {
	// The probe's buffers are garbage afterwards: hand them back to the
	// system now, or the runtime's background scavenger returns them page
	// by page while later benchmarks run (it took a core's share from the
	// end-to-end runs: 5,600 against 3,300 tok/s on the default model).
	defer debug.FreeOSMemory()
	threads := runtime.GOMAXPROCS(0)
	n := bytes / 8 * 2 // float32s, a whole number of words
	if n == 0 {
		return nil, fmt.Errorf("bandwidth probe: %d bytes is too small", bytes)
	}
	src, dst := make([]float32, n), make([]float32, n)
	// Touch every page so that page faults stay out of the timings.
	for i := range src {
		src[i] = float32(i & 0xffff)
	}
	copy(dst, src)
	words := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(src))), n/2)
	sums := make([]uint64, threads)
	read, err := Measure(p, func() error {
		parallel(n/2, threads, func(t, lo, hi int) { sums[t] = sumWords(words[lo:hi]) })
		for _, s := range sums {
			sink += s
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	cp, err := Measure(p, func() error {
		parallel(n, threads, func(_, lo, hi int) { copy(dst[lo:hi], src[lo:hi]) })
		return nil
	})
	if err != nil {
		return nil, err
	}
	note := fmt.Sprintf("%d MiB, %d threads", 4*n>>20, threads)
	rec := func(op string, t Timing, moved float64) Record {
		return Record{
			Backend: BackendMemBW, Op: op, Type: "f32", Ne: [4]int{n, 1, 1, 1},
			Us: us(t.Median), GBps: moved / t.Median.Seconds() / 1e9, Runs: t.Runs,
			Status: StatusOK, Note: note,
		}
	}
	return []Record{rec("READ", read, float64(4*n)), rec("COPY", cp, float64(8*n))}, nil
}

// GonumGemm times gonum's blas32 Gemm computing what MUL_MAT computes for a
// [K,M] weight and a [K,N] input: C (N×M) = B (N×K) · Aᵀ (A is M×K).
func GonumGemm(m, n, k int, p Policy) (Record, error) {
	rng := rand.New(rand.NewPCG(3, 4))
	mat := func(r, c int) blas32.General {
		g := blas32.General{Rows: r, Cols: c, Stride: c, Data: make([]float32, r*c)}
		for i := range g.Data {
			g.Data[i] = 2*rng.Float32() - 1
		}
		return g
	}
	a, b, c := mat(m, k), mat(n, k), mat(n, m)
	t, err := Measure(p, func() error {
		blas32.Gemm(blas.NoTrans, blas.Trans, 1, b, a, 0, c)
		return nil
	})
	if err != nil {
		return Record{}, err
	}
	secs := t.Median.Seconds()
	return Record{
		Backend: BackendGonum, Op: "MUL_MAT", Type: "f32", Ne: [4]int{m, n, 1, 1}, M: m, N: n, K: k,
		Us: us(t.Median), GFLOPS: 2 * float64(m) * float64(n) * float64(k) / secs / 1e9,
		GBps: 4 * float64(m*k+n*k+m*n) / secs / 1e9, Runs: t.Runs, Status: StatusOK,
	}, nil
}
