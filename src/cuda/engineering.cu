// CUDA engine instantiations: the engineering design problems (float and double).
#include <fusedga/problems/engineering/pressure_vessel.hpp>
#include <fusedga/problems/engineering/speed_reducer.hpp>
#include <fusedga/problems/engineering/tension_compression_spring.hpp>
#include <fusedga/problems/engineering/three_bar_truss.hpp>
#include <fusedga/problems/engineering/welded_beam.hpp>

#include "cuda/cuda_entry_impl.cuh"

FUSEDGA_INSTANTIATE_CUDA(fusedga::problems::PressureVessel<float>);
FUSEDGA_INSTANTIATE_CUDA(fusedga::problems::PressureVessel<double>);
FUSEDGA_INSTANTIATE_CUDA(fusedga::problems::SpeedReducer<float>);
FUSEDGA_INSTANTIATE_CUDA(fusedga::problems::SpeedReducer<double>);
FUSEDGA_INSTANTIATE_CUDA(fusedga::problems::TensionCompressionSpring<float>);
FUSEDGA_INSTANTIATE_CUDA(fusedga::problems::TensionCompressionSpring<double>);
FUSEDGA_INSTANTIATE_CUDA(fusedga::problems::ThreeBarTruss<float>);
FUSEDGA_INSTANTIATE_CUDA(fusedga::problems::ThreeBarTruss<double>);
FUSEDGA_INSTANTIATE_CUDA(fusedga::problems::WeldedBeam<float>);
FUSEDGA_INSTANTIATE_CUDA(fusedga::problems::WeldedBeam<double>);
