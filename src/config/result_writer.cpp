#include "fusedga/config/result_writer.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>

namespace fusedga {

namespace {
/// A number with 17 significant digits; NaN as "nan" whatever its sign bit (printf's "-nan" says nothing more).
std::string number17(double v) { return v != v ? std::string("nan") : fmt::format("{:.17g}", v); }
}  // namespace

std::string result_json(const Result& r, const run_info& info) {
  nlohmann::ordered_json genes = nlohmann::ordered_json::object();
  for (std::size_t j = 0; j < r.best_genes.size(); ++j) {
    const std::string name = j < r.variable_names.size() ? r.variable_names[j] : fmt::format("x[{}]", j);
    if (r.integer_gene(j))
      genes[name] = static_cast<std::int64_t>(r.best_genes[j]);  // exact: integer genes are integers within ±2^51
    else
      genes[name] = r.best_genes[j];
  }
  nlohmann::ordered_json j = {
      {"problem", info.problem},
      {"backend", info.backend},
      {"threads", info.threads},
      {"precision", info.precision},
      {"seed", info.seed},
      {"generations", r.generations},
      {"evaluations", r.evaluations},
      {"wall_time_s", r.wall_time_s},
      {"stop_reason", to_string(r.reason)},
      {"restarts", r.restarts},
      {"best", {{"objective", r.objective}, {"violation", r.violation}, {"feasible", r.feasible}, {"genes", genes}}},
      {"history_rows", r.history.size()},
      {"nan_individuals", r.not_a_number},
  };
  if (!r.islands.empty()) {
    nlohmann::ordered_json islands = nlohmann::ordered_json::array();
    for (const island_result& x : r.islands)
      islands.push_back({{"island", x.island},
                         {"rank", x.rank},
                         {"population", x.population},
                         {"best", {{"objective", x.objective}, {"violation", x.violation}, {"feasible", x.feasible}}},
                         {"evaluations", x.evaluations},
                         {"immigrants", x.immigrants},
                         {"restarts", x.restarts}});
    j["islands"] = std::move(islands);
  }
  return j.dump(2) + "\n";
}

std::string history_csv(const Result& r) {
  const bool islands = !r.islands.empty();
  std::string out = "generation,best_objective,best_violation,mean_objective,feasible_fraction,evaluations,elapsed_s,"
                    "nan_individuals";
  out += islands ? ",island\n" : "\n";
  const auto rows = [&](const std::vector<generation_stats>& history, const std::string& island) {
    for (const auto& s : history)
      out += fmt::format("{},{},{},{},{},{},{:.6f},{}{}\n", s.generation, number17(s.best_objective),
                         number17(s.best_violation), number17(s.mean_objective), number17(s.feasible_fraction),
                         s.evaluations, s.elapsed_s, s.not_a_number, island);
  };
  rows(r.history, islands ? ",all" : "");
  for (const island_result& x : r.islands) rows(x.history, "," + std::to_string(x.island));
  return out;
}

std::string unusable_result_text(const Result& r) {
  if (r.finite()) return "";
  const bool all_nan = std::isnan(r.objective) || std::isnan(r.violation);
  const auto shown = [](double v) { return std::isnan(v) ? std::string("nan") : fmt::format("{}", v); };
  return fmt::format(
      "{} (best objective {}, violation {}; {} individuals NaN or infinitely good in generations 0 to {})",
      all_nan ? "no individual had a finite objective and violation" : "the best individual is not finite",
      shown(r.objective), shown(r.violation), r.not_a_number, r.generations);
}

}  // namespace fusedga
