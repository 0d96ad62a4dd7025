#pragma once
/// @file quality_pagmo.hpp
/// pagmo2 peers of `ga-bench --quality` (optional at build time: FUSEDGA_WITH_PAGMO).
/// An expression problem becomes a pagmo user-defined problem (UDP) whose
/// fitness is [f, g_1..g_m, h_1..h_p], computed by our reference evaluator
/// (expr/interpreter.hpp) — the same expressions as every other method.

#include <cstdint>
#include <string>
#include <vector>

#include "bench/quality_metrics.hpp"
#include "fusedga/expr/ast.hpp"

namespace fusedga {

/// Whether this build has the pagmo peers (Debian libpagmo-dev found by CMake).
bool pagmo_built();

/// The pagmo peers, as method names: pagmo-sade, pagmo-de1220, pagmo-gaco, pagmo-cstrs-de.
const std::vector<std::string>& pagmo_methods();

/// One peer run: best-so-far samples after each generation.
struct peer_trace {
  std::vector<quality_sample> samples;
  std::uint64_t evaluations = 0;
  double wall_s = 0;
};

/**
 * Runs pagmo peer `method` on `p` with `population` individuals until
 * `budget` fitness evaluations are spent (checked after each generation),
 * seeded with `seed`. Equalities are met within `eps` (pagmo's c_tol = eps for
 * equalities, 0 for inequalities). sade and de1220 do not handle constraints:
 * they run on `pagmo::unconstrain(problem, "kuri")` (Kuri-Morales & Quezada
 * 1998 death-penalty variant); gaco (Schlüter et al. 2009) handles them itself;
 * pagmo-cstrs-de is cstrs_self_adaptive (Farmani & Wright 2003) around de.
 * The samples are the best point over every evaluation so far (feasibility rules).
 * Serial (one thread). @throws error when pagmo is not built or `method` is unknown.
 */
peer_trace run_pagmo(const std::string& method, const expr::program& p, double eps, std::uint64_t budget,
                     std::uint64_t seed, int population);

/// The UDP's fitness vector at `x` (for tests). @throws error when pagmo is not built.
std::vector<double> pagmo_fitness(const expr::program& p, double eps, const std::vector<double>& x);

}  // namespace fusedga
