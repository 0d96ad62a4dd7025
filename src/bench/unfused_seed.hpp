#pragma once
/// @file unfused_seed.hpp
/// The "unfused vectorized" benchmark tier for the seed problems: evaluation
/// written the way the seed documents' NumPy code does it — one full pass over
/// the N individuals per arithmetic operation, each writing a freshly
/// allocated temporary array (NumPy allocates a new array per operation).
///
/// It exists only to be timed against the fused passes (DESIGN.md,
/// "Performance is measured, not assumed"); it is host-only, single-threaded
/// (NumPy's ufuncs are), and computes the same objective, violation and rank
/// key as the fused evaluation, operation for operation in the same order, so
/// the results agree to rounding (tests/report/test_bench.cpp checks 1e-9).
///
/// `unfused_evaluator<Problem>` is the trait that `bench_target_impl.hpp`
/// uses: `available` is false unless it is specialized below.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include <fusedga/problems/seed/constrained_quadratic.hpp>
#include <fusedga/problems/seed/gene_sum.hpp>
#include <fusedga/problems/seed/trig_constrained.hpp>

#include "fusedga/core/population.hpp"
#include "fusedga/core/problem_traits.hpp"
#include "fusedga/core/rank_key.hpp"
#include "fusedga/core/simd_math.hpp"
#include "fusedga/engine/options.hpp"

namespace fusedga {
namespace unfused {

/**
 * Freed temporaries of one thread, kept for the next array of the same byte
 * size. NumPy's arrays come from glibc's heap, which hands a freed block to
 * the next array of that size; a C++ program that frees and allocates
 * 0.8–7 MB blocks in turn instead gets each one freshly mmapped and
 * page-faulted (measured: the tier ran 7× slower than NumPy at N = 10^5 and
 * 3× at 9 × 10^5 until blocks were reused). Not shared between threads.
 */
class block_cache {
 public:
  static block_cache& local() {
    thread_local block_cache cache;
    return cache;
  }
  void* take(std::size_t bytes) {
    for (std::size_t i = blocks_.size(); i-- > 0;)  // the newest first
      if (blocks_[i].first == bytes) {
        void* p = blocks_[i].second;
        blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(i));  // keeps the age order
        return p;
      }
    return ::operator new(bytes);
  }
  void give(void* p, std::size_t bytes) noexcept {
    if (blocks_.size() == kMaxBlocks) {  // full: the oldest goes (a sweep's earlier N must not crowd out the next)
      ::operator delete(blocks_.front().second);
      blocks_.erase(blocks_.begin());
    }
    blocks_.emplace_back(bytes, p);  // never reallocates: capacity reserved
  }
  /// Whether a block of `bytes` is cached (for tests).
  bool holds(std::size_t bytes) const {
    for (const auto& b : blocks_)
      if (b.first == bytes) return true;
    return false;
  }
  ~block_cache() {
    for (const auto& b : blocks_) ::operator delete(b.second);
  }

 private:
  static constexpr std::size_t kMaxBlocks = 32;  // more than one evaluation's live temporaries
  block_cache() { blocks_.reserve(kMaxBlocks); }
  std::vector<std::pair<std::size_t, void*>> blocks_;
};

/// Allocator that leaves trivially constructible elements uninitialized, as
/// `np.empty` does (a temporary costs its allocation and the one pass that
/// writes it, not an extra zeroing pass), with blocks reused as NumPy's are
/// (block_cache).
template <class T>
struct uninitialized_allocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = uninitialized_allocator<U>;
  };
  uninitialized_allocator() = default;
  template <class U>
  uninitialized_allocator(const uninitialized_allocator<U>&) noexcept {}
  T* allocate(std::size_t n) { return static_cast<T*>(block_cache::local().take(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) noexcept { block_cache::local().give(p, n * sizeof(T)); }
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

/// A one-dimensional NumPy-like array: N contiguous elements on the heap.
template <class T>
using array = std::vector<T, uninitialized_allocator<T>>;

/// `out = op(a)` elementwise into a fresh array (one pass: read a, write out).
template <class R, class T, class Op>
array<R> map(const array<T>& a, Op op) {
  array<R> out(a.size());
  const T* FUSEDGA_RESTRICT pa = a.data();
  R* FUSEDGA_RESTRICT po = out.data();
  const std::size_t n = a.size();
  for (std::size_t i = 0; i < n; ++i) po[i] = op(pa[i]);
  return out;
}

/// `out = op(a, b)` elementwise into a fresh array (one pass: read a and b, write out).
template <class R, class T, class U, class Op>
array<R> zip(const array<T>& a, const array<U>& b, Op op) {
  array<R> out(a.size());
  const T* FUSEDGA_RESTRICT pa = a.data();
  const U* FUSEDGA_RESTRICT pb = b.data();
  R* FUSEDGA_RESTRICT po = out.data();
  const std::size_t n = a.size();
  for (std::size_t i = 0; i < n; ++i) po[i] = op(pa[i], pb[i]);
  return out;
}

// The NumPy operators used by the seed code, each one pass and one new array.
template <class T> array<T> mul(const array<T>& a, const array<T>& b) { return zip<T>(a, b, [](T u, T v) { return u * v; }); }
template <class T> array<T> add(const array<T>& a, const array<T>& b) { return zip<T>(a, b, [](T u, T v) { return u + v; }); }
template <class T> array<T> sub(const array<T>& a, const array<T>& b) { return zip<T>(a, b, [](T u, T v) { return u - v; }); }
/// `c * a` (a Python scalar times an array).
template <class T> array<T> scale(T c, const array<T>& a) { return map<T>(a, [c](T u) { return c * u; }); }
/// `c - a`.
template <class T> array<T> rsub(T c, const array<T>& a) { return map<T>(a, [c](T u) { return c - u; }); }
/// `a - c`.
template <class T> array<T> sub(const array<T>& a, T c) { return map<T>(a, [c](T u) { return u - c; }); }
/// `np.maximum(a, 0)`.
template <class T> array<T> positive_part(const array<T>& a) { return map<T>(a, [](T u) { return u > T(0) ? u : T(0); }); }
/// `np.sin(a)` (GCC vectorizes it through libmvec, as NumPy's SIMD loops do).
template <class T> array<T> sin(const array<T>& a) { return map<T>(a, [](T u) { return std::sin(u); }); }
/// `np.cos(a)`.
template <class T> array<T> cos(const array<T>& a) { return map<T>(a, [](T u) { return std::cos(u); }); }
/// `a.astype(R)`; a move when the type already matches.
template <class R, class T>
array<R> astype(array<T>&& a) {
  if constexpr (std::is_same_v<R, T>) return std::move(a);
  else return map<R>(a, [](T u) { return static_cast<R>(u); });
}
/// `np.zeros(n, dtype=T)`.
template <class T>
array<T> zeros(std::size_t n) {
  array<T> out(n);
  std::fill(out.begin(), out.end(), T(0));
  return out;
}

/// `pop[:, j].copy()`: gene j of every individual as a contiguous array (one strided pass over the genes).
template <class G, class F>
array<G> column(const population_view<G, F>& pop, int j) {
  array<G> out(pop.size);
  const G* FUSEDGA_RESTRICT genes = pop.genes + j;
  G* FUSEDGA_RESTRICT po = out.data();
  const std::size_t d = static_cast<std::size_t>(pop.dimension);
  for (std::size_t i = 0; i < pop.size; ++i) po[i] = genes[i * d];
  return out;
}

/// `s + pop[:, j]` (casting each gene to S inside the pass, as a NumPy ufunc
/// does), into a fresh array: one pass reading s and the strided column j.
template <class S, class G, class F>
array<S> add_column(const array<S>& s, const population_view<G, F>& pop, int j) {
  array<S> out(pop.size);
  const S* FUSEDGA_RESTRICT ps = s.data();
  const G* FUSEDGA_RESTRICT genes = pop.genes + j;
  S* FUSEDGA_RESTRICT po = out.data();
  const std::size_t d = static_cast<std::size_t>(pop.dimension);
  for (std::size_t i = 0; i < pop.size; ++i) po[i] = ps[i] + static_cast<S>(genes[i * d]);
  return out;
}

}  // namespace unfused

/**
 * Objective, total violation and rank key of N individuals, each array
 * freshly allocated by the unfused evaluation (N entries; objective in the
 * problem's sign, violation >= 0, key as in `make_rank_key`).
 */
template <class Fitness>
struct unfused_result {
  unfused::array<Fitness> objective;
  unfused::array<Fitness> violation;
  unfused::array<rank_key_t<Fitness>> rank_key;
};

namespace detail {
/// Rank keys of whole arrays: the last unfused pass (`np.where(...)` in the NumPy code).
template <class Problem, class F>
unfused::array<rank_key_t<F>> unfused_rank_keys(const unfused::array<F>& objective, const unfused::array<F>& violation,
                                                const constraint_options& c) {
  const constraint_rule rule = c.rule;
  const F weight = static_cast<F>(c.penalty_weight);
  return unfused::zip<rank_key_t<F>>(objective, violation, [rule, weight](F o, F v) {
    return make_rank_key(o, v, sense_of<Problem>(), rule, weight);
  });
}

/// The result arrays: objective cast to the fitness type, violation, then the rank-key pass.
template <class Problem, class F, class R>
unfused_result<F> unfused_finish(unfused::array<R>&& objective, unfused::array<F>&& violation, const constraint_options& c) {
  unfused_result<F> r;
  r.objective = unfused::astype<F>(std::move(objective));
  r.violation = std::move(violation);
  r.rank_key = unfused_rank_keys<Problem>(r.objective, r.violation, c);
  return r;
}
}  // namespace detail

/**
 * Trait: the unfused (NumPy-style) evaluation of `Problem`, if any.
 *
 * A specialization sets `available = true` and provides
 * `static unfused_result<fitness_t<Problem>> evaluate(const Problem&, const population_view<gene, fitness>&, const constraint_options&)`,
 * which reads the N × d genes of the view and writes nothing into it.
 */
template <class Problem>
struct unfused_evaluator {
  static constexpr bool available = false;
};

/**
 * Seed example 2, as NumPy evaluates `x*x + 2*y*y + 3*z*z + 4*x*y - 5*y*z`:
 * 3 column copies, then 13 passes for the objective, 8 for the two
 * constraints and their total violation, 1 for the rank key; 25 arrays of N
 * allocated per call. Cost O(25·N) time, peak memory about 25·N·sizeof(Real).
 */
template <class Real>
struct unfused_evaluator<problems::ConstrainedQuadratic<Real>> {
  static constexpr bool available = true;
  using problem_type = problems::ConstrainedQuadratic<Real>;
  using F = fitness_t<problem_type>;

  static unfused_result<F> evaluate(const problem_type&, const population_view<Real, F>& pop,
                                    const constraint_options& c) {
    using namespace unfused;
    // x, y, z = pop[:, 0], pop[:, 1], pop[:, 2]
    const array<Real> x = column(pop, 0), y = column(pop, 1), z = column(pop, 2);
    // f = x*x + 2*y*y + 3*z*z + 4*x*y - 5*y*z   (Python's left-to-right order)
    array<Real> f;
    {
      const auto t1 = mul(x, x);
      const auto t2 = mul(scale(Real(2), y), y);
      const auto t3 = add(t1, t2);
      const auto t4 = mul(scale(Real(3), z), z);
      const auto t5 = add(t3, t4);
      const auto t6 = mul(scale(Real(4), x), y);
      const auto t7 = add(t5, t6);
      const auto t8 = mul(scale(Real(5), y), z);
      f = sub(t7, t8);
    }
    // g0 = 3 - (x + y + z); g1 = x*x + z*z - 10; v = np.maximum(g0, 0) + np.maximum(g1, 0)
    array<F> v;
    {
      const auto g0 = rsub(Real(3), add(add(x, y), z));
      const auto g1 = sub(add(mul(x, x), mul(z, z)), Real(10));
      v = add(astype<F>(positive_part(g0)), astype<F>(positive_part(g1)));
    }
    return detail::unfused_finish<problem_type>(std::move(f), std::move(v), c);
  }
};

/**
 * Seed example 3, as NumPy evaluates `np.sin(x) + x*x - 2*np.cos(y) + y*y + z*z`
 * with constraints `1 - (x + z)` and `0.5 - (np.cos(y) + z)` (cos recomputed,
 * as the expression is written): 3 column copies, 9 passes for the objective,
 * 8 for the constraints and violation, 1 for the rank key.
 */
template <class Real>
struct unfused_evaluator<problems::TrigConstrained<Real>> {
  static constexpr bool available = true;
  using problem_type = problems::TrigConstrained<Real>;
  using F = fitness_t<problem_type>;

  static unfused_result<F> evaluate(const problem_type&, const population_view<Real, F>& pop,
                                    const constraint_options& c) {
    using namespace unfused;
    const array<Real> x = column(pop, 0), y = column(pop, 1), z = column(pop, 2);
    array<Real> f;
    {
      const auto t1 = add(sin(x), mul(x, x));
      const auto t2 = sub(t1, scale(Real(2), cos(y)));
      const auto t3 = add(t2, mul(y, y));
      f = add(t3, mul(z, z));
    }
    array<F> v;
    {
      const auto g0 = rsub(Real(1), add(x, z));
      const auto g1 = rsub(Real(0.5), add(cos(y), z));
      v = add(astype<F>(positive_part(g0)), astype<F>(positive_part(g1)));
    }
    return detail::unfused_finish<problem_type>(std::move(f), std::move(v), c);
  }
};

/**
 * Seed example 1 (sum of int8 genes), as the seed's NumPy code accumulates it
 * column by column: `s = np.zeros(N, np.int64); for j in range(d): s = s + pop[:, j]`.
 * d passes, each reading s and one strided gene column (one cache line per
 * individual when d·1 byte >= 64) and writing a fresh int64 array, then
 * `s.astype(fitness)`, `np.zeros` for the violation and the rank key pass.
 * Cost O(d·N) time with d·N·8 bytes of temporaries written; peak memory 2·N·8 bytes.
 */
template <class Fitness>
struct unfused_evaluator<problems::GeneSum<Fitness>> {
  static constexpr bool available = true;
  using problem_type = problems::GeneSum<Fitness>;
  using F = fitness_t<problem_type>;

  static unfused_result<F> evaluate(const problem_type& p, const population_view<std::int8_t, F>& pop,
                                    const constraint_options& c) {
    using namespace unfused;
    array<std::int64_t> s = zeros<std::int64_t>(pop.size);
    for (int j = 0; j < p.genes; ++j) s = add_column(s, pop, j);
    return detail::unfused_finish<problem_type>(std::move(s), zeros<F>(pop.size), c);
  }
};

}  // namespace fusedga
