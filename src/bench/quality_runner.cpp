#include "bench/quality_runner.hpp"

#include <unistd.h>

#include <algorithm>
#include <limits>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench/quality_pagmo.hpp"
#include "expr/subprocess.hpp"
#include "fusedga/config/registry.hpp"
#include "fusedga/config/run_config.hpp"
#include "fusedga/core/error.hpp"
#include "fusedga/expr/ast.hpp"
#include "fusedga/expr/numpy_source.hpp"

namespace fusedga {

namespace fs = std::filesystem;

namespace {

const std::vector<std::string>& pymoo_methods() {
  static const std::vector<std::string> names{"pymoo-ga", "pymoo-de"};
  return names;
}

bool wanted(const quality_options& o, const std::string& name) {
  return o.methods.empty() || std::find(o.methods.begin(), o.methods.end(), name) != o.methods.end();
}

/// The pymoo peer for one problem: a subprocess over the generated NumPy module; JSON lines back.
std::vector<quality_run> run_pymoo(const quality_options& o, const quality_problem_info& info,
                                   const expr::program& program, double eps, double tolerance,
                                   const std::vector<std::string>& methods, std::string& failure) {
  fs::create_directories(o.work_dir);
  const std::string module = (fs::path(o.work_dir) / (info.id + ".py")).string();
  std::ofstream(module) << expr::generate_numpy_source(program);
  const std::string out = (fs::path(o.work_dir) / (info.id + ".jsonl")).string();
  std::vector<std::string> algorithms;
  for (const auto& m : methods) algorithms.push_back(m.substr(std::string("pymoo-").size()));
  std::string algo_list;
  for (const auto& a : algorithms) algo_list += (algo_list.empty() ? "" : ",") + a;
  const std::string python = expr::detail::resolve_executable(o.python);
  if (python.empty()) {
    failure = o.python + " not found";
    return {};
  }
  const expr::detail::process_result r = expr::detail::run_process(
      {python, o.pymoo_script, "--module", module, "--out", out, "--budget", std::to_string(info.budget), "--seeds",
       std::to_string(o.seeds), "--algorithms", algo_list, "--eps", fmt::format("{:.17g}", eps), "--population",
       std::to_string(o.peer_population), "--jobs", std::to_string(o.peer_jobs)});
  if (r.exit_code != 0) {
    std::string tail = r.output.size() > 400 ? r.output.substr(r.output.size() - 400) : r.output;
    std::replace(tail.begin(), tail.end(), '\n', ' ');
    failure = fmt::format("exit status {}: {}", r.exit_code, tail);
    return {};
  }
  std::vector<quality_run> runs;
  std::ifstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const nlohmann::json j = nlohmann::json::parse(line);
    std::vector<quality_sample> samples;
    for (const auto& s : j.at("trace"))
      samples.push_back({s.at(0).get<std::uint64_t>(), s.at(1).get<double>(), s.at(2).get<double>(), s.at(3).get<double>()});
    if (samples.empty()) continue;
    runs.push_back(assess_run(info.id, "pymoo-" + j.at("algorithm").get<std::string>(), j.at("seed").get<std::uint64_t>(),
                              samples, info.best_known, info.maximize, tolerance, j.at("evaluations").get<std::uint64_t>(),
                              j.at("wall_s").get<double>()));
  }
  return runs;
}

}  // namespace

std::string default_pymoo_script() { return FUSEDGA_PYMOO_SCRIPT; }

quality_results run_quality(const quality_suite& suite, const quality_options& o,
                            const std::function<void(const std::string&)>& progress) {
  const auto say = [&](const std::string& s) {
    if (progress) progress(s);
  };
  quality_results res;
  res.suite = suite.path;
  res.budget = o.budget;
  res.seeds = o.seeds;
  res.tolerance = suite.tolerance;

  // Which methods: the suite's, then the peers; --methods filters all of them.
  std::vector<std::string> all_names;
  for (const auto& m : suite.methods) all_names.push_back(m.name);
  for (const auto& m : pagmo_methods()) all_names.push_back(m);
  for (const auto& m : pymoo_methods()) all_names.push_back(m);
  for (const auto& w : o.methods)
    if (std::find(all_names.begin(), all_names.end(), w) == all_names.end())
      throw config_error("--methods: unknown name '" + w + "'; expected one of: " + fmt::format("{}", fmt::join(all_names, ", ")));
  const auto problems = select_by_name(suite.problems, o.problems, "--problems", [](const quality_problem& p) { return p.id; });
  std::vector<quality_method> methods;
  for (const auto& m : suite.methods)
    if (wanted(o, m.name)) methods.push_back(m);
  for (const auto& m : methods) res.methods.push_back({m.name, "fusedga", m.description});

  std::vector<std::string> pagmo_run, pymoo_run;
  for (const auto& m : pagmo_methods())
    if (wanted(o, m)) pagmo_run.push_back(m);
  for (const auto& m : pymoo_methods())
    if (wanted(o, m)) pymoo_run.push_back(m);
  if (!pagmo_run.empty() && !pagmo_built()) {
    res.notes.push_back("pagmo not built: install libpagmo-dev (scripts/install-deps.sh) and reconfigure to run " +
                        fmt::format("{}", fmt::join(pagmo_run, ", ")));
    pagmo_run.clear();
  }
  if (!pymoo_run.empty() && o.pymoo_script.empty()) {
    res.notes.push_back("pymoo not run: no script given");
    pymoo_run.clear();
  }
  for (const auto& m : pagmo_run)
    res.methods.push_back({m, "pagmo", m == "pagmo-sade"     ? "pagmo2 sade (jDE variant 2), on unconstrain(kuri)"
                                       : m == "pagmo-de1220" ? "pagmo2 de1220 (pDE), on unconstrain(kuri)"
                                       : m == "pagmo-gaco"   ? "pagmo2 gaco (extended ant colony), its own constraint handling"
                                                             : "pagmo2 cstrs_self_adaptive around de (rand/1/exp)"});
  bool pymoo_ok = !pymoo_run.empty();

  res.notes.push_back(fmt::format(
      "Budget {}. FusedGA methods: stop.evaluations = the budget, never exceeded (a generation "
      "that would exceed it is not run; restarts included; a generation whose gradient repair could exceed it at "
      "worst runs without the repair), with no generation limit. Peers: population {}, stopped "
      "at the first generation that reaches the budget.",
      o.budget.describe(), o.peer_population));
  if (o.stop_at_target)
    res.notes.push_back(
        "--stop-at-target: FusedGA runs stopped once within half the success threshold of f* (stop.target); success "
        "and time to target are as with the whole budget, the final errors of successful runs are capped there. "
        "Peers ran their whole budget.");

  // Every method's budget is checked before anything runs: one below a method's initial population would stop the
  // suite part-way, the runs before it lost.
  for (const quality_problem& q : problems) {
    const run_config base = load_config(q.config);
    if (!base.problem.expression) continue;  // the loop below says what is wrong
    const std::uint64_t budget = o.budget.for_dimension(base.problem.expression->dimension());
    for (const quality_method& m : methods) {
      const std::size_t population = load_config(q.config, m.overrides).ga.population;
      if (budget < population)
        throw config_error(
            fmt::format("--budget: {} evaluations for {} do not pay for method {}'s initial population "
                        "of {}; give at least {}, or leave {} out (--methods)",
                        budget, q.id, m.name, population, population, m.name));
    }
  }

  for (const quality_problem& q : problems) {
    const run_config base = load_config(q.config);
    if (!base.problem.expression)
      throw config_error(q.config + ": not an expression problem (the quality suite gives every method the same expressions)");
    const expr::program& program = *base.problem.expression;
    if (!q.best_x.empty() && static_cast<int>(q.best_x.size()) != program.dimension())
      throw config_error(fmt::format("{}: best_x has {} values, the problem {} genes", suite.path, q.best_x.size(),
                                     program.dimension()));
    quality_problem_info info{q.id,
                              base.problem.builtin,
                              program.dimension(),
                              o.budget.for_dimension(program.dimension()),
                              program.inequality_count(),
                              program.equality_count(),
                              q.best_known,
                              program.sense == Sense::maximize,
                              q.source};
    res.problems.push_back(info);
    const double eps = base.ga.constraints.equality_tolerance;
    res.equality_tolerance = eps;

    for (const quality_method& m : methods) {
      // Parsed once per method: parsed per seed, the YAML's freed nodes filled the allocator's free lists, and
      // the run's first large allocation paid for their consolidation inside the timed run.
      const run_config method_cfg = load_config(q.config, m.overrides);
      for (int seed = 1; seed <= o.seeds; ++seed) {
        run_config cfg = method_cfg;
        cfg.ga.seed = static_cast<std::uint64_t>(seed);
        cfg.ga.generations = std::numeric_limits<int>::max();  // the budget ends the run
        cfg.ga.stop.evaluations = info.budget;
        if (o.stop_at_target) {
          const double half = success_threshold(q.best_known, suite.tolerance) / 2;
          cfg.ga.stop.target = info.maximize ? q.best_known - half : q.best_known + half;
        }
        cfg.output = {};
        const Result r = fusedga::run(cfg);
        std::vector<quality_sample> samples;
        for (const generation_stats& s : r.history)
          samples.push_back({s.evaluations, s.elapsed_s, s.best_objective, s.best_violation});
        if (samples.empty()) samples.push_back({r.evaluations, r.wall_time_s, r.objective, r.violation});
        res.runs.push_back(assess_run(q.id, m.name, static_cast<std::uint64_t>(seed), samples, q.best_known,
                                      info.maximize, suite.tolerance, r.evaluations, r.wall_time_s));
      }
      say(fmt::format("{} {}: {} seed{} done", q.id, m.name, o.seeds, o.seeds == 1 ? "" : "s"));
    }
    for (const std::string& m : pagmo_run) {
      for (int seed = 1; seed <= o.seeds; ++seed) {
        const peer_trace t =
            run_pagmo(m, program, eps, info.budget, static_cast<std::uint64_t>(seed), o.peer_population);
        res.runs.push_back(assess_run(q.id, m, static_cast<std::uint64_t>(seed), t.samples, q.best_known,
                                      info.maximize, suite.tolerance, t.evaluations, t.wall_s));
      }
      say(fmt::format("{} {}: {} seed{} done", q.id, m, o.seeds, o.seeds == 1 ? "" : "s"));
    }
    if (pymoo_ok) {
      std::string failure;
      std::vector<quality_run> runs = run_pymoo(o, info, program, eps, suite.tolerance, pymoo_run, failure);
      if (!failure.empty()) {
        res.notes.push_back("pymoo not run: " + failure + " (pip install pymoo)");
        pymoo_ok = false;
      } else {
        res.runs.insert(res.runs.end(), runs.begin(), runs.end());
        say(fmt::format("{} pymoo: {} run{} done", q.id, runs.size(), runs.size() == 1 ? "" : "s"));
      }
    }
  }
  if (pymoo_ok)
    for (const auto& m : pymoo_run)
      res.methods.push_back({m, "pymoo", m == "pymoo-ga" ? "pymoo GA (default operators and constraint handling)"
                                                         : "pymoo DE (DE/rand/1/bin, default constraint handling)"});
  return res;
}

}  // namespace fusedga
