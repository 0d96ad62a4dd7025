#pragma once
/// @file batch_entry.hpp
/// The runtime entry for population-batch problems given in code — a fitness
/// function called once per generation over the whole population (pagmo2's
/// batch fitness evaluator, `bfe`) — configured by the YAML sections of
/// `ga-run` (all but `problem:`). The base of language bindings (Python).
/// The engine side is the `evaluate_population` member of the problem
/// concept (core/problem_traits.hpp); see docs/architecture.md, "Two
/// evaluation paths".

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "fusedga/config/registry.hpp"
#include "fusedga/config/run_config.hpp"
#include "fusedga/core/sense.hpp"
#include "fusedga/engine/result.hpp"

namespace fusedga {

/**
 * A problem whose evaluation is one call over a population: d genes, real (double) or integer (int32), m
 * inequalities g_j(x) <= 0, p equalities |h_j(x)| <= eps. Held by reference during `run_batch`; not copied per
 * generation.
 */
struct batch_spec {
  std::string name;   ///< shown in results and errors, e.g. "python:fitness"
  int dimension = 0;  ///< d >= 1
  /// d each, finite, lower <= upper; with `integer_genes`, integers in [-2^31, 2^31 - 1] (each gene takes the
  /// integers of [lower, upper]).
  std::vector<double> lower, upper;
  std::vector<std::string> variable_names;  ///< empty (x[0], x[1], ...) or d distinct, non-empty names
  int inequality_count = 0;                 ///< m >= 0
  int equality_count = 0;                   ///< p >= 0
  Sense sense = Sense::minimize;
  /// Integer genes (int32 rows, `evaluate_integer`): the GA with the integer operators (`ga.algorithm: auto`
  /// picks it; DE needs real genes), as for the integer built-ins. Else real genes (`evaluate`).
  bool integer_genes = false;
  /// Integer variables among real genes (Bounds::integer): empty, or d marks of 0 or 1; gene j with mark 1 is
  /// kept integral by the engine (each integer of its bounds equally likely initially, rounded half up after
  /// every variation step), so mixed-integer problems run with every real-gene algorithm (DE, SHADE). Its bounds
  /// must be integers within ±2^51 spanning fewer than 2^32 values. Not with `integer_genes`.
  std::vector<std::uint8_t> integer_variables;
  /// One call per generation: genes n × d row-major (read-only; the engine's own population rows, valid
  /// during the call only); writes objective[n], inequalities n × m and equalities n × p (row-major, raw
  /// values; null when m, resp. p, is 0). n is N for the initial population (and each restart's) and under
  /// DE, N − elitism for the GA's children. Called on the thread that called run_batch, never concurrently.
  /// May throw: the exception leaves run_batch unchanged (no result). A NaN objective or constraint value
  /// ranks the individual worst (README, "NaN and infinity"). Set for real genes.
  std::function<void(const double* genes, std::size_t n, int d, double* objective, double* inequalities,
                     double* equalities)>
      evaluate;
  /// The same for integer genes (`integer_genes`): the rows are int32.
  std::function<void(const std::int32_t* genes, std::size_t n, int d, double* objective, double* inequalities,
                     double* equalities)>
      evaluate_integer;
  /// `evaluate` on `backend: cuda` (real genes): every pointer is device memory of the run's device (the
  /// population's own rows, no copy), the engine's kernels that wrote them have finished, and the call must
  /// return only once its writes are complete (synchronize the stream you used). Optional: without it,
  /// `backend: cuda` is a config error.
  std::function<void(const double* genes, std::size_t n, int d, double* objective, double* inequalities,
                     double* equalities)>
      evaluate_device;
  /// `evaluate_integer` on `backend: cuda` (integer genes): device pointers, as `evaluate_device`. Optional:
  /// without it, `backend: cuda` with integer genes is a config error.
  std::function<void(const std::int32_t* genes, std::size_t n, int d, double* objective, double* inequalities,
                     double* equalities)>
      evaluate_integer_device;
};

/**
 * Parses the `ga:`, `stop:`, `backend:`, `precision:`, `threads:` and `output:` sections of a YAML config
 * for the batch problem `spec` (a `problem:` section is an error: the problem is given in code), with
 * `overrides` (`key.path=value`) as parse_config applies them. `ga.algorithm: auto` is resolved knowing the
 * spec: constrained when m + p > 0, integer or real genes (`integer_genes`), and never the gradient repair (it needs
 * per-individual constraints; `run_config::choice.repair` says so). `cfg.problem.builtin` is `spec.name`.
 * @throws config_error located as parse_config's (`file:line:col: key.path: what was expected`), also for a
 *         `ga.constraint_handling.gradient_repair.rate` above 0 and for what check_batch_run refuses.
 */
run_config parse_batch_config(const batch_spec& spec, const std::string& text, const std::string& source,
                              const std::vector<std::string>& overrides = {});

/**
 * Checks that `cfg` can run `spec` (what run_batch refuses before running; parse_batch_config calls it):
 * `precision: float`, and on `backend: cuda` a spec without its device evaluator (`evaluate_device`, or
 * `evaluate_integer_device` for integer genes).
 * @throws config_error located at the key (`file:line:col: backend: ...`).
 */
void check_batch_run(const batch_spec& spec, const run_config& cfg);

/**
 * Checks `spec`: dimension >= 1, lower and upper with d finite values and lower <= upper (integers in int32's
 * range with `integer_genes`), `integer_variables` empty or d marks of 0/1 on real genes with integer bounds,
 * variable_names empty or d distinct non-empty names, counts >= 0, `evaluate` set for real genes or `evaluate_integer`
 * for integer genes.
 * @throws config_error naming the spec's field, e.g. "batch problem 'f': lower: expected 3 values (dimension),
 *         got 2".
 */
void validate_batch_spec(const batch_spec& spec);

/**
 * Validates `spec` (validate_batch_spec), then solves it with `cfg` (parse_batch_config's): on the serial or
 * TBB backend calling `evaluate` (`evaluate_integer`; `backend: auto` runs tbb), or on `backend: cuda` calling
 * `evaluate_device` (`evaluate_integer_device`) with the device's pointers (a config error without it), in
 * double precision only (`precision: float` is a config error), with `hooks` as `run`'s (progress callback,
 * interrupt, checkpoints and resume: the checkpoint names the spec's name, dimension, counts, sense and
 * bounds). The Result carries the best genes with `spec.variable_names` (x[0], ... when empty); the caller
 * writes outputs (result_writer.hpp, with `cfg.problem.builtin` as the problem name). Threads used go to
 * `threads_used`. Not thread-safe for one spec; distinct specs may run concurrently.
 * @throws config_error for the spec, backend, precision or options (gradient repair) that cannot run;
 *         backend_unavailable for `backend: cuda` in a build without it or without a usable GPU.
 * Whatever `spec.evaluate` or the hooks throw propagates.
 */
Result run_batch(const batch_spec& spec, const run_config& cfg, const run_hooks& hooks = {},
                 int* threads_used = nullptr);

}  // namespace fusedga
