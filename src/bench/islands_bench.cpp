#include "bench/islands_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>

#include <fmt/format.h>

#include "bench/bench_stats.hpp"
#include "fusedga/config/registry.hpp"
#include "fusedga/core/error.hpp"
#include "fusedga/islands/metered_transport.hpp"

namespace fusedga {
namespace {

/// One rank's figures of a pair of runs, T(M) then T(2·M): wall times and the meters' differences.
struct pair_figures {
  double short_s = 0, long_s = 0;
  double gather_s = 0, exchange_s = 0, wait_s = 0;
  double migrant_bytes = 0, cross_rank_bytes = 0, gathered_bytes = 0;
};

/// Every rank's figures, through the transport (so no MPI call here): index = rank.
std::vector<pair_figures> all_ranks(islands::any_transport& t, const pair_figures& mine) {
  std::vector<std::byte> bytes(sizeof mine);
  std::memcpy(bytes.data(), &mine, sizeof mine);
  std::vector<pair_figures> out;
  for (const auto& part : t.all_gather(bytes)) {
    if (part.size() != sizeof(pair_figures)) throw error("ga-bench: a rank sent figures of another size");
    pair_figures f;
    std::memcpy(&f, part.data(), sizeof f);
    out.push_back(f);
  }
  return out;
}

struct timed_run {
  double seconds = 0;
  islands::transport_meter meter;
};

/// A whole run of `generations` through the registry, metered when it is an island run.
timed_run run_once(run_config cfg, int generations, islands::any_transport& transport) {
  cfg.ga.generations = generations;
  islands::metered_transport metered(transport);
  run_hooks hooks;
  if (cfg.ga.islands.count > 1) hooks.transport = &metered;
  const auto t0 = std::chrono::steady_clock::now();
  const Result r = run(cfg, hooks);
  timed_run out;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  out.meter = metered.meter();
  if (r.generations != generations)
    throw error(fmt::format("ga-bench: an islands run stopped after {} of {} generations ({})", r.generations,
                            generations, to_string(r.reason)));
  return out;
}

}  // namespace

transport_maker local_transports() {
  return [](int) { return std::make_unique<owning_transport<islands::local_transport>>(); };
}

std::vector<islands_bench_row> run_islands_bench(const run_config& cfg, const islands_bench_plan& plan,
                                                 const transport_maker& make, std::vector<std::string>& notes,
                                                 const bench_progress& progress) {
  const std::unique_ptr<islands::any_transport> world = make(1);
  const int R = world->ranks();
  const int M = cfg.ga.islands.migration.every;
  const int E = plan.epochs;
  if (E < 1) throw config_error("--epochs: expected an integer >= 1, got " + std::to_string(E));
  const auto say = [&](const std::string& line) {
    if (progress && world->rank() == 0) progress(line);
  };
  const auto note = [&](const std::string& line) {
    if (std::find(notes.begin(), notes.end(), line) == notes.end()) notes.push_back(line);
  };
  // One cell per island count of an (N, backend) group; the cells' pairs of runs alternate, round by round, so
  // that drift in the machine's load spreads over them alike.
  struct cell {
    run_config cfg;
    std::unique_ptr<islands::any_transport> transport;
    std::vector<double> per_generation;            // seconds, one per pair
    std::vector<std::vector<pair_figures>> pairs;  // every rank's figures, one per pair
    double total_s = 0;
  };
  const repeat_policy& rp = plan.repeats;
  const std::size_t min_repeats = static_cast<std::size_t>(std::max(1, rp.min_repeats));
  const auto measure = [&](cell& x) {
    const timed_run a = run_once(x.cfg, M, *x.transport), z = run_once(x.cfg, (E + 1) * M, *x.transport);
    pair_figures f;  // per epoch: the E epochs' differences over E
    f.short_s = a.seconds;
    f.long_s = z.seconds;
    f.gather_s = (z.meter.gather_s - a.meter.gather_s) / E;
    f.exchange_s = (z.meter.exchange_s - a.meter.exchange_s) / E;
    f.wait_s = (z.meter.wait_s - a.meter.wait_s) / E;
    f.migrant_bytes = static_cast<double>(z.meter.migrant_bytes - a.meter.migrant_bytes) / E;
    f.cross_rank_bytes = static_cast<double>(z.meter.cross_rank_bytes - a.meter.cross_rank_bytes) / E;
    f.gathered_bytes = static_cast<double>(z.meter.gathered_bytes - a.meter.gathered_bytes) / E;
    std::vector<pair_figures> all = all_ranks(*x.transport, f);  // the same on every rank: same decisions
    double short_s = 0, long_s = 0;
    for (const auto& r : all) short_s = std::max(short_s, r.short_s), long_s = std::max(long_s, r.long_s);
    x.per_generation.push_back((long_s - short_s) / (E * M));
    x.total_s += short_s + long_s;
    x.pairs.push_back(std::move(all));
  };
  const auto needs_more = [&](const cell& x) {
    return x.per_generation.size() < rp.max_repeats && (x.per_generation.size() < min_repeats || x.total_s < rp.min_time_s);
  };

  std::vector<islands_bench_row> rows;
  for (const std::size_t n_given : plan.sizes)
    for (const bench_backend& b : plan.backends) {
      if (b.kind != backend_kind::serial && b.kind != backend_kind::tbb)
        throw config_error(std::string("--backends: --workloads islands runs on serial and tbb, not ") + to_string(b.kind));
      const std::size_t N = plan.weak ? n_given * static_cast<std::size_t>(R) : n_given;
      std::vector<cell> cells;
      for (const int i_given : plan.island_counts) {
        const int I = plan.weak ? i_given * R : i_given;
        if (I == 1 && R > 1) {
          note(fmt::format("I = 1 skipped: one population cannot be spread over {} ranks", R));
          continue;
        }
        if (I < R || static_cast<std::size_t>(I) > N / 2) {
          note(fmt::format("N = {}, I = {} skipped: the island model needs R <= I <= N / 2 (R = {})", N, I, R));
          continue;
        }
        cell x;
        x.cfg = cfg;
        x.cfg.ga.stop = {};
        x.cfg.ga.population = N;
        x.cfg.ga.islands.count = I;
        x.cfg.backend = b.kind;
        x.cfg.threads = b.kind == backend_kind::serial ? 1 : b.threads;
        x.transport = make(I);
        cells.push_back(std::move(x));
      }
      if (cells.empty()) continue;
      say(fmt::format("islands: {} x{} N = {}, {} island counts alternating ...", to_string(b.kind),
                      cells[0].cfg.threads, N, cells.size()));
      for (int w = 0; w < rp.warmup; ++w)
        for (cell& x : cells) run_once(x.cfg, M, *x.transport);
      for (bool more = true; more;) {
        more = false;
        for (cell& x : cells)
          if (needs_more(x)) measure(x), more = true;
      }
      std::optional<double> one_population_ms;
      for (const cell& x : cells) {
        const int I = x.cfg.ga.islands.count;
        const timing_summary t = summarize_times(x.per_generation);
        islands_bench_row row;
        row.backend = b.kind;
        row.threads = x.cfg.threads;
        row.ranks = R;
        row.population = N;
        row.islands = I;
        row.every = M;
        row.epochs = E;
        row.migrants = x.cfg.ga.islands.migration.size;
        row.topology = to_string(x.cfg.ga.islands.migration.topology);
        row.repeats = t.count;
        row.generation_ms = t.median_s * 1e3;
        row.p10_ms = t.p10_s * 1e3;
        row.p90_ms = t.p90_s * 1e3;
        if (I == 1) one_population_ms = row.generation_ms;
        if (I > 1 && one_population_ms && *one_population_ms > 0) row.vs_one_population = row.generation_ms / *one_population_ms;
        if (I > 1) {
          // Per rank, the median over the pairs; then the costliest rank (the sums of bytes over ranks).
          const auto median_of = [&](int q, double pair_figures::*field) {
            std::vector<double> v;
            for (const auto& p : x.pairs) v.push_back(p[static_cast<std::size_t>(q)].*field);
            return summarize_times(std::move(v)).median_s;
          };
          double comm_max = 0;
          for (int q = 0; q < R; ++q) {
            const double gather = median_of(q, &pair_figures::gather_s), exchange = median_of(q, &pair_figures::exchange_s);
            row.gather_ms = std::max(row.gather_ms, gather * 1e3);
            row.exchange_ms = std::max(row.exchange_ms, exchange * 1e3);
            row.wait_ms = std::max(row.wait_ms, median_of(q, &pair_figures::wait_s) * 1e3);
            comm_max = std::max(comm_max, gather + exchange);
            const pair_figures& last = x.pairs.back()[static_cast<std::size_t>(q)];  // bytes: the same every pair
            row.migrant_bytes += static_cast<std::uint64_t>(last.migrant_bytes);
            row.cross_rank_bytes += static_cast<std::uint64_t>(last.cross_rank_bytes);
            row.gathered_bytes = std::max(row.gathered_bytes, static_cast<std::uint64_t>(last.gathered_bytes));
          }
          if (t.median_s > 0) row.communication_share = comm_max / (M * t.median_s);
        }
        rows.push_back(row);
      }
    }
  return rows;
}

std::string format_islands_table(const std::string& problem, const std::vector<islands_bench_row>& rows,
                                 const std::vector<std::string>& notes) {
  std::string out;
  if (!rows.empty()) {
    const islands_bench_row& r0 = rows.front();
    out += fmt::format("ga-bench islands: {}, migration every M = {} generations, K = {}, {}; ranks R = {}\n", problem,
                       r0.every, r0.migrants, r0.topology, r0.ranks);
  }
  const int E = rows.empty() ? 1 : rows.front().epochs;
  out += (E == 1 ? std::string("gen ms: median steady-state generation, (T(2M) - T(M)) / M")
                 : fmt::format("gen ms: median steady-state generation over E = {} epochs, (T((E+1)M) - T(M)) / (E M)",
                               E)) +
         ", [p10, p90]; vs 1: against one population of the same N; per epoch: gather, exchange, wait (max over ranks, "
         "ms), comm = (gather + exchange) / epoch; "
         "bytes: per migration (all ranks; cross-rank) and gathered per epoch (each rank)\n";
  out += fmt::format("{:<7} {:>3} {:>3} {:>10} {:>5} {:>10} {:>21} {:>6} {:>9} {:>9} {:>9} {:>6} {:>10} {:>10} {:>10} {:>5}\n",
                     "backend", "thr", "R", "N", "I", "gen ms", "[p10, p90]", "vs 1", "gather", "exchange", "wait",
                     "comm", "migr B", "cross B", "gather B", "reps");
  for (const auto& r : rows) {
    out += fmt::format(
        "{:<7} {:>3} {:>3} {:>10} {:>5} {:>10.4f} {:>21} {:>6} {:>9.4f} {:>9.4f} {:>9.4f} {:>5.1f}% {:>10} {:>10} {:>10} {:>5}\n",
        to_string(r.backend), r.threads, r.ranks, r.population, r.islands, r.generation_ms,
        fmt::format("[{:.4f}, {:.4f}]", r.p10_ms, r.p90_ms),
        r.vs_one_population ? fmt::format("{:.3f}", *r.vs_one_population) : std::string("-"), r.gather_ms,
        r.exchange_ms, r.wait_ms, 100 * r.communication_share, r.migrant_bytes, r.cross_rank_bytes, r.gathered_bytes,
        r.repeats);
  }
  for (const auto& n : notes) out += "note: " + n + "\n";
  return out;
}

nlohmann::json islands_bench_json(const std::string& problem, const std::vector<islands_bench_row>& rows,
                                  const std::vector<std::string>& notes) {
  nlohmann::json out{{"workload", "islands"}, {"problem", problem}, {"notes", notes}};
  out["rows"] = nlohmann::json::array();
  for (const auto& r : rows) {
    nlohmann::json j{{"backend", to_string(r.backend)},
                     {"threads", r.threads},
                     {"ranks", r.ranks},
                     {"population", r.population},
                     {"islands", r.islands},
                     {"every", r.every},
                     {"epochs", r.epochs},
                     {"migrants", r.migrants},
                     {"topology", r.topology},
                     {"repeats", r.repeats},
                     {"generation_ms", r.generation_ms},
                     {"p10_ms", r.p10_ms},
                     {"p90_ms", r.p90_ms},
                     {"gather_ms", r.gather_ms},
                     {"exchange_ms", r.exchange_ms},
                     {"wait_ms", r.wait_ms},
                     {"communication_share", r.communication_share},
                     {"migrant_bytes", r.migrant_bytes},
                     {"cross_rank_bytes", r.cross_rank_bytes},
                     {"gathered_bytes", r.gathered_bytes}};
    j["vs_one_population"] = r.vs_one_population ? nlohmann::json(*r.vs_one_population) : nlohmann::json(nullptr);
    out["rows"].push_back(std::move(j));
  }
  return out;
}

}  // namespace fusedga
