#pragma once
/// @file quality_suite.hpp
/// The solution-quality suite of `ga-bench --quality` (docs/quality.md): the
/// problems (expression configs with their best-known values and sources)
/// and the methods (named sets of `--set` overrides of `ga:`/`stop:` keys).

#include <optional>
#include <string>
#include <vector>

namespace fusedga {

/// One problem of the suite: a config file and what is known of its optimum.
struct quality_problem {
  std::string id;                ///< the config's file stem, e.g. "rc04-reactor-network"
  std::string config;            ///< path of the problem's YAML config (resolved against the suite file's folder)
  double best_known = 0;         ///< f*, in the problem's sense
  std::string source;            ///< where f* and the formulas come from
  std::vector<double> best_x;    ///< a published or verified point with f(x*) = f*; empty when none is known
};

/// A method: the problem configs run with these overrides (`key.path=value`, as `ga-run --set`).
struct quality_method {
  std::string name;
  std::vector<std::string> overrides;
  std::string description;  ///< one line for the report
};

/// A whole suite file.
struct quality_suite {
  std::string path;                       ///< the suite file
  double tolerance = 1e-4;                ///< success: feasible and f − f* <= tolerance · max(1, |f*|)
  std::vector<quality_problem> problems;  ///< in file order
  std::vector<quality_method> methods;    ///< from the methods file, in file order
};

/**
 * Reads a suite file:
 *
 * ```yaml
 * tolerance: 1e-4                       # optional, > 0
 * methods: methods.yaml                 # relative to this file
 * problems:
 *   - config: rc04-reactor-network.yaml # relative to this file
 *     best_known: -0.38826043623
 *     source: "Kumar et al. 2020, RC04"
 *     best_x: [0.77, 0.52, 0.20, 0.39, 3.0e-3, 15.99]   # optional
 * ```
 *
 * and the methods file `methods: {NAME: {key.path: value, ...} | {set: {...}, description: "..."}}`.
 * @throws config_error `file:line:col: key: what was expected` for a missing or unreadable file, an unknown key,
 *         a missing or mistyped field, a duplicate problem or method name, or a best_x of the wrong length is only
 *         checked when the problem is loaded (quality_runner).
 */
quality_suite load_quality_suite(const std::string& path);

/// The methods file alone (see load_quality_suite). @throws config_error as there.
std::vector<quality_method> load_quality_methods(const std::string& path);

/// `items` keeps only the entries whose name is in `wanted` (all when `wanted` is empty), in `items`' order.
/// @throws config_error "OPTION: unknown name 'X'; expected one of: ..." for a wanted name that is not there.
template <class T, class Name>
std::vector<T> select_by_name(const std::vector<T>& items, const std::vector<std::string>& wanted, const char* option,
                              Name name_of);

}  // namespace fusedga

#include "bench/quality_suite_impl.hpp"
