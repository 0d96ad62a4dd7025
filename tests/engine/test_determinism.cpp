// A run is a pure function of (problem, options, seed): bitwise identical for
// the serial backend and the TBB backend at any thread count.
#include <catch2/catch.hpp>

#include <cstring>

#include <fusedga/fusedga.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>
#include <fusedga/problems/seed/gene_sum.hpp>
#include <fusedga/problems/seed/trig_constrained.hpp>

#include "engine/same_result.hpp"

using namespace fusedga;
using namespace engine_test;

namespace {

template <class Problem>
void check_all_backends(const Problem& p, const ga_options& o) {
  const Result serial = solve(p, o, backend::serial{});
  for (int threads : {1, 2, 3, 4}) {
    INFO("tbb threads = " << threads);
    require_identical(serial, solve(p, o, backend::tbb{threads}));
  }
}

}  // namespace

TEST_CASE("serial and TBB at 1-4 threads give bitwise identical runs (real genes, staged tiles)", "[determinism]") {
  ga_options o;
  o.population = 5003;  // odd, not a multiple of the tile size
  o.generations = 30;
  o.seed = 7;
  check_all_backends(problems::ConstrainedQuadratic<double>{}, o);
  check_all_backends(problems::TrigConstrained<float>{}, o);
  o.crossover.kind = crossover_kind::blx_alpha;
  o.mutation.kind = mutation_kind::gaussian;
  o.selection.tournament_size = 3;
  o.elitism = 5;
  check_all_backends(problems::TrigConstrained<double>{}, o);
}

TEST_CASE("TBB at threads 0 runs in the caller's task arena: its limit kept, the run serial's", "[determinism]") {
  using P = problems::ConstrainedQuadratic<double>;
  ga_options o;
  o.population = 3001;
  o.generations = 10;
  const Result serial = solve(P{}, o, backend::serial{});
  ::tbb::task_arena one(1);
  one.execute([&] {
    CHECK(engine<P, backend::tbb>(P{}, o, backend::tbb{0}).threads() == 1);
    require_identical(serial, solve(P{}, o, backend::tbb{0}));
  });
  // Outside any arena of the caller's: all cores (oneTBB's default), as a fresh arena would have.
  CHECK(engine<P, backend::tbb>(P{}, o, backend::tbb{0}).threads() == ::tbb::info::default_concurrency());
  CHECK(engine<P, backend::tbb>(P{}, o, backend::tbb{1}).threads() == 1);
}

TEST_CASE("serial and TBB give bitwise identical runs (integer genes, row layout)", "[determinism]") {
  ga_options o;
  o.population = 1001;
  o.generations = 20;
  o.crossover.kind = crossover_kind::two_point;
  o.mutation.kind = mutation_kind::creep;
  problems::GeneSum<double> p;
  p.genes = 300;  // 300 bytes: longer than a staged tile, varied in place on rows
  check_all_backends(p, o);
  o.crossover.kind = crossover_kind::uniform;
  o.mutation.kind = mutation_kind::uniform_reset;
  p.genes = 40;  // staged
  check_all_backends(p, o);
}

// Same seed, same run and another seed, another run: on every backend in backends/test_engine_properties.cpp.
