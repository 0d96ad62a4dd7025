// RunConfig (a parsed, validated run_config), parse_config and the registry's lists. The options of solve()
// arrive here as YAML text plus `key.path=value` overrides, so Python gets exactly the YAML schema's names,
// validation and located messages (parse_config.cpp); the Python side relabels the overrides' locations.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.hpp"
#include "fusedga/config/registry.hpp"
#include "fusedga/config/run_config.hpp"

namespace nb = nanobind;

namespace fusedga::python {

namespace {

/// Whether the problem of `cfg` has integer genes (its best genes come back as int64).
bool integer_genes(const run_config& cfg) {
  if (cfg.problem.expression) return false;
  const problem_entry* entry = find_problem(cfg.problem.builtin);
  return entry != nullptr && entry->integer_genes;
}

nb::list problem_list() {
  nb::list out;
  for (const problem_entry& p : builtin_problems()) {
    nb::list params;
    for (const param_spec& s : p.params) {
      nb::dict d;
      d["name"] = s.name;
      d["default"] = s.default_value;
      d["min"] = s.min;
      d["max"] = s.max;
      d["integer"] = s.integer;
      d["help"] = s.help;
      params.append(d);
    }
    nb::dict d;
    d["name"] = p.name;
    d["description"] = p.description;
    d["params"] = params;
    d["integer_genes"] = p.integer_genes;
    d["constrained"] = p.constrained;
    out.append(d);
  }
  return out;
}

}  // namespace

void bind_config(nb::module_& m) {
  nb::class_<run_config>(m, "RunConfig", "A parsed and validated run (the typed form of a ga-run YAML config).")
      .def_prop_ro("source", [](const run_config& c) { return c.source; })
      .def_prop_ro("problem", [](const run_config& c) { return c.problem.builtin; })
      .def_prop_ro("population", [](const run_config& c) { return c.ga.population; })
      .def_prop_ro("generations", [](const run_config& c) { return c.ga.generations; })
      .def_prop_ro("seed", [](const run_config& c) { return c.ga.seed; })
      .def_prop_ro("algorithm", [](const run_config& c) { return std::string(to_string(c.ga.algorithm)); })
      .def_prop_ro("backend", [](const run_config& c) { return std::string(to_string(c.backend)); })
      .def_prop_ro("precision", [](const run_config& c) { return std::string(to_string(c.precision)); })
      .def_prop_ro("threads", [](const run_config& c) { return c.threads; })
      .def_prop_ro("integer_genes", &integer_genes);
  m.def("parse_config", &parse_config, nb::arg("text"), nb::arg("source"), nb::arg("overrides"),
        "parse_config(text, source, overrides) -> RunConfig: the YAML document `text` (named `source` in "
        "messages) with `key.path=value` overrides applied. Raises ConfigError.");
  m.def("read_config_text", &read_config_text, nb::arg("path"),
        "The text of a config file (at most 16 MiB). Raises ConfigError when it cannot be read.");
  m.def("problems", &problem_list,
        "The built-in problems: a list of dicts (name, description, params, "
        "integer_genes, constrained).");
  m.def("built_backends", &built_backends, "The backends built into this module, e.g. ['serial', 'tbb'].");
  m.def("cuda_unavailable_reason", &cuda_unavailable_reason,
        "Empty when a GPU is usable by the CUDA backend, else why not.");
}

}  // namespace fusedga::python
