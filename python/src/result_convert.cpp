#include "result_convert.hpp"

#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>

namespace nb = nanobind;

namespace fusedga::python {

namespace {

/// A 1-D NumPy array that owns `values` (no copy after the move).
template <class T>
nb::object to_numpy(std::vector<T> values) {
  auto* owned = new std::vector<T>(std::move(values));
  nb::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return nb::cast(nb::ndarray<nb::numpy, T, nb::ndim<1>>(owned->data(), {owned->size()}, owner));
}

/// Column `field` of the history as a NumPy array of T.
template <class T, class Field>
nb::object column(const std::vector<generation_stats>& history, Field field) {
  std::vector<T> out;
  out.reserve(history.size());
  for (const generation_stats& s : history) out.push_back(static_cast<T>(s.*field));
  return to_numpy(std::move(out));
}

/// A history as a dict of NumPy columns (fusedga.Result.history).
nb::dict history_columns(const std::vector<generation_stats>& history) {
  nb::dict h;
  h["generation"] = column<std::int64_t>(history, &generation_stats::generation);
  h["best_objective"] = column<double>(history, &generation_stats::best_objective);
  h["best_violation"] = column<double>(history, &generation_stats::best_violation);
  h["mean_objective"] = column<double>(history, &generation_stats::mean_objective);
  h["feasible_fraction"] = column<double>(history, &generation_stats::feasible_fraction);
  h["evaluations"] = column<std::int64_t>(history, &generation_stats::evaluations);
  h["elapsed_s"] = column<double>(history, &generation_stats::elapsed_s);
  h["not_a_number"] = column<std::int64_t>(history, &generation_stats::not_a_number);
  return h;
}

}  // namespace

nb::dict result_to_python(const Result& r, const run_info& info, bool integer_genes,
                          const std::vector<std::string>& notices) {
  nb::dict d;
  if (integer_genes) {
    std::vector<std::int64_t> genes(r.best_genes.begin(),
                                    r.best_genes.end());  // exact: integer genes are stored exactly
    d["genes"] = to_numpy(std::move(genes));
  } else {
    d["genes"] = to_numpy(r.best_genes);
  }
  d["variables"] = r.variable_names;
  d["integer_variables"] = std::vector<bool>(r.integer_variables.begin(), r.integer_variables.end());
  d["objective"] = r.objective;
  d["violation"] = r.violation;
  d["feasible"] = r.feasible;
  d["stop_reason"] = std::string(to_string(r.reason));
  d["generations"] = r.generations;
  d["evaluations"] = r.evaluations;
  d["time"] = r.wall_time_s;
  d["restarts"] = r.restarts;
  d["not_a_number"] = r.not_a_number;
  d["history"] = history_columns(r.history);
  nb::list islands;  // island-model runs: one dict per island (fusedga.Result.islands)
  for (const island_result& x : r.islands) {
    nb::dict i;
    i["island"] = x.island;
    i["rank"] = x.rank;
    i["population"] = x.population;
    i["objective"] = x.objective;
    i["violation"] = x.violation;
    i["feasible"] = x.feasible;
    i["evaluations"] = x.evaluations;
    i["immigrants"] = x.immigrants;
    i["restarts"] = x.restarts;
    i["history"] = history_columns(x.history);
    islands.append(i);
  }
  d["islands"] = islands;
  d["problem"] = info.problem;
  d["backend"] = info.backend;
  d["threads"] = info.threads;
  d["precision"] = info.precision;
  d["seed"] = info.seed;
  d["notices"] = notices;
  return d;
}

}  // namespace fusedga::python
