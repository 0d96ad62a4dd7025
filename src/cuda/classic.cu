// CUDA engine instantiations: the classic unconstrained benchmark functions (float and double).
#include <fusedga/problems/classic/ackley.hpp>
#include <fusedga/problems/classic/rastrigin.hpp>
#include <fusedga/problems/classic/rosenbrock.hpp>
#include <fusedga/problems/classic/sphere.hpp>

#include "cuda/cuda_entry_impl.cuh"

FUSEDGA_INSTANTIATE_CUDA(fusedga::problems::Sphere<float>);
FUSEDGA_INSTANTIATE_CUDA(fusedga::problems::Sphere<double>);
FUSEDGA_INSTANTIATE_CUDA(fusedga::problems::Rastrigin<float>);
FUSEDGA_INSTANTIATE_CUDA(fusedga::problems::Rastrigin<double>);
FUSEDGA_INSTANTIATE_CUDA(fusedga::problems::Rosenbrock<float>);
FUSEDGA_INSTANTIATE_CUDA(fusedga::problems::Rosenbrock<double>);
FUSEDGA_INSTANTIATE_CUDA(fusedga::problems::Ackley<float>);
FUSEDGA_INSTANTIATE_CUDA(fusedga::problems::Ackley<double>);
