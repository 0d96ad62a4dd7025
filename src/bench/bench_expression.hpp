#pragma once
/// @file bench_expression.hpp
/// ga-bench's tiers for expression problems (issue: expression problems):
/// the engine with the JIT-compiled problem ("fused-jit"), the engine with the
/// interpreter ("fused-interp"), the interpreter over the whole population
/// (the unfused baseline, "interpreter"), an optional compiled built-in
/// baseline, and the JIT compile times with their break-even point.

#include <string>

#include "bench/bench_record.hpp"
#include "bench/bench_runner.hpp"
#include "fusedga/config/run_config.hpp"

namespace fusedga {

/// JIT compile times of one problem, measured in a fresh temporary cache.
struct jit_compile_times {
  double cold_s = 0;  ///< code generation + compiler + load, empty cache
  double warm_s = 0;  ///< code generation + key check + dlopen, cache hit
};

/// Measures cold and warm JIT compile times of `cfg`'s expression problem (in `cfg.precision`).
/// @throws error when no compiler is usable or the compilation fails.
jit_compile_times measure_jit_compile(const run_config& cfg);

/**
 * Runs `plan` for the expression problem of `cfg` and returns the report
 * with rows relabelled by evaluation path: "fused-jit" (or "fused-interp"
 * when the JIT is unavailable), "interpreter" (the unfused tier), plus
 * "fused-interp" generation and evaluation rows, "builtin" rows for
 * `baseline` (a built-in problem name; empty = none), and notes with the JIT
 * compile times, the generations after which the compile pays for itself and
 * the JIT/built-in generation-time ratio.
 * @throws config_error for an unknown baseline; whatever run_bench throws.
 */
bench_report run_expression_bench(const run_config& cfg, const bench_plan& plan, const std::string& baseline,
                                  const bench_progress& progress = {});

}  // namespace fusedga
