// Population-batch problems (`evaluate_population`) on the CUDA executor, run by the kernel emulator: the offspring
// (or DE trial) kernel writes the rows, the executor makes one call over them with the device's own pointers, and
// the evaluation (or DE selection) kernel ranks the values — checked bitwise against the serial CPU engine's batch
// path with the parity checks of the GPU tests (parity_checks.hpp), and the calls' sizes and errors.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <vector>

#include "cuda/emulator/emulated_runtime.hpp"
#include "cuda/parity_checks.hpp"
#include "engine/as_population_batch.hpp"
#include "engine/handler_problems.hpp"

using namespace fusedga;
using namespace cuda_test;
using engine_test::batch_calls;
using engine_test::make_batch;

namespace {
const auto emulated = [](const auto& p, const ga_options& o, int generations, const auto* start, bool graphs) {
  return run_emulated(p, o, generations, start, graphs);
};
using CQd = problems::ConstrainedQuadratic<double>;

/// A separable objective that also evaluates whole populations: the call is its only evaluation on every backend,
/// so the CUDA kernels must not take the separable paths (warp-per-row evaluation, summing offspring lanes).
struct separable_batch : problems::GeneSum<double> {
  void evaluate_population(const gene_type*, std::size_t, double*, double*, double*) const;
};
static_assert(detail::has_population_evaluation<separable_batch>::value);
static_assert(!separable_objective_v<separable_batch>);
static_assert(separable_objective_v<problems::GeneSum<double>>);
}  // namespace

TEST_CASE("population-batch GA on CUDA: children, elites and values equal the CPU's batch path bitwise",
          "[cuda][batch]") {
  ga_options o;
  o.population = 301;
  o.elitism = 3;
  check_real_parity(emulated, make_batch(CQd{}), o, real_parity::exact);
  o.elitism = 40;  // elites by sorting the keys the evaluation kernel computed
  check_real_parity(emulated, make_batch(CQd{}), o, real_parity::exact);
  o.survival.kind = survival_kind::plus;  // (μ+λ): the children ranked before both key sorts
  check_real_parity(emulated, make_batch(CQd{}), o, real_parity::exact);
}

TEST_CASE("population-batch GA on CUDA: integer genes, long rows (warp per pair) bitwise the CPU's", "[cuda][batch]") {
  ga_options o;
  o.population = 67;
  o.crossover.kind = crossover_kind::uniform;
  o.mutation.kind = mutation_kind::uniform_reset;
  check_integer_parity(emulated, make_batch(plain_gene_sum{}), o);
}

TEST_CASE("population-batch GA on CUDA: int32 genes with constraints (batch integer genes) bitwise the CPU's",
          "[cuda][batch]") {
  ga_options o;  // the integer operators, as run_batch's auto picks for integer genes
  o.population = 301;
  o.elitism = 3;
  o.crossover.kind = crossover_kind::uniform;
  o.mutation.kind = mutation_kind::uniform_reset;
  check_integer_parity(emulated, make_batch(handler_test::IntegerConstrained{}), o);
  o.elitism = 40;
  o.survival.kind = survival_kind::plus;
  check_integer_parity(emulated, make_batch(handler_test::IntegerConstrained{}), o);
}

TEST_CASE("population-batch DE on CUDA: trials, selection, SHADE memories and archive bitwise the CPU's",
          "[cuda][batch][de]") {
  ga_options o;
  o.population = 301;
  o.algorithm = algorithm_kind::de;
  o.de.strategy = de_strategy::shade;
  o.de.archive = 0.05;
  check_de_parity(emulated, make_batch(CQd{}), o, 6, true);
  o.constraints.rule = constraint_rule::epsilon;  // a dynamic rule: keys from the handler's state
  check_de_parity(emulated, make_batch(CQd{}), o, 6, true);
}

TEST_CASE("population-batch on CUDA: one call per generation over the children, an error leaves the run",
          "[cuda][batch]") {
  ga_options o;
  o.population = 100;
  o.elitism = 4;
  batch_calls calls;
  {
    engine<engine_test::as_batch<CQd>, emulated_cuda> e(make_batch(CQd{}, &calls), o, emulated_cuda{});
    e.initialize();
    e.step();
    e.step();
  }
  CHECK(calls.sizes == std::vector<std::size_t>{100, 96, 96});  // N, then the N − E children
  calls = {};
  o.algorithm = algorithm_kind::de;
  {
    engine<engine_test::as_batch<CQd>, emulated_cuda> e(make_batch(CQd{}, &calls), o, emulated_cuda{});
    e.initialize();
    e.step();
  }
  CHECK(calls.sizes == std::vector<std::size_t>{100, 100});  // DE: every target's trial
  calls = {};
  calls.throw_at = 1;
  engine<engine_test::as_batch<CQd>, emulated_cuda> e(make_batch(CQd{}, &calls), o, emulated_cuda{});
  e.initialize();
  CHECK_THROWS_WITH(e.step(), "fitness failed at call 1");
}
