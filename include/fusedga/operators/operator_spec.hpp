#pragma once
/// @file operator_spec.hpp
/// The shape of the operator table (catalog.hpp): what each operator is called
/// in YAML, which genes it accepts, its parameters with their valid ranges and
/// defaults, and its source. Host data, constexpr; never read by kernels (they
/// get the chosen operator's parameters in a dispatch spec, dispatch.hpp).

#include <cmath>
#include <limits>

#include "fusedga/operators/gene_kinds.hpp"

namespace fusedga {

/// A read-only array view usable in constant expressions (C++17 has no std::span).
template <class T>
struct spec_list {
  const T* items = nullptr;
  int count = 0;
  constexpr const T* begin() const { return items; }
  constexpr const T* end() const { return items + count; }
  constexpr const T& operator[](int i) const { return items[i]; }
  constexpr int size() const { return count; }
};

/// Makes a spec_list of a constexpr array.
template <class T, int N>
constexpr spec_list<T> list_of(const T (&a)[N]) {
  return {a, N};
}

/**
 * One parameter of an operator (or of a whole family, like a crossover's
 * `rate`): valid values are min <= v (or min < v when `min_open`) and
 * v <= max, finite, integral when `integer`. An upper end that depends on the
 * run (the tournament size <= population) is named by `max_name` and given
 * by the caller.
 */
struct parameter_spec {
  const char* name;      ///< YAML key under the operator's section, e.g. "eta"
  double default_value;  ///< the value when unset (see `default_text`)
  double min;
  double max = std::numeric_limits<double>::infinity();
  bool min_open = false;               ///< true: v > min
  bool integer = false;                ///< true: whole numbers only
  const char* max_name = nullptr;      ///< run-dependent upper end ("population"); `max` is then unused
  const char* default_text = nullptr;  ///< the default when not a fixed number ("auto (1/dimension)")
  bool allows_auto = false;            ///< the word `auto` is also accepted (meaning `default_text`)
  const char* meaning = "";            ///< one line for --list-operators and docs

  /// Whether `v` is valid; `run_max` is the value of `max_name` when there is one.
  constexpr bool contains(double v, double run_max = std::numeric_limits<double>::infinity()) const {
    const double hi = max_name ? run_max : max;
    return v == v && v > -std::numeric_limits<double>::infinity() && v < std::numeric_limits<double>::infinity() &&
           (min_open ? v > min : v >= min) && v <= hi &&
           (!integer || static_cast<double>(static_cast<long long>(v)) == v);
  }
};

/// One row of the table: an operator.
struct operator_spec {
  int kind;                          ///< the enumerator's value (rows are in enum order)
  const char* name;                  ///< YAML spelling, e.g. "blx-alpha"
  gene_kinds genes;                  ///< from the functor's `genes`
  spec_list<parameter_spec> params;  ///< its own parameters (besides the family's)
  const char* summary;               ///< one line
  const char* source;                ///< the paper or book it comes from
};

/// A family of operators sharing a YAML section (`ga.crossover`) and common parameters (`rate`).
struct operator_family {
  const char* section;               ///< key path, e.g. "ga.crossover"
  const char* noun;                  ///< "crossover", for messages
  spec_list<parameter_spec> common;  ///< parameters of every operator of the family
  spec_list<operator_spec> rows;     ///< in enum order
};

}  // namespace fusedga
