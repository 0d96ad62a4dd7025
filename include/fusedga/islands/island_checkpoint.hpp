#pragma once
/// @file island_checkpoint.hpp
/// An island-model run's checkpoint (docs/checkpoints.md, "Island-model runs"): the checkpoint format of
/// checkpoint_stream.hpp, its header lines extended by island_trajectory_text, then
///   islands.count, islands.generation, islands.migrated, islands.engine_generations,
///   islands.elapsed_s, islands.immigrants (one per island), the archipelago's history (run.history.*), each
///   island's history (island.history.*, island by island) and each island's engine state (islands.state, island
///   by island: the whole checkpoint stream engine::save writes, so that a rank reads its own islands only); with
///   restarts (ga.restarts), before the engine states, each island's start (island.start.*, island by island).
/// It holds every island, whichever rank ran it, and no rank count: a checkpoint written by R ranks resumes on
/// any R' ranks (R' <= the island count). Not thread-safe (one writer or reader per stream).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fusedga/engine/checkpoint.hpp"
#include "fusedga/engine/generation_stats.hpp"
#include "fusedga/engine/options.hpp"
#include "fusedga/islands/island_options.hpp"

namespace fusedga::islands {

/// An island's current start under restarts (restart_options) and its best over the starts before it: what its
/// engine, which knows its own start only, does not hold.
struct island_start {
  int restart = 0;                       ///< k: the start running (0 = the first)
  int engine_generations = 0;            ///< the generation limit its engine was built with
  long long generation0 = 0;             ///< the run's generation when it began
  std::uint64_t evaluations0 = 0;        ///< evaluations of the island's earlier starts
  std::uint64_t not_a_number0 = 0;       ///< and their NaN individuals
  double elapsed0 = 0;                   ///< the run's wall time when this start's engine began (its rows add it)
  bool have_best = false;                ///< an earlier start's best is kept
  double objective = 0, violation = 0;   ///< the earlier starts' best
  long long improved_at = 0;             ///< the run's generation it was reached
  std::vector<double> genes;             ///< its d genes
};

/// The run state of an island-model run at the end of an epoch, besides what each island's engine saves.
struct archipelago_state {
  long long generation = 0;          ///< generations run by every island
  bool migrated = false;             ///< whether the migration after generation `generation` was done (or none is due)
  int engine_generations = 0;        ///< the generation limit the engines were built with (it sets the ε schedule)
  double elapsed_s = 0;              ///< wall time of the run so far
  std::vector<std::uint64_t> immigrants;          ///< per island: immigrants accepted so far
  std::vector<generation_stats> history;          ///< the archipelago's rows so far
  std::vector<std::vector<generation_stats>> island_history;  ///< per island: its rows so far
  std::vector<std::vector<char>> engine_states;   ///< per island: its engine's checkpoint stream (engine::save)
  std::vector<island_start> starts;               ///< per island, with restarts; else empty
};

/**
 * The header lines an island-model run adds to trajectory_options_text: island count, migration, and for
 * heterogeneous islands each variant's trajectory lines, prefixed "island j: " (island j runs variant j). The
 * rank count is not among them: it does not shape the trajectory.
 */
inline std::string island_trajectory_text(const ga_options& o) {
  const migration_options& m = o.islands.migration;
  std::string s = "ga.islands.count = " + std::to_string(o.islands.count) + "\n";
  s += "ga.islands.migration.every = " + std::to_string(m.every) + "\n";
  s += "ga.islands.migration.size = " + std::to_string(m.size) + "\n";
  s += std::string("ga.islands.migration.topology = ") + to_string(m.topology) + "\n";
  s += std::string("ga.islands.migration.policy = ") + to_string(m.policy) + "\n";
  for (std::size_t j = 0; j < o.islands.variants.size(); ++j) {
    const std::string lines = trajectory_options_text(island_options_for(o, static_cast<int>(j)));
    for (std::size_t at = 0; at < lines.size();) {
      const std::size_t nl = lines.find('\n', at);
      s += "island " + std::to_string(j) + ": " + lines.substr(at, nl - at) + "\n";
      at = nl + 1;
    }
  }
  return s;
}

/// Writes `s` (after the header records, detail::write_header).
inline void write_archipelago(detail::checkpoint_writer& w, const archipelago_state& s) {
  w.value("islands.count", static_cast<std::int32_t>(s.immigrants.size()));
  w.value("islands.generation", static_cast<std::int64_t>(s.generation));
  w.value("islands.migrated", static_cast<std::uint8_t>(s.migrated));
  w.value("islands.engine_generations", static_cast<std::int32_t>(s.engine_generations));
  w.value("islands.elapsed_s", s.elapsed_s);
  w.vector("islands.immigrants", s.immigrants);
  detail::write_history(w, "run.history", s.history);
  for (const auto& h : s.island_history) detail::write_history(w, "island.history", h);
  for (const island_start& x : s.starts) {
    w.value("island.start.restart", static_cast<std::int32_t>(x.restart));
    w.value("island.start.engine_generations", static_cast<std::int32_t>(x.engine_generations));
    w.value("island.start.generation0", static_cast<std::int64_t>(x.generation0));
    w.value("island.start.evaluations0", x.evaluations0);
    w.value("island.start.not_a_number0", x.not_a_number0);
    w.value("island.start.elapsed0", x.elapsed0);
    w.value("island.start.have_best", static_cast<std::uint8_t>(x.have_best));
    w.value("island.start.objective", x.objective);
    w.value("island.start.violation", x.violation);
    w.value("island.start.improved_at", static_cast<std::int64_t>(x.improved_at));
    w.vector("island.start.genes", x.genes);
  }
  for (const auto& e : s.engine_states) w.vector("islands.state", e);
}

/**
 * Reads what write_archipelago wrote, for a run of `count` islands of `dimension` genes, with island starts
 * when `restarts` (the run's header, checked before, says whether it has them).
 * @throws checkpoint_error (via `in.fail`) when the checkpoint holds another island count, or counters and
 *         histories that do not fit together.
 */
inline archipelago_state read_archipelago(detail::checkpoint_reader& in, int count, std::size_t dimension,
                                          bool restarts) {
  const auto stored = in.value<std::int32_t>("islands.count");
  if (stored != count)
    in.fail("holds " + std::to_string(stored) + " islands where this run has " + std::to_string(count));
  archipelago_state s;
  s.generation = in.value<std::int64_t>("islands.generation");
  s.migrated = in.value<std::uint8_t>("islands.migrated") != 0;
  s.engine_generations = in.value<std::int32_t>("islands.engine_generations");
  s.elapsed_s = in.value<double>("islands.elapsed_s");
  s.immigrants.resize(static_cast<std::size_t>(count));
  in.array("islands.immigrants", s.immigrants.data(), s.immigrants.size());
  s.history = detail::read_history(in, "run.history");
  const std::size_t rows = static_cast<std::size_t>(s.generation) + 1;
  if (s.generation < 0 || s.engine_generations < 0 || s.history.size() != rows)
    in.fail("has island-model counters that do not fit together");
  s.island_history.resize(static_cast<std::size_t>(count));
  for (auto& h : s.island_history) {
    h = detail::read_history(in, "island.history");
    if (h.size() != rows) in.fail("has an island history that does not fit its generation count");
  }
  if (restarts) {
    s.starts.resize(static_cast<std::size_t>(count));
    for (island_start& x : s.starts) {
      x.restart = in.value<std::int32_t>("island.start.restart");
      x.engine_generations = in.value<std::int32_t>("island.start.engine_generations");
      x.generation0 = in.value<std::int64_t>("island.start.generation0");
      x.evaluations0 = in.value<std::uint64_t>("island.start.evaluations0");
      x.not_a_number0 = in.value<std::uint64_t>("island.start.not_a_number0");
      x.elapsed0 = in.value<double>("island.start.elapsed0");
      x.have_best = in.value<std::uint8_t>("island.start.have_best") != 0;
      x.objective = in.value<double>("island.start.objective");
      x.violation = in.value<double>("island.start.violation");
      x.improved_at = in.value<std::int64_t>("island.start.improved_at");
      x.genes = in.vector<double>("island.start.genes", dimension);
      if (x.restart < 0 || x.engine_generations < 0 || x.generation0 < 0 || x.generation0 > s.generation ||
          x.improved_at < 0 || x.improved_at > s.generation)
        in.fail("has an island start whose counters do not fit together");
    }
  }
  s.engine_states.resize(static_cast<std::size_t>(count));
  for (auto& e : s.engine_states) e = in.vector<char>("islands.state");
  if (!in.at_end()) in.fail("has records after the island states (another format version?)");
  return s;
}

}  // namespace fusedga::islands
