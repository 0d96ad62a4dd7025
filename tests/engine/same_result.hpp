#pragma once
// Bitwise comparison of two run results (objective, violation, best genes,
// every generation's statistics), for the determinism and batch-evaluation tests.

#include <catch2/catch.hpp>

#include <cstring>

#include <fusedga/engine/result.hpp>

namespace engine_test {

template <class T>
inline bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

inline void require_identical(const fusedga::Result& a, const fusedga::Result& b) {
  REQUIRE(a.generations == b.generations);
  REQUIRE(a.evaluations == b.evaluations);
  REQUIRE(same_bits(a.objective, b.objective));
  REQUIRE(same_bits(a.violation, b.violation));
  REQUIRE(a.best_genes.size() == b.best_genes.size());
  for (std::size_t j = 0; j < a.best_genes.size(); ++j) REQUIRE(same_bits(a.best_genes[j], b.best_genes[j]));
  REQUIRE(a.history.size() == b.history.size());
  for (std::size_t g = 0; g < a.history.size(); ++g) {
    REQUIRE(same_bits(a.history[g].best_objective, b.history[g].best_objective));
    REQUIRE(same_bits(a.history[g].mean_objective, b.history[g].mean_objective));
    REQUIRE(same_bits(a.history[g].feasible_fraction, b.history[g].feasible_fraction));
  }
}
/// As require_identical, but the history's mean objective only to 1e-12 relative: a device executor sums a
/// population's objectives in another order (block sums) than the CPU's tiles.
inline void require_identical_search(const fusedga::Result& a, const fusedga::Result& b) {
  REQUIRE(a.generations == b.generations);
  REQUIRE(a.evaluations == b.evaluations);
  REQUIRE(same_bits(a.objective, b.objective));
  REQUIRE(same_bits(a.violation, b.violation));
  REQUIRE(a.best_genes.size() == b.best_genes.size());
  for (std::size_t j = 0; j < a.best_genes.size(); ++j) REQUIRE(same_bits(a.best_genes[j], b.best_genes[j]));
  REQUIRE(a.history.size() == b.history.size());
  for (std::size_t g = 0; g < a.history.size(); ++g) {
    REQUIRE(same_bits(a.history[g].best_objective, b.history[g].best_objective));
    REQUIRE(a.history[g].mean_objective == Approx(b.history[g].mean_objective).epsilon(1e-12));
    REQUIRE(same_bits(a.history[g].feasible_fraction, b.history[g].feasible_fraction));
  }
}
}  // namespace engine_test
