#pragma once
/// @file bench_labels.hpp
/// The three labels that key a benchmark row — tier, workload, backend — as
/// enums, with their text written once (one table per enum). Text appears only
/// at the boundaries: the JSON/CSV/Markdown/plot writers, `ga-bench --compare`
/// reading saved JSON, and ga-bench's command-line options. Everything inside
/// the harness compares the enums.

#include <cstddef>
#include <string>
#include <string_view>

#include "fusedga/config/run_config.hpp"

namespace fusedga {

/**
 * What produced a row's times (DESIGN.md, "Performance is measured, not
 * assumed"). The plan selects among object, unfused and fused; the others
 * label the rows of the CUDA tiers and of expression problems.
 *
 * Declared in report order: baselines first (slowest expected), then the
 * fused family; `row_rank` (report_metrics.hpp) sorts by this order.
 */
enum class bench_tier {
  object,            ///< "object": a std::vector row and a virtual call per individual (DEAP/OpenGA style), one thread
  unfused,           ///< "unfused": one pass per arithmetic operation with fresh temporaries (NumPy style), one thread
  interpreter,       ///< "interpreter": the unfused tier of an expression problem (the interpreter over the population)
  fused_interp,      ///< "fused-interp": the engine's passes with the expression interpreter
  fused,             ///< "fused": the engine's fused passes, on each requested backend
  fused_transfer,    ///< "fused-transfer": fused on CUDA with host↔device copies of the population
  fused_jit,         ///< "fused-jit": the engine's passes with the JIT-compiled expression problem
  builtin,           ///< "builtin": the compiled built-in baseline of an expression problem (--baseline)
  builtin_transfer,  ///< "builtin-transfer": that baseline on CUDA with host↔device copies
};

/// What is timed.
enum class bench_workload {
  eval,        ///< "eval": evaluation of the whole population (every tier)
  generation,  ///< "generation": one full generation (fused tiers only)
};

/// Every tier, in declaration (report) order.
inline constexpr bench_tier bench_tiers[] = {
    bench_tier::object,       bench_tier::unfused, bench_tier::interpreter,
    bench_tier::fused_interp, bench_tier::fused,   bench_tier::fused_transfer,
    bench_tier::fused_jit,    bench_tier::builtin, bench_tier::builtin_transfer};
/// The tiers a plan selects (--tiers).
inline constexpr bench_tier plan_tiers[] = {bench_tier::object, bench_tier::unfused, bench_tier::fused};
/// Every workload.
inline constexpr bench_workload bench_workloads[] = {bench_workload::eval, bench_workload::generation};
/// The backends a row runs on (--backends, a row's "backend"); never backend_kind::automatic.
inline constexpr backend_kind bench_backends[] = {backend_kind::serial, backend_kind::tbb, backend_kind::cuda};

/// "object", "unfused", "interpreter", "fused-interp", "fused", "fused-transfer", "fused-jit", "builtin",
/// "builtin-transfer".
const char* to_string(bench_tier t);
/// "eval", "generation".
const char* to_string(bench_workload w);
// backend_kind: to_string in fusedga/config/run_config.hpp ("serial", "tbb", "cuda").

namespace detail {
/// @throws config_error "WHAT: unknown value 'TEXT'; expected one of: A, B, ...".
[[noreturn]] void throw_unknown_label(std::string_view text, std::string_view what, const std::string& allowed);
}  // namespace detail

/**
 * The one of `values` whose to_string is `text` (exactly). `what` names the
 * field or option in the error (e.g. "tier", "--tiers").
 * @throws config_error "WHAT: unknown value 'TEXT'; expected one of: A, B, ..." (the to_string of
 *         each of `values`) for any other text.
 */
template <class Label, std::size_t N>
Label parse_label(std::string_view text, std::string_view what, const Label (&values)[N]) {
  std::string allowed;
  for (const Label v : values) {
    if (text == to_string(v)) return v;
    allowed += (allowed.empty() ? "" : ", ") + std::string(to_string(v));
  }
  detail::throw_unknown_label(text, what, allowed);
}

/// Any tier by its text. @throws config_error naming `what` and every tier's text.
inline bench_tier parse_bench_tier(std::string_view text, std::string_view what = "tier") {
  return parse_label(text, what, bench_tiers);
}
/// "eval" or "generation". @throws config_error naming `what` and both.
inline bench_workload parse_bench_workload(std::string_view text, std::string_view what = "workload") {
  return parse_label(text, what, bench_workloads);
}
/// "serial", "tbb" or "cuda". @throws config_error naming `what` and the three.
inline backend_kind parse_bench_backend(std::string_view text, std::string_view what = "backend") {
  return parse_label(text, what, bench_backends);
}

}  // namespace fusedga
