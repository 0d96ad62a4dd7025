// Problems with `evaluate_batch` (the form expression problems take) run
// through the same passes as per-individual problems: the same individuals are
// evaluated in the same layouts, so a batch version of a problem gives the
// bitwise identical run, on every backend, for short (staged) and long (row) genomes.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstring>
#include <vector>

#include <fusedga/fusedga.hpp>
#include <fusedga/problems/classic/sphere.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>

#include "engine/same_result.hpp"

using namespace fusedga;
using namespace engine_test;

namespace {

/// `Inner`'s evaluation behind the batch interface, with runtime strides, and
/// a count of the individuals it was asked to evaluate.
template <class Inner>
struct batched {
  using gene_type = gene_t<Inner>;
  using fitness_type = fitness_t<Inner>;
  static constexpr Sense sense = sense_of<Inner>();
  using G = gene_type;
  using F = fitness_type;

  Inner inner;
  std::size_t* evaluated;  // host counter (serial runs only)

  int dimension() const { return inner.dimension(); }
  Bounds<G> bounds() const { return inner.bounds(); }
  void evaluate_batch(const G* genes, std::ptrdiff_t lane_stride, std::ptrdiff_t gene_stride, int count, F eps,
                      F* objective, F* violation) const {
    struct view {
      const G* p;
      std::ptrdiff_t s;
      G operator[](int j) const { return p[j * s]; }
    };
    for (int l = 0; l < count; ++l) {
      const view x{genes + l * lane_stride, gene_stride};
      F v = 0;
      if constexpr (detail::has_inequalities<Inner>::value) {
        auto g = inequality_sink(&v);
        inner.inequalities(x, g);
      }
      (void)eps;
      objective[l] = static_cast<F>(inner.objective(x));
      violation[l] = v;
    }
    if (evaluated) *evaluated += static_cast<std::size_t>(count);
  }
};


}  // namespace

TEST_CASE("a batch-evaluated problem runs bitwise like its per-individual form (staged tiles)", "[engine][batch]") {
  static_assert(detail::has_batch_evaluation<batched<problems::ConstrainedQuadratic<double>>>::value);
  ga_options o;
  o.population = 5003;
  o.generations = 25;
  o.seed = 9;
  const problems::ConstrainedQuadratic<double> plain;
  std::size_t evaluated = 0;
  const batched<problems::ConstrainedQuadratic<double>> batch{plain, &evaluated};
  const Result want = solve(plain, o, backend::serial{});
  const Result got = solve(batch, o, backend::serial{});
  require_identical(want, got);
  // every child and the initial population went through evaluate_batch (plus padding lanes of partial tiles)
  CHECK(evaluated >= o.population + std::size_t(o.generations) * (o.population - o.elitism));
  const batched<problems::ConstrainedQuadratic<double>> uncounted{plain, nullptr};
  for (int threads : {1, 2, 4}) require_identical(want, solve(uncounted, o, backend::tbb{threads}));
}

TEST_CASE("a batch-evaluated problem runs bitwise like its per-individual form (row layout)", "[engine][batch]") {
  ga_options o;
  o.population = 1001;
  o.generations = 10;
  problems::Sphere<double> plain;
  plain.dim = 40;  // > kStagedGenes: children are varied and evaluated in place, by rows
  const batched<problems::Sphere<double>> batch{plain, nullptr};
  const Result want = solve(plain, o, backend::serial{});
  require_identical(want, solve(batch, o, backend::serial{}));
  require_identical(want, solve(batch, o, backend::tbb{2}));
}
