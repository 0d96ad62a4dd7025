#pragma once
// The CPU-parity checks of the CUDA backend's kernels and the scenarios they
// run, shared by the GPU tests (test_gpu.cpp: the real engine on a device)
// and the emulated-kernel tests (emulator/: the same kernels run on the host,
// at smaller populations). `run` is either run_on_gpu or run_emulated:
// (problem, options, generations, start, graphs) -> gpu_run<Problem>.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <fusedga/engine/options.hpp>
#include <fusedga/fusedga.hpp>
#include <fusedga/problems/classic/rastrigin.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>
#include <fusedga/problems/seed/gene_sum.hpp>
#include <string>
#include <vector>

#include "cuda/host_population.hpp"
#include "cuda/integer_cq.hpp"
#include "cuda/plain_gene_sum.hpp"
#include "cuda/sphere_line.hpp"

namespace cuda_test {

template <class Problem>
host_population<Problem> cpu_state(const fusedga::engine<Problem, fusedga::backend::serial>& e) {
  auto h = snapshot<Problem>(e.current());
  h.stats = e.stats();
  return h;
}

/// Integer genes: initial population and generations 1..3 bitwise equal to the serial engine, statistics equal.
template <class Run, class Problem>
void check_integer_parity(Run run, const Problem& p, const fusedga::ga_options& o, bool graphs = true) {
  fusedga::engine<Problem, fusedga::backend::serial> cpu(p, o, fusedga::backend::serial{});
  cpu.initialize();
  const auto cpu0 = cpu_state(cpu);
  for (int g = 0; g < 3; ++g) cpu.step();
  const auto cpu3 = cpu_state(cpu);
  const gpu_run<Problem> gpu = run(p, o, 3, static_cast<const host_population<Problem>*>(nullptr), graphs);
  CHECK(bitwise_difference(cpu0, gpu.initial) == "");
  CHECK(bitwise_difference(cpu3, gpu.final) == "");
  REQUIRE(gpu.history.size() == 4);
  for (std::size_t g = 0; g < gpu.history.size(); ++g) {
    INFO("generation " << g);
    CHECK(gpu.history[g].best_objective == cpu.history()[g].best_objective);
    CHECK(gpu.history[g].best_violation == cpu.history()[g].best_violation);
    CHECK(gpu.history[g].feasible_fraction == cpu.history()[g].feasible_fraction);
    CHECK(gpu.history[g].mean_objective == cpu.history()[g].mean_objective);  // integer objectives: exact sums
  }
  CHECK(gpu.best_objective == double(cpu.best_objective()));
  std::vector<double> cpu_best;
  for (const auto g : cpu.best_genes()) cpu_best.push_back(static_cast<double>(g));
  CHECK(gpu.best_genes == cpu_best);
}

inline std::vector<double> ranges_of(const std::vector<double>& lo, const std::vector<double>& hi) {
  std::vector<double> r;
  for (std::size_t j = 0; j < lo.size(); ++j) r.push_back(hi[j] - lo[j]);
  return r;
}

/// What real-gene parity promises: children within the documented tolerance, their genes bitwise (SBX and
/// polynomial mutation: float_math.hpp's functions on every backend), or genes and values bitwise (those
/// operators on a problem of arithmetic only, no math-library call).
enum class real_parity { tolerance, exact_genes, exact };

/// Real genes: the GPU starts from the CPU's initial population (keys included, so both pick the same parents);
/// its summary of that population equals the CPU's; after one generation the elites are bitwise equal and the
/// children as `expect` says.
template <class Run, class Problem>
void check_real_parity(Run run, const Problem& p, const fusedga::ga_options& o, real_parity expect) {
  fusedga::engine<Problem, fusedga::backend::serial> cpu(p, o, fusedga::backend::serial{});
  cpu.initialize();
  const auto cpu0 = cpu_state(cpu);
  cpu.step();
  const auto cpu1 = cpu_state(cpu);
  const gpu_run<Problem> gpu = run(p, o, 1, &cpu0, true);
  // the uploaded population's summary (evaluation kernel without evaluation, then the finish kernel)
  CHECK(gpu.initial.stats.best_objective == cpu0.stats.best_objective);
  CHECK(gpu.initial.stats.best_violation == cpu0.stats.best_violation);
  CHECK(gpu.initial.stats.feasible_fraction == cpu0.stats.feasible_fraction);
  CHECK(gpu.initial.stats.mean_objective == Approx(cpu0.stats.mean_objective).epsilon(1e-12));  // summation order
  CHECK(gpu.history.back().feasible_fraction == Approx(cpu.history().back().feasible_fraction).margin(0.01));
  std::vector<double> lo, hi;
  for (const auto v : p.bounds().lower) lo.push_back(double(v));
  for (const auto v : p.bounds().upper) hi.push_back(double(v));
  const bool f = sizeof(fusedga::gene_t<Problem>) == 4;
  host_population<Problem> elites_cpu = cpu1, elites_gpu = gpu.final;
  elites_cpu.n = elites_gpu.n = o.elitism;
  CHECK(bitwise_difference(elites_cpu, elites_gpu) == "");
  CHECK(tolerance_difference(cpu1, gpu.final, ranges_of(lo, hi), gene_tolerance(f),
                             value_tolerance(sizeof(fusedga::fitness_t<Problem>) == 4), o.elitism) == "");
  if (expect == real_parity::exact) CHECK(bitwise_difference(cpu1, gpu.final) == "");
  if (expect == real_parity::exact_genes) {
    host_population<Problem> genes_cpu = cpu1, genes_gpu = gpu.final;
    genes_gpu.objective = genes_cpu.objective;
    genes_gpu.violation = genes_cpu.violation;
    genes_gpu.rank_key = genes_cpu.rank_key;
    CHECK(bitwise_difference(genes_cpu, genes_gpu) == "");
  }
}

/**
 * Differential evolution: the GPU starts from the CPU's initial population and both run `generations` DE
 * generations. `exact`: the populations (trials and survivors), SHADE's memories and index and the archive
 * are bitwise the serial engine's (arithmetic-only problem, or the emulator: host math). Otherwise (a GPU's
 * libdevice math in the problem) the populations within the documented tolerance and the memories to 1e-9.
 */
template <class Run, class Problem>
std::uint64_t check_de_parity(Run run, const Problem& p, const fusedga::ga_options& o, int generations, bool exact,
                              bool graphs = true) {
  fusedga::engine<Problem, fusedga::backend::serial> cpu(p, o, fusedga::backend::serial{});
  cpu.initialize();
  const auto cpu0 = cpu_state(cpu);
  for (int g = 0; g < generations; ++g) cpu.step();
  const auto cpu_end = cpu_state(cpu);
  const gpu_run<Problem> gpu = run(p, o, generations, &cpu0, graphs);
  const auto& de = cpu.executor().de();
  const std::size_t d = static_cast<std::size_t>(p.dimension());
  const std::vector<fusedga::gene_t<Problem>> cpu_archive(de.archive.begin(),
                                                           de.archive.begin() + std::ptrdiff_t(de.archive_size * d));
  if (o.de.strategy == fusedga::de_strategy::shade)  // the scenarios exercise the memory update and a full archive
    CHECK(de.memory_F != std::vector<double>(de.memory_F.size(), 0.5));
  if (o.de.strategy != fusedga::de_strategy::rand_1_bin) CHECK(de.archive_size > 0);
  CHECK(gpu.evaluations == cpu.evaluations());  // the gradient repair's included
  if (exact) {
    CHECK(bitwise_difference(cpu_end, gpu.final) == "");
    CHECK(gpu.de_memory_F == de.memory_F);
    CHECK(gpu.de_memory_CR == de.memory_CR);
    CHECK(gpu.de_next_memory == de.next_memory);
    CHECK(gpu.de_archive == cpu_archive);
    // the last generation's statistics (the upload started the GPU's history and best-so-far afresh)
    CHECK(gpu.final.stats.best_objective == cpu_end.stats.best_objective);
    CHECK(gpu.final.stats.best_violation == cpu_end.stats.best_violation);
    CHECK(gpu.final.stats.feasible_fraction == cpu_end.stats.feasible_fraction);
    CHECK(gpu.final.stats.mean_objective == Approx(cpu_end.stats.mean_objective).epsilon(1e-12));
  } else {
    std::vector<double> lo, hi;
    for (const auto v : p.bounds().lower) lo.push_back(double(v));
    for (const auto v : p.bounds().upper) hi.push_back(double(v));
    CHECK(tolerance_difference(cpu_end, gpu.final, ranges_of(lo, hi), gene_tolerance(sizeof(fusedga::gene_t<Problem>) == 4),
                               value_tolerance(sizeof(fusedga::fitness_t<Problem>) == 4), 0) == "");
    REQUIRE(gpu.de_memory_F.size() == de.memory_F.size());
    for (std::size_t k = 0; k < de.memory_F.size(); ++k) {
      CHECK(gpu.de_memory_F[k] == Approx(de.memory_F[k]).epsilon(1e-9));
      CHECK(gpu.de_memory_CR[k] == Approx(de.memory_CR[k]).epsilon(1e-9));
    }
    CHECK(gpu.de_next_memory == de.next_memory);
    CHECK(gpu.de_archive.size() == cpu_archive.size());
  }
  return cpu.evaluations();
}

// --- the scenarios ---

/// Integer genes, thread per pair (20 genes): uniform crossover and reset, then two-point and creep with
/// 4-way tournaments and 7 elites. `both_launch_modes`: the first case also with direct launches.
template <class Run>
void thread_per_pair_parity(Run run, std::size_t population, bool both_launch_modes) {
  fusedga::ga_options o;
  o.population = population;
  o.crossover.kind = fusedga::crossover_kind::uniform;
  o.mutation.kind = fusedga::mutation_kind::uniform_reset;
  fusedga::problems::GeneSum<double> p;
  p.genes = 20;
  check_integer_parity(run, p, o);
  if (both_launch_modes) check_integer_parity(run, p, o, false);  // direct launches instead of the CUDA graph
  o.crossover.kind = fusedga::crossover_kind::two_point;
  o.mutation.kind = fusedga::mutation_kind::creep;
  o.selection.tournament_size = 4;
  o.elitism = 7;
  check_integer_parity(run, p, o);
}

/// Integer genes, warp per pair. GeneSum's separable objective: evaluation a warp per row and children summed on
/// the lanes, 1000 int8 genes (rows at two alignments) and 999 (at every alignment mod 16: every head and tail).
/// The same sum undeclared (plain_gene_sum): rows staged in shared memory (1000 genes), and 4000 genes (too long:
/// global memory).
template <class Run>
void warp_per_pair_parity(Run run, std::size_t population, std::size_t unstaged_population) {
  fusedga::ga_options o;
  o.population = population;
  o.crossover.kind = fusedga::crossover_kind::uniform;
  o.mutation.kind = fusedga::mutation_kind::uniform_reset;
  check_integer_parity(run, fusedga::problems::GeneSum<float>{}, o);
  fusedga::problems::GeneSum<double> odd;
  odd.genes = 999;
  check_integer_parity(run, odd, o);
  check_integer_parity(run, cuda_test::plain_gene_sum{}, o);
  cuda_test::plain_gene_sum wide;
  wide.genes = 4000;
  o.population = unstaged_population;
  check_integer_parity(run, wide, o);
}

/// Elitism above 8: the elites come from sorting all rank keys.
template <class Run>
void elite_sort_parity(Run run, std::size_t population) {
  fusedga::ga_options o;
  o.population = population;
  o.elitism = 40;
  o.crossover.kind = fusedga::crossover_kind::one_point;
  o.mutation.kind = fusedga::mutation_kind::uniform_reset;
  fusedga::problems::GeneSum<double> p;
  p.genes = 12;
  check_integer_parity(run, p, o);
}

/// Real genes: SBX and polynomial mutation on constrained-quadratic (double, float; exact; rows evaluated from
/// global memory), BLX-α and Gaussian mutation (tolerance), a 6-gene Rastrigin (48-byte rows: evaluation tiles
/// staged in shared memory) and a 64-gene one taking the warp-per-pair kernel (exact genes).
template <class Run>
void real_gene_parity(Run run, std::size_t population, std::size_t wide_population) {
  fusedga::ga_options o;
  o.population = population;
  check_real_parity(run, fusedga::problems::ConstrainedQuadratic<double>{}, o, real_parity::exact);
  check_real_parity(run, fusedga::problems::ConstrainedQuadratic<float>{}, o, real_parity::exact);
  o.crossover.kind = fusedga::crossover_kind::blx_alpha;
  o.mutation.kind = fusedga::mutation_kind::gaussian;  // double log/cos/sin: libm's on each backend
  check_real_parity(run, fusedga::problems::ConstrainedQuadratic<double>{}, o, real_parity::tolerance);
  o.crossover.kind = fusedga::crossover_kind::sbx;
  o.mutation.kind = fusedga::mutation_kind::polynomial;
  fusedga::problems::Rastrigin<double> staged;
  staged.dim = 6;
  check_real_parity(run, staged, o, real_parity::exact_genes);  // Rastrigin calls cos
  fusedga::problems::Rastrigin<double> wide;
  wide.dim = 64;
  o.population = wide_population;
  check_real_parity(run, wide, o, real_parity::exact_genes);
}

/**
 * Differential evolution against the serial engine over `generations` generations: DE/rand/1/bin,
 * current-to-pbest/1 with a full-size archive, SHADE with a small archive (filled early, so rows are
 * replaced at random) on constrained-quadratic in double and float, SHADE under a static penalty and under
 * the ε-constrained method (direct launches, re-keyed populations), and SHADE on a 64-gene Rastrigin.
 * SHADE's F and CR (tan, log, cos from core/double_math.hpp) are the same bits on every backend, so the
 * arithmetic problem's cases are exact everywhere; `exact_math`: the problem's own math functions (Rastrigin's
 * cos) agree bitwise too (the emulator's host math, not a GPU's libdevice).
 */
template <class Run>
void de_parity(Run run, std::size_t population, std::size_t wide_population, int generations, bool exact_math) {
  using CQd = fusedga::problems::ConstrainedQuadratic<double>;
  fusedga::ga_options o;
  o.population = population;
  o.generations = generations;
  o.algorithm = fusedga::algorithm_kind::de;
  {
    INFO("rand/1/bin");
    o.de.strategy = fusedga::de_strategy::rand_1_bin;
    check_de_parity(run, CQd{}, o, generations, true);
  }
  {
    INFO("current-to-pbest/1");
    o.de.strategy = fusedga::de_strategy::current_to_pbest_1;
    check_de_parity(run, CQd{}, o, generations, true);
  }
  o.de.strategy = fusedga::de_strategy::shade;
  o.de.archive = 0.05;
  {
    INFO("shade, double");
    check_de_parity(run, CQd{}, o, generations, true);
    check_de_parity(run, CQd{}, o, generations, true, false);  // direct launches
  }
  {
    INFO("shade, float");
    check_de_parity(run, fusedga::problems::ConstrainedQuadratic<float>{}, o, generations, true);
  }
  {
    INFO("shade, penalty");
    fusedga::ga_options q = o;
    q.constraints.rule = fusedga::constraint_rule::penalty;
    q.constraints.penalty_weight = 100;
    check_de_parity(run, CQd{}, q, generations, true);
  }
  {
    INFO("shade, epsilon");
    fusedga::ga_options q = o;
    q.constraints.rule = fusedga::constraint_rule::epsilon;
    check_de_parity(run, CQd{}, q, generations, true);
  }
  {
    INFO("shade, 64-gene Rastrigin");
    fusedga::problems::Rastrigin<double> wide;
    wide.dim = 64;
    o.population = wide_population;
    check_de_parity(run, wide, o, generations, exact_math);
  }
}

/**
 * εDEg: SHADE with the gradient repair of infeasible trials (rate 0.5, 3 Newton steps) against the serial engine
 * over `generations` generations — the repaired trials, survivors, memories, archive and the evaluation count
 * (the repair's included) — on sphere_line's equality and inequality by finite differences (double and float)
 * and by its exact Jacobian (also under the ε-constrained method), and on constrained-quadratic's own Jacobian.
 * Each case must have repaired something: more evaluations than N per generation.
 */
template <class Run>
void de_repair_parity(Run run, std::size_t population, int generations) {
  fusedga::ga_options o;
  o.population = population;
  o.generations = generations;
  o.algorithm = fusedga::algorithm_kind::de;
  o.de.strategy = fusedga::de_strategy::shade;
  o.constraints.gradient_repair.rate = 0.5;
  o.constraints.gradient_repair.iterations = 3;
  const std::uint64_t plain = population * static_cast<std::uint64_t>(generations + 1);
  {
    INFO("finite differences, double");
    CHECK(check_de_parity(run, sphere_line<double>{}, o, generations, true) > plain);
  }
  {
    INFO("finite differences, float");
    CHECK(check_de_parity(run, sphere_line<float>{}, o, generations, true) > plain);
  }
  {
    INFO("exact Jacobian");
    CHECK(check_de_parity(run, sphere_line_exact<double>{}, o, generations, true) > plain);
    CHECK(check_de_parity(run, sphere_line_exact<double>{}, o, generations, true, false) > plain);  // direct launches
  }
  {
    INFO("exact Jacobian, epsilon");
    fusedga::ga_options q = o;
    q.constraints.rule = fusedga::constraint_rule::epsilon;
    CHECK(check_de_parity(run, sphere_line_exact<double>{}, q, generations, true) > plain);
  }
  {
    INFO("constrained-quadratic's own Jacobian");
    CHECK(check_de_parity(run, fusedga::problems::ConstrainedQuadratic<double>{}, o, generations, true) > plain);
  }
}

/// A GA run of `generations` generations from the CPU's initial population: the final population and the
/// evaluation count bitwise the serial engine's (arithmetic-only variation and problem). Returns the count.
template <class Run, class Problem>
std::uint64_t check_ga_run_parity(Run run, const Problem& p, const fusedga::ga_options& o, int generations,
                                  bool graphs = true) {
  fusedga::engine<Problem, fusedga::backend::serial> cpu(p, o, fusedga::backend::serial{});
  cpu.initialize();
  const auto cpu0 = cpu_state(cpu);
  for (int g = 0; g < generations; ++g) cpu.step();
  const gpu_run<Problem> gpu = run(p, o, generations, &cpu0, graphs);
  CHECK(bitwise_difference(cpu_state(cpu), gpu.final) == "");
  CHECK(gpu.evaluations == cpu.evaluations());
  return cpu.evaluations();
}

/**
 * The GA's gradient repair of children (rate 0.5, 3 Newton steps) against the serial engine over `generations`
 * generations, with BLX-α and uniform reset (arithmetic only, so bitwise on a GPU too): sphere_line by finite
 * differences (double, float) and by its exact Jacobian (also with direct launches, under the ε-constrained
 * method and with (μ+λ) survival) in the thread-per-pair kernel (5 genes), and in the warp-per-pair kernel
 * with children staged in shared memory (40 genes) and in global memory (1,500 genes). Each case must have
 * repaired something: more evaluations than the children alone.
 */
template <class Run>
void ga_repair_parity(Run run, std::size_t population, std::size_t wide_population, int generations) {
  fusedga::ga_options o;
  o.population = population;
  o.generations = generations;
  o.algorithm = fusedga::algorithm_kind::ga;
  o.crossover.kind = fusedga::crossover_kind::blx_alpha;
  o.mutation.kind = fusedga::mutation_kind::uniform_reset;
  o.constraints.gradient_repair.rate = 0.5;
  o.constraints.gradient_repair.iterations = 3;
  const auto plain = [&](const fusedga::ga_options& q) {  // (μ+λ): N children a generation
    const std::size_t children =
        q.survival.kind == fusedga::survival_kind::plus ? q.population : q.population - q.elitism;
    return q.population + static_cast<std::uint64_t>(generations) * children;
  };
  {
    INFO("thread per pair, finite differences, double");
    CHECK(check_ga_run_parity(run, sphere_line<double>{}, o, generations) > plain(o));
  }
  {
    INFO("thread per pair, finite differences, float");
    CHECK(check_ga_run_parity(run, sphere_line<float>{}, o, generations) > plain(o));
  }
  {
    INFO("thread per pair, exact Jacobian");
    CHECK(check_ga_run_parity(run, sphere_line_exact<double>{}, o, generations) > plain(o));
    CHECK(check_ga_run_parity(run, sphere_line_exact<double>{}, o, generations, false) > plain(o));
  }
  {
    INFO("thread per pair, exact Jacobian, epsilon");
    fusedga::ga_options q = o;
    q.constraints.rule = fusedga::constraint_rule::epsilon;
    CHECK(check_ga_run_parity(run, sphere_line_exact<double>{}, q, generations) > plain(q));
  }
  {
    INFO("thread per pair, exact Jacobian, plus survival");
    fusedga::ga_options q = o;
    q.survival.kind = fusedga::survival_kind::plus;
    CHECK(check_ga_run_parity(run, sphere_line_exact<double>{}, q, generations) > plain(q));
  }
  fusedga::ga_options wide = o;
  wide.population = wide_population;
  {
    INFO("warp per pair, staged, exact Jacobian");
    CHECK(check_ga_run_parity(run, with_genes<sphere_line_exact<double>>(40), wide, generations) > plain(wide));
  }
  {
    INFO("warp per pair, global memory rows, finite differences");
    CHECK(check_ga_run_parity(run, with_genes<sphere_line<double>>(1500), wide, 1) >
          wide.population + (wide.population - wide.elitism));
  }
}

/// Integer variables among real genes (integer_cq.hpp): the device's initial population (each integer equally
/// likely) bitwise the CPU's, and its genes integral there after 3 GA generations; one GA generation (SBX and
/// polynomial mutation, then the rounding) and `generations` SHADE generations from the CPU's population,
/// bitwise the CPU's.
template <class Run>
void integer_variable_parity(Run run, std::size_t population, int generations) {
  fusedga::ga_options o;
  o.population = population;
  {
    fusedga::engine<integer_cq, fusedga::backend::serial> cpu(integer_cq{}, o, fusedga::backend::serial{});
    cpu.initialize();
    const gpu_run<integer_cq> gpu =
        run(integer_cq{}, o, 3, static_cast<const host_population<integer_cq>*>(nullptr), true);
    CHECK(bitwise_difference(cpu_state(cpu), gpu.initial) == "");
    int fractional = 0;
    for (std::size_t i = 0; i < gpu.final.n; ++i)
      for (int j : {0, 2}) fractional += std::floor(gpu.final.genes[i * 3 + j]) != gpu.final.genes[i * 3 + j];
    CHECK(fractional == 0);
  }
  check_real_parity(run, integer_cq{}, o, real_parity::exact);
  o.generations = generations;
  o.algorithm = fusedga::algorithm_kind::de;
  check_de_parity(run, integer_cq{}, o, generations, true);
}

}  // namespace cuda_test
