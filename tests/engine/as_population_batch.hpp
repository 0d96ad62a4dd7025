#pragma once
// A per-individual problem behind the population-batch interface (`evaluate_population`, problem_traits.hpp):
// objective and raw constraint values of every row, in the rows' order, recorded by index. For the tests that
// check that both evaluation paths give bitwise the same run.

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include <fusedga/core/bounds.hpp>
#include <fusedga/core/constraint_sink.hpp>
#include <fusedga/core/gene_view.hpp>
#include <fusedga/core/problem_traits.hpp>

namespace engine_test {

/// What the engine asked of an as_batch problem: the n of every evaluate_population call, in order; with
/// `throw_at` >= 0, that call (0-based) throws std::runtime_error("fitness failed at call K").
struct batch_calls {
  std::vector<std::size_t> sizes;
  int throw_at = -1;
};

template <class Inner>
struct as_batch {
  using gene_type = fusedga::gene_t<Inner>;
  using fitness_type = fusedga::fitness_t<Inner>;
  static constexpr fusedga::Sense sense = fusedga::sense_of<Inner>();

  Inner inner;
  batch_calls* calls = nullptr;  // not owned; may be null

  int dimension() const { return inner.dimension(); }
  fusedga::Bounds<gene_type> bounds() const { return inner.bounds(); }
  int inequality_count() const { return fusedga::inequality_count(inner); }
  int equality_count() const { return fusedga::equality_count(inner); }

  void evaluate_population(const gene_type* genes, std::size_t n, fitness_type* objective, fitness_type* g,
                           fitness_type* h) const {
    if (calls) {
      if (calls->throw_at == static_cast<int>(calls->sizes.size()))
        throw std::runtime_error("fitness failed at call " + std::to_string(calls->sizes.size()));
      calls->sizes.push_back(n);
    }
    const std::size_t d = static_cast<std::size_t>(dimension());
    const std::size_t m = static_cast<std::size_t>(inequality_count());
    const std::size_t p = static_cast<std::size_t>(equality_count());
    fitness_type spill = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const fusedga::gene_view<gene_type, 1> x{genes + i * d};
      objective[i] = static_cast<fitness_type>(inner.objective(x));
      if constexpr (fusedga::detail::has_inequalities<Inner>::value) {
        fusedga::recording_sink<fitness_type> sink{g + i * m, static_cast<int>(m), &spill};
        inner.inequalities(x, sink);
      }
      if constexpr (fusedga::detail::has_equalities<Inner>::value) {
        fusedga::recording_sink<fitness_type> sink{h + i * p, static_cast<int>(p), &spill};
        inner.equalities(x, sink);
      }
    }
    (void)g, (void)h, (void)m, (void)p;
  }
};

template <class Inner>
as_batch<Inner> make_batch(const Inner& inner, batch_calls* calls = nullptr) {
  return as_batch<Inner>{inner, calls};
}

}  // namespace engine_test
