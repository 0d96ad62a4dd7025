#pragma once
// seed/constrained-quadratic with x and z declared integer variables (Bounds::integer; its bounds [1, 25] and
// [-25, 0] are integers already): the CUDA parity tests check that the kernels round them after the GA's
// variation and in DE's trials exactly as the CPU does.

#include <fusedga/core/bounds.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>

namespace cuda_test {

struct integer_cq : fusedga::problems::ConstrainedQuadratic<double> {
  fusedga::Bounds<double> bounds() const {
    fusedga::Bounds<double> b = fusedga::problems::ConstrainedQuadratic<double>::bounds();
    b.integer = {1, 0, 1};
    return b;
  }
};

}  // namespace cuda_test
