#pragma once
/// @file run_config.hpp
/// The typed form of a `ga-run` YAML file (DESIGN.md, "YAML config").

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fusedga/engine/options.hpp"

namespace fusedga {

namespace expr {
struct program;  // expr/ast.hpp
}

/// Which backend runs the passes. `automatic` = CUDA when built and a GPU is present, else TBB.
enum class backend_kind { serial, tbb, cuda, automatic };
/// Gene/fitness precision for real-valued problems (and fitness storage for integer ones).
enum class precision_kind { float32, float64 };

/// "serial", "tbb", "cuda" or "auto".
inline const char* to_string(backend_kind b) {
  switch (b) {
    case backend_kind::serial: return "serial";
    case backend_kind::tbb: return "tbb";
    case backend_kind::cuda: return "cuda";
    case backend_kind::automatic: return "auto";
  }
  return "?";
}
/// "float" or "double".
inline const char* to_string(precision_kind p) { return p == precision_kind::float32 ? "float" : "double"; }

/// How an expression problem is evaluated (`problem.engine`).
enum class expression_engine {
  automatic,    ///< the CPU JIT when a C++ compiler is usable, else the interpreter (with a notice)
  jit,          ///< the CPU JIT; an error when no compiler is usable
  interpreter,  ///< the node-by-node interpreter
};

/// "auto", "jit" or "interpreter".
inline const char* to_string(expression_engine e) {
  switch (e) {
    case expression_engine::automatic: return "auto";
    case expression_engine::jit: return "jit";
    case expression_engine::interpreter: return "interpreter";
  }
  return "?";
}

/// `problem:` — a built-in problem by registry name and its numeric
/// parameters, or an expression problem (variables, objective, constraints).
struct problem_config {
  std::string builtin;                   ///< registry name, e.g. "seed/constrained-quadratic"; for expression problems their name
  std::map<std::string, double> params;  ///< validated against the problem's parameter specs; defaults filled in
  std::shared_ptr<const expr::program> expression;  ///< the parsed expression problem; null for built-ins
  expression_engine engine = expression_engine::automatic;
};

/// `output:` — files written atomically after the run; empty = not written.
struct output_config {
  std::optional<std::string> result;   ///< result JSON path
  std::optional<std::string> history;  ///< history CSV path
};

/**
 * How `ga.algorithm` and the settings it brings were chosen. The YAML default is `auto`
 * (docs/quality.md, "Defaults"), resolved by `parse_config`: differential evolution (SHADE,
 * BIPOP restarts after 100 stalled generations, IPOP with islands, gradient repair at rate 0.2
 * on constrained problems off the GPU) for real genes when no GA-only key is set, else the GA.
 * The values are engine/measured_defaults.hpp's; a bare C++ `ga_options` is the GA.
 */
struct algorithm_choice {
  bool automatic = false;  ///< `ga.algorithm` was `auto` or not given
  std::string reason;      ///< why auto chose what it chose, e.g. "auto: integer genes ..."; empty when not automatic
  std::string restarts;    ///< set when auto chose the restarts, e.g. "auto: the measured default"
  std::string population;  ///< set when auto chose the population (by the problem's dimension), with why
  std::string repair;      ///< set when auto chose the gradient repair rate, with why (e.g. "0 on the GPU")
  std::string de;          ///< set when auto chose `ga.de` settings (crossover, memory, archive), with why
  std::string budget;      ///< set when auto chose `stop.evaluations` (no run length given), with why
  /// One per `ga.islands.variants` entry: why auto chose its algorithm (empty when the variant's algorithm is
  /// explicit, its own or the run's).
  std::vector<std::string> variants;
};

/// A whole run: what `ga-run` executes.
struct run_config {
  std::string source = "<embedded>";  ///< config file name, for messages
  problem_config problem;
  ga_options ga;                       ///< ga: and stop: sections, `ga.algorithm: auto` resolved
  algorithm_choice choice;             ///< how `ga.algorithm` (and its restarts and repair defaults) were chosen
  backend_kind backend = backend_kind::automatic;
  precision_kind precision = precision_kind::float64;
  int threads = 0;                     ///< 0 = all cores
  /// The GPU of backend cuda (a CUDA device ordinal, >= 0); -1 = auto: device 0, and under mpirun the rank's
  /// node-local rank modulo the node's GPU count (ga-run), so each rank of a node runs on its own GPU.
  int device = -1;
  output_config output;
  /// Where a key's value came from, as message prefixes: key path -> "file:line:col: " or "--set TEXT: ". Filled
  /// for the keys checked after parsing ("backend", "problem.engine", "ga.islands.count"), so those errors are
  /// located too.
  std::map<std::string, std::string> where;
  /// `where[path] + path + ": "`, or `source + ": " + path + ": "` when the key was not given (a default).
  std::string located(const std::string& path) const {
    const auto it = where.find(path);
    return (it != where.end() ? it->second : source + ": ") + path + ": ";
  }
};

/**
 * Parses and validates a YAML config.
 *
 * `overrides` are `key.path=value` strings (ga-run's `--set`), applied to the
 * YAML tree before validation; `value` is parsed as YAML (a scalar, `[a, b]`
 * or `{k: v}`). Unknown keys, wrong types, out-of-range values and unknown
 * problem or operator names are errors. `ga.algorithm: auto` (the default) is
 * resolved here (`run_config::choice` says how); for `backend: auto` that
 * probes the GPU once per process (resolve_backend), since the gradient repair
 * default depends on whether the run is on the GPU.
 *
 * @param text         YAML document
 * @param source_name  file name used in messages
 * @throws config_error `file:line:col: key.path: what was expected` (for a
 *         `--set` value: `--set key.path=value: what was expected`).
 */
run_config parse_config(const std::string& text, const std::string& source_name,
                        const std::vector<std::string>& overrides = {});

/// The text of config file `path` (at most 16 MiB). @throws config_error when it cannot be read.
std::string read_config_text(const std::string& path);

/// Reads `path` and calls `parse_config`. @throws config_error when the file cannot be read.
run_config load_config(const std::string& path, const std::vector<std::string>& overrides = {});

/// The embedded default config (seed example 2, constrained quadratic), run by `ga-run` without a file.
const char* default_config_yaml();

}  // namespace fusedga
