#pragma once
// Shared by the island-model tests (islands/, cuda/emulator/): two runs bitwise the same — the archipelago's
// result and rows (checkpoint_runs.hpp require_same_run) and each island's best, counters and rows.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>

#include <fusedga/fusedga.hpp>

#include "engine/checkpoint_runs.hpp"
#include "engine/same_result.hpp"

namespace islands_test {

// `exact_means`: the rows' mean objectives bitwise too (false where two backends sum them in another order).
inline void require_same_islands(const fusedga::Result& a, const fusedga::Result& b, bool exact_means = true) {
  using engine_test::same_bits;
  checkpoint_test::require_same_run(a, b, exact_means);
  REQUIRE(a.islands.size() == b.islands.size());
  for (std::size_t i = 0; i < a.islands.size(); ++i) {
    INFO("island " << i);
    const fusedga::island_result &x = a.islands[i], &y = b.islands[i];
    REQUIRE(same_bits(x.objective, y.objective));
    REQUIRE(same_bits(x.violation, y.violation));
    REQUIRE(x.evaluations == y.evaluations);
    REQUIRE(x.immigrants == y.immigrants);
    REQUIRE(x.restarts == y.restarts);
    REQUIRE(x.population == y.population);
    REQUIRE(x.history.size() == y.history.size());
    for (std::size_t g = 0; g < x.history.size(); ++g) {
      REQUIRE(same_bits(x.history[g].best_objective, y.history[g].best_objective));
      REQUIRE(x.history[g].evaluations == y.history[g].evaluations);
      if (exact_means) REQUIRE(same_bits(x.history[g].mean_objective, y.history[g].mean_objective));
    }
  }
}

// require_same_islands, and migration took place in `a` (some island took immigrants): the backend-parity tests
// (cuda/emulator/test_islands_emulated.cpp, cuda/test_gpu.cpp) must compare runs that exercised it.
inline void require_same_migrating_islands(const fusedga::Result& a, const fusedga::Result& b,
                                           bool exact_means = true) {
  require_same_islands(a, b, exact_means);
  std::uint64_t immigrants = 0;
  for (const fusedga::island_result& x : a.islands) immigrants += x.immigrants;
  CHECK(immigrants > 0);
}

}  // namespace islands_test
