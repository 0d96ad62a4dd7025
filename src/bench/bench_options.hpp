#pragma once
/// @file bench_options.hpp
/// The GA options every ga-bench target (CPU and CUDA) runs a population with.

#include <algorithm>
#include <cstddef>

#include "fusedga/engine/options.hpp"

namespace fusedga {

/**
 * `ga` adapted to a benchmark population of `population` (>= 2) individuals:
 * elitism and tournament size clamped to it, no stopping rules or callbacks,
 * and history reserved for 4096 generations (ga-bench steps a few thousand
 * times at most; more only grows the history vector).
 */
inline ga_options bench_ga_options(const ga_options& ga, std::size_t population) {
  ga_options o = ga;
  o.population = population;
  o.elitism = std::min<std::size_t>(o.elitism, population - 1);
  o.selection.tournament_size = static_cast<int>(std::min<std::size_t>(o.selection.tournament_size, population));
  o.generations = 4096;
  o.stop = {};
  o.on_generation = nullptr;
  o.interrupt = nullptr;
  return o;
}

}  // namespace fusedga
