// Macros shared by the AVX2 assembly files of package cpu.

// ZERO8 zeroes Y0-Y7 (the 8 sums of the 2-column tiles); ZERO12 zeroes
// Y0-Y11 (the 12 of the 3-column and GEMM tiles).
#define ZERO8 \
	VXORPS Y0, Y0, Y0; VXORPS Y1, Y1, Y1; VXORPS Y2, Y2, Y2; VXORPS Y3, Y3, Y3; \
	VXORPS Y4, Y4, Y4; VXORPS Y5, Y5, Y5; VXORPS Y6, Y6, Y6; VXORPS Y7, Y7, Y7

#define ZERO12 \
	ZERO8; \
	VXORPS Y8, Y8, Y8; VXORPS Y9, Y9, Y9; VXORPS Y10, Y10, Y10; VXORPS Y11, Y11, Y11
