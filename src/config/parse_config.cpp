/// @file parse_config.cpp
/// YAML -> run_config (DESIGN.md, "YAML config"): one reader per section,
/// each checking its keys first, then its values, with located errors.

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <limits>
#include <sstream>

#include "config/scalar_positions.hpp"
#include "config/yaml_helpers.hpp"
#include "fusedga/backends/tbb.hpp"
#include "fusedga/config/batch_entry.hpp"
#include "fusedga/config/registry.hpp"
#include "fusedga/config/run_config.hpp"
#include "fusedga/core/bounds.hpp"
#include "fusedga/core/error.hpp"
#include "fusedga/engine/measured_defaults.hpp"
#include "fusedga/engine/operator_parameters.hpp"
#include "fusedga/engine/validate.hpp"
#include "fusedga/expr/parse.hpp"
#include "fusedga/islands/migration.hpp"
#include "fusedga/islands/solve_islands.hpp"
#include "fusedga/operators/catalog.hpp"
#include "fusedga/operators/operator_text.hpp"
#include "io/read_file.hpp"
#include "text/utf8.hpp"

namespace fusedga {

namespace {

using detail::choice_list;
using detail::located;
using detail::yaml_map;

const std::vector<std::string> top_level_keys = {"problem", "ga",      "stop",   "backend",
                                                 "precision", "threads", "device", "output"};
const std::vector<std::string> builtin_problem_keys = {"builtin", "params"};
const std::vector<std::string> expression_problem_keys = {"name",      "sense",       "variables", "constants",
                                                          "objective", "constraints", "engine"};
const std::vector<std::string> vector_variable_keys = {"size", "bounds", "integer"};
const std::vector<std::string> ga_keys = {"population", "generations", "seed",     "selection",
                                          "crossover",  "mutation",    "elitism",  "constraint_handling",
                                          "algorithm",  "survival",    "de",       "restarts",
                                          "islands"};
const std::vector<std::string> island_keys = {"count", "migration", "variants"};
const std::vector<std::string> migration_keys = {"every", "size", "topology", "policy"};
/// The keys of a `ga.islands.variants` entry: `ga:`'s search settings (an island's population, generations, seed,
/// stop rules and restarts are the run's).
const std::vector<std::string> variant_keys = {"algorithm", "selection", "crossover",           "mutation",
                                               "elitism",   "survival",  "de", "constraint_handling"};
const std::vector<std::string> restart_keys = {"stall_generations", "population_growth", "schedule",
                                               "convergence_tolerance", "max_stall_generations"};
const std::vector<std::string> stop_keys = {"target", "stall_generations", "time_limit_s", "evaluations"};
const std::vector<std::string> output_keys = {"result", "history"};

const char* const embedded_default = R"(# ga-run's embedded default: seed example 2, the constrained quadratic
# (maximize x^2 + 2y^2 + 3z^2 + 4xy - 5yz  s.t.  x + y + z >= 3,  x^2 + z^2 <= 10).
problem:
  builtin: seed/constrained-quadratic
  params: {}
# No GA operator is set, so ga.algorithm auto runs the measured default (docs/quality.md, "Defaults"):
# SHADE differential evolution, BIPOP restarts, gradient repair of violated constraints (CPU backends).
ga:
  population: 10000
  generations: 300
  seed: 42
  algorithm: auto     # auto | ga | de
  constraint_handling: {type: feasibility-rules}
stop: {target: null, stall_generations: null, time_limit_s: null, evaluations: null}
backend: auto       # serial | tbb | cuda | auto
precision: double   # double | float
threads: 0          # 0 = all cores
device: auto        # backend cuda's GPU: auto (0; under mpirun, one per rank of a node) | ordinal
output: {result: null, history: null}
)";

/// Choices named by their YAML spelling (`to_string`).
template <class E>
choice_list<E> by_name(const std::vector<E>& kinds) {
  choice_list<E> out;
  for (E k : kinds) out.emplace_back(to_string(k), k);
  return out;
}

/// "integer genes" or "real genes", for messages.
const char* gene_kind_text(bool real_genes) { return real_genes ? "real genes" : "integer genes"; }

/// `problem.params:` — defaults first, then the given values, each checked against its spec.
void read_problem_params(const std::optional<located>& section, const problem_entry& entry,
                         std::map<std::string, double>& out) {
  std::vector<std::string> names;
  out.clear();
  for (const auto& spec : entry.params) {
    names.push_back(spec.name);
    out[spec.name] = spec.default_value;
  }
  if (!section) return;
  const yaml_map params(*section, names);
  if (names.empty() && !params.keys().empty())
    params.fail_at_key(params.keys().front(),
                       "unknown parameter, expected none (" + entry.name + " takes no parameters)");
  params.check_keys(names, "parameter of " + entry.name);
  for (const auto& spec : entry.params)
    if (const auto value = params.get(spec.name))
      out[spec.name] = detail::read_number(
          *value, spec.integer ? detail::integer_in(spec.min, spec.max) : detail::number_in(spec.min, spec.max));
}

/// Where the text of scalar `v` starts, 1-based (a quoted scalar's text starts after its quote).
expr::location text_location(const located& v) {
  const bool quoted = v.node().Tag() == "!";
  return {v.mark().line + 1, v.mark().column + 1 + (quoted ? 1 : 0)};
}

/// The expression text of scalar `v` with the file position of each of its bytes (multi-line scalars fold
/// lines and drop indentation, so positions cannot be counted from the start).
expr::source_text read_expression_text(const located& v, const std::string& what) {
  expr::source_text out{detail::read_string(v, what), v.path(), text_location(v), {}, {}};
  if (const std::string* given = v.source().override_for(v.path())) {  // a --set argument: positions in the text
    out.where = {1, 1};
    out.given_by = "--set " + *given;
    return out;
  }
  out.positions = detail::scalar_positions(v.source().text(), v.mark(), out.text);
  if (!out.positions.empty()) out.where = out.positions.front();
  return out;
}

/// `[lo, hi]` with finite lo <= hi.
std::pair<double, double> read_bound_pair(const located& v) {
  const std::string expect = "bounds [lower, upper] with finite lower <= upper";
  if (!v.node().IsSequence() || v.node().size() != 2) v.expected(expect);
  const located lo(v.node()[0], v.path() + "[0]", v.node()[0].Mark(), v.source());
  const located hi(v.node()[1], v.path() + "[1]", v.node()[1].Mark(), v.source());
  const double l = detail::read_number(lo, detail::any_number(), "a finite number");
  const double h = detail::read_number(hi, detail::any_number(), "a finite number");
  if (l > h)
    v.fail("expected " + expect + ", got lower " + detail::number_text(l) + " > upper " + detail::number_text(h));
  return {l, h};
}

/// Integer variables under `precision: float`: Bounds::validate's float limit (±2^22), checked here so that
/// the error names the variable and its place in the file, not a gene number.
void check_float_integer_bounds(const run_config& cfg) {
  if (cfg.precision != precision_kind::float32 || !cfg.problem.expression) return;
  const double limit = integer_variable_limit<float>();
  for (const expr::variable& v : cfg.problem.expression->variables)
    for (int k = 0; k < v.size; ++k) {
      const double lo = v.lower[static_cast<std::size_t>(k)], hi = v.upper[static_cast<std::size_t>(k)];
      if (!v.is_integer(k) || std::max(std::fabs(lo), std::fabs(hi)) <= limit) continue;
      const std::string at = v.where.line > 0 ? cfg.source + ":" + std::to_string(v.where.line) + ":" +
                                                    std::to_string(v.where.column) + ": "
                                              : cfg.source + ": ";
      throw config_error(at + "problem.variables." + v.name + ": integer variable '" + v.name +
                         (v.vector ? "[" + std::to_string(k) + "]" : std::string()) + "' has bounds [" +
                         detail::number_text(lo) + ", " + detail::number_text(hi) +
                         "]; expected bounds within +-2^22 with precision: float, where rounding half up is exact "
                         "(+-2^51 with precision: double)");
    }
}

/// A variable's `integer:` as one mark per element: true or false, or (a vector) a list of `size` of them.
std::vector<std::uint8_t> read_integer_marks(const located& v, bool vector, int size) {
  const choice_list<bool> flag{{"true", true}, {"false", false}};
  if (!vector || !v.node().IsSequence())
    return std::vector<std::uint8_t>(static_cast<std::size_t>(size), detail::read_enum(v, flag) ? 1 : 0);
  if (static_cast<int>(v.node().size()) != size)
    v.expected("true, false, or a list of " + std::to_string(size) + " of them (one per element)");
  std::vector<std::uint8_t> marks;
  for (std::size_t k = 0; k < v.node().size(); ++k) {
    const located element(v.node()[k], v.path() + "[" + std::to_string(k) + "]", v.node()[k].Mark(), v.source());
    marks.push_back(detail::read_enum(element, flag) ? 1 : 0);
  }
  return marks;
}

/// `problem.variables:` — `x: [lo, hi]` (a scalar), `x: {bounds: [lo, hi], integer: true}` (a scalar, in the
/// long form) or `x: {size: n, bounds: [lo, hi]}` (a vector; bounds may also be a list of n pairs, one per
/// element); `integer: true` makes every element an integer variable, a list of booleans (vectors) the marked
/// elements (expr::variable_decl).
std::vector<expr::variable_decl> read_variables(const located& section) {
  const yaml_map vars(section, {"NAME: [lower, upper]", "NAME: {size: n, bounds: [lower, upper], integer: true}"});
  if (vars.keys().empty())
    section.expected("a map of variables (NAME: [lower, upper] or NAME: {size: n, bounds: [lower, upper]})");
  std::vector<expr::variable_decl> out;
  for (const std::string& name : vars.keys()) {
    const located v = *vars.get(name);
    expr::variable_decl d;
    d.name = name;
    d.key_path = v.path();
    d.where = {v.mark().line + 1, v.mark().column + 1};
    if (v.node().IsMap()) {
      const yaml_map m(v, vector_variable_keys);
      m.check_keys(vector_variable_keys);
      const auto size = m.get("size");
      const auto bounds = m.get("bounds");
      if (!bounds) v.expected("a variable {bounds: [lower, upper]} (a vector: {size: n, bounds: [lower, upper]})");
      d.vector = size.has_value();
      d.size = size ? static_cast<int>(detail::read_int(*size, detail::integer_in(1, 1 << 20))) : 1;
      if (const auto integer = m.get("integer")) d.integer = read_integer_marks(*integer, d.vector, d.size);
      const YAML::Node& b = bounds->node();
      if (b.IsSequence() && b.size() > 0 && b[0].IsSequence()) {  // one pair per element
        if (static_cast<int>(b.size()) != d.size)
          bounds->expected("a list of " + std::to_string(d.size) + " [lower, upper] pairs (one per element)");
        for (std::size_t k = 0; k < b.size(); ++k) {
          const auto [lo, hi] =
              read_bound_pair(located(b[k], bounds->path() + "[" + std::to_string(k) + "]", b[k].Mark(), v.source()));
          d.lower.push_back(lo);
          d.upper.push_back(hi);
        }
      } else {
        const auto [lo, hi] = read_bound_pair(*bounds);
        d.lower.assign(static_cast<std::size_t>(d.size), lo);
        d.upper.assign(static_cast<std::size_t>(d.size), hi);
      }
    } else {
      const auto [lo, hi] = read_bound_pair(v);
      d.lower = {lo};
      d.upper = {hi};
    }
    out.push_back(std::move(d));
  }
  return out;
}

/// An expression problem: parsed and checked into `out.expression` (expr/parse.hpp).
void read_expression_problem(const yaml_map& problem, problem_config& out) {
  problem.check_keys(expression_problem_keys);
  const auto objective = problem.get("objective");
  const auto variables = problem.get("variables");
  if (!objective || !variables)
    problem.self().fail(std::string("expected ") +
                        (variables   ? "objective:"
                         : objective ? "variables:"
                                     : "variables: and objective:") +
                        " for an expression problem (or builtin: NAME for a built-in problem)");
  expr::problem_source src;
  src.file = problem.self().source().file();
  if (const auto sense = problem.get("sense"))
    src.sense =
        detail::read_enum(*sense, choice_list<Sense>{{"minimize", Sense::minimize}, {"maximize", Sense::maximize}});
  src.variables = read_variables(*variables);
  if (const auto constants = problem.get("constants")) {
    const yaml_map m(*constants, {"NAME: number", "NAME: [numbers]"});
    for (const std::string& name : m.keys()) {
      const located c = *m.get(name);
      expr::constant_decl d{name, 0, c.path(), {c.mark().line + 1, c.mark().column + 1}};
      if (c.node().IsSequence()) {  // a table constant
        if (const std::string e = expr::table_size_error(name, c.node().size()); !e.empty()) c.fail(e);
        d.table.emplace();
        for (std::size_t k = 0; k < c.node().size(); ++k) {
          const YAML::Node item = c.node()[k];
          const located entry(item, c.path() + "[" + std::to_string(k) + "]", item.Mark(), c.source());
          d.table->push_back(detail::read_number(entry, detail::any_number(), "a finite number (table entry " + std::to_string(k) + ")"));
        }
      } else {
        d.value = detail::read_number(c, detail::any_number(), "a finite number or a list of finite numbers (a table)");
      }
      src.constants.push_back(std::move(d));
    }
  }
  src.objective = read_expression_text(*objective, "an expression");
  if (const auto constraints = problem.get("constraints"); constraints && !constraints->is_null()) {
    if (!constraints->node().IsSequence()) constraints->expected("a list of constraints such as \"x + y <= 3\"");
    for (std::size_t k = 0; k < constraints->node().size(); ++k) {
      const YAML::Node item = constraints->node()[k];
      const located c(item, constraints->path() + "[" + std::to_string(k) + "]", item.Mark(), constraints->source());
      src.constraints.push_back(read_expression_text(c, "a constraint such as \"x + y <= 3\""));
    }
  }
  if (const auto engine = problem.get("engine"))
    out.engine = detail::read_enum(*engine, by_name(std::vector{expression_engine::automatic, expression_engine::jit,
                                                                expression_engine::interpreter}));
  if (const auto name = problem.get("name")) {
    out.builtin = detail::read_string(*name, "a problem name");
    if (!detail::valid_utf8(out.builtin))
      name->fail("expected a problem name in UTF-8 (it is written to the result JSON), got invalid UTF-8");
  } else {
    const std::filesystem::path file(src.file);
    const bool usable = file.has_stem() && src.file.front() != '<' && detail::valid_utf8(file.stem().string());
    out.builtin = usable ? file.stem().string() : "expression";
  }
  out.expression = std::make_shared<const expr::program>(expr::parse_program(src));
}

/// `problem:` — a built-in problem by registry name and its parameters, or an
/// expression problem. Returns the entry (for an expression problem, one with
/// its name and real genes; the registry binds its hooks later).
problem_entry read_problem(const std::optional<located>& section, const located& root, problem_config& out) {
  const std::vector<std::string> names = builtin_problem_names();
  const std::string missing_builtin = "expected a map with builtin: NAME (NAME one of (" + detail::join(names) +
                                      ")) or an expression problem (variables:, objective:, ...)";
  if (!section) root.source().fail("problem", root.mark(), missing_builtin + ", got nothing");

  std::vector<std::string> all_keys = builtin_problem_keys;
  all_keys.insert(all_keys.end(), expression_problem_keys.begin(), expression_problem_keys.end());
  const yaml_map problem(*section, all_keys);
  const std::optional<located> builtin = problem.get("builtin");
  if (!builtin) {
    if (section->is_null() || problem.keys().empty()) problem.self().fail(missing_builtin + ", got nothing");
    problem.check_keys(all_keys);  // a misspelt builtin: gets its "did you mean" here
    read_expression_problem(problem, out);
    problem_entry entry;
    entry.name = out.builtin;
    entry.constrained = !out.expression->constraints.empty();
    const std::vector<std::uint8_t> marks = out.expression->integer_marks();
    entry.integer_variables = std::find(marks.begin(), marks.end(), 1) != marks.end();
    entry.dimension = [d = out.expression->dimension()](const auto&) { return d; };
    return entry;
  }
  problem.check_keys(builtin_problem_keys);

  out.builtin = detail::read_string(*builtin, "a built-in problem name");
  const problem_entry* entry = find_problem(out.builtin);
  if (!entry)
    builtin->expected("a built-in problem, one of (" + detail::join(names) + ")",
                      detail::did_you_mean(out.builtin, names));
  read_problem_params(problem.get("params"), *entry, out.params);
  return *entry;
}

/// The keys of a family's section: `type`, the family's parameters, then each row's (first use), from the table.
std::vector<std::string> section_keys(const operator_family& family) {
  std::vector<std::string> keys = {"type"};
  const auto add = [&](const parameter_spec& p) {
    if (std::find(keys.begin(), keys.end(), p.name) == keys.end()) keys.emplace_back(p.name);
  };
  for (const parameter_spec& p : family.common) add(p);
  for (const operator_spec& row : family.rows)
    for (const parameter_spec& p : row.params) add(p);
  return keys;
}

/// The first parameter of `family` named `name` (its common ones first), or nullptr.
const parameter_spec* find_parameter(const operator_family& family, const std::string& name) {
  for (const parameter_spec& p : family.common)
    if (name == p.name) return &p;
  for (const operator_spec& row : family.rows)
    for (const parameter_spec& p : row.params)
      if (name == p.name) return &p;
  return nullptr;
}

/// The accepted numbers of `p` (`run_max` for a `max_name` bound), as the YAML readers take them.
detail::number_range range_of(const parameter_spec& p, double run_max) {
  if (p.integer && !p.max_name && p.max == std::numeric_limits<int>::max()) return detail::integer_at_least(p.min);
  detail::number_range r{p.min, p.max_name ? run_max : p.max, p.integer, p.min_open, false};
  return r;
}

/// Reads a section's `type:` among the family's rows and checks that it can vary the problem's genes.
template <class Kind>
Kind read_operator_type(const located& type, const operator_family& family, bool real_genes,
                        const problem_entry& problem) {
  choice_list<Kind> choices;
  for (const operator_spec& row : family.rows) choices.emplace_back(row.name, static_cast<Kind>(row.kind));
  const Kind kind = detail::read_enum(type, choices);
  if (accepts(kind, real_genes)) return kind;
  type.expected(std::string("a ") + family.noun + " for the " + gene_kind_text(real_genes) + " of " + problem.name +
                ", one of (" + operator_names(family, real_genes) + ")");
}

/**
 * An operator section (`ga.crossover:` ...): its keys checked against the
 * table, `type:` read into `kind` (when the family has a kind), each parameter
 * present read within its range (`run_max` for a `max_name` bound; `auto`
 * where allowed) into `out`.
 */
template <class Kind, class Options>
void read_operator_section(const located& section, const operator_family& family, const problem_entry& problem,
                           double run_max, Kind* kind, Options& out, const std::vector<std::string>& subsections = {}) {
  const std::vector<std::string> keys = section_keys(family);
  std::vector<std::string> allowed = keys;
  allowed.insert(allowed.end(), subsections.begin(), subsections.end());
  const yaml_map m(section, allowed);
  m.check_keys(allowed);
  if (const auto type = m.get("type")) {
    const Kind k = read_operator_type<Kind>(*type, family, !problem.integer_genes, problem);
    if (kind) *kind = k;
  }
  // A parameter of another operator of the family is an error, not ignored: `eta` under `type: gaussian`.
  if (kind || family.rows.size() == 1) {
    const operator_spec& row = family.rows[kind ? static_cast<int>(*kind) : 0];  // rows in enum order
    const auto has = [](spec_list<parameter_spec> list, const std::string& name) {
      return std::any_of(list.begin(), list.end(), [&](const parameter_spec& p) { return name == p.name; });
    };
    for (std::size_t k = 1; k < keys.size(); ++k)  // keys[0] is `type`
      if (const auto v = m.get(keys[k]); v && !has(family.common, keys[k]) && !has(row.params, keys[k])) {
        std::string own;
        for (const auto list : {family.common, row.params})
          for (const parameter_spec& p : list) own += (own.empty() ? "" : ", ") + std::string(p.name);
        v->fail(std::string("does not apply to ") + row.name + " " + family.noun +
                " (its parameters: " + (own.empty() ? std::string("none") : own) + ")");
      }
  }
  const auto read = [&](const parameter_spec& p) {
    const auto v = m.get(p.name);
    if (!v) return;
    if (p.allows_auto && v->is_word("auto")) {
      set_parameter(out, p.name, std::nullopt);
      return;
    }
    const std::string range_text = parameter_range_text(p, run_max);
    const detail::number_range range = range_of(p, run_max);
    // The plain range wording ("a number >= 0") comes from the readers themselves; named bounds and `auto` need ours.
    set_parameter(out, p.name,
                  detail::read_number(*v, range, p.max_name || p.allows_auto ? range_text : std::string()));
  };
  for (std::size_t k = 1; k < keys.size(); ++k) read(*find_parameter(family, keys[k]));
}

/// `ga.selection:` — tournament of `size` in [1, population].
void read_selection(const located& section, const problem_entry& problem, std::size_t population,
                    selection_options& out) {
  read_operator_section<selection_kind>(section, selection_family, problem, double(population), nullptr, out);
}

// The integer-gene operators and `ga.algorithm: auto`'s values and rules, each with the measurement behind it:
// engine/measured_defaults.hpp (C++ callers get the same through fusedga::measured_defaults).
namespace md = measured_default;

/// `ga.crossover:`. Without a `type:`, integer-gene problems get uniform crossover.
void read_crossover(const std::optional<located>& section, const problem_entry& problem, crossover_options& out) {
  // These are the defaults for integer genes: SBX (the default otherwise) needs real genes.
  if (problem.integer_genes) out.kind = md::integer_crossover;
  if (section) read_operator_section(*section, crossover_family, problem, 0, &out.kind, out);
}

/// `ga.mutation:`. Without a `type:`, integer-gene problems get uniform-reset mutation.
void read_mutation(const std::optional<located>& section, const problem_entry& problem, mutation_options& out) {
  // These are the defaults for integer genes: polynomial mutation (the default otherwise) needs real genes.
  if (problem.integer_genes) out.kind = md::integer_mutation;
  if (section) read_operator_section(*section, mutation_family, problem, 0, &out.kind, out);
}

/// `ga.constraint_handling:` — feasibility rules, or a static penalty of `weight`; `gradient_repair:` its subsection.
void read_constraint_handling(const located& section, const problem_entry& problem, constraint_options& out) {
  read_operator_section(section, constraint_family, problem, 0, &out.rule, out, {"gradient_repair"});
  std::vector<std::string> keys = section_keys(constraint_family);
  keys.emplace_back("gradient_repair");
  if (const auto repair = yaml_map(section, keys).get("gradient_repair")) {
    repair_kind kind = repair_kind::gradient;
    read_operator_section(*repair, gradient_repair_family, problem, 0, &kind, out.gradient_repair);
    if (problem.integer_genes && out.gradient_repair.rate > 0)
      repair->fail("gradient repair needs real genes; " + problem.name + " has integer genes (set rate: 0)");
    if (problem.population_evaluated && out.gradient_repair.rate > 0)
      repair->fail("gradient repair needs each individual's constraints on their own; " + problem.name +
                   " is evaluated a population at a time (set rate: 0)");
  }
}

/// `ga.restarts:` — null = none; else restart after `stall_generations` with the population grown.
void read_restarts(const located& section, restart_options& out) {
  if (section.is_null()) return;
  const yaml_map m(section, restart_keys);
  m.check_keys(restart_keys);
  const auto stall = m.get("stall_generations");
  if (!stall)  // e.g. --set ga.restarts.convergence_tolerance=... alone: the auto-chosen restarts are not merged
    section.expected(
        "a map with stall_generations (an integer >= 1) and optionally population_growth, schedule, "
        "convergence_tolerance, max_stall_generations, or null",
        " without stall_generations");  // yaml_map refused anything but a map
  out.stall_generations = static_cast<int>(detail::read_int(*stall, detail::integer_at_least(1)));
  if (const auto growth = m.get("population_growth"))
    out.population_growth = detail::read_number(*growth, detail::number_in(1, 1e6));
  if (const auto schedule = m.get("schedule"))
    out.schedule = detail::read_enum(*schedule, by_name(std::vector{restart_schedule::ipop, restart_schedule::bipop}));
  if (const auto tolerance = m.get("convergence_tolerance"); tolerance && !tolerance->is_null())
    out.convergence_tolerance = detail::read_number(*tolerance, detail::number_in(0, 1));
  if (const auto most = m.get("max_stall_generations"); most && !most->is_null()) {
    if (!out.convergence_tolerance)
      most->fail(std::string("max_stall_generations ") + detail::max_stall_needs_tolerance);
    out.max_stall_generations =
        static_cast<int>(detail::read_int(*most, detail::integer_at_least(*out.stall_generations)));
  }
}

/// `ga.survival:` — `{type: generational | plus}`, or the bare name.
void read_survival(const located& section, const problem_entry& problem, survival_options& out) {
  if (section.node().IsScalar()) {
    choice_list<survival_kind> choices;
    for (const operator_spec& row : survival_family.rows)
      choices.emplace_back(row.name, static_cast<survival_kind>(row.kind));
    out.kind = detail::read_enum(section, choices);
    return;
  }
  read_operator_section(section, survival_family, problem, 0, &out.kind, out);
}

/// `ga:`'s keys that only the GA reads, refused with `algorithm: de` (DE would silently ignore them).
const std::vector<std::string> ga_only_keys = {"selection", "crossover", "mutation", "elitism", "survival"};


/// `ga.algorithm` as written.
enum class algorithm_setting { automatic, ga, de };

/// What `ga:` gave that `ga.algorithm: auto` depends on.
struct ga_given {
  bool automatic = true;    ///< ga.algorithm is auto or absent
  std::string ga_only_key;  ///< the first GA-only key given, empty when none
  bool restarts = false;    ///< ga.restarts given (null included)
  bool repair_rate = false;  ///< ga.constraint_handling.gradient_repair.rate given
  bool crossover = false;   ///< ga.de.crossover given
  bool memory = false;      ///< ga.de.memory given
  bool archive = false;     ///< ga.de.archive given
  bool generations = false;                                  ///< ga.generations given
  algorithm_setting setting = algorithm_setting::automatic;  ///< ga.algorithm as written; variants inherit it
};

/// `ga.algorithm: auto` (or absent): DE with the measured defaults for real genes when no GA-only key is set,
/// else the GA. Fills `out.algorithm`, the restarts default and `choice` (the repair default
/// needs the backend: resolve_auto_repair).
void resolve_auto_algorithm(const problem_entry& problem, const ga_given& given, ga_options& out,
                            algorithm_choice& choice) {
  choice.automatic = true;
  if (problem.integer_genes) {
    out.algorithm = algorithm_kind::ga;
    choice.reason = "auto: integer genes; differential evolution needs real genes";
    return;
  }
  if (!given.ga_only_key.empty()) {
    out.algorithm = algorithm_kind::ga;
    choice.reason = "auto: ga." + given.ga_only_key + " is set, a GA operator";
    return;
  }
  if (out.constraints.rule == constraint_rule::stochastic_ranking) {
    out.algorithm = algorithm_kind::ga;
    choice.reason = "auto: ga.constraint_handling.type is stochastic-ranking, which compares in the GA's tournaments";
    return;
  }
  out.algorithm = algorithm_kind::de;  // ga.de's own defaults: SHADE
  choice.reason = std::string("auto: real genes") +
                  (problem.integer_variables ? " (its integer variables are real genes kept integral)" : "") +
                  ", no GA operator set; the best measured on docs/quality.md's suite";
  if (!given.restarts) {  // with islands too: each island restarts on its own (docs/islands.md, measured)
    out.restarts.stall_generations = md::restart_stall;
    out.restarts.population_growth = md::restart_growth;
    out.restarts.convergence_tolerance = md::restart_tolerance;
    choice.restarts = "auto: the measured default";
  }
}

/// A key's value, or nullopt when absent (or when there is no section).
using key_getter = std::function<std::optional<located>(const char*)>;

/**
 * The search settings of `ga:`, or of a `ga.islands.variants` entry over the run's (`variant`): selection,
 * crossover, mutation, elitism, constraint handling, survival, algorithm and de, read with `get` over `out`, then
 * the checks between them. `population` bounds the tournament size and elitism: the run's, or the smallest
 * island's for a variant. A variant without `algorithm:` takes the run's setting (`given.setting`); auto is
 * resolved anew with the variant's GA-only keys (else the run's).
 */
void read_search(const key_getter& get, const problem_entry& problem, std::size_t population, bool variant,
                 ga_options& out, ga_given& given, algorithm_choice& choice) {
  if (const auto selection = get("selection")) read_selection(*selection, problem, population, out.selection);
  if (variant) {  // over the run's operators: no integer-gene default kind here
    if (const auto c = get("crossover"))
      read_operator_section(*c, crossover_family, problem, 0, &out.crossover.kind, out.crossover);
    if (const auto c = get("mutation"))
      read_operator_section(*c, mutation_family, problem, 0, &out.mutation.kind, out.mutation);
  } else {
    read_crossover(get("crossover"), problem, out.crossover);
    read_mutation(get("mutation"), problem, out.mutation);
  }
  const std::string population_name = variant ? "island population" : "population";
  if (const auto elitism = get("elitism"))
    out.elitism = static_cast<std::size_t>(detail::read_int(
        *elitism, detail::integer_in(0, double(population - 1)),
        "an integer in [0, " + population_name + " - 1 = " + std::to_string(population - 1) + "]"));
  else if (!variant)
    out.elitism = std::min(out.elitism, out.population - 1);  // the default never exceeds a tiny population
  if (const auto constraints = get("constraint_handling")) {
    read_constraint_handling(*constraints, problem, out.constraints);
    const YAML::Node& c = constraints->node();
    const bool repair_map = c.IsMap() && c["gradient_repair"] && c["gradient_repair"].IsMap();
    given.repair_rate = repair_map && c["gradient_repair"]["rate"];
  }
  if (const auto survival = get("survival")) read_survival(*survival, problem, out.survival);
  for (const std::string& key : ga_only_keys)
    if (get(key.c_str())) {
      given.ga_only_key = key;
      break;
    }
  if (const auto algorithm = get("algorithm")) {
    given.setting = detail::read_enum(*algorithm, choice_list<algorithm_setting>{{"auto", algorithm_setting::automatic},
                                                                                  {to_string(algorithm_kind::ga), algorithm_setting::ga},
                                                                                  {to_string(algorithm_kind::de), algorithm_setting::de}});
    if (given.setting == algorithm_setting::de && problem.integer_genes)
      algorithm->fail("expected ga or auto for the integer genes of " + problem.name +
                      " (differential evolution needs real genes), got de");
  }
  given.automatic = given.setting == algorithm_setting::automatic;
  if (given.automatic)
    resolve_auto_algorithm(problem, given, out, choice);
  else
    out.algorithm = given.setting == algorithm_setting::de ? algorithm_kind::de : algorithm_kind::ga;
  const std::string algorithm_key = variant ? "algorithm" : "ga.algorithm";
  if (const auto de = get("de")) {
    read_operator_section(*de, de_family, problem, 0, &out.de.strategy, out.de, {"crossover"});
    std::vector<std::string> keys = section_keys(de_family);
    keys.emplace_back("crossover");
    const yaml_map de_map(*de, keys);
    given.memory = de_map.get("memory").has_value();
    given.archive = de_map.get("archive").has_value();
    if (const auto crossover = de_map.get("crossover")) {
      given.crossover = true;
      out.de.crossover = detail::read_enum(
          *crossover, by_name(std::vector{de_crossover::bin, de_crossover::exp, de_crossover::alternate}));
      if (const auto why = detail::de_crossover_misfit(out.de)) crossover->fail(*why);
    }
    if (out.algorithm != algorithm_kind::de)
      de->fail("differential evolution settings need " + algorithm_key + ": de (" +
               (given.automatic ? algorithm_key + " auto chose ga: " + choice.reason.substr(std::string("auto: ").size())
                                : std::string(variant ? "the variant is a GA" : "the run is a GA")) +
               ")");
  }
  if (out.algorithm == algorithm_kind::de) {
    for (const std::string& key : ga_only_keys)
      if (const auto v = get(key.c_str()))
        v->fail("does not apply to differential evolution (" + algorithm_key +
                ": de uses ga.de and one-to-one survival)");
    if (out.constraints.rule == constraint_rule::stochastic_ranking)
      if (const auto at = get("constraint_handling") ? get("constraint_handling") : get("algorithm"))
        at->fail(std::string("stochastic-ranking compares in the GA's tournaments, and differential evolution's "
                             "one-to-one survival has none: use feasibility-rules or epsilon with ") +
                 algorithm_key + ": de, or " + algorithm_key + ": ga");
    if (variant) out.survival = survival_options{};  // a GA run's plus survival does not carry over to DE islands
  }
  if (out.survival.kind == survival_kind::plus)
    if (const auto elitism = get("elitism"))
      elitism->fail("does not apply to survival plus: the best N of parents and children survive, so the best is "
                    "never lost; remove elitism or use survival: generational");
}

/// `ga.islands:` (null = none): `count` and `migration`; the variants are read once the run's own settings are
/// (read_island_variants).
void read_islands(const located& section, std::size_t population, island_options& out) {
  if (section.is_null()) return;
  const yaml_map m(section, island_keys);
  m.check_keys(island_keys);
  const auto count = m.get("count");
  if (!count) section.fail("missing count: the number of islands (migration and variants are optional; null = none)");
  out.count = static_cast<int>(
      detail::read_int(*count, detail::integer_in(1, double(population / 2)),
                       "an integer in [1, population / 2 = " + std::to_string(population / 2) +
                           "] (every island needs 2 individuals)"));
  const auto migration = m.get("migration");
  if (!migration) return;
  const yaml_map mm(*migration, migration_keys);
  mm.check_keys(migration_keys);
  if (const auto every = mm.get("every"))
    out.migration.every = static_cast<int>(detail::read_int(*every, detail::integer_at_least(1)));
  if (const auto size = mm.get("size")) {
    const std::size_t smallest = islands::island_population(population, out.count, out.count - 1);
    out.migration.size = static_cast<std::size_t>(
        detail::read_int(*size, detail::integer_in(1, double(smallest - 1)),
                         "an integer in [1, smallest island's population - 1 = " + std::to_string(smallest - 1) +
                             "] (emigrants per island and epoch)"));
  }
  if (const auto topology = mm.get("topology"))
    out.migration.topology = detail::read_enum(
        *topology, by_name(std::vector{migration_topology::ring, migration_topology::random,
                                       migration_topology::fully_connected}));
  if (const auto policy = mm.get("policy"))
    out.migration.policy = detail::read_enum(*policy, by_name(std::vector{migration_policy::best_replace_worst}));
}

/// `ga:`. Population first: the tournament size, elitism and island count are checked against it. `dimension`
/// (0 = unknown) sizes auto's population.
void read_ga(const std::optional<located>& section, const problem_entry& problem, int dimension, ga_options& out,
             ga_given& given, algorithm_choice& choice) {
  std::optional<yaml_map> m;
  if (section) {
    m.emplace(*section, ga_keys);
    m->check_keys(ga_keys);
  }
  const key_getter get = [&](const char* key) { return m ? m->get(key) : std::nullopt; };

  if (const auto population = get("population"))
    out.population = static_cast<std::size_t>(detail::read_int(*population, detail::integer_at_least(2)));
  if (const auto generations = get("generations")) {
    given.generations = true;
    out.generations = static_cast<int>(detail::read_int(*generations, detail::integer_at_least(0)));
  }
  if (const auto seed = get("seed")) out.seed = detail::read_uint64(*seed);
  if (const auto islands = get("islands")) read_islands(*islands, out.population, out.islands);
  if (const auto restarts = get("restarts")) {
    given.restarts = true;
    read_restarts(*restarts, out.restarts);
  }
  read_search(get, problem, out.population, false, out, given, choice);
  if (out.algorithm == algorithm_kind::de && out.population < kDeMinPopulation)
    if (const auto population = get("population"))
      population->fail("expected at least " + std::to_string(kDeMinPopulation) +
                       " individuals for differential evolution (" +
                       (given.automatic ? "ga.algorithm auto chose it for real genes; ga.algorithm: ga runs from 2"
                                        : "ga.algorithm: de") +
                       "), got " + std::to_string(out.population));
  // auto's DE on one population (islands keep IPOP and the total as measured there, docs/islands.md): BIPOP
  // restarts, alternate crossover, SHADE's memory 20, the population by d where none is given, and L-SHADE's
  // archive 2.6 N where N <= d.
  if (given.automatic && out.algorithm == algorithm_kind::de && out.islands.count == 1) {
    if (!given.restarts) out.restarts.schedule = md::restart_schedule_one_population;
    std::vector<std::string> de_set;  // what auto sets of ga.de, for --explain
    if (!given.crossover) {
      out.de.crossover = md::crossover;
      de_set.push_back(std::string("crossover ") + to_string(md::crossover));
    }
    if (!given.memory) {
      out.de.memory = md::memory;
      de_set.push_back("memory " + std::to_string(md::memory));
    }
    if (!get("population") && dimension > 0) {
      out.population = md::population(static_cast<std::size_t>(dimension));
      out.elitism = std::min(out.elitism, out.population - 1);
      choice.population = "auto: the problem's dimension " + std::to_string(dimension) + ", clamped to [" +
                          std::to_string(md::population_min) + ", " + std::to_string(md::population_max) + "]";
    }
    if (!given.archive && dimension > 0 && md::large_archive(out.population, static_cast<std::size_t>(dimension))) {
      out.de.archive = md::archive_where_population_at_most_d;
      const std::string a = detail::spec_number(md::archive_where_population_at_most_d);
      de_set.push_back("archive " + a + " (L-SHADE's " + a + " N, as the population " + std::to_string(out.population) +
                       " is at most the dimension " + std::to_string(dimension) + ")");
    }
    for (std::size_t i = 0; i < de_set.size(); ++i) choice.de += (i ? ", " : "auto: ") + de_set[i];
  }
}

/// A located error at `at`, naming island `i`: an island's settings (`o`) that validate() refuses.
void validate_island(const located& at, const ga_options& o, int i, bool real_genes) {
  try {
    validate(o, 1, real_genes);  // the dimension is the problem's, checked when it runs
  } catch (const config_error& e) {
    at.fail("island " + std::to_string(i) + " (" + std::to_string(o.population) + " individuals): " + e.what());
  }
}

/// `ga.islands.variants:` (null or [] = none) — each entry `ga:`'s search settings over the run's (read_search) — then
/// every island's settings validated (validate.hpp), located at its variant, else at `ga.islands.count`.
void read_island_variants(const std::optional<located>& ga_section, const problem_entry& problem, run_config& cfg,
                          const ga_given& given) {
  if (!ga_section || cfg.ga.islands.count < 1) return;
  const auto section = yaml_map(*ga_section, ga_keys).get("islands");
  if (!section || section->is_null()) return;
  const yaml_map islands_map(*section, island_keys);
  island_options& is = cfg.ga.islands;
  const std::size_t smallest = islands::island_population(cfg.ga.population, is.count, is.count - 1);
  std::vector<located> entries;
  if (const auto variants = islands_map.get("variants"); variants && !variants->is_null()) {
    const YAML::Node& list = variants->node();
    if (!list.IsSequence())
      variants->expected("a list of variants, each a map of ga: search settings (" + detail::join(variant_keys) +
                         "), or null");
    if (is.count == 1 && list.size() > 0)
      variants->fail("needs islands: with count 1 (one population) the variants would not run; set ga.islands.count "
                     "> 1, or ga.islands: null");
    for (std::size_t k = 0; k < list.size(); ++k)
      entries.emplace_back(list[k], variants->path() + "[" + std::to_string(k) + "]", list[k].Mark(),
                           variants->source());
    if (entries.size() > static_cast<std::size_t>(is.count))
      entries[static_cast<std::size_t>(is.count)].fail(
          "more variants than islands (count = " + std::to_string(is.count) +
          "): island i runs variant i mod the number of variants, so this one would run nowhere");
    for (const located& v : entries) {
      const yaml_map vm(v, variant_keys);
      vm.check_keys(variant_keys, "key of a variant (its population, generations, seed, stop and restarts are the run's)");
      ga_options o = cfg.ga;
      o.islands = island_options{};
      ga_given g = given;
      algorithm_choice c;
      read_search([&](const char* key) { return vm.get(key); }, problem, smallest, true, o, g, c);
      is.variants.push_back(std::move(o));
      cfg.choice.variants.push_back(c.automatic ? c.reason : std::string());
    }
  }
  if (is.count == 1) return;
  const located count = *islands_map.get("count");
  try {
    islands::validate_islands(cfg.ga);
  } catch (const config_error& e) {
    section->fail(e.what());
  }
  // Islands differ only by population (two sizes at most) and variant: check each pair once.
  std::vector<std::pair<std::size_t, std::size_t>> checked;
  for (int i = 0; i < is.count; ++i) {
    const std::size_t v = entries.empty() ? 0 : static_cast<std::size_t>(i) % entries.size();
    const std::pair<std::size_t, std::size_t> kind{v, islands::island_population(cfg.ga.population, is.count, i)};
    if (std::find(checked.begin(), checked.end(), kind) != checked.end()) continue;
    checked.push_back(kind);
    validate_island(entries.empty() ? count : entries[v], islands::island_options_for(cfg.ga, i), i,
                    !problem.integer_genes);
  }
}

/// The gradient repair default of `ga.algorithm: auto` chosen as DE: rate 0.2 on a constrained problem on the
/// CPU backends; 0 on the GPU (`backend: cuda`, or `auto` resolving to it), where the kernels' repair has run
/// only on the kernel emulator: its speed and memory on a GPU are not yet measured (docs/cuda.md). Every problem
/// ga-run runs has its constraints' exact Jacobian (expressions by symbolic differentiation, built-ins by their
/// `jacobian` member: src/registry/entry.hpp), so the step limit stays ga_options' (measured_defaults.hpp).
void resolve_auto_repair(run_config& cfg, const problem_entry& problem, const ga_given& given) {
  if (!given.automatic || cfg.ga.algorithm != algorithm_kind::de || given.repair_rate) return;
  if (!problem.constrained) {
    cfg.choice.repair = "auto: none, the problem has no constraints";
    return;
  }
  if (problem.population_evaluated) {
    cfg.choice.repair = "auto: none, the problem is evaluated a population at a time (the gradient repair needs "
                        "each individual's constraints)";
    return;
  }
  const bool gpu = cfg.backend == backend_kind::cuda ||
                   (cfg.backend == backend_kind::automatic && resolve_backend(cfg) == backend_kind::cuda);
  if (gpu) {
    cfg.choice.repair =
        "auto: 0 on the GPU, where the repair's cost is not yet measured (0.2 on the CPU backends; "
        "set rate: 0.2 to repair on the GPU too)";
    return;
  }
  cfg.ga.constraints.gradient_repair.rate = md::repair_rate;
  cfg.choice.repair = "auto: the measured default";
}

/// `stop:` — each rule optional; null = off.
void read_stop(const located& section, std::size_t population, stop_options& out) {
  const yaml_map m(section, stop_keys);
  m.check_keys(stop_keys);
  if (const auto target = m.get("target"); target && !target->is_null())
    out.target = detail::read_number(*target, detail::any_number(), "a finite number or null");
  if (const auto stall = m.get("stall_generations"); stall && !stall->is_null())
    out.stall_generations =
        static_cast<int>(detail::read_int(*stall, detail::integer_at_least(1), "an integer >= 1 or null"));
  if (const auto limit = m.get("time_limit_s"); limit && !limit->is_null())
    out.time_limit_s = detail::read_number(*limit, detail::number_above(0), "a number of seconds > 0 or null");
  if (const auto budget = m.get("evaluations"); budget && !budget->is_null()) {
    // At least the initial population's evaluations; 5e5 is accepted (budgets are written so).
    detail::number_range range = detail::integer_in(double(population), 9007199254740992.0);  // 2^53
    range.hi_implicit = true;
    out.evaluations = static_cast<std::uint64_t>(detail::read_number(
        *budget, range, "an integer >= population = " + std::to_string(population) + " or null"));
  }
}

/// `output:` — file paths, or null for none.
void read_output(const located& section, output_config& out) {
  const yaml_map m(section, output_keys);
  m.check_keys(output_keys);
  for (const auto& [key, field] : {std::pair{"result", &out.result}, std::pair{"history", &out.history}})
    if (const auto path = m.get(key); path && !path->is_null()) {
      // `result: true` would write a file named "true": a plain boolean or number is not taken as a file name
      bool boolean = false;
      if (path->node().IsScalar() && path->node().Tag() == "?" &&
          (YAML::convert<bool>::decode(path->node(), boolean) || detail::parse_number(*path)))
        path->expected("a file path or null", " (quote it to name a file \"" + path->node().Scalar() + "\")");
      *field = detail::read_string(*path, "a file path or null");
    }
}

/// parse_config's body; with `batch`, the problem is that one (no `problem:` section allowed).
run_config parse_any(const std::string& text, const std::string& source_name, const std::vector<std::string>& overrides,
                     const problem_entry* batch) {
  detail::config_source source(source_name, text);
  YAML::Node root = detail::load_document(text, source);
  const std::string expect_root = "expected a map of sections (" + detail::join(top_level_keys) + ")";
  if (root.IsNull()) source.fail("", YAML::Mark{}, expect_root + ", got an empty document");
  if (!root.IsMap()) source.fail("", root.Mark(), expect_root + ", got " + detail::describe(root));
  for (const auto& o : overrides) detail::apply_override(root, o, source);

  const located top(root, "", root.Mark(), source);
  const yaml_map sections(top, top_level_keys);
  sections.check_keys(top_level_keys);

  run_config cfg;
  cfg.source = source_name;
  problem_entry problem;
  if (batch) {
    if (sections.get("problem"))
      sections.fail_at_key("problem", "not allowed here: the problem (" + batch->name +
                                          ") is given in code, evaluated a population at a time; remove the "
                                          "problem: section");
    problem = *batch;
    cfg.problem.builtin = batch->name;
  } else {
    problem = read_problem(sections.get("problem"), top, cfg.problem);
  }
  if (const auto p = sections.get("problem"); p && p->node().IsMap() && p->node()["engine"])
    cfg.where["problem.engine"] = source.where("problem.engine", p->node()["engine"].Mark());
  ga_given given;
  const int dimension = problem.dimension ? problem.dimension(cfg.problem.params) : 0;
  read_ga(sections.get("ga"), problem, dimension, cfg.ga, given, cfg.choice);
  if (const auto stop = sections.get("stop")) read_stop(*stop, cfg.ga.population, cfg.ga.stop);
  // auto's DE given no run length: CEC's budget of 10^4·d evaluations (MaxFES = 10,000 × D), not 300 generations
  // (15,050 evaluations at N 50: 12 of 22 constrained and 2 of 10 multimodal problems solved in every run, against
  // 18 and 7; docs/quality.md, "the default run length"). Not for population-batch problems (a Python or PyTorch
  // fitness, often costly: 10^4·d calls' worth is the user's to choose).
  if (given.automatic && cfg.ga.algorithm == algorithm_kind::de && !given.generations && !cfg.ga.stop.evaluations &&
      dimension > 0 && !problem.population_evaluated) {
    cfg.ga.stop.evaluations = md::budget(static_cast<std::size_t>(dimension), cfg.ga.population);
    cfg.choice.budget = "auto: 10^4 x the dimension " + std::to_string(dimension) +
                        " evaluations (CEC's MaxFES), as neither ga.generations nor stop.evaluations is given";
  }
  // A budget in evaluations ends the run by itself, as benchmark protocols state it: without ga.generations there is
  // no generation limit (the default 300 would cut a budget of 5e5 at N = 50 to 15,050 evaluations). solve() cuts
  // each start's limit to what the budget pays for, so ε's control generation still follows the budget.
  if (cfg.ga.stop.evaluations && !given.generations) cfg.ga.generations = std::numeric_limits<int>::max();

  if (const auto backend = sections.get("backend"))
    cfg.where["backend"] = source.where("backend", backend->mark()),
    cfg.backend = detail::read_enum(*backend, by_name(std::vector{backend_kind::serial, backend_kind::tbb,
                                                                  backend_kind::cuda, backend_kind::automatic}));
  if (const auto precision = sections.get("precision"))
    cfg.where["precision"] = source.where("precision", precision->mark()),
    cfg.precision =
        detail::read_enum(*precision, by_name(std::vector{precision_kind::float64, precision_kind::float32}));
  if (const auto threads = sections.get("threads"))
    cfg.threads = static_cast<int>(detail::read_int(*threads, detail::integer_in(0, backend::tbb::max_threads)));
  if (const auto device = sections.get("device"); device && !device->is_word("auto"))
    cfg.device = static_cast<int>(detail::read_int(*device, detail::integer_in(0, 1023), "auto or an integer in [0, 1023]"));
  if (const auto output = sections.get("output")) read_output(*output, cfg.output);
  check_float_integer_bounds(cfg);
  resolve_auto_repair(cfg, problem, given);
  read_island_variants(sections.get("ga"), problem, cfg, given);  // over the run's settings, auto repair included
  if (const auto g = sections.get("ga"); g && g->node().IsMap())
    if (const YAML::Node islands = g->node()["islands"]; islands && islands.IsMap() && islands["count"])
      cfg.where["ga.islands.count"] = source.where("ga.islands.count", islands["count"].Mark());
  return cfg;
}

}  // namespace

run_config parse_config(const std::string& text, const std::string& source_name,
                        const std::vector<std::string>& overrides) {
  return parse_any(text, source_name, overrides, nullptr);
}

run_config parse_batch_config(const batch_spec& spec, const std::string& text, const std::string& source,
                              const std::vector<std::string>& overrides) {
  problem_entry entry;
  entry.name = spec.name;
  entry.description = "batch problem given in code";
  entry.constrained = spec.inequality_count + spec.equality_count > 0;
  entry.integer_genes = spec.integer_genes;
  entry.integer_variables =
      std::find(spec.integer_variables.begin(), spec.integer_variables.end(), 1) != spec.integer_variables.end();
  entry.population_evaluated = true;
  entry.dimension = [d = spec.dimension](const auto&) { return static_cast<int>(d); };
  run_config cfg = parse_any(text, source, overrides, &entry);
  check_batch_run(spec, cfg);
  return cfg;
}

std::string read_config_text(const std::string& path) {
  // Bounded: a config is a few KiB, and /dev/zero or a mistaken data file must fail fast, not fill memory.
  return read_whole_file(path, "config file", std::size_t(16) << 20);
}

run_config load_config(const std::string& path, const std::vector<std::string>& overrides) {
  return parse_config(read_config_text(path), path, overrides);
}

const char* default_config_yaml() { return embedded_default; }

}  // namespace fusedga
