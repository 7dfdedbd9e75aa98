// Macros shared by the AVX-512 assembly files of package cpu.

// ZSUM leaves the sum of Z0's floats in X0; clobbers Y2.
#define ZSUM \
	VEXTRACTF64X4 $1, Z0, Y2; \
	VADDPS Y2, Y0, Y0; \
	VEXTRACTF128 $1, Y0, X2; \
	VADDPS X2, X0, X0; \
	VHADDPS X0, X0, X0; \
	VHADDPS X0, X0, X0
