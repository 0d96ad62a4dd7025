#pragma once
// Shared by the checkpoint tests (engine/test_checkpoint.cpp, cuda/emulator/test_checkpoint_emulated.cpp):
// a run's checkpoints, a resume from one, and the comparison of a resumed run with the uninterrupted one.
#include <catch2/catch.hpp>

#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

#include <fusedga/fusedga.hpp>

#include "engine/same_result.hpp"

namespace checkpoint_test {

// Everything a Result holds but wall-clock time; `exact_means`: the history's means bitwise too (false where
// two backends sum them in another order).
inline void require_same_run(const fusedga::Result& a, const fusedga::Result& b, bool exact_means = true) {
  if (exact_means)
    engine_test::require_identical(a, b);
  else
    engine_test::require_identical_search(a, b);
  REQUIRE(a.reason == b.reason);
  REQUIRE(a.restarts == b.restarts);
  REQUIRE(a.not_a_number == b.not_a_number);
  REQUIRE(a.feasible == b.feasible);
  for (std::size_t g = 0; g < a.history.size(); ++g) {
    REQUIRE(a.history[g].generation == b.history[g].generation);
    REQUIRE(a.history[g].evaluations == b.history[g].evaluations);
    REQUIRE(engine_test::same_bits(a.history[g].best_violation, b.history[g].best_violation));
    REQUIRE(a.history[g].not_a_number == b.history[g].not_a_number);
  }
}

// Runs `o` once, keeping every checkpoint written (periodic and final).
template <class Problem, class Backend>
std::vector<std::string> checkpoints_of(const Problem& p, fusedga::ga_options o, const Backend& b, int every) {
  std::vector<std::string> out;
  o.checkpoint.write = [&](const std::string& bytes) { out.push_back(bytes); };
  o.checkpoint.every_generations = every;
  fusedga::solve(p, o, b);
  return out;
}

template <class Problem, class Backend>
fusedga::Result resume(const Problem& p, const fusedga::ga_options& o, const Backend& b, const std::string& bytes) {
  std::istringstream in(bytes);
  return fusedga::solve(p, o, b, in);
}

// A small GA run: population n, `generations`, 3 elites, seed 7.
inline fusedga::ga_options base(std::size_t n, int generations) {
  fusedga::ga_options o;
  o.population = n;
  o.generations = generations;
  o.elitism = 3;
  o.seed = 7;
  return o;
}

}  // namespace checkpoint_test
