#pragma once
/// @file batch_problem.hpp
/// Private: the problem concept over a batch_spec (config/batch_entry.hpp), shared by the CPU runs
/// (registry/batch.cpp) and the CUDA engine's instantiation (src/cuda/batch.cu).

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "fusedga/config/batch_entry.hpp"
#include "fusedga/core/bounds.hpp"
#include "fusedga/core/sense.hpp"

namespace fusedga::detail {

/// Where a batch problem's evaluate_population gets its pointers: host memory (the CPU backends) or the device
/// memory of backend::cuda.
enum class batch_memory { host, device };

/**
 * A batch_spec as a population-batch problem (held by pointer: trivially copyable, one indirect call per
 * generation): `Gene` double calls `spec->evaluate` (host memory) or `spec->evaluate_device` (device memory),
 * std::int32_t `spec->evaluate_integer` or `spec->evaluate_integer_device`.
 */
template <Sense S, class Gene, batch_memory Memory = batch_memory::host>
struct batch_problem {
  using gene_type = Gene;
  using fitness_type = double;
  static constexpr Sense sense = S;
  const batch_spec* spec;

  int dimension() const { return spec->dimension; }
  int inequality_count() const { return spec->inequality_count; }
  int equality_count() const { return spec->equality_count; }
  Bounds<Gene> bounds() const {
    Bounds<Gene> b(std::vector<Gene>(spec->lower.begin(), spec->lower.end()),
                   std::vector<Gene>(spec->upper.begin(), spec->upper.end()));
    if constexpr (std::is_floating_point_v<Gene>) b.integer = spec->integer_variables;
    return b;
  }
  std::vector<std::string> variable_names() const {
    if (!spec->variable_names.empty()) return spec->variable_names;
    std::vector<std::string> names;
    for (int j = 0; j < spec->dimension; ++j) names.push_back("x[" + std::to_string(j) + "]");
    return names;
  }
  void evaluate_population(const Gene* genes, std::size_t n, double* objective, double* inequalities,
                           double* equalities) const {
    const auto& f = [&]() -> const auto& {
      constexpr bool device = Memory == batch_memory::device;
      if constexpr (std::is_same_v<Gene, double>)
        return device ? spec->evaluate_device : spec->evaluate;
      else
        return device ? spec->evaluate_integer_device : spec->evaluate_integer;
    }
    ();
    f(genes, n, spec->dimension, objective, spec->inequality_count > 0 ? inequalities : nullptr,
      spec->equality_count > 0 ? equalities : nullptr);
  }
};

}  // namespace fusedga::detail
