#pragma once
/// @file result_writer.hpp
/// The result JSON (DESIGN.md, "Runs and results") and the history CSV of `ga-run`.

#include <string>

#include "fusedga/config/run_config.hpp"
#include "fusedga/engine/result.hpp"

namespace fusedga {

/// Run metadata that the Result itself does not carry.
struct run_info {
  std::string problem;    ///< registry name
  std::string backend;    ///< resolved backend ("serial", "tbb", ...)
  int threads = 1;
  std::string precision;  ///< "double" or "float"
  std::uint64_t seed = 0;
};

/// Result JSON: problem, backend, threads, precision, seed, generations,
/// evaluations, wall_time_s, stop_reason, restarts, best {objective, violation,
/// feasible, genes {name: value} (integer variables, Result::integer_variables, as JSON integers)}, the number of
/// history rows and nan_individuals (Result::not_a_number); for an island-model run (Result::islands non-empty) also
/// islands: [{island, rank, population, best {objective, violation, feasible}, evaluations, immigrants}], island order.
/// A NaN or infinite number is written as null (JSON has neither).
std::string result_json(const Result& r, const run_info& info);

/// History CSV, one row per generation:
/// generation,best_objective,best_violation,mean_objective,feasible_fraction,evaluations,elapsed_s,nan_individuals
/// (the last: that population's NaN individuals, generation_stats::not_a_number). An island-model run adds a
/// last column `island`: the archipelago's rows first (island `all`: best over islands, means over all
/// individuals, evaluations summed), then each island's own rows (island 0, 1, ...).
std::string history_csv(const Result& r);

/// "" for a usable result (Result::finite), else why not, one line: "no individual had a finite objective and
/// violation (best objective nan, violation nan; N individuals NaN or infinitely good in generations 0 to G)", or
/// "the best individual is not finite (...)". ga-run prints it as an error and exits 1; Python adds it to Result.notices
/// and warns (README, "NaN and infinity").
std::string unusable_result_text(const Result& r);

}  // namespace fusedga
