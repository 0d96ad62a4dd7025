#pragma once
// Test helpers of the CUDA suite: a host copy of a population, snapshots of
// the CPU engine, and the parity comparisons used by both the host reference
// tests and the GPU tests.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <fusedga/core/population.hpp>
#include <fusedga/core/problem_traits.hpp>
#include <fusedga/core/rank_key.hpp>
#include <fusedga/engine/generation_stats.hpp>
#include <string>
#include <vector>

namespace cuda_test {

/// N individuals' genes (row-major), objective, violation and rank key on the host.
template <class Problem>
struct host_population {
  using gene = fusedga::gene_t<Problem>;
  using fitness = fusedga::fitness_t<Problem>;
  using key = fusedga::rank_key_t<fitness>;
  std::size_t n = 0;
  int d = 0;
  std::vector<gene> genes;
  std::vector<fitness> objective, violation;
  std::vector<key> rank_key;
  fusedga::generation_stats stats{};

  void resize(std::size_t size, int dim) {
    n = size;
    d = dim;
    genes.assign(size * static_cast<std::size_t>(dim), gene{});
    objective.assign(size, fitness{});
    violation.assign(size, fitness{});
    rank_key.assign(size, key{});
  }
};

/// What a GPU run (real or emulated) leaves behind.
template <class Problem>
struct gpu_run {
  using population = host_population<Problem>;
  host_population<Problem> initial;  ///< after initialize() (and the upload of `start`, when given)
  host_population<Problem> final;    ///< after the last step
  std::vector<fusedga::generation_stats> history;
  std::vector<double> best_genes;
  double best_objective = 0, best_violation = 0;
  std::uint64_t evaluations = 0;  ///< the engine's count after the last step
  // ga.algorithm: de — the adaptive state after the last step (shade_state.hpp's de_state, downloaded)
  std::vector<double> de_memory_F, de_memory_CR;
  int de_next_memory = 0;
  std::vector<typename host_population<Problem>::gene> de_archive;  ///< the rows in use, row-major
};

/// Copies an engine's current population (a host view: serial/tbb engines).
template <class Problem, class View>
host_population<Problem> snapshot(const View& v) {
  host_population<Problem> h;
  h.resize(v.size, v.dimension);
  for (std::size_t i = 0; i < v.size; ++i) {
    for (int j = 0; j < v.dimension; ++j) h.genes[i * v.dimension + j] = v.row(i)[j];
    h.objective[i] = v.objective[i];
    h.violation[i] = v.violation[i];
    h.rank_key[i] = v.rank_key[i];
  }
  return h;
}

/// Empty when slots [first, n) of a and b are bitwise equal, else the first difference.
template <class Problem>
std::string bitwise_difference(const host_population<Problem>& a, const host_population<Problem>& b,
                               std::size_t first = 0) {
  if (a.n != b.n || a.d != b.d) return "different sizes";
  for (std::size_t i = first; i < a.n; ++i) {
    for (int j = 0; j < a.d; ++j)
      if (!(a.genes[i * a.d + j] == b.genes[i * a.d + j]))
        return "gene " + std::to_string(j) + " of individual " + std::to_string(i) + ": " +
               std::to_string(double(a.genes[i * a.d + j])) + " vs " + std::to_string(double(b.genes[i * a.d + j]));
    if (a.rank_key[i] != b.rank_key[i] || !(a.objective[i] == b.objective[i]) || !(a.violation[i] == b.violation[i]))
      return "objective/violation/key of individual " + std::to_string(i) + ": " + std::to_string(double(a.objective[i])) +
             " vs " + std::to_string(double(b.objective[i]));
  }
  return "";
}

/**
 * Empty when slots [first, n) agree within the documented tolerance for real
 * genes: each gene within `gene_tol` of its bound range, objective and
 * violation within `value_tol` relative to max(|a|, |b|, 1).
 */
template <class Problem>
std::string tolerance_difference(const host_population<Problem>& a, const host_population<Problem>& b,
                                 const std::vector<double>& range, double gene_tol, double value_tol,
                                 std::size_t first = 0) {
  if (a.n != b.n || a.d != b.d) return "different sizes";
  const auto rel = [](double x, double y) { return std::fabs(x - y) / std::fmax(1.0, std::fmax(std::fabs(x), std::fabs(y))); };
  for (std::size_t i = first; i < a.n; ++i) {
    for (int j = 0; j < a.d; ++j) {
      const double x = double(a.genes[i * a.d + j]), y = double(b.genes[i * a.d + j]);
      if (!(std::fabs(x - y) <= gene_tol * range[j]))
        return "gene " + std::to_string(j) + " of individual " + std::to_string(i) + ": " + std::to_string(x) + " vs " +
               std::to_string(y);
    }
    if (!(rel(double(a.objective[i]), double(b.objective[i])) <= value_tol) ||
        !(rel(double(a.violation[i]), double(b.violation[i])) <= value_tol))
      return "objective/violation of individual " + std::to_string(i) + ": " + std::to_string(double(a.objective[i])) +
             "/" + std::to_string(double(a.violation[i])) + " vs " + std::to_string(double(b.objective[i])) + "/" +
             std::to_string(double(b.violation[i]));
  }
  return "";
}

/// Tolerance of real-gene parity between the GPU and the CPU, as a fraction of each gene's range (docs/cuda.md, "Parity with the CPU and rounding").
inline double gene_tolerance(bool float_genes) { return float_genes ? 1e-4 : 1e-5; }
/// Relative tolerance of objective and violation values in real-gene parity.
inline double value_tolerance(bool float_fitness) { return float_fitness ? 1e-3 : 1e-4; }

}  // namespace cuda_test
