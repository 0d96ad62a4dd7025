#pragma once
/// @file restart.hpp
/// The options of a restart (engine/options.hpp restart_options): shared by one population's restarts
/// (solve.hpp) and each island's (islands/solve_islands.hpp).

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "fusedga/engine/options.hpp"

namespace fusedga::detail {

/// The options of start `k` (0 = the run as configured): population grown by
/// population_growth^k, elitism scaled alike, a seed derived from `o.seed` and k.
inline ga_options restart_options_for(const ga_options& o, int k) {
  ga_options r = o;
  if (k == 0) return r;
  const double n = std::min(static_cast<double>(o.population) * std::pow(o.restarts.population_growth, k),
                            static_cast<double>((std::size_t(1) << 31) - 1));
  r.population = static_cast<std::size_t>(n);
  r.elitism = std::min<std::size_t>(r.population - 1, static_cast<std::size_t>(std::llround(
                                                           static_cast<double>(o.elitism) * n / double(o.population))));
  // SplitMix64 (Steele, Lea & Flood 2014) of seed + k·γ: restart seeds far apart from the run's and each other's.
  std::uint64_t z = o.seed + static_cast<std::uint64_t>(k) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  r.seed = z ^ (z >> 31);
  return r;
}

}  // namespace fusedga::detail
