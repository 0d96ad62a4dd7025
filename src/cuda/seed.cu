// CUDA engine instantiations: the seed problems (float and double).
#include <fusedga/problems/seed/constrained_quadratic.hpp>
#include <fusedga/problems/seed/gene_sum.hpp>
#include <fusedga/problems/seed/trig_constrained.hpp>

#include "cuda/cuda_entry_impl.cuh"

FUSEDGA_INSTANTIATE_CUDA(fusedga::problems::ConstrainedQuadratic<float>);
FUSEDGA_INSTANTIATE_CUDA(fusedga::problems::ConstrainedQuadratic<double>);
FUSEDGA_INSTANTIATE_CUDA(fusedga::problems::TrigConstrained<float>);
FUSEDGA_INSTANTIATE_CUDA(fusedga::problems::TrigConstrained<double>);
FUSEDGA_INSTANTIATE_CUDA(fusedga::problems::GeneSum<float>);
FUSEDGA_INSTANTIATE_CUDA(fusedga::problems::GeneSum<double>);
