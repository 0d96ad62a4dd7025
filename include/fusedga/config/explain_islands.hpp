#pragma once
/// @file explain_islands.hpp
/// The island settings of a run as `ga-run --explain` prints them.

#include <string>

#include "fusedga/config/run_config.hpp"

namespace fusedga {

/**
 * `ga-run --explain`'s lines for `ga.islands` (engine/options.hpp island_options): the island count, each
 * island's population, the migration (every, size, topology, policy) and, for heterogeneous islands, each
 * variant's islands, algorithm (and why, when auto chose it) and operators with their parameters and sources.
 * Empty when the run has one population (count 1). Each line ends with '\n'.
 */
std::string explain_islands(const run_config& cfg);

}  // namespace fusedga
