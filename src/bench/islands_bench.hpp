#pragma once
/// @file islands_bench.hpp
/// `ga-bench --workloads islands`: what the island model (islands/solve_islands.hpp) costs — a steady-state
/// generation of I islands against one population of the same total size, and each epoch's communication
/// (the all-gather of records, the migrant exchange, the wait for slower ranks) and bytes — in one process or
/// over the ranks of an MPI job (docs/performance.md, docs/scale-out.md).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/bench_runner.hpp"
#include "bench/bench_timer.hpp"
#include "fusedga/config/run_config.hpp"
#include "fusedga/islands/any_transport.hpp"

namespace fusedga {

/// A transport over this job's ranks for a run of `islands` islands (collective: every rank makes one, in the same
/// order). `local_transports` makes the one-process one.
using transport_maker = std::function<std::unique_ptr<islands::any_transport>(int islands)>;

/// An any_transport that owns its Transport `T`.
template <class T>
class owning_transport final : public islands::any_transport {
 public:
  template <class... Args>
  explicit owning_transport(Args&&... args) : t_(std::forward<Args>(args)...) {}
  int rank() const override { return t_.rank(); }
  int ranks() const override { return t_.ranks(); }
  std::vector<std::vector<std::byte>> all_gather(const std::vector<std::byte>& mine) override { return t_.all_gather(mine); }
  void exchange(const std::vector<islands::packet>& outgoing, std::vector<islands::packet>& incoming) override {
    t_.exchange(outgoing, incoming);
  }

 private:
  T t_;
};

/// Makes islands::local_transport (one process, R = 1).
transport_maker local_transports();

/// What to measure. Migration settings (M, K, topology) and the problem are the config's.
struct islands_bench_plan {
  std::vector<std::size_t> sizes;          ///< N, the archipelago's population (with `weak`: per rank)
  std::vector<bench_backend> backends;     ///< serial or tbb (threads per rank)
  std::vector<int> island_counts{1, 4, 16, 64};  ///< I (with `weak`: per rank); 1 = one population
  bool weak = false;                       ///< weak scaling: N and I are per rank, multiplied by the rank count R
  int epochs = 1;                          ///< E >= 1: epochs timed per pair, (T((E+1)·M) − T(M)) / (E·M)
  repeat_policy repeats;                   ///< pairs of runs (below) per row
};

/**
 * One (backend, threads, N, I) cell. A generation's time is (T((E+1)·M) − T(M)) / (E·M) with T(G) the wall time
 * of a whole run of G generations through the registry (ga-run's path) and E the plan's epochs (default 1):
 * initialization and the epoch that ends at the generation limit cancel, leaving E·M generations and E epoch
 * ends with their migrations — the steady state (the first epochs' state with E = 1; more epochs reach later
 * ones: docs/performance.md, "Whole runs").
 * Each repeat runs the pair, the island counts of one (N, backend) alternating round by round (so drift in the
 * machine's load spreads over them alike); the row gives the median difference. Communication figures are the same
 * difference of the two runs' transport meters (islands/metered_transport.hpp), per epoch.
 */
struct islands_bench_row {
  backend_kind backend = backend_kind::serial;
  int threads = 1;              ///< per rank
  int ranks = 1;                ///< R (MPI ranks; 1 in one process)
  std::size_t population = 0;   ///< N, the archipelago's
  int islands = 1;              ///< I (1: one population, no island model)
  int every = 0;                ///< M, generations per epoch
  int epochs = 1;               ///< E, epochs timed per pair
  std::size_t migrants = 0;     ///< K per island and migration
  std::string topology;         ///< ring, random or fully-connected
  std::size_t repeats = 0;      ///< pairs of runs timed
  double generation_ms = 0;     ///< median ms per steady-state generation (the slowest rank's run times)
  double p10_ms = 0, p90_ms = 0;  ///< its 10th and 90th percentiles
  std::optional<double> vs_one_population;  ///< generation_ms / that of I = 1 at the same backend and N
  double gather_ms = 0;         ///< per epoch: all-gather of the island records (max over ranks), ms
  double exchange_ms = 0;       ///< per epoch: the migrant exchange (max over ranks), ms
  double wait_ms = 0;           ///< per epoch: waiting for the slowest rank before the gather (max over ranks), ms
  double communication_share = 0;      ///< (gather + exchange) / (M · generation), the costliest rank's
  std::uint64_t migrant_bytes = 0;     ///< per migration, every rank's packets together
  std::uint64_t cross_rank_bytes = 0;  ///< of those, to islands on another rank
  std::uint64_t gathered_bytes = 0;    ///< per epoch, received by each rank's all-gather
};

/**
 * Runs `plan` on `cfg` (stop rules cleared; generations, population, islands count, backend and threads set
 * per cell) over the transports `make` gives (local_transports(), or every rank of an MPI job alike: the call is
 * collective).
 * Cells that cannot run are skipped with a line in `notes` (I = 1 over several ranks, I > N / 2, I < R).
 * @throws config_error for a backend other than serial or tbb, or a config the island model refuses;
 *         whatever the run throws.
 */
std::vector<islands_bench_row> run_islands_bench(const run_config& cfg, const islands_bench_plan& plan,
                                                 const transport_maker& make, std::vector<std::string>& notes,
                                                 const bench_progress& progress = {});

/// The rows as a plain-text table (one line per row, a header naming the units), then `notes`. Ends with a newline.
std::string format_islands_table(const std::string& problem, const std::vector<islands_bench_row>& rows,
                                 const std::vector<std::string>& notes);

/// {"workload": "islands", "problem", "rows": [...], "notes": [...]}; each row's fields as in islands_bench_row.
nlohmann::json islands_bench_json(const std::string& problem, const std::vector<islands_bench_row>& rows,
                                  const std::vector<std::string>& notes);

}  // namespace fusedga
