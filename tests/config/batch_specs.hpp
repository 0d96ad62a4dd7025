#pragma once
// Two batch problems (config/batch_entry.hpp) with optima found by hand, for the CPU entry's tests
// (test_batch_entry.cpp) and the GPU's (tests/cuda/test_gpu.cpp, with device evaluators over these).
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>

#include <fusedga/config/batch_entry.hpp>

namespace batch_test {

/// min x² + y² s.t. x + y >= 1 (g = 1 − x − y <= 0) on [−2, 2]²: optimum 0.5 at (0.5, 0.5), by hand (the
/// constraint is active; Lagrange: 2x = 2y = λ). `calls`, when given, counts the calls.
inline fusedga::batch_spec disk_spec(int* calls = nullptr) {
  fusedga::batch_spec s;
  s.name = "test:disk";
  s.dimension = 2;
  s.lower = {-2, -2};
  s.upper = {2, 2};
  s.variable_names = {"x", "y"};
  s.inequality_count = 1;
  s.evaluate = [calls](const double* genes, std::size_t n, int d, double* objective, double* g, double* h) {
    REQUIRE(d == 2);
    REQUIRE(h == nullptr);  // no equalities
    for (std::size_t i = 0; i < n; ++i) {
      const double x = genes[2 * i], y = genes[2 * i + 1];
      objective[i] = x * x + y * y;
      g[i] = 1 - x - y;
    }
    if (calls) ++*calls;
  };
  return s;
}

/// max Σ_j x_j − 3 (x_0 − 2)² s.t. x_1 + x_2 <= 9 on the integers of [−4, 7]^5 (int32 genes): the optimum, by
/// hand, x_0 = 2 (the quadratic's vertex), x_1 + x_2 = 9 (e.g. 7 + 2), x_3 = x_4 = 7: 2 + 9 + 14 = 25.
/// `in_bounds`, when given, is cleared by a call with a gene outside [−4, 7].
inline fusedga::batch_spec integer_spec(bool* in_bounds = nullptr) {
  fusedga::batch_spec spec;
  spec.name = "test:integer";
  spec.dimension = 5;
  spec.lower.assign(5, -4);
  spec.upper.assign(5, 7);
  spec.inequality_count = 1;
  spec.sense = fusedga::Sense::maximize;
  spec.integer_genes = true;
  spec.evaluate_integer = [in_bounds](const std::int32_t* genes, std::size_t n, int d, double* objective, double* g,
                                      double*) {
    for (std::size_t i = 0; i < n; ++i) {
      const std::int32_t* x = genes + i * static_cast<std::size_t>(d);
      double sum = 0;
      for (int j = 0; j < d; ++j) {
        sum += x[j];
        if (in_bounds && (x[j] < -4 || x[j] > 7)) *in_bounds = false;
      }
      objective[i] = sum - 3.0 * (x[0] - 2) * (x[0] - 2);
      g[i] = x[1] + x[2] - 9.0;
    }
  };
  return spec;
}

}  // namespace batch_test
