#pragma once
/// @file checkpoint.hpp
/// What a checkpoint says about the run it belongs to, and the check that a
/// resume is the same run: format and library version, endianness, gene and
/// fitness types, dimension, the problem (type, bounds, a caller's
/// description) and the options that shape the trajectory, written as text
/// so that a mismatch names what differs. The run state itself is written by
/// `solve` (run counters, history), `engine` (its run state) and the
/// executor (populations, elites, adaptive operator state), each its own.
///
/// Options that do not shape the trajectory are not compared and may change
/// on resume: the generation limit, the stopping rules, the callbacks, the
/// backend and its threads (serial, TBB and CUDA give the same trajectory
/// where their operators are bitwise equal), and where checkpoints go.

#include <cxxabi.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "fusedga/core/bounds.hpp"
#include "fusedga/core/macros.hpp"
#include "fusedga/engine/checkpoint_stream.hpp"
#include "fusedga/engine/generation_stats.hpp"
#include "fusedga/engine/operator_parameters.hpp"
#include "fusedga/engine/options.hpp"
#include "fusedga/operators/catalog.hpp"

namespace fusedga {

/// The checkpoint format version; a reader accepts only its own.
inline constexpr std::uint32_t checkpoint_format_version = 2;

namespace detail {

inline std::string exact_number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

/// One line per parameter of operator `kind` of `family`: "section.type = name", "section.param = value".
template <class Kind, class Options>
void operator_lines(std::string& out, const operator_family& family, Kind kind, const Options& o) {
  const operator_spec& row = spec_of(kind);
  out += std::string(family.section) + ".type = " + row.name + "\n";
  const auto add = [&](const parameter_spec& p) {
    const std::optional<double> v = parameter_value(o, p.name);
    out += std::string(family.section) + "." + p.name + " = " + (v ? exact_number(*v) : std::string("auto")) + "\n";
  };
  for (const parameter_spec& p : family.common) add(p);
  for (const parameter_spec& p : row.params) add(p);
}

}  // namespace detail

/**
 * The options that shape a run's trajectory, one "key = value" line each
 * (YAML key paths, values to 17 digits): population, elitism, seed, the
 * algorithm and the parameters of each operator it uses, constraint handling
 * with gradient repair, restarts. Two runs with equal text (and the same
 * problem) follow the same trajectory.
 */
inline std::string trajectory_options_text(const ga_options& o) {
  std::string s;
  s += "ga.population = " + std::to_string(o.population) + "\n";
  s += "ga.seed = " + std::to_string(o.seed) + "\n";
  s += std::string("ga.algorithm = ") + to_string(o.algorithm) + "\n";
  if (o.algorithm == algorithm_kind::de) {
    detail::operator_lines(s, de_family, o.de.strategy, o.de);
    // absent for bin, and for alternate without restarts (bin throughout): the lines of the runs before the option
    if (o.de.crossover == de_crossover::exp ||
        (o.de.crossover == de_crossover::alternate && o.restarts.stall_generations))
      s += std::string("ga.de.crossover = ") + to_string(o.de.crossover) + "\n";
  } else {
    s += "ga.selection.size = " + std::to_string(o.selection.tournament_size) + "\n";
    detail::operator_lines(s, crossover_family, o.crossover.kind, o.crossover);
    detail::operator_lines(s, mutation_family, o.mutation.kind, o.mutation);
    detail::operator_lines(s, survival_family, o.survival.kind, o.survival);
    if (o.survival.kind == survival_kind::generational) s += "ga.elitism = " + std::to_string(o.elitism) + "\n";
  }
  detail::operator_lines(s, constraint_family, o.constraints.rule, o.constraints);
  detail::operator_lines(s, gradient_repair_family, repair_kind::gradient, o.constraints.gradient_repair);
  s += "ga.restarts.stall_generations = " +
       (o.restarts.stall_generations ? std::to_string(*o.restarts.stall_generations) : std::string("none")) + "\n";
  if (o.restarts.stall_generations)
    s += "ga.restarts.population_growth = " + detail::exact_number(o.restarts.population_growth) + "\n";
  if (o.restarts.stall_generations && o.restarts.schedule != restart_schedule::ipop)  // absent: as before the option
    s += std::string("ga.restarts.schedule = ") + to_string(o.restarts.schedule) + "\n";
  if (o.restarts.stall_generations && o.restarts.convergence_tolerance)  // absent: the header as before the option
    s += "ga.restarts.convergence_tolerance = " + detail::exact_number(*o.restarts.convergence_tolerance) +
         "\nga.restarts.max_stall_generations = " + std::to_string(o.restarts.max_stall()) + "\n";
  return s;
}

namespace detail {

template <class T>
const char* number_type_name() {
  if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_signed_v<T>) return sizeof(T) == 1 ? "int8" : sizeof(T) == 2 ? "int16" : sizeof(T) == 4 ? "int32" : "int64";
  else return sizeof(T) == 1 ? "uint8" : sizeof(T) == 2 ? "uint16" : sizeof(T) == 4 ? "uint32" : "uint64";
}

/// The header of a checkpoint: every field a resume must agree with, as text lines "name = value".
struct checkpoint_header {
  std::string lines;     ///< format, library, endianness, genes, fitness, dimension, problem, bounds, then options
  std::string metadata;  ///< the caller's (checkpoint_options::metadata), not compared
};

/// The header of a run of `problem` (described beyond its type by `problem_id`) with options `o`.
template <class Problem, class Gene, class Fitness>
checkpoint_header make_checkpoint_header(const Problem& problem, const Bounds<Gene>& bounds, const ga_options& o) {
  checkpoint_header h;
  fnv1a64 b;
  b.add(bounds.lower.data(), bounds.lower.size() * sizeof(Gene));
  b.add(bounds.upper.data(), bounds.upper.size() * sizeof(Gene));
  b.add(bounds.integer.data(), bounds.integer.size());  // nothing when no gene is an integer variable
  char hex[24];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(b.value));
  std::string& s = h.lines;
  s += "format = " + std::to_string(checkpoint_format_version) + "\n";
  s += std::string("library = FusedGA ") + FUSEDGA_VERSION_STRING + "\n";
  s += "endianness = little\n";
  s += std::string("genes = ") + number_type_name<Gene>() + "\n";
  s += std::string("fitness = ") + number_type_name<Fitness>() + "\n";
  s += "dimension = " + std::to_string(problem.dimension()) + "\n";
  s += std::string("problem type = ") + typeid(Problem).name() + "\n";
  s += "problem = " + (o.checkpoint.problem_id.empty() ? std::string("(not described)") : o.checkpoint.problem_id) +
       "\n";
  s += std::string("bounds hash = ") + hex + "\n";
  s += trajectory_options_text(o);
  h.metadata = o.checkpoint.metadata;
  return h;
}

/// Splits "name = value" lines into (name, value) pairs in order. The problem's description (`problem = `) may
/// span lines, some of them "g1(x) = ..." (an expression problem's): it runs until `bounds hash = `, which
/// make_checkpoint_header writes after it.
inline std::vector<std::pair<std::string, std::string>> header_fields(const std::string& lines) {
  std::vector<std::pair<std::string, std::string>> out;
  bool in_problem = false;
  std::size_t at = 0;
  while (at < lines.size()) {
    std::size_t nl = lines.find('\n', at);
    if (nl == std::string::npos) nl = lines.size();
    const std::string line = lines.substr(at, nl - at);
    at = nl + 1;
    const std::size_t eq = line.find(" = ");
    if (in_problem && line.rfind("bounds hash = ", 0) != 0) {
      out.back().second += "\n" + line;
      continue;
    }
    out.emplace_back(eq == std::string::npos ? line : line.substr(0, eq),
                     eq == std::string::npos ? std::string() : line.substr(eq + 3));
    in_problem = out.back().first == "problem";
  }
  return out;
}

/// A header field's value as a refusal shows it: an option's number at its shortest exact spelling (0.1 where the
/// header holds 0.10000000000000001), the problem type demangled; else as stored.
inline std::string shown_header_value(const std::string& name, const std::string& v) {
  if (name == "problem type") {
    int status = 0;
    char* readable = abi::__cxa_demangle(v.c_str(), nullptr, nullptr, &status);
    const std::string out = status == 0 && readable ? readable : v;
    std::free(readable);
    return out;
  }
  const bool option = name.rfind("ga.", 0) == 0 || name.find(": ga.") != std::string::npos;  // island lines too
  if (!option || v.find_first_of(".e") == std::string::npos) return v;  // integers (seeds) as they are
  char* end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  if (v.empty() || end != v.c_str() + v.size()) return v;
  char buf[40];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, x);
    if (std::strtod(buf, nullptr) == x) break;
  }
  return buf;
}

/// Throws checkpoint_error naming every field where the checkpoint's header differs from this run's. Fields
/// that only one side sets are listed up to 5 a side, then counted (a run without the checkpoint's islands
/// lacks dozens).
inline void check_same_run(const checkpoint_reader& in, const std::string& stored, const std::string& now) {
  if (stored == now) return;
  const auto a = header_fields(stored), b = header_fields(now);
  std::string diff;
  constexpr int listed = 5;
  int only_stored = 0, only_now = 0;  // fields one side sets
  const auto find = [](const auto& fields, const std::string& name) -> const std::string* {
    for (const auto& f : fields)
      if (f.first == name) return &f.second;
    return nullptr;
  };
  // A field on one line; a value of several lines (an expression problem's description) below its label, indented.
  const auto add = [&](const std::string& name, const std::string* stored_value, const std::string* now_value) {
    const auto one_line = [](const std::string* v) { return !v || v->find('\n') == std::string::npos; };
    if (one_line(stored_value) && one_line(now_value)) {
      if (!now_value) {
        if (++only_stored <= listed)
          diff +=
              "\n  " + name + ": checkpoint " + shown_header_value(name, *stored_value) + ", this run does not set it";
      } else if (!stored_value) {
        if (++only_now <= listed)
          diff +=
              "\n  " + name + ": this run " + shown_header_value(name, *now_value) + ", the checkpoint does not set it";
      } else {
        diff += "\n  " + name + ": checkpoint " + shown_header_value(name, *stored_value) + ", this run " +
                shown_header_value(name, *now_value);
      }
      return;
    }
    diff += "\n  " + name + ":";
    for (const auto& [label, v] : {std::pair{"checkpoint", stored_value}, std::pair{"this run", now_value}}) {
      diff += std::string("\n    ") + label + (v ? ":" : " does not set it");
      for (std::size_t at = 0; v && at < v->size();) {  // each line (none after a final newline)
        std::size_t nl = v->find('\n', at);
        if (nl == std::string::npos) nl = v->size();
        diff += "\n      " + v->substr(at, nl - at);
        at = nl + 1;
      }
    }
  };
  for (const auto& f : a) {
    const std::string* v = find(b, f.first);
    if (!v || *v != f.second) add(f.first, &f.second, v);
  }
  for (const auto& f : b)
    if (!find(a, f.first)) add(f.first, nullptr, &f.second);
  if (only_stored > listed)
    diff +=
        "\n  ... and " + std::to_string(only_stored - listed) + " more fields the checkpoint sets, this run does not";
  if (only_now > listed)
    diff += "\n  ... and " + std::to_string(only_now - listed) + " more fields this run sets, the checkpoint does not";
  in.fail("is of another run; what differs:" + diff);
}

/// Calls f(name, member) for each column of a history row but `generation` (checkpoint records).
template <class F>
void for_each_history_column(F&& f) {
  f(".best_objective", &generation_stats::best_objective);
  f(".best_violation", &generation_stats::best_violation);
  f(".mean_objective", &generation_stats::mean_objective);
  f(".feasible_fraction", &generation_stats::feasible_fraction);
  f(".evaluations", &generation_stats::evaluations);
  f(".elapsed_s", &generation_stats::elapsed_s);
  f(".not_a_number", &generation_stats::not_a_number);
}

/// Writes / reads a history, one record per column (so the format has no padding bytes).
inline void write_history(checkpoint_writer& w, std::string_view prefix, const std::vector<generation_stats>& h) {
  const auto column = [&](const char* name, auto member) {
    using T = std::decay_t<decltype(generation_stats{}.*member)>;
    std::vector<T> c(h.size());
    for (std::size_t i = 0; i < h.size(); ++i) c[i] = h[i].*member;
    w.vector(std::string(prefix) + name, c);
  };
  column(".generation", &generation_stats::generation);
  for_each_history_column(column);
}
inline std::vector<generation_stats> read_history(checkpoint_reader& r, std::string_view prefix) {
  const std::vector<int> g = r.vector<int>(std::string(prefix) + ".generation");
  std::vector<generation_stats> h(g.size());
  for (std::size_t i = 0; i < h.size(); ++i) h[i].generation = g[i];
  for_each_history_column([&](const char* name, auto member) {
    using T = std::decay_t<decltype(generation_stats{}.*member)>;
    std::vector<T> c(h.size());
    r.array(std::string(prefix) + name, c.data(), c.size());
    for (std::size_t i = 0; i < h.size(); ++i) h[i].*member = c[i];
  });
  return h;
}

}  // namespace detail

namespace detail {

/// The header records, first in every checkpoint.
inline void write_header(checkpoint_writer& w, const checkpoint_header& h) {
  w.value("endianness", std::uint32_t{0x01020304u});
  w.value("format", checkpoint_format_version);
  w.text("header", h.lines);
  w.text("metadata", h.metadata);
}
inline checkpoint_header read_header(checkpoint_reader& r) {
  const auto endian = r.value<std::uint32_t>("endianness");
  if (endian != 0x01020304u) r.fail("was written on a machine of other endianness");
  const auto format = r.value<std::uint32_t>("format");
  if (format != checkpoint_format_version)
    r.fail("has format version " + std::to_string(format) + "; this FusedGA (" FUSEDGA_VERSION_STRING
           ") reads version " + std::to_string(checkpoint_format_version));
  checkpoint_header h;
  h.lines = r.text("header");
  h.metadata = r.text("metadata");
  return h;
}

}  // namespace detail

/**
 * Reads a checkpoint's header without resuming it: its fields as text ("name = value" lines) and the
 * caller's metadata (ga-run stores its config there). Verifies magic, checksum and format version.
 * @throws checkpoint_error naming `source` when the stream is no readable checkpoint.
 */
inline detail::checkpoint_header read_checkpoint_header(std::istream& in, const std::string& source) {
  detail::checkpoint_reader r(in, source);
  return detail::read_header(r);
}

}  // namespace fusedga
