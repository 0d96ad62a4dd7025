#include "report/quality_report.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace fusedga {

namespace {

std::string error_text(double e) {
  if (std::isinf(e)) return "infeasible";
  return fmt::format("{:.3g}", e);
}

std::string percent(double p) { return fmt::format("{:.0f}%", 100 * p); }

std::string evals_text(double e) {
  if (e >= 1e6) return fmt::format("{:.3g}M", e / 1e6);
  if (e >= 1e3) return fmt::format("{:.3g}k", e / 1e3);
  return fmt::format("{:.0f}", e);
}

std::string seconds_text(double s) {
  if (s < 1e-3) return fmt::format("{:.0f} µs", s * 1e6);
  if (s < 1) return fmt::format("{:.3g} ms", s * 1e3);
  return fmt::format("{:.3g} s", s);
}

const quality_cell* find_cell(const std::vector<quality_cell>& cells, const std::string& p, const std::string& m) {
  for (const auto& c : cells)
    if (c.problem == p && c.method == m) return &c;
  return nullptr;
}

std::string num(double v) { return std::isinf(v) ? (v > 0 ? "inf" : "-inf") : fmt::format("{:.17g}", v); }

}  // namespace

std::string quality_summary_table(const quality_results& r) {
  const auto cells = aggregate_runs(r.runs);
  std::string out = "| problem |";
  std::string rule = "|---|";
  for (const auto& m : r.methods) {
    out += " " + m.name + " |";
    rule += "---|";
  }
  out += "\n" + rule + "\n";
  std::map<std::string, int> solved, every_run;  // at least one success; success in every run
  for (const auto& p : r.problems) {
    out += "| " + p.id + (p.equalities ? " (eq)" : "") + " |";
    for (const auto& m : r.methods) {
      const quality_cell* c = find_cell(cells, p.id, m.name);
      if (!c) {
        out += " – |";
        continue;
      }
      out += fmt::format(" {} ({}) |", percent(c->success_rate), percent(c->feasible_rate));
      solved[m.name] += c->successes > 0;
      every_run[m.name] += c->successes > 0 && c->successes == c->runs;
    }
    out += "\n";
  }
  const auto count_row = [&](const char* label, std::map<std::string, int>& counts) {
    out += fmt::format("| **problems solved {}** |", label);
    for (const auto& m : r.methods) out += fmt::format(" **{}** of {} |", counts[m.name], r.problems.size());
    out += "\n";
  };
  count_row("at least once", solved);
  count_row("in every run", every_run);
  return out;
}

std::string quality_markdown(const quality_results& r, const std::string& command,
                             const std::vector<std::string>& notices, bool plotted) {
  const auto cells = aggregate_runs(r.runs);
  std::string out = "# Solution quality\n\n";
  if (!command.empty()) out += "```sh\n" + command + "\n```\n\n";
  out += fmt::format(
      "Suite `{}`: {} problems, {} methods, {} seeds each, budget {}.\n\n"
      "**Measure.** error = f(x_best) − f* for the best point found by the feasibility rules (equalities met "
      "within eps = {:g}); success = feasible and error ≤ {:g} · max(1, |f*|) (relative above |f*| = 1, absolute "
      "below; a negative error, a point better than f* within the equality tolerance, counts as success). "
      "Time to target = evaluations and wall time of the first generation at which the run succeeded; medians over "
      "the successful runs. Every method evaluates the same expressions: FusedGA through its JIT or interpreter, "
      "pagmo through the reference evaluator in process, pymoo through NumPy code generated from the same AST.\n\n",
      r.suite, r.problems.size(), r.methods.size(), r.seeds, r.budget.describe(), r.equality_tolerance, r.tolerance);
  for (const auto& n : r.notes) out += "- " + n + "\n";
  out += "\n## Methods\n\n| method | kind | what |\n|---|---|---|\n";
  for (const auto& m : r.methods) out += fmt::format("| {} | {} | {} |\n", m.name, m.kind, m.description);
  out += "\n## Summary: success rate (feasible rate)\n\n" + quality_summary_table(r);
  out += "\n## Time to target: median evaluations / wall time over successful runs\n\n| problem |";
  std::string rule = "|---|";
  for (const auto& m : r.methods) {
    out += " " + m.name + " |";
    rule += "---|";
  }
  out += "\n" + rule + "\n";
  for (const auto& p : r.problems) {
    out += "| " + p.id + " |";
    for (const auto& m : r.methods) {
      const quality_cell* c = find_cell(cells, p.id, m.name);
      if (!c || !c->median_evaluations_to_target) out += " – |";
      else
        out += fmt::format(" {} / {} |", evals_text(*c->median_evaluations_to_target),
                           seconds_text(*c->median_seconds_to_target));
    }
    out += "\n";
  }
  out += "\n## Who reached the target\n\n";
  for (const auto& p : r.problems) {
    std::vector<std::string> who;
    for (const auto& m : r.methods) {
      const quality_cell* c = find_cell(cells, p.id, m.name);
      if (c && c->successes > 0)
        who.push_back(fmt::format("{} ({}/{} runs, median {} evaluations, {})", m.name, c->successes, c->runs,
                                  evals_text(*c->median_evaluations_to_target), seconds_text(*c->median_seconds_to_target)));
    }
    out += fmt::format("- **{}**: {}\n", p.id, who.empty() ? std::string("nobody") : fmt::format("{}", fmt::join(who, "; ")));
  }
  out += "\n## Per problem\n";
  for (const auto& p : r.problems) {
    out += fmt::format(
        "\n### {} — {}\n\n{} variables, {} inequality and {} equality constraints; f* = {:.10g} ({}); budget {} "
        "evaluations per run.\n\n",
        p.id, p.name, p.dimension, p.inequalities, p.equalities, p.best_known, p.source, p.budget);
    out += "| method | success | feasible | median error | best error | median evals to target | median time to target |\n"
           "|---|---|---|---|---|---|---|\n";
    for (const auto& m : r.methods) {
      const quality_cell* c = find_cell(cells, p.id, m.name);
      if (!c) continue;
      out += fmt::format("| {} | {}/{} | {}/{} | {} | {} | {} | {} |\n", m.name, c->successes, c->runs, c->feasible,
                         c->runs, error_text(c->median_error), error_text(c->best_error),
                         c->median_evaluations_to_target ? evals_text(*c->median_evaluations_to_target) : "–",
                         c->median_seconds_to_target ? seconds_text(*c->median_seconds_to_target) : "–");
    }
    if (plotted && std::any_of(cells.begin(), cells.end(), [&](const quality_cell& c) { return c.problem == p.id && std::isfinite(c.median_error); }))
      out += fmt::format("\n![convergence of {0}](convergence-{0}.svg)\n", p.id);
  }
  if (!notices.empty()) {
    out += "\n## Notices\n\n";
    for (const auto& n : notices) out += "- " + n + "\n";
  }
  out += "\nFiles: runs.csv (one row per run), summary.csv (one row per problem × method), results.json (both), "
         "convergence-*.dat and plots.gp (redraw with `gnuplot plots.gp`).\n";
  return out;
}

std::string quality_runs_csv(const quality_results& r) {
  std::string out =
      "problem,method,seed,feasible,success,objective,violation,error,evaluations,wall_s,evaluations_to_target,"
      "seconds_to_target\n";
  for (const auto& q : r.runs)
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{}\n", q.problem, q.method, q.seed, q.feasible ? 1 : 0,
                       q.success ? 1 : 0, num(q.objective), num(q.violation), num(q.error), q.evaluations, num(q.wall_s),
                       q.evaluations_to_target ? std::to_string(*q.evaluations_to_target) : "",
                       q.seconds_to_target ? num(*q.seconds_to_target) : "");
  return out;
}

std::string quality_summary_csv(const quality_results& r) {
  std::string out =
      "problem,method,runs,successes,feasible,success_rate,feasible_rate,median_error,best_error,"
      "median_evaluations_to_target,median_seconds_to_target\n";
  for (const auto& c : aggregate_runs(r.runs))
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{}\n", c.problem, c.method, c.runs, c.successes, c.feasible,
                       num(c.success_rate), num(c.feasible_rate), num(c.median_error), num(c.best_error),
                       c.median_evaluations_to_target ? num(*c.median_evaluations_to_target) : "",
                       c.median_seconds_to_target ? num(*c.median_seconds_to_target) : "");
  return out;
}

report_outcome write_quality_report(const quality_results& r, const std::string& dir, const report_options& options) {
  report_files in;
  in.files.emplace_back("runs.csv", quality_runs_csv(r));
  in.files.emplace_back("summary.csv", quality_summary_csv(r));
  nlohmann::json j;
  j["suite"] = r.suite;
  if (r.budget.cec2020) {
    j["budget"] = r.budget.text();
    for (const auto& p : r.problems) j["budgets"][p.id] = p.budget;
  } else {
    j["budget"] = r.budget.fixed;
  }
  j["seeds"] = r.seeds;
  j["tolerance"] = r.tolerance;
  j["equality_tolerance"] = r.equality_tolerance;
  j["notes"] = r.notes;
  j["runs"] = nlohmann::json::array();
  for (const auto& q : r.runs) {
    nlohmann::json row{{"problem", q.problem}, {"method", q.method}, {"seed", q.seed}, {"feasible", q.feasible},
                       {"success", q.success}, {"objective", q.objective}, {"violation", q.violation},
                       {"error", std::isinf(q.error) ? nlohmann::json(nullptr) : nlohmann::json(q.error)},
                       {"evaluations", q.evaluations}, {"wall_s", q.wall_s}};
    if (q.evaluations_to_target) {
      row["evaluations_to_target"] = *q.evaluations_to_target;
      row["seconds_to_target"] = *q.seconds_to_target;
    }
    j["runs"].push_back(row);
  }
  in.files.emplace_back("results.json", j.dump(1) + "\n");
  in.known_outputs = {"runs.csv", "summary.csv", "results.json", "plots.gp", "report.md"};

  // Convergence: per problem one .dat (a block per method and axis) and one SVG with two panels.
  std::string script = "set terminal svg size 1100,420 dynamic font 'sans,11'\nset logscale xy\nset grid\n"
                       "set key outside right\nset format y '10^{%T}'\n";
  for (const auto& p : r.problems) {
    std::string dat;
    std::vector<std::pair<std::size_t, std::size_t>> drawn[2];  // per axis: (block index, method index) with points
    std::size_t block = 0;
    for (const bool by_time : {false, true}) {
      for (std::size_t k = 0; k < r.methods.size(); ++k) {
        std::vector<const quality_run*> runs;
        for (const auto& q : r.runs)
          if (q.problem == p.id && q.method == r.methods[k].name) runs.push_back(&q);
        std::string points;
        for (const curve_point& c : convergence_curve(runs, by_time))
          if (std::isfinite(c.median_error)) points += fmt::format("{:.6g} {:.6g}\n", c.x, std::max(c.median_error, 1e-10));
        if (points.empty()) continue;  // gnuplot counts only blocks with data: write none for an empty curve
        dat += fmt::format("# {} by {}\n{}\n\n", r.methods[k].name, by_time ? "seconds" : "evaluations", points);
        drawn[by_time].emplace_back(block++, k);
      }
    }
    if (drawn[0].empty()) continue;  // no method's median was ever feasible: nothing to draw
    const std::string name = "convergence-" + p.id;
    in.files.emplace_back(name + ".dat", dat);
    in.known_outputs.push_back(name + ".dat");
    in.known_outputs.push_back(name + ".svg");
    in.images.push_back(name + ".svg");
    script += fmt::format("set output '{}.svg'\nset multiplot layout 1,2 title '{} (median error of {} seeds; errors below 1e-10 drawn at 1e-10)'\n",
                          name, p.id, r.seeds);
    const auto panel = [&](bool by_time) {
      script += fmt::format("set xlabel '{}'\nset ylabel 'median error f - f*'\nplot ", by_time ? "wall time (s)" : "evaluations");
      for (std::size_t k = 0; k < drawn[by_time].size(); ++k)
        script += fmt::format("{}'{}.dat' index {} using 1:2 with lines lw 2 title '{}'", k ? ", " : "", name,
                              drawn[by_time][k].first, r.methods[drawn[by_time][k].second].name);
      script += "\n";
    };
    panel(false);
    panel(true);
    script += "unset multiplot\n";
  }
  in.files.emplace_back("plots.gp", script);
  in.plot_script = "plots.gp";
  const std::string command = options.command;
  in.index = [&r, command](const std::vector<std::string>& notices, bool plotted) {
    return quality_markdown(r, command, notices, plotted);
  };
  return write_report_files(dir, in, options);
}

}  // namespace fusedga
