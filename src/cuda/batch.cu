// CUDA engine instantiations: population-batch problems given in code (config/batch_entry.hpp), real or integer
// genes, evaluated by the spec's `evaluate_device` (`evaluate_integer_device`) on the population's device memory
// (registry/batch_problem.hpp).
#include "cuda/cuda_entry_impl.cuh"
#include "registry/batch_problem.hpp"

FUSEDGA_INSTANTIATE_CUDA(
    fusedga::detail::batch_problem<fusedga::Sense::minimize, double, fusedga::detail::batch_memory::device>);
FUSEDGA_INSTANTIATE_CUDA(
    fusedga::detail::batch_problem<fusedga::Sense::maximize, double, fusedga::detail::batch_memory::device>);
FUSEDGA_INSTANTIATE_CUDA(
    fusedga::detail::batch_problem<fusedga::Sense::minimize, std::int32_t, fusedga::detail::batch_memory::device>);
FUSEDGA_INSTANTIATE_CUDA(
    fusedga::detail::batch_problem<fusedga::Sense::maximize, std::int32_t, fusedga::detail::batch_memory::device>);
