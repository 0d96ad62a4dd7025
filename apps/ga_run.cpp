// ga-run: solve a problem described by a YAML config (DESIGN.md, "YAML config").
// Thin: parses arguments, calls the library, prints and writes results.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "app_main.hpp"
#include "cli_validators.hpp"
#include "mpi_world.hpp"
#include "fusedga/config/explain_islands.hpp"
#include "fusedga/config/registry.hpp"
#include "fusedga/config/result_writer.hpp"
#include "fusedga/config/run_config.hpp"
#include "fusedga/core/error.hpp"
#include "fusedga/engine/checkpoint.hpp"
#include "fusedga/engine/operator_parameters.hpp"
#include "fusedga/expr/codegen.hpp"
#include "fusedga/expr/parse.hpp"
#include "fusedga/operators/catalog.hpp"
#include "fusedga/operators/operator_text.hpp"
#include "config/checkpoint_file.hpp"
#include "io/atomic_file.hpp"
#include "io/distinct_files.hpp"
#include "io/read_file.hpp"
#if defined(FUSEDGA_HAS_MPI)
#include <mpi.h>

#include "fusedga/islands/any_transport.hpp"
#include "fusedga/islands/mpi_transport.hpp"
#endif

namespace {

std::atomic<bool> g_interrupted{false};
volatile std::sig_atomic_t g_signal = 0;
volatile std::sig_atomic_t g_quiet = 0;

// SIGINT and SIGTERM end the run at the end of the current generation (a checkpoint, the outputs written).
extern "C" void on_stop_signal(int sig) {
  g_signal = sig;
  g_interrupted.store(true);
  std::signal(sig, SIG_DFL);  // a second signal ends the process at once
  // Said at once (write(2) is async-signal-safe): a generation of heavy expressions can take a while.
  static const char said[] = "\nga-run: stopping at the end of this generation (or compile); Ctrl-C again stops at once\n";
  if (sig == SIGINT && !g_quiet) (void)!::write(STDERR_FILENO, said, sizeof said - 1);
}

/// What ga-run keeps in a checkpoint's metadata to resume a run from the checkpoint alone: the config as
/// given (text, name, --set overrides), the output paths of the command line, and the checkpoint settings.
struct resume_metadata {
  std::string config, source;
  std::string config_file;  ///< the config's absolute path, empty for the embedded default: no output may replace it
  std::vector<std::string> overrides;
  std::string out, history;
  int every_generations = 0;
  double every_seconds = 0;

  std::string dump() const {
    return nlohmann::ordered_json{{"config", config},   {"source", source}, {"config_file", config_file},
                                  {"overrides", overrides}, {"out", out},
                                  {"history", history}, {"checkpoint_every", every_generations},
                                  {"checkpoint_every_s", every_seconds}}
        .dump();
  }
  static resume_metadata parse(const std::string& text, const std::string& path) {
    try {
      const nlohmann::json j = nlohmann::json::parse(text);
      resume_metadata m;
      m.config = j.at("config").get<std::string>();
      m.source = j.at("source").get<std::string>();
      m.config_file = j.value("config_file", std::string());  // absent before 2026-12-07
      m.overrides = j.at("overrides").get<std::vector<std::string>>();
      m.out = j.at("out").get<std::string>();
      m.history = j.at("history").get<std::string>();
      m.every_generations = j.at("checkpoint_every").get<int>();
      m.every_seconds = j.at("checkpoint_every_s").get<double>();
      return m;
    } catch (const nlohmann::json::exception& e) {
      throw fusedga::checkpoint_error(path + ": checkpoint was not written by ga-run (its metadata: " + e.what() +
                                      "); resume it with fusedga::solve");
    }
  }
};

/// Live progress on a terminal, at most ~10 updates per second; nothing when piped.
class progress_line {
 public:
  /// `generations`: the limit (shown unless a budget lifted it); `budget`: stop.evaluations, if set.
  progress_line(bool enabled, int generations, std::optional<std::uint64_t> budget)
      : enabled_(enabled), generations_(generations), budget_(budget) {}
  void update(const fusedga::generation_stats& s) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (s.generation != 0 && s.generation != generations_ && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    const double rate = s.elapsed_s > 0 ? static_cast<double>(s.evaluations) / s.elapsed_s : 0.0;
    std::string at = fmt::format("generation {}", s.generation);
    if (generations_ != std::numeric_limits<int>::max()) at += fmt::format("/{}", generations_);
    if (budget_) at += fmt::format("  evaluations {}/{}", s.evaluations, *budget_);
    std::fprintf(stderr, "\r%s  best %.10g  feasible %5.1f%%  %.3g evals/s   ", at.c_str(), s.best_objective,
                 100.0 * s.feasible_fraction, rate);
    std::fflush(stderr);
    shown_ = true;
  }
  void finish() {
    if (shown_) std::fprintf(stderr, "\n");
  }

 private:
  bool enabled_;
  int generations_;
  std::optional<std::uint64_t> budget_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_{};
};

/// NaN with its sign bit cleared, so it prints as "nan", not "-nan" (the sign of a NaN means nothing).
double plain_nan(double v) { return std::isnan(v) ? std::fabs(v) : v; }

void print_summary(const fusedga::Result& r, const fusedga::run_info& info) {
  fmt::print("problem      {}\n", info.problem);
  if (info.backend == "cuda")
    fmt::print("backend      cuda ({}), {}\n", fusedga::cuda_device_line(), info.precision);
  else
    fmt::print("backend      {} ({} thread{}), {}\n", info.backend, info.threads, info.threads == 1 ? "" : "s",
               info.precision);
  fmt::print("generations  {} (stop: {})\n", r.generations, fusedga::to_string(r.reason));
  fmt::print("evaluations  {}\n", r.evaluations);
  // Start-up (device and memory set-up, the first population's initialization and evaluation) apart from the
  // generations: on a GPU the first part is mostly the CUDA context, paid once per process.
  if (!r.history.empty() && r.generations > 0)
    fmt::print("time         {:.3f} s (first population {:.3f} s, then {} generations in {:.3f} s)\n", r.wall_time_s,
               r.history.front().elapsed_s, r.generations - r.history.front().generation,
               r.wall_time_s - r.history.front().elapsed_s);
  else
    fmt::print("time         {:.3f} s\n", r.wall_time_s);
  fmt::print("best         {:.10g}\n", plain_nan(r.objective));
  fmt::print("violation    {:.6g}\n", plain_nan(r.violation));
  fmt::print("feasible     {}\n", r.feasible ? "yes" : "no");
  if (r.not_a_number != 0) fmt::print("NaN          {} individuals (ranked worst)\n", r.not_a_number);
  constexpr std::size_t shown = 20;
  for (std::size_t j = 0; j < r.best_genes.size() && j < shown; ++j) {
    if (r.integer_gene(j))
      fmt::print("  {} = {}\n", r.variable_names[j], static_cast<std::int64_t>(r.best_genes[j]));
    else
      fmt::print("  {} = {:.10g}\n", r.variable_names[j], r.best_genes[j]);
  }
  if (r.best_genes.size() > shown)
    fmt::print("  ... ({} more genes; write them with --out)\n", r.best_genes.size() - shown);
}

/// One --explain line per operator: its name and parameter values as configured, and its source (catalog.hpp).
template <class Kind, class Options>
void explain_operator(const fusedga::operator_family& family, Kind kind, const Options& o) {
  const fusedga::operator_spec& row = fusedga::spec_of(kind);
  std::string params;
  const auto add = [&](const fusedga::parameter_spec& p) {
    const std::optional<double> v = fusedga::parameter_value(o, p.name);
    params += fmt::format("{}{} {}", params.empty() ? "" : ", ", p.name,
                          v ? fusedga::detail::spec_number(*v) : fusedga::parameter_default_text(p));
  };
  for (const fusedga::parameter_spec& p : family.common) add(p);
  for (const fusedga::parameter_spec& p : row.params) add(p);
  // The label column is 12 wide: the longer nouns get short labels.
  const std::string noun = family.noun;
  const std::string label = noun == "constraint handling"      ? "constraints"
                            : noun == "differential evolution" ? "de"
                            : noun == "gradient repair"        ? "repair"
                                                               : noun;
  fmt::print("{:12} {}{}  ({})\n", label, row.name, params.empty() ? "" : " (" + params + ")", row.source);
}

/// --explain: population, generations, elitism, restarts and stopping rules, as they will apply.
void explain_run(const fusedga::ga_options& o, const fusedga::algorithm_choice& choice) {
  const bool unlimited = o.generations == std::numeric_limits<int>::max();  // stop.evaluations without ga.generations
  const std::string generations = unlimited ? "no limit" : std::to_string(o.generations);
  if (o.algorithm == fusedga::algorithm_kind::de)  // one-to-one survivor selection: no elitism
    fmt::print("population   {}, generations {}, seed {}\n", o.population, generations, o.seed);
  else
    fmt::print("population   {} (elitism {}), generations {}, seed {}\n", o.population, o.elitism, generations, o.seed);
  if (!choice.population.empty()) fmt::print("             ({})\n", choice.population);
  if (o.restarts.stall_generations) {
    const bool islands = o.islands.count > 1;
    const std::string growth = fusedga::detail::spec_number(o.restarts.population_growth);
    fmt::print("restarts     {}after {} generations without improvement{}, {}\n", islands ? "each island on its own, " : "",
               *o.restarts.stall_generations, islands ? " (checked at epoch ends)" : "",
               o.restarts.schedule == fusedga::restart_schedule::ipop
                   ? "population x" + growth + " each time  (IPOP: Auger & Hansen 2005)"
                   : "large starts x" + growth + " each, 2^j small starts after the j-th  (BIPOP: Hansen 2009)");
    if (o.restarts.convergence_tolerance)
      fmt::print(
          "             but only once the population has converged (mean objective within {0} x max(1, |best|) "
          "of its best), or after {1} generations without improvement\n"
          "             (an improvement counts when it exceeds {0} x max(1, |best|))\n",
          fusedga::detail::spec_number(*o.restarts.convergence_tolerance), o.restarts.max_stall());
    if (!choice.restarts.empty()) fmt::print("             ({})\n", choice.restarts);
  } else {
    fmt::print("restarts     none\n");
  }
  std::vector<std::string> stop;
  if (!unlimited) stop.push_back(fmt::format("{} generations", o.generations));
  if (o.stop.evaluations) stop.push_back(fmt::format("{} evaluations", *o.stop.evaluations));
  if (o.stop.target) stop.push_back("target " + fusedga::detail::spec_number(*o.stop.target));
  if (o.stop.stall_generations)
    stop.push_back(fmt::format("{} generations without improvement", *o.stop.stall_generations));
  if (o.stop.time_limit_s) stop.push_back(fusedga::detail::spec_number(*o.stop.time_limit_s) + " s");
  if (stop.empty())
    fmt::print("stop         only when interrupted (no generation limit, no stop rule)\n");
  else
    fmt::print("stop         at the first of: {}\n", fmt::join(stop, ", "));
  if (!choice.budget.empty()) fmt::print("             ({})\n", choice.budget);
}

/// --explain: the problem as parsed, and how it will run.
void explain(const fusedga::run_config& cfg, bool emit_source) {
  fmt::print("problem      {} (from {})\n", cfg.problem.builtin, cfg.source);
  fmt::print("backend      {}, precision {}, threads {}{}\n", fusedga::to_string(cfg.backend),
             fusedga::to_string(cfg.precision), cfg.threads,
             cfg.device >= 0 ? fmt::format(", device {}", cfg.device)
             : cfg.backend == fusedga::backend_kind::tbb || cfg.backend == fusedga::backend_kind::serial
                 ? std::string()
                 : ", device auto");
  if (cfg.choice.automatic)
    fmt::print("algorithm    {} ({})\n", fusedga::to_string(cfg.ga.algorithm), cfg.choice.reason);
  else
    fmt::print("algorithm    {}\n", fusedga::to_string(cfg.ga.algorithm));
  if (cfg.ga.algorithm == fusedga::algorithm_kind::de) {
    explain_operator(fusedga::de_family, cfg.ga.de.strategy, cfg.ga.de);
    const fusedga::de_crossover c = cfg.ga.de.crossover;
    fmt::print("crossover    {} ({})  (Storn & Price 1997)\n", fusedga::to_string(c),
               c == fusedga::de_crossover::bin ? "binomial: each gene from the mutant with probability CR, jrand always"
               : c == fusedga::de_crossover::exp
                   ? "exponential: one run of genes from jrand, continued while each next coin falls below CR"
                   : "binomial on the first start and BIPOP's large starts, exponential on its small starts (IPOP: "
                     "on odd restarts)");
    if (!cfg.choice.de.empty()) fmt::print("             ({})\n", cfg.choice.de);
  } else {
    explain_operator(fusedga::selection_family, fusedga::selection_kind::tournament, cfg.ga.selection);
    explain_operator(fusedga::crossover_family, cfg.ga.crossover.kind, cfg.ga.crossover);
    explain_operator(fusedga::mutation_family, cfg.ga.mutation.kind, cfg.ga.mutation);
    explain_operator(fusedga::survival_family, cfg.ga.survival.kind, cfg.ga.survival);
  }
  explain_operator(fusedga::constraint_family, cfg.ga.constraints.rule, cfg.ga.constraints);
  explain_run(cfg.ga, cfg.choice);
  explain_operator(fusedga::gradient_repair_family, fusedga::repair_kind::gradient, cfg.ga.constraints.gradient_repair);
  if (!cfg.choice.repair.empty()) fmt::print("             rate {}\n", cfg.choice.repair);
  fmt::print("{}", fusedga::explain_islands(cfg));
  if (!cfg.problem.expression) {
    fmt::print("a built-in problem: compiled C++ in problems/, run by the fused engine\n");
    return;
  }
  const fusedga::expr::program& p = *cfg.problem.expression;
  fmt::print("{}", fusedga::expr::describe(p, cfg.ga.constraints.equality_tolerance));
  const fusedga::expression_plan plan = fusedga::plan_expression(cfg);
  fmt::print("engine       {}\n", plan.reason);
  if (emit_source) {
    const std::string real = fusedga::to_string(cfg.precision);
    fmt::print("\n{}", plan.gpu
                           ? fusedga::expr::generate_device_source(p, real, cfg.ga.constraints.gradient_repair.rate > 0)
                           : fusedga::expr::generate_source(p, real));
  }
}

int run(int argc, char** argv, fusedga::apps::mpi_world& world) {
  CLI::App app{"ga-run: solve a problem with FusedGA's fused genetic algorithm"};
  std::string config_path;
  std::string backend;
  std::vector<std::string> overrides;
  std::string out_path, history_path;
  bool quiet = false, list = false, list_operators = false, explain_only = false, emit_source = false;
  std::string operators_footer =
      "Operators (the type: of each ga: section; --list-operators for parameters and sources):";
  for (const fusedga::operator_family* f : fusedga::operator_families)
    operators_footer += fmt::format("\n  {:24} {}", f->section, fusedga::operator_names(*f));
  app.footer(operators_footer);
  const CLI::Validator file_path = fusedga::apps::file_path();
  app.add_option("config", config_path, "YAML config (default: the embedded seed example 2)")->check(file_path);
  app.add_option("--backend", backend, "serial | tbb | cuda | auto (overrides the config)")
      ->check(CLI::IsMember({"serial", "tbb", "cuda", "auto"}));
  app.add_option("--set", overrides, "override a config value: key.path=value (repeatable)");
  app.add_option("--out", out_path, "write the result JSON here (atomically)")->check(file_path);
  app.add_option("--history", history_path, "write the per-generation history CSV here (atomically)")->check(file_path);
  app.add_flag("--quiet,-q", quiet, "print nothing but errors");
  app.add_flag("--list", list, "list the built-in problems and exit");
  app.add_flag("--list-operators", list_operators,
               "print the operator table (types, genes, parameters with ranges and defaults, sources) as Markdown "
               "and exit");
  app.add_flag("--explain", explain_only,
               "print the operators with their parameters and sources, the parsed problem (normalized expressions, "
               "constraint forms g(x) <= 0 / h(x) = 0) and which "
               "evaluation path runs and why, then exit");
  app.add_flag("--emit-source", emit_source, "with --explain: also print the C++ generated for the JIT");
  std::string checkpoint_path, resume_path;
  int every_generations = 0;
  double every_seconds = 0;
  app.add_option("--checkpoint", checkpoint_path,
                 "write the whole run state here (atomically): every --checkpoint-every generations or "
                 "--checkpoint-every-s seconds (default 60 s), on Ctrl-C/SIGTERM, and at the end")
      ->check(file_path);
  app.add_option("--checkpoint-every", every_generations, "with --checkpoint: every N generations")
      ->check(fusedga::apps::positive_number());
  app.add_option("--checkpoint-every-s", every_seconds, "with --checkpoint: every S seconds of wall time")
      ->check(fusedga::apps::positive_number());
  app.add_option("--resume", resume_path,
                 "continue the run of this checkpoint (its config, outputs and checkpoint file unless given anew); "
                 "ends bitwise as the run uninterrupted would have")
      ->check(file_path);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  if (list_operators) {
    if (world.rank == 0) fmt::print("{}", fusedga::operator_table_markdown());
    return 0;
  }
  if (list) {
    if (world.rank == 0)
      for (const auto& p : fusedga::builtin_problems()) fmt::print("{:40} {}\n", p.name, p.description);
    return 0;
  }
  if (!backend.empty()) overrides.push_back("backend=" + backend);
  if ((every_generations || every_seconds) && checkpoint_path.empty() && resume_path.empty())
    throw fusedga::config_error("--checkpoint-every / --checkpoint-every-s: give --checkpoint FILE too");
  // --resume: the checkpoint's own config (and --set) unless a config is given, which must shape the same run.
  std::string resume_bytes;
  resume_metadata meta;
  if (!resume_path.empty()) {
    resume_bytes = fusedga::read_whole_file(resume_path, "checkpoint");
    std::istringstream in(resume_bytes);
    const resume_metadata stored = resume_metadata::parse(fusedga::read_checkpoint_header(in, resume_path).metadata,
                                                          resume_path);
    if (config_path.empty()) {
      meta = stored;
      meta.overrides.insert(meta.overrides.end(), overrides.begin(), overrides.end());
    }
    if (out_path.empty()) out_path = stored.out;
    if (history_path.empty()) history_path = stored.history;
    if (checkpoint_path.empty()) checkpoint_path = resume_path;
    if (!every_generations && !every_seconds) every_generations = stored.every_generations, every_seconds = stored.every_seconds;
  }
  if (resume_path.empty() || !config_path.empty()) {  // else meta holds the checkpoint's config
    meta.config = config_path.empty() ? fusedga::default_config_yaml() : fusedga::read_config_text(config_path);
    meta.source = config_path.empty() ? "<embedded default>" : config_path;
    meta.config_file = fusedga::absolute_path(config_path);
    meta.overrides = overrides;
  }
  fusedga::run_config cfg = fusedga::parse_config(meta.config, meta.source, meta.overrides);
  if (explain_only || emit_source) {
    if (world.rank == 0) explain(cfg, emit_source);
    return 0;
  }
  if (world.size > 1) {
    if (cfg.ga.islands.count < world.size)
      throw fusedga::config_error(meta.source + ": ga.islands.count: " + std::to_string(cfg.ga.islands.count) +
                                  " island(s) cannot be spread over the " + std::to_string(world.size) +
                                  " MPI ranks of mpirun -np " + std::to_string(world.size) +
                                  ": set ga.islands.count >= " + std::to_string(world.size) +
                                  " (each rank runs a block of islands)");
    if (world.rank != 0) quiet = true;  // rank 0 prints, and writes the outputs and checkpoints
  }
  if (world.active && cfg.threads == 0) {  // the node's cores shared by its ranks (mpirun --bind-to none: docs/scale-out.md)
    const int cores = static_cast<int>(std::thread::hardware_concurrency());
    cfg.threads = std::max(1, (cores > 0 ? cores : 1) / std::max(1, world.local_size));
  }
  if (!out_path.empty()) cfg.output.result = out_path;
  if (!history_path.empty()) cfg.output.history = history_path;
  fusedga::check_distinct_files(
      {cfg.output.result, cfg.output.history, checkpoint_path, meta.config_file, resume_path});
  // Before the first generation: a run must not end by failing to write what it found.
  for (const auto& path : {cfg.output.result, cfg.output.history,
                           checkpoint_path.empty() ? std::optional<std::string>() : checkpoint_path}) {
    if (!path || world.rank != 0) continue;
    try {
      fusedga::check_writable(*path);
    } catch (const fusedga::error& e) {
      throw fusedga::config_error(std::string(e.what()) + " (checked before running)");
    }
  }

  std::string notice;
  cfg.backend = fusedga::resolve_backend(cfg, &notice);
  if (!notice.empty() && !quiet) fmt::print(stderr, "{}\n", notice);
  if (world.active && cfg.backend == fusedga::backend_kind::cuda && cfg.device < 0)  // device: auto, one GPU per rank
    cfg.device = fusedga::apps::env_int("OMPI_COMM_WORLD_LOCAL_RANK", 0) % std::max(1, fusedga::cuda_device_count());

  progress_line progress(!quiet && ::isatty(STDERR_FILENO) != 0, cfg.ga.generations, cfg.ga.stop.evaluations);
  fusedga::run_hooks hooks;
  hooks.on_generation = [&](const fusedga::generation_stats& s) { progress.update(s); };
  hooks.interrupt = &g_interrupted;
  hooks.on_notice = [quiet](const std::string& notice) {
    if (!quiet) fmt::print(stderr, "{}\n", notice);
  };
  bool checkpoint_failed = false;
  if (!checkpoint_path.empty()) {
    // A checkpoint that cannot be written is said once; the run goes on and its results are still written.
    // (Under mpirun only rank 0 writes: islands/solve_islands.hpp calls `write` there alone.)
    hooks.checkpoint = fusedga::checkpoints_to_file(checkpoint_path, every_generations, every_seconds,
                                                    [&](const std::string& message) {
                                                      if (!checkpoint_failed)
                                                        fmt::print(stderr, "ga-run: checkpoint not written: {}\n",
                                                                   message);
                                                      checkpoint_failed = true;
                                                    });
    // --out and --history as absolute paths: a resume from another directory writes where this run would have.
    meta.out = fusedga::absolute_path(out_path);
    meta.history = fusedga::absolute_path(history_path);
    meta.every_generations = hooks.checkpoint.every_generations;
    meta.every_seconds = hooks.checkpoint.every_seconds;
    hooks.checkpoint.metadata = meta.dump();
  }
  std::istringstream resume_stream(resume_bytes);
  if (!resume_path.empty()) {
    hooks.resume = &resume_stream;
    hooks.resume_source = resume_path;
  }
  g_quiet = quiet ? 1 : 0;
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
  int threads = 1;
  // Every rank is ready (a failure before here, e.g. rank 0's unwritable output, ends all ranks alike).
  world.agreed = true;
  if (const int code = world.agree(0); code != 0) return code;
#if defined(FUSEDGA_HAS_MPI)
  std::optional<fusedga::islands::mpi_transport> transport;
  std::optional<fusedga::islands::transport_ref<fusedga::islands::mpi_transport>> transport_ref;
  if (world.size > 1) {
    transport.emplace(MPI_COMM_WORLD, cfg.ga.islands.count);
    transport_ref.emplace(*transport);
    hooks.transport = &*transport_ref;
  }
  std::optional<fusedga::Result> ran;
  try {
    ran = fusedga::run(cfg, hooks, &threads);
  } catch (const fusedga::islands::transport_error& e) {  // MPI failed on this rank: the others may wait for it
    fmt::print(stderr, "ga-run: rank {}: error: {}; aborting every rank\n", world.rank, e.what());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const fusedga::Result result = std::move(*ran);
#else
  const fusedga::Result result = fusedga::run(cfg, hooks, &threads);
#endif
  progress.finish();
  if (world.rank != 0) {  // rank 0 writes and says how the run ended; the other ranks exit as it does
    if (!result.finite()) return 1;
    if (result.reason == fusedga::stop_reason::interrupted) return g_signal == SIGTERM ? 143 : 130;
    return 0;
  }

  const fusedga::run_info info{cfg.problem.builtin, fusedga::to_string(cfg.backend), threads,
                               fusedga::to_string(cfg.precision), cfg.ga.seed};
  // Write what can be written: a failing result file does not keep the history (or the summary) from being written.
  bool write_failed = false;
  const auto write = [&](const std::optional<std::string>& path, const auto& content) {
    if (!path) return;
    try {
      fusedga::write_file_atomic(*path, content());
    } catch (const std::exception& e) {
      fmt::print(stderr, "ga-run: {}\n", e.what());
      write_failed = true;
    }
  };
  write(cfg.output.result, [&] { return fusedga::result_json(result, info); });
  write(cfg.output.history, [&] { return fusedga::history_csv(result); });
  if (!quiet) print_summary(result, info);
  if (!quiet && world.size > 1)
    fmt::print("mpi          {} ranks, {} islands, {} thread{} per rank\n", world.size, result.islands.size(), threads,
               threads == 1 ? "" : "s");
  if (write_failed || checkpoint_failed) return 1;  // each failure was printed above
  const bool wrote = cfg.output.result || cfg.output.history;
  if (!result.finite()) {  // the NaN policy (README, "NaN and infinity"): no usable best is a runtime error
    fmt::print(stderr, "ga-run: error: {}{}\n", fusedga::unusable_result_text(result),
               wrote ? "; results written" : "");
    return 1;
  }
  if (result.reason == fusedga::stop_reason::interrupted) {
    if (!quiet)
      fmt::print(stderr, "interrupted: stopped after generation {}{}{}\n", result.generations,
                 wrote ? "; results so far written" : "",
                 checkpoint_path.empty() ? "" : "; resume with ga-run --resume " + checkpoint_path);
    return g_signal == SIGTERM ? 143 : 130;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  fusedga::apps::mpi_world world;
  if (const int code = world.init(argc, argv, "ga-run"); code != 0) return code;
  // Ranks other than 0 name themselves in their messages (each rank says how the run ended for it).
  const std::string app = world.rank > 0 ? "ga-run[rank " + std::to_string(world.rank) + "]" : "ga-run";
  int code = fusedga::apps::guarded_main(app.c_str(), [&] { return run(argc, argv, world); });
  return world.finish(code);
}
