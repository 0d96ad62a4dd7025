// CUDA engine entry points for expression problems (the GPU JIT): the engine
// runs the kernels of the problem's linked module (expr_device_problem.hpp),
// so nothing problem-specific is compiled here.
#include "cuda/cuda_entry_impl.cuh"
#include "cuda/expr_device_problem.hpp"

FUSEDGA_INSTANTIATE_CUDA(fusedga::detail::expr_device_problem<float, fusedga::Sense::minimize>);
FUSEDGA_INSTANTIATE_CUDA(fusedga::detail::expr_device_problem<float, fusedga::Sense::maximize>);
FUSEDGA_INSTANTIATE_CUDA(fusedga::detail::expr_device_problem<double, fusedga::Sense::minimize>);
FUSEDGA_INSTANTIATE_CUDA(fusedga::detail::expr_device_problem<double, fusedga::Sense::maximize>);
