// Package cpu is gpurt's CPU backend, the mandatory fallback and the
// reference every GPU backend is tested against. Importing it registers the
// "cpu" backend family with the lowest priority.
//
// # Kernel sets
//
// It needs no cgo. Its hot loops (dot products, the GEMM micro-kernel,
// quantized dots, vector exp) come in kernel sets, one chosen at start-up
// from what the CPU has:
//
//   - avx512 (amd64 with AVX-512 F/BW/DQ/VL and VNNI, and an OS that saves
//     the ZMM and opmask state: CPUID leaf 7 and XGETBV): the avx2 set with
//     ZMM kernels for the K-quant, legacy-type, MXFP4 and ternary (TQ1_0,
//     TQ2_0) integer dots (VPMADDUBSW with VPDPWSSD, or VPDPBUSD), one
//     weight row against one or four activation rows, the four-row Q8_0
//     dot, the 6×16 GEMM tile (reading x rows in place, gemmrows512_amd64.s),
//     a 4×4 f32 tile for products of 4 columns and a one-call softmax row
//     (kernels512_amd64.go, kquants512_amd64.s, tquants512_amd64.s,
//     kernels512_amd64.s, softmax512_amd64.s);
//   - avx2 (amd64 with AVX2, FMA and F16C): kernels_amd64.s,
//     kquants_amd64.s;
//   - neon and neon-dotprod (every arm64 CPU; SDOT where present);
//   - go: the portable Go kernels, everywhere else and with the purego
//     build tag.
//
// The device description (gpurt devices) names the set that runs.
// NewReferenceBackend runs the plain reference loops instead, for checking
// the fast paths.
//
// # Choosing a lower set
//
// The environment variable GPURT_CPU_LEVEL (any case), read once at
// start-up, caps the set on amd64: "avx2" runs the AVX2 kernels on an
// AVX-512 CPU (to compare with an AVX2-only build of llama.cpp, or the two
// sets on one machine), "go" the portable ones; "avx512" or unset picks
// the best the CPU has, and a level the CPU lacks falls back to the best
// it has.
// CheckLevelEnv reports any other value (which is ignored), KernelSet the
// set that runs. Other architectures ignore the variable.
//
// # GEMVs
//
// A product of one to four activation rows with f32 weights (the decode
// steps of small models) runs as one kernel call per worker over 4-row
// groups (thinF32: gemvF32x4SIMD, and thinF32x4c4AVX512 for four rows),
// which give the tile kernels' bits. The K-quant dots of the avx512 set
// take a block of weight rows per call (dotQ2KRows … dotQ6KRows), their
// tables loaded once. Q8_0 GEMVs run four weight rows at a time while the
// live weight buffers fit the caches and a row at a time beyond 32 MiB of
// them, which streams better from DRAM (liveWeightBytes, repack.go). The
// GEMVs whose kernels take any number of rows (the repacked Q4_0 groups
// and K-quant rows, Q6_K's rows, the streamed Q8_0 rows of dotQ8Rows) get
// all the rows of a worker's claim in one call (forWeightSpans).
//
// # The GEMM
//
// Products of 16 or more activation rows run as a packed GEMM
// (matmul_fast.go): a 6×16 register tile over 16-row weight panels and
// x rows read in place; where the x rows leave 4 or 2 past the 6-row
// panels, the last ones go as 4-row tiles (gemmRows4, gemmF16Rows4) rather
// than an edge panel of zeros. Float weights are packed into f32 panels, F16 ones,
// where the set has the kernels (avx2), into f16 panels of 512 k that the
// tile converts as it loads them (gemm6x16F16StridedSIMD, packF16SIMD).
// F16 weights in a weights buffer are packed once, whole, on their first
// GEMM, and every later GEMM reads its blocks in place (repack_f16.go);
// others are packed per call, their rows copied out first so that rows a
// power of two apart do not share an L1 set. Whole 6-row x panels read in
// place go to the tile a run of them a call (gemmRowsRun, gemmF16RowsRun).
// With weights beyond the caches, each block's successor is prefetched a
// few rows per tile call (rowPrefetch).
//
// # Repacked weights
//
// Where the set has a repacked Q4_0 kernel (AVX2, AVX-512), the first
// GEMV on a Q4_0 weight held in a weights buffer (rt.UsageWeights) makes
// a copy of it in ggml's 8-row interleaved block_q4_0x8 layout, kept
// beside the original until the weight is written or its buffer freed
// (repack.go). The avx512 set likewise repacks IQ4_XS, Q2_K, Q3_K, Q4_K
// and Q5_K weights for GEMVs of fewer than four activation rows, and
// MXFP4, IQ4_NL, Q4_1, Q5_0 and Q5_1 weights for every MUL_MAT that runs
// as dot products (fewer than 16 x rows), row by row, into groups of
// 16 sub-blocks with sub-block d in dword d of each vector, the scales
// decoded, so that one scale multiply serves the group (repack_iq4.go,
// repack_kquants.go: within 4 % of the original's size); the activation
// rows are rearranged to match for each op. TQ1_0 and TQ2_0 weights, for
// GEMVs of fewer than four rows, take Q2_K's repacked layout without its
// scales: 2-bit values a shift and a mask decode, where TQ1_0's five trits
// a byte took multiplies (68 bytes a super-block, against 54 and 66
// stored). F16 weights get whole GEMM panels (above): the weight's size
// again, for the prompt. GPURT_CPU_REPACK=0 turns all of this off.
//
// # Fused decode attention
//
// Without flash attention, a graph's attention is MUL_MAT (scores),
// SOFT_MAX and MUL_MAT (weighted values). When the scores have at most 8
// columns per matrix (a decode step: the query heads of one kv head) and
// nothing else reads the scores or the weights, GraphCompute runs the
// three nodes as one op (op_attnfuse.go): one task per (kv head, stream),
// split over the workers when big enough, over only the cells the mask
// leaves live, with
// the same results bit for bit. A profile books its time on the SOFT_MAX
// node. GPURT_CPU_FUSE=0 runs the nodes one by one.
//
// # Testing
//
// The kernel tests run every set this machine can run on the same inputs:
// the chosen one, the ones it supersedes (avx2 under avx512, neon under
// neon-dotprod) and the portable one, against the Go reference and ggml's
// own results (../shared/oracle/ggml). Integer sums are exact; float
// scales may be applied in a different order, within the tests' tolerance.
// The benchmarks in kernelsets_bench_test.go time every set in one process,
// for same-run ratios.
package cpu
