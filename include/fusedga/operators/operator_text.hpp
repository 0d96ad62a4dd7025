#pragma once
/// @file operator_text.hpp
/// The operator table (catalog.hpp) as text: value ranges and name lists for
/// error messages, and the whole table as Markdown (`ga-run
/// --list-operators`, docs/operators.md). Host only.

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "fusedga/operators/catalog.hpp"

namespace fusedga {

namespace detail {
/// 2, 0.5, 0.0001, 1e+20: integers without a fraction, others to 15 significant digits.
inline std::string spec_number(double v) {
  if (std::isfinite(v) && std::floor(v) == v && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}
}  // namespace detail

/**
 * The valid values of `p` as in error messages: "a number in [0, 1]", "a
 * number in (0, 2]" (`min_open`), "a number > 0", "an integer >= 1", "an integer in [1, population = 10]" (with
 * `run_max` = 10; "population" alone when `run_max` is infinite), plus " or
 * auto" where `auto` is accepted.
 */
inline std::string parameter_range_text(const parameter_spec& p,
                                        double run_max = std::numeric_limits<double>::infinity()) {
  const std::string noun = p.integer ? "an integer" : "a number";
  const std::string lo = detail::spec_number(p.min);
  const char* open = p.min_open ? " in (" : " in [";
  std::string text;
  if (p.max_name) {
    text = noun + open + lo + ", " + p.max_name +
           (std::isfinite(run_max) ? " = " + detail::spec_number(run_max) : std::string()) + "]";
  } else if (std::isfinite(p.max) && !(p.integer && p.max == std::numeric_limits<int>::max())) {
    text = noun + open + lo + ", " + detail::spec_number(p.max) + "]";
  } else {
    text = noun + (p.min_open ? " > " : " >= ") + lo;
  }
  return p.allows_auto ? text + " or auto" : text;
}

/// The default of `p` as shown to users: its `default_text`, else the number.
inline std::string parameter_default_text(const parameter_spec& p) {
  return p.default_text ? p.default_text : detail::spec_number(p.default_value);
}

/// "a, b, c": the names of `family`'s operators that accept real (`real_genes`) or integer genes.
inline std::string operator_names(const operator_family& family, bool real_genes) {
  std::string out;
  for (const operator_spec& row : family.rows)
    if (accepts(row.genes, real_genes)) out += (out.empty() ? "" : ", ") + std::string(row.name);
  return out;
}

/// "a, b, c": every operator name of `family`, in table order.
inline std::string operator_names(const operator_family& family) {
  std::string out;
  for (const operator_spec& row : family.rows) out += (out.empty() ? "" : ", ") + std::string(row.name);
  return out;
}

/**
 * The whole table as Markdown: per family its section, its common parameters
 * and one row per operator (type, genes, parameters with range and default,
 * what it does, source). What `ga-run --list-operators` prints and
 * docs/operators.md shows.
 */
inline std::string operator_table_markdown() {
  const auto param_text = [](const parameter_spec& p) {
    return "`" + std::string(p.name) + "`: " + parameter_range_text(p) + ", default " + parameter_default_text(p) +
           " (" + p.meaning + ")";
  };
  std::string out;
  for (const operator_family* f : operator_families) {
    out += "### `" + std::string(f->section) + "` (" + f->noun + ")\n\n";
    for (const parameter_spec& p : f->common)
      out += "Every " + std::string(f->noun) + " takes " + param_text(p) + ".\n\n";
    out += "| type | genes | parameters | what it does | source |\n|---|---|---|---|---|\n";
    for (const operator_spec& row : f->rows) {
      std::string params;
      for (const parameter_spec& p : row.params) params += (params.empty() ? "" : "; ") + param_text(p);
      out += "| `" + std::string(row.name) + "` | " + to_string(row.genes) + " | " + (params.empty() ? "—" : params) +
             " | " + row.summary + " | " + row.source + " |\n";
    }
    out += "\n";
  }
  return out;
}

}  // namespace fusedga
