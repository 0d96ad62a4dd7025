// ga-bench: the same problem through every evaluation strategy and backend,
// side by side (DESIGN.md, "Performance is measured, not assumed").
//
//   ga-bench PROBLEM_OR_CONFIG [--sizes 1000,100000,900000] [--backends serial,tbb]
//            [--threads 1,2] [--repeats N] [--min-time S] [--precision double|float]
//            [--set key=value ...] [--workloads eval,generation]
//            [--tiers object,unfused,fused] [--json FILE] [--report DIR] [--quiet]
//   ga-bench PROBLEM_OR_CONFIG --workloads islands [--islands 1,4,16,64] [--weak] [--epochs E] [--sizes ...]
//            [--backends ...] [--threads ...] [--set ga.islands.migration.every=10 ...] [--json FILE]
//            (also under mpirun -np R)
//   ga-bench --compare A.json B.json
//   ga-bench --quality SUITE.yaml [--seeds 25] [--budget 500000|cec2020] [--methods a,b] [--problems a,b]
//            [--stop-at-target] [--report DIR] [--python python3]      (docs/quality.md)
//
// Exit status: 0 ok, 2 usage or config error (unreadable or invalid --compare
// files included), 1 runtime error.

#include <stdlib.h>  // mkdtemp

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <initializer_list>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <tbb/info.h>

#include "app_main.hpp"
#include "cli_validators.hpp"
#include "mpi_world.hpp"
#include "bench/bench_config.hpp"
#include "bench/bench_cuda.hpp"
#include "bench/bench_expression.hpp"
#include "bench/bench_factories.hpp"
#include "bench/bench_labels.hpp"
#include "bench/bench_runner.hpp"
#include "bench/bench_target.hpp"
#include "bench/islands_bench.hpp"
#include "bench/quality_runner.hpp"
#include "bench/quality_suite.hpp"
#include "bench/report_flops.hpp"
#include "fusedga/config/registry.hpp"
#include "fusedga/config/run_config.hpp"
#include "fusedga/core/error.hpp"
#include "io/atomic_file.hpp"
#include "report/bench_json.hpp"
#include "report/bench_table.hpp"
#include "report/compare_reports.hpp"
#include "report/quality_report.hpp"
#include "report/report_metrics.hpp"
#include "report/report_writer.hpp"
#if defined(FUSEDGA_HAS_MPI)
#include <mpi.h>

#include "fusedga/islands/mpi_transport.hpp"
#endif

namespace {

using fusedga::config_error;

/// "1000", "1e6" or "1_000_000" as a population size.
std::size_t parse_size(std::string text) {
  std::string digits;
  for (const char c : text)
    if (c != '_' && c != '\'') digits += c;
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(digits, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != digits.size() || digits.empty() || !(v >= 2) || v >= 2147483648.0 || v != std::floor(v))
    throw config_error("--sizes: '" + text + "' is not a population size (an integer in [2, 2147483647], e.g. 1000 or 1e6)");
  return static_cast<std::size_t>(v);
}

/// Each of `items` as one of `allowed` (by its text, bench_labels.hpp).
/// @throws config_error "OPTION: unknown value 'X'; expected one of: ...".
template <class T, std::size_t N>
std::vector<T> parse_choices(const std::vector<std::string>& items, const char* option, const T (&allowed)[N]) {
  std::vector<T> out;
  for (const auto& item : items) out.push_back(fusedga::parse_label(item, option, allowed));
  return out;
}

/// The command line as a user would retype it: the program's base name, then the
/// arguments, single-quoted where a shell would need it.
std::string command_line(int argc, char** argv) {
  std::string out = "ga-bench";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool plain = !a.empty() && a.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                         "0123456789-_./=,:+@%") == std::string::npos;
    if (plain) {
      out += " " + a;
      continue;
    }
    out += " '";
    for (const char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += "'";
  }
  return out;
}

/// 1, 2, 4, ... below `cores`, then `cores`.
std::vector<int> default_thread_counts(int cores) {
  std::vector<int> t;
  for (int k = 1; k < cores; k *= 2) t.push_back(k);
  t.push_back(cores);
  return t;
}

int run(int argc, char** argv, const fusedga::apps::mpi_world& world) {
  CLI::App app{
      "ga-bench: time one problem through every evaluation tier (object-per-individual, unfused NumPy-style, fused) "
      "and backend, with achieved bandwidth against this machine's measured copy bandwidth.",
      "ga-bench"};
  std::string target_name;
  std::vector<std::string> sizes_text{"1000", "100000", "900000"};
  // --report's default sweep: the seed documents' sizes (10^2, 10^4, 9 x 10^5, 10^6).
  const std::vector<std::string> report_sizes{"100", "10000", "900000", "1000000"};
  std::vector<std::string> backends_text;  // empty: serial, tbb
  std::vector<int> threads;
  int repeats = 5;
  double min_time = 0.2;
  std::string precision;
  std::vector<std::string> sets;
  std::vector<std::string> workloads_text;  // empty: the plan's defaults (every workload)
  std::vector<std::string> tiers_text;      // empty: the plan's defaults (object, unfused, fused)
  std::string json_path;
  std::string report_dir;
  std::vector<std::string> compare_paths;
  std::string baseline;
  bool quiet = false;
  bool list = false;
  double stream_mib = 0;
  std::string quality_suite_path;
  fusedga::quality_options quality;

  app.add_option("problem", target_name, "built-in problem name (e.g. seed/constrained-quadratic) or YAML config file");
  auto* sizes_option =
      app.add_option("--sizes", sizes_text,
                     "population sizes, comma-separated (default 1000,100000,900000; with --report 100,10000,900000,1000000)")
          ->delimiter(',');
  auto* backends_option =
      app.add_option("--backends", backends_text,
                     "fused-tier backends: serial, tbb, cuda (default serial,tbb; with --report also cuda when a GPU "
                     "is usable; cuda: device-resident and with host<->device transfer, timed with CUDA events)")
          ->delimiter(',');
  app.add_option("--threads", threads, "TBB thread counts (default 1, 2, 4, ... up to all cores)")
      ->delimiter(',')
      ->check(fusedga::apps::positive_number());
  app.add_option("--repeats", repeats, "timed calls at least, after one warm-up call (default 5)")
      ->check(fusedga::apps::positive_number());
  app.add_option("--min-time", min_time, "and until the timed calls add up to this many seconds (default 0.2)")
      ->check(fusedga::apps::non_negative_number());
  app.add_option("--precision", precision, "double or float (default: the config's, double for a built-in name)")
      ->check(CLI::IsMember({"double", "float"}));
  app.add_option("--set", sets, "override a config value, key.path=value (repeatable)");
  app.add_option("--workloads", workloads_text,
                 "eval, generation (default both); or islands alone: the island model's generation against one "
                 "population and its communication per epoch (--islands, --weak; under mpirun over the ranks)")
      ->delimiter(',');
  std::vector<int> island_counts;
  bool weak = false;
  app.add_option("--islands", island_counts, "--workloads islands: island counts I (default 1,4,16,64)")
      ->delimiter(',')
      ->check(fusedga::apps::positive_number());
  app.add_flag("--weak", weak, "--workloads islands: weak scaling, --sizes and --islands per MPI rank");
  int epochs = 1;
  app.add_option("--epochs", epochs,
                 "--workloads islands: epochs E timed per pair of runs, a generation (T((E+1)M) - T(M)) / (E M) "
                 "(default 1: the second epoch; more reach the later, steadier state)")
      ->check(fusedga::apps::positive_number());
  app.add_option("--tiers", tiers_text, "object, unfused, fused (default all)")->delimiter(',');
  app.add_option("--json", json_path, "also write the report as JSON to FILE (atomically)")
      ->check(fusedga::apps::file_path());
  app.add_option("--report", report_dir,
                 "write a report directory: report.md (environment, tables, what the numbers mean), results.csv, "
                 "results.json and plots (PNG + SVG via gnuplot; a notice instead when gnuplot is missing)")
      ->check(fusedga::apps::file_path());
  app.add_option("--compare", compare_paths,
                 "compare two saved runs (--json files or a report's results.json): per-row B/A ratio; no problem needed")
      ->expected(2);
  app.add_option("--baseline", baseline,
                 "expression problems: also time this built-in problem's generation, for the JIT/built-in ratio");
  app.add_option("--stream-mib", stream_mib, "MiB per array of the copy-bandwidth probe (default max(256, 4 x LLC))")
      ->check(fusedga::apps::positive_number());
  app.add_flag("--quiet,-q", quiet, "no progress lines on stderr");
  app.add_option("--quality", quality_suite_path,
                 "solution-quality benchmark: run every problem x method x seed of this suite file (e.g. "
                 "configs/quality/suite.yaml) with the pagmo and pymoo peers; see docs/quality.md");
  app.add_option("--seeds", quality.seeds, "--quality: seeds per problem and method, 1..N (default 25)")
      ->check(fusedga::apps::positive_number());
  std::string budget_text;
  app.add_option("--budget", budget_text,
                 "--quality: evaluations per run (default 500000), or cec2020: by dimension as the CEC 2020 real-world "
                 "competition (10^5 for d <= 10, 2*10^5 <= 30, 4*10^5 <= 50, 8*10^5 <= 150, 10^6 above)");
  app.add_option("--methods", quality.methods,
                 "--quality: methods to run, comma-separated: the suite's methods file names, pagmo-sade, pagmo-de1220, "
                 "pagmo-gaco, pagmo-cstrs-de, pymoo-ga, pymoo-de (default all)")
      ->delimiter(',');
  app.add_option("--problems", quality.problems, "--quality: problem ids (config file stems) to run (default all)")
      ->delimiter(',');
  app.add_option("--peer-jobs", quality.peer_jobs,
                 "--quality: pymoo runs in this many parallel processes (default 1; more is faster on many cores, but "
                 "each run's wall time then shares the machine)")
      ->check(fusedga::apps::positive_number());
  app.add_flag("--stop-at-target", quality.stop_at_target,
               "--quality: FusedGA runs stop once within half the success threshold of f* (success and time to "
               "target unchanged; much faster where most runs succeed)");
  app.add_option("--python", quality.python, "--quality: the Python interpreter for the pymoo peer (default python3)");
  app.add_flag("--list", list, "list the built-in problems and exit");
  app.footer(
      "Tiers: object = a std::vector per individual and a virtual call each (DEAP/OpenGA style); unfused = one pass per "
      "arithmetic operation with fresh temporaries (NumPy style, seed problems only); fused = the engine's passes. "
      "For expression problems the rows are labelled by evaluation path: fused-jit (the engine with the JIT-compiled "
      "problem), fused-interp (the engine with the interpreter), interpreter (the unfused tier: the interpreter over "
      "the whole population), builtin (--baseline), with the JIT compile times and break-even in the notes. "
      "Object and unfused run single-threaded on the first backend's population. Rows whose (p90 - p10) / median "
      "exceeds 25% are flagged noisy. The peak FLOP/s (an FMA loop) is measured beside the copy bandwidth for the "
      "roofline chart of --report; set FUSEDGA_GNUPLOT to choose the gnuplot executable. Exit status: 0 ok, 2 usage or config error, 1 runtime error.");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }

  const bool islands_workload = std::find(workloads_text.begin(), workloads_text.end(), "islands") != workloads_text.end();
  if (world.size > 1 && !islands_workload)
    throw config_error("under mpirun, ga-bench measures only --workloads islands (the island model over the ranks)");
  if (list) {
    for (const auto& e : fusedga::builtin_problems()) std::cout << fmt::format("{:<36} {}\n", e.name, e.description);
    return 0;
  }
  if (!compare_paths.empty()) {
    if (!target_name.empty() || !report_dir.empty() || !json_path.empty())
      throw config_error("--compare A.json B.json takes no problem, --report or --json");
    const fusedga::saved_report a = fusedga::load_saved_report(compare_paths.at(0));
    const fusedga::saved_report b = fusedga::load_saved_report(compare_paths.at(1));
    std::cout << fusedga::format_comparison(a, b, fusedga::compare_reports(a, b)) << std::flush;
    return 0;
  }
  // An option of another mode is an error, not ignored.
  const auto refuse = [&](std::initializer_list<const char*> names, const std::string& why) {
    for (const char* name : names)
      if (app.get_option(name)->count() > 0) throw config_error(std::string(name) + ": " + why);
  };
  if (quality_suite_path.empty())
    refuse({"--seeds", "--budget", "--methods", "--problems", "--peer-jobs", "--stop-at-target", "--python"},
           "only with --quality SUITE");
  else
    refuse({"--sizes", "--backends", "--threads", "--precision", "--set", "--workloads", "--tiers", "--json",
            "--baseline", "--stream-mib", "--islands", "--weak", "--epochs"},
           "does not apply to --quality (the suite's methods file sets the runs; --report writes the results)");
  if (!islands_workload) refuse({"--islands", "--weak", "--epochs"}, "only with --workloads islands");
  if (!quality_suite_path.empty()) {
    if (!target_name.empty()) throw config_error("--quality SUITE takes no problem argument (use --problems)");
    if (!report_dir.empty()) fusedga::check_report_dir(report_dir);
    if (!budget_text.empty()) quality.budget = fusedga::parse_quality_budget(budget_text);
    const fusedga::quality_suite suite = fusedga::load_quality_suite(quality_suite_path);
    quality.pymoo_script = fusedga::default_pymoo_script();
    char work[] = "/tmp/fusedga-quality-XXXXXX";
    if (!::mkdtemp(work)) throw fusedga::error("cannot create a temporary directory for the pymoo peer");
    quality.work_dir = work;
    fusedga::quality_results results;
    try {
      results = fusedga::run_quality(suite, quality, [quiet](const std::string& line) {
        if (!quiet) std::cerr << "ga-bench: " << line << std::endl;
      });
    } catch (...) {
      std::filesystem::remove_all(quality.work_dir);
      throw;
    }
    std::filesystem::remove_all(quality.work_dir);
    std::cout << "success rate (feasible rate), per problem and method:\n\n"
              << fusedga::quality_summary_table(results) << std::flush;
    for (const auto& n : results.notes) std::cout << "note: " << n << "\n";
    if (!report_dir.empty()) {
      fusedga::report_options options;
      options.command = command_line(argc, argv);
      const fusedga::report_outcome out = fusedga::write_quality_report(results, report_dir, options);
      for (const auto& n : out.notices) std::cerr << "ga-bench: " << n << "\n";
      if (!quiet) std::cerr << fmt::format("ga-bench: wrote {}/ ({} files)\n", out.dir, out.files.size());
    }
    return 0;
  }
  if (target_name.empty()) throw config_error("a built-in problem name or a config file is required (see --help, --list)");
  if (islands_workload) {
    if (workloads_text.size() > 1) throw config_error("--workloads islands runs alone (not with eval or generation)");
    if (!report_dir.empty()) throw config_error("--report: not for --workloads islands (use --json)");
  }
  if (!report_dir.empty()) {
    fusedga::check_report_dir(report_dir);  // before minutes of measuring, not after
    if (sizes_option->count() == 0) sizes_text = report_sizes;
  }
  if (islands_workload && sizes_option->count() == 0) sizes_text = {"10000", "100000"};
  if (!json_path.empty()) {
    const auto dir = std::filesystem::absolute(json_path).parent_path();
    if (!std::filesystem::is_directory(dir))
      throw config_error("--json " + json_path + ": directory " + dir.string() + " does not exist");
  }
  std::vector<std::size_t> sizes;
  for (const auto& s : sizes_text) sizes.push_back(parse_size(s));
  const auto kinds = backends_text.empty()
                         ? std::vector<fusedga::backend_kind>{fusedga::backend_kind::serial, fusedga::backend_kind::tbb}
                         : parse_choices(backends_text, "--backends", fusedga::bench_backends);
  const int cores = ::tbb::info::default_concurrency();
  // The islands workload: one count, a node's cores shared by its ranks (as ga-run does under mpirun).
  if (threads.empty())
    threads = islands_workload ? std::vector<int>{std::max(1, cores / std::max(1, world.local_size))}
                               : default_thread_counts(cores);
  std::vector<std::string> notes;
  for (const int t : threads)
    if (t > cores) notes.push_back(fmt::format("--threads {} exceeds the {} cores available (oversubscribed)", t, cores));
  std::vector<fusedga::bench_backend> backends;
  for (const auto k : kinds) {
    if (k == fusedga::backend_kind::serial || k == fusedga::backend_kind::cuda) backends.push_back({k, 1});
    else
      for (const int t : threads) backends.push_back({k, t});
  }
  fusedga::run_config cfg = fusedga::resolve_bench_config(target_name, sets);
  if (precision == "float") cfg.precision = fusedga::precision_kind::float32;
  if (precision == "double") cfg.precision = fusedga::precision_kind::float64;

  if (islands_workload) {  // islands_bench.hpp
    fusedga::islands_bench_plan plan;
    plan.sizes = sizes;
    plan.backends = backends;
    if (!island_counts.empty()) plan.island_counts = island_counts;
    plan.weak = weak;
    plan.epochs = epochs;
    plan.repeats.min_repeats = repeats;
    plan.repeats.min_time_s = min_time;
    fusedga::transport_maker make = fusedga::local_transports();
#if defined(FUSEDGA_HAS_MPI)
    if (world.size > 1)
      make = [](int islands) {
        return std::make_unique<fusedga::owning_transport<fusedga::islands::mpi_transport>>(MPI_COMM_WORLD, islands);
      };
#endif
    const auto rows = fusedga::run_islands_bench(cfg, plan, make, notes, [&](const std::string& line) {
      if (!quiet) std::cerr << "ga-bench: " << line << std::endl;
    });
    if (world.rank != 0) return 0;  // rank 0 prints and writes
    const std::string name = cfg.problem.expression ? cfg.source : cfg.problem.builtin;
    std::cout << fusedga::format_islands_table(name, rows, notes) << std::flush;
    if (!json_path.empty()) {
      fusedga::write_file_atomic(json_path, fusedga::islands_bench_json(name, rows, notes).dump(2) + "\n");
      if (!quiet) std::cerr << "ga-bench: wrote " << json_path << "\n";
    }
    return 0;
  }

  fusedga::bench_plan plan;
  plan.sizes = sizes;
  plan.backends = backends;
  if (!tiers_text.empty()) plan.tiers = parse_choices(tiers_text, "--tiers", fusedga::plan_tiers);
  if (!workloads_text.empty()) plan.workloads = parse_choices(workloads_text, "--workloads", fusedga::bench_workloads);
  plan.repeats.min_repeats = repeats;
  plan.repeats.min_time_s = min_time;
  if (stream_mib > 0) plan.copy_array_bytes = static_cast<std::size_t>(stream_mib * 1024 * 1024);
  if (!baseline.empty() && !cfg.problem.expression) throw config_error("--baseline: only for expression problems");
  // A report covers every tier this machine can run: the GPU too, when one is usable and the problem runs there.
  const bool fused_tier =
      std::find(plan.tiers.begin(), plan.tiers.end(), fusedga::bench_tier::fused) != plan.tiers.end();
  if (!report_dir.empty() && backends_option->count() == 0 && fused_tier &&
      (!cfg.problem.expression || cfg.problem.engine != fusedga::expression_engine::interpreter) &&
      fusedga::detail::bench_factories_for(cfg).cuda && fusedga::cuda_unavailable_reason().empty())
    plan.backends.push_back({fusedga::backend_kind::cuda, 1});
  const fusedga::bench_progress progress = [quiet](const std::string& line) {
    if (!quiet) std::cerr << "ga-bench: " << line << std::endl;
  };
  fusedga::bench_report report = cfg.problem.expression
                                     ? fusedga::run_expression_bench(cfg, plan, baseline, progress)
                                     : fusedga::run_bench_with_cuda(cfg, plan, progress);  // CPU rows, then CUDA rows
  report.problem = cfg.problem.builtin;
  report.source = cfg.source;
  report.precision = fusedga::to_string(cfg.precision);
  report.notes.insert(report.notes.begin(), notes.begin(), notes.end());
  report.environment.libraries["CLI11"] = CLI11_VERSION;
  const fusedga::flops_estimate flops = fusedga::estimate_flops_per_evaluation(cfg, report.dimension);
  report.flops_per_evaluation = flops.flops;
  report.flops_basis = flops.basis;
  fusedga::derive_row_metrics(report);

  std::cout << fusedga::format_bench_table(report) << std::flush;
  if (!json_path.empty()) {
    fusedga::write_file_atomic(json_path, fusedga::bench_report_json(report).dump(2) + "\n");
    if (!quiet) std::cerr << "ga-bench: wrote " << json_path << "\n";
  }
  if (!report_dir.empty()) {
    fusedga::report_options options;
    options.command = command_line(argc, argv);
    const fusedga::report_outcome out = fusedga::write_report_dir(report, report_dir, options);
    for (const auto& n : out.notices) std::cerr << "ga-bench: " << n << "\n";
    if (!quiet) std::cerr << fmt::format("ga-bench: wrote {}/ ({})\n", out.dir, fmt::join(out.files, ", "));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  fusedga::apps::mpi_world world;
  if (const int code = world.init(argc, argv, "ga-bench"); code != 0) return code;
  world.agreed = true;  // no pre-run agreement: every rank parses the same command line alike
  const std::string app = world.rank > 0 ? "ga-bench[rank " + std::to_string(world.rank) + "]" : "ga-bench";
  return world.finish(fusedga::apps::guarded_main(app.c_str(), [&] { return run(argc, argv, world); }));
}
