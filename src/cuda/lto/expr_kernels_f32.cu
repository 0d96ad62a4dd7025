// The GPU JIT's prebuilt kernels, float (see expr_kernels.cuh).
#include "cuda/lto/expr_kernels.cuh"

FUSEDGA_EXPR_KERNELS_BOTH_SENSES(float)
